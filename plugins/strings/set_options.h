// Option parsing for SET and GETEX (NX, XX, GET, KEEPTTL, PERSIST, EX, PX, EXAT, PXAT) with
// Redis 7.0's acceptance rules, and conversion of the expire argument to an absolute time.
// Pure functions; any thread.
#ifndef PLINTH_STRINGS_SET_OPTIONS_H
#define PLINTH_STRINGS_SET_OPTIONS_H

#include <cstdint>
#include <string_view>
#include <vector>

namespace plinth::strings {

// Which command's options are parsed: SET takes NX XX GET KEEPTTL, GETEX takes PERSIST; both
// take EX PX EXAT PXAT.
enum class OptionsFor { kSet, kGetEx };

enum class ExpireKind { kNone, kEx, kPx, kExAt, kPxAt };

struct SetOptions {
  bool nx = false;
  bool xx = false;
  bool get = false;
  bool keepttl = false;
  bool persist = false;
  ExpireKind expire = ExpireKind::kNone;
  std::string_view expire_arg;  // the argument after EX/PX/EXAT/PXAT (borrowed)
};

// Parses the options args (SET's arguments after the value, GETEX's after the key). Options
// are case-insensitive; a repeated option is allowed (the last expire wins), conflicting ones
// (NX with XX, KEEPTTL or PERSIST with an expire, two different expire kinds) or an expire
// without its argument are a syntax error. Returns false on a syntax error ("ERR syntax
// error"); *out is then unspecified.
bool ParseSetOptions(const std::vector<std::string_view>& args, OptionsFor command,
                     SetOptions* out);

// True when arg is SET's GET option (any case), as Redis strips it from the propagated SET.
bool IsGetOption(std::string_view arg);

enum class ExpireStatus {
  kOk,
  kNotInteger,  // errors::kNotInteger
  kInvalid,     // "ERR invalid expire time in '<command>' command"
};

// Converts an expire argument of kind (not kNone) to an absolute unix time in ms: EX/PX are
// relative to now_ms, EXAT/PXAT absolute. A value <= 0, one that overflows, or a resulting
// time <= 0 is kInvalid, as in Redis.
ExpireStatus ResolveExpire(ExpireKind kind, std::string_view arg, int64_t now_ms, int64_t* when_ms);

}  // namespace plinth::strings

#endif  // PLINTH_STRINGS_SET_OPTIONS_H
