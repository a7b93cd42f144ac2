// A "bag" value type written against the raw C ABI, for the fake host's tests of the
// value-type extension point and the blocking API: a bag is a list of strings.
//   BAG.ADD key member...   appends (creating the key); replies the new length
//   BAG.LEN key             the length (0 when missing), WRONGTYPE for another type
//   BAG.COPY src dst        key_move with PLINTH_MOVE_COPY (the value is shared)
//   BAG.POP key timeout_ms  pops the last member, or blocks until one arrives (null on timeout)
//   BAG.ENC key             value_encoding_name ("small" up to 4 members, then "big")
//   BAG.UNLINK key          key_unlink
// Main thread (tests).
#ifndef PLINTH_TESTS_SDK_BAG_PLUGIN_H
#define PLINTH_TESTS_SDK_BAG_PLUGIN_H

#include <plinth/plugin.h>

#include <atomic>

namespace plinth::bagtest {

// The descriptor of the "bag" plugin.
const plinth_plugin_descriptor_t* Descriptor();
// Bags copied (copy callback) and freed (free_payload) so far.
int& CopiesForTest();
std::atomic<int>& FreedForTest();
// While set, freeing a bag waits until it is cleared (to see where UNLINK frees).
std::atomic<bool>& HoldFreesForTest();

}  // namespace plinth::bagtest

#endif  // PLINTH_TESTS_SDK_BAG_PLUGIN_H
