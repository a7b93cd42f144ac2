// How the hash commands reach a key's hash: for reading (WRONGTYPE replied here), for writing
// (created when missing, made writable through key_payload_mut), keyspace events, errors and
// propagation helpers. Main thread only.
#ifndef PLINTH_HASH_ACCESS_H
#define PLINTH_HASH_ACCESS_H

#include <plinth/errors.hpp>
#include <plinth/plugin.hpp>
#include <string_view>

#include "hash/hash_value.h"

namespace plinth::hash {

using sdk::Call;

inline constexpr std::string_view kErrHashNotInteger = "ERR hash value is not an integer";
inline constexpr std::string_view kErrHashNotFloat = "ERR hash value is not a float";
inline constexpr std::string_view kErrNanOrInfArg = "ERR value is NaN or Infinity";

// The hash under key into *out (nullptr when the key is missing). Replies WRONGTYPE and
// returns false when the key holds another type.
bool ReadHash(const Call& c, std::string_view key, const Hash** out);

// The writable hash under key, created (empty, stored under key) when missing. Replies
// WRONGTYPE and returns nullptr when the key holds another type. Call it only when the command
// will change the hash: it counts as a change (WATCH, propagation). Throws std::bad_alloc.
Hash* WriteHash(const Call& c, std::string_view key);

// After a write emptied h: deletes key and raises "del", as Redis does for an empty hash.
void DeleteIfEmpty(const Call& c, std::string_view key, const Hash* h);

// Raises keyspace event name (class hash) on key.
void Notify(const Call& c, const char* name, std::string_view key);

// Replaces the verbatim propagation with command args. Returns false when the host refused.
bool Propagate(const Call& c, const char* command, std::initializer_list<std::string_view> args);

// The client's protocol version (2 or 3).
int Protocol(const Call& c);

}  // namespace plinth::hash

#endif  // PLINTH_HASH_ACCESS_H
