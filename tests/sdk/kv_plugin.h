// A small key/value plugin written against the raw C ABI, used by the fake host's tests:
// SET/GET/DEL/PEXPIREAT/SELECT/INCRBY-like commands, replies of every shape, an option, an
// INFO section, a stream consumer and a value type. Main thread (tests).
#ifndef PLINTH_TESTS_SDK_KV_PLUGIN_H
#define PLINTH_TESTS_SDK_KV_PLUGIN_H

#include <plinth/plugin.h>

#include <string>
#include <vector>

namespace plinth::kvtest {

// The descriptor of the "kv" plugin.
const plinth_plugin_descriptor_t* Descriptor();
// The stream batches the consumer saw (their RESP bytes), in order.
std::vector<std::string>& ConsumedForTest();
// Payloads of the "box" value type freed so far.
int& FreedBoxesForTest();
// The values the option apply callback saw.
std::vector<std::string>& AppliedForTest();

}  // namespace plinth::kvtest

#endif  // PLINTH_TESTS_SDK_KV_PLUGIN_H
