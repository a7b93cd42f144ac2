// What every set command does around its logic: finds a key's set (or the WRONGTYPE error),
// gets it writable, stores a new set, deletes an emptied one, raises keyspace events, rewrites
// propagation, and draws random numbers. THREAD: main (command handlers).
#ifndef PLINTH_SET_ACCESS_H
#define PLINTH_SET_ACCESS_H

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <plinth/errors.hpp>
#include <plinth/plugin.hpp>
#include <string_view>

#include "set/set_value.h"

namespace plinth::set {

using sdk::Call;

// The set under key for reading, or nullptr when the key is missing (*wrongtype false) or
// holds another type (*wrongtype true). Borrowed until the key is modified.
const SetValue* ReadSet(const Call& c, std::string_view key, bool* wrongtype);
// The set under key made writable (copied first when shared; counts as a change). The key must
// hold a set. Throws std::bad_alloc when the copy failed.
SetValue* WriteSet(const Call& c, std::string_view key);
// Stores set under key, replacing any value and its TTL.
void StoreSet(const Call& c, std::string_view key, std::unique_ptr<SetValue> set);
// Deletes key and raises "del" (generic), as Redis does when a command empties a set.
void DeleteEmptied(const Call& c, std::string_view key);
// Raises a set-class keyspace event ("sadd", "srem", ...) on key.
void SetEvent(const Call& c, const char* event, std::string_view key);
// Propagates command args in place of the verbatim command (no validation: trusted names).
void Replicate(const Call& c, const char* command, std::initializer_list<std::string_view> args);
// A uniform random number in [0, n), n > 0. Main thread.
uint64_t RandomBelow(uint64_t n);

}  // namespace plinth::set

#endif  // PLINTH_SET_ACCESS_H
