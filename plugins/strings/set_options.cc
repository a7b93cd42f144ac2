// SET / GETEX option parsing (see set_options.h). The acceptance rules mirror Redis 7.0's
// parseExtendedStringArgumentsOrReply, option by option.
#include "strings/set_options.h"

#include <plinth/text.hpp>

#include "strings/number.h"
#include "strings/token.h"

namespace plinth::strings {

bool ParseSetOptions(const std::vector<std::string_view>& args, OptionsFor command,
                     SetOptions* out) {
  *out = SetOptions{};
  const bool set = command == OptionsFor::kSet;
  for (size_t j = 0; j < args.size(); ++j) {
    std::string_view opt = args[j];
    const bool has_next = j + 1 < args.size();
    const ExpireKind expire = out->expire;
    // An expire option may repeat itself but not follow another kind, KEEPTTL or PERSIST.
    auto expire_ok = [&](ExpireKind kind) {
      return has_next && !out->keepttl && !out->persist &&
             (expire == ExpireKind::kNone || expire == kind);
    };
    ExpireKind kind = ExpireKind::kNone;
    if (IsToken(opt, "NX") && set && !out->xx) {
      out->nx = true;
    } else if (IsToken(opt, "XX") && set && !out->nx) {
      out->xx = true;
    } else if (IsToken(opt, "GET") && set) {
      out->get = true;
    } else if (IsToken(opt, "KEEPTTL") && set && !out->persist && expire == ExpireKind::kNone) {
      out->keepttl = true;
    } else if (IsToken(opt, "PERSIST") && !set && expire == ExpireKind::kNone && !out->keepttl) {
      out->persist = true;
    } else if (IsToken(opt, "EX")) {
      kind = ExpireKind::kEx;
    } else if (IsToken(opt, "PX")) {
      kind = ExpireKind::kPx;
    } else if (IsToken(opt, "EXAT")) {
      kind = ExpireKind::kExAt;
    } else if (IsToken(opt, "PXAT")) {
      kind = ExpireKind::kPxAt;
    } else {
      return false;
    }
    if (kind != ExpireKind::kNone) {
      if (!expire_ok(kind)) return false;
      out->expire = kind;
      out->expire_arg = args[++j];
    }
  }
  return true;
}

bool IsGetOption(std::string_view arg) { return IsToken(arg, "GET"); }

ExpireStatus ResolveExpire(ExpireKind kind, std::string_view arg, int64_t now_ms,
                           int64_t* when_ms) {
  int64_t v = 0;
  if (!text::ParseInt64(arg, &v)) return ExpireStatus::kNotInteger;
  const bool seconds = kind == ExpireKind::kEx || kind == ExpireKind::kExAt;
  if (v <= 0 || (seconds && v > INT64_MAX / 1000)) return ExpireStatus::kInvalid;
  if (seconds) v *= 1000;
  if (kind == ExpireKind::kEx || kind == ExpireKind::kPx) {
    if (!AddInt64(v, now_ms, &v)) return ExpireStatus::kInvalid;
  }
  if (v <= 0) return ExpireStatus::kInvalid;
  *when_ms = v;
  return ExpireStatus::kOk;
}

}  // namespace plinth::strings
