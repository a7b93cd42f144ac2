// Helpers the string and bitmap command handlers share: typed key lookup (WRONGTYPE), storing
// strings, the proto-max-bulk-len limit and rewritten propagation. Main thread only (they run
// inside command handlers).
#ifndef PLINTH_STRINGS_STRING_VALUES_H
#define PLINTH_STRINGS_STRING_VALUES_H

#include <cstdint>
#include <plinth/plugin.hpp>
#include <string_view>
#include <vector>

namespace plinth::strings {

using sdk::Call;

// Looks key up. Returns true with *value set (nullptr when the key is missing) when the key is
// missing or holds a string; replies WRONGTYPE and returns false when it holds another type.
// *value is borrowed until the key changes or the handler returns.
bool LookupString(const Call& c, std::string_view key, const plinth_value_t** value);

// The bytes of a string value (empty for nullptr).
std::string_view Bytes(const plinth_value_t* value);

// Makes the string under key (created empty when missing) len bytes long in place, zero-filling
// growth and keeping the TTL, and returns its bytes for the caller to patch. Throws
// std::bad_alloc when the host cannot grow it. Only after LookupString said it is a string.
char* ResizeString(const Call& c, std::string_view key, size_t len);

// The longest string the host stores (its lengths are 32-bit). A larger proto-max-bulk-len
// would only turn SETRANGE, APPEND or SETBIT into a failed allocation, so the limit the
// commands check stops here and they answer Redis's "exceeds maximum allowed size" instead.
inline constexpr int64_t kMaxStoredString = int64_t{4294967294};
// The proto-max-bulk-len option capped at kMaxStoredString: the largest string a command may
// build (512 MiB default).
int64_t MaxBulkLen();
// Looks up the options MaxBulkLen reads. Init only.
void FindOptions();

// Replaces the verbatim propagation of the call with "command args..." (args exclude the
// command name). With validate, the host checks that command exists with a fitting arity and
// returns false (nothing emitted, the verbatim command propagates) when it does not; without,
// nothing is checked (use it for this plugin's own commands).
bool Propagate(const Call& c, const char* command, const std::vector<std::string_view>& args,
               bool validate);

}  // namespace plinth::strings

#endif  // PLINTH_STRINGS_STRING_VALUES_H
