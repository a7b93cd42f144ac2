// Keys functions (plinth_keys_fn) for the usual shapes of a command's keys that
// first_key..last_key cannot say: a numkeys argument, a destination and sources with different
// access, one special argument. Each takes any argc and never reads past it, so a malformed
// call gets the keys it has. Use them in a CommandDef's `keys`:
//   {"zunionstore", -4, ..., .keys = sdk::DestAndNumkeys<PLINTH_KEY_WRITE, PLINTH_KEY_READ>}
// Header-only, C++17. THREAD: main (as every keys function).
#ifndef PLINTH_KEYS_HPP
#define PLINTH_KEYS_HPP

#include <plinth/plugin.h>

#include <cstddef>
#include <cstdint>
#include <plinth/text.hpp>
#include <string_view>

// Every SDK symbol stays inside the plugin that includes this, whatever visibility the
// plugin is built with: two plugins never share one (Host::api above all).
#pragma GCC visibility push(hidden)
namespace plinth::sdk {

using KeysArgv = const char* const*;

// argv[numkeys_at] counts the keys after it, each with flags; dest > 0 puts argv[dest] first
// with dest_flags. Returns how many refs it wrote to out.
inline int32_t NumkeysKeys(int32_t numkeys_at, uint32_t flags, int32_t dest, uint32_t dest_flags,
                           int32_t argc, KeysArgv argv, const size_t* argvlen,
                           plinth_key_ref_t* out) {
  int32_t n = 0;
  if (dest > 0 && dest < argc) out[n++] = {dest, dest_flags};
  int64_t numkeys = 0;
  if (numkeys_at >= argc ||
      !text::ParseInt64(std::string_view(argv[numkeys_at], argvlen[numkeys_at]), &numkeys) ||
      numkeys <= 0)
    return n;
  // i - numkeys_at, not numkeys_at + numkeys: a numkeys near INT64_MAX must not overflow.
  for (int64_t i = numkeys_at + 1; i - numkeys_at <= numkeys && i < argc; ++i)
    out[n++] = {static_cast<int32_t>(i), flags};
  return n;
}

// argv[first] with first_flags, then every later argument up to argc - 1 - tail with
// rest_flags. Returns how many refs it wrote to out.
inline int32_t FirstAndRestKeys(int32_t first, uint32_t first_flags, uint32_t rest_flags,
                                int32_t tail, int32_t argc, plinth_key_ref_t* out) {
  int32_t n = 0;
  for (int32_t i = first; i < argc - tail; ++i)
    out[n++] = {i, i == first ? first_flags : rest_flags};
  return n;
}

// Keys after the numkeys argument argv[At] (EVAL, ZUNION, LMPOP...).
template <int32_t At, uint32_t Flags>
int32_t KeysAfterNumkeys(int32_t argc, KeysArgv argv, const size_t* argvlen,
                         plinth_key_ref_t* out) {
  return NumkeysKeys(At, Flags, 0, 0, argc, argv, argvlen, out);
}

// A destination at argv[1] (DestFlags), then the keys after the numkeys argument argv[2]
// (ZUNIONSTORE, ZINTERSTORE, ZDIFFSTORE).
template <uint32_t DestFlags, uint32_t Flags>
int32_t DestAndNumkeys(int32_t argc, KeysArgv argv, const size_t* argvlen, plinth_key_ref_t* out) {
  return NumkeysKeys(2, Flags, 1, DestFlags, argc, argv, argvlen, out);
}

// argv[At] with FirstFlags, every later argument with RestFlags (SUNIONSTORE, BITOP; SUBSCRIBE
// with both the same), leaving out the last Tail arguments (BLPOP's timeout).
template <int32_t At, uint32_t FirstFlags, uint32_t RestFlags, int32_t Tail = 0>
int32_t FirstAndRest(int32_t argc, KeysArgv, const size_t*, plinth_key_ref_t* out) {
  return FirstAndRestKeys(At, FirstFlags, RestFlags, Tail, argc, out);
}

// argv[1] with Flags1 and argv[2] with Flags2 (RENAME, COPY, LMOVE, SMOVE, ZRANGESTORE).
template <uint32_t Flags1, uint32_t Flags2>
int32_t TwoKeys(int32_t argc, KeysArgv, const size_t*, plinth_key_ref_t* out) {
  int32_t n = 0;
  if (argc > 1) out[n++] = {1, Flags1};
  if (argc > 2) out[n++] = {2, Flags2};
  return n;
}

// The one argument argv[At] with Flags (TYPE's key that is neither read nor written, PUBLISH's
// channel, OBJECT ENCODING's key).
template <int32_t At, uint32_t Flags>
int32_t OneKey(int32_t argc, KeysArgv, const size_t*, plinth_key_ref_t* out) {
  if (argc <= At) return 0;
  out[0] = {At, Flags};
  return 1;
}

}  // namespace plinth::sdk
#pragma GCC visibility pop

#endif  // PLINTH_KEYS_HPP
