// Keys functions (plinth_keys_fn) of particular commands whose keys and channels
// first_key..last_key cannot say (SET's GET option, SORT's STORE, XREAD's STREAMS...). Each takes
// any argc and never reads past it: a malformed call gets the keys it has. Shared by the
// bundled plugins' command tables. Pure; main thread.
#ifndef PLINTH_COMMON_ACL_KEYS_H
#define PLINTH_COMMON_ACL_KEYS_H

#include <plinth/plugin.h>

#include <cstddef>
#include <cstdint>
#include <plinth/keys.hpp>

namespace plinth::common {

using sdk::KeysArgv;
// The generic shapes live in the SDK (<plinth/keys.hpp>) for every plugin; the bundled
// non-type plugins name them through here.
using sdk::DestAndNumkeys;
using sdk::FirstAndRest;
using sdk::KeysAfterNumkeys;
using sdk::OneKey;
using sdk::TwoKeys;

// SET: its key is written, and read too with the GET option.
int32_t SetKeys(int32_t argc, KeysArgv argv, const size_t* argvlen, plinth_key_ref_t* out);
// BITFIELD: its key is read, and written too unless every operation is a GET.
int32_t BitfieldKeys(int32_t argc, KeysArgv argv, const size_t* argvlen, plinth_key_ref_t* out);
// SORT / SORT_RO: the key read, and a STORE destination written.
int32_t SortKeys(int32_t argc, KeysArgv argv, const size_t* argvlen, plinth_key_ref_t* out);
// XREAD / XREADGROUP: the first half of the arguments after STREAMS, read.
int32_t StreamsKeys(int32_t argc, KeysArgv argv, const size_t* argvlen, plinth_key_ref_t* out);
// GEORADIUS / GEORADIUSBYMEMBER: the key read, a STORE or STOREDIST destination written.
int32_t GeoRadiusKeys(int32_t argc, KeysArgv argv, const size_t* argvlen, plinth_key_ref_t* out);
// MIGRATE: argv[3], or the arguments after KEYS when argv[3] is empty; read and written.
int32_t MigrateKeys(int32_t argc, KeysArgv argv, const size_t* argvlen, plinth_key_ref_t* out);

}  // namespace plinth::common

#endif  // PLINTH_COMMON_ACL_KEYS_H
