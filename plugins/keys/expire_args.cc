// EXPIRE-family option parsing and time arithmetic, byte-exact with Redis 7.0's errors.
#include "keys/expire_args.h"

#include <limits>
#include <plinth/errors.hpp>
#include <plinth/text.hpp>

#include "common/subcommand.h"

namespace plinth::keys {

using text::EqualsNoCase;

bool ParseExpireOptions(const std::vector<std::string_view>& words, uint32_t* flags,
                        std::string* error) {
  uint32_t f = 0;
  for (std::string_view w : words) {
    if (EqualsNoCase(w, "nx")) {
      f |= kExpireNx;
    } else if (EqualsNoCase(w, "xx")) {
      f |= kExpireXx;
    } else if (EqualsNoCase(w, "gt")) {
      f |= kExpireGt;
    } else if (EqualsNoCase(w, "lt")) {
      f |= kExpireLt;
    } else {
      *error = "ERR Unsupported option " + common::ErrorArg(w, std::string_view::npos);
      return false;
    }
  }
  if ((f & kExpireNx) && (f & (kExpireXx | kExpireGt | kExpireLt))) {
    *error = "ERR NX and XX, GT or LT options at the same time are not compatible";
    return false;
  }
  if ((f & kExpireGt) && (f & kExpireLt)) {
    *error = "ERR GT and LT options at the same time are not compatible";
    return false;
  }
  *flags = f;
  return true;
}

bool ExpireAtMs(int64_t value, ExpireUnit unit, int64_t now_ms, int64_t* when_ms) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  int64_t when = value;
  if (unit.seconds) {
    if (when > kMax / 1000 || when < kMin / 1000) return false;
    when *= 1000;
  }
  int64_t base = unit.relative ? now_ms : 0;
  // Redis checks only the upper bound: a huge negative time just means "already expired".
  if (when > kMax - base) return false;
  *when_ms = when + base;
  return true;
}

std::string InvalidExpireTimeError(std::string_view command_lower) {
  std::string e(errors::kInvalidExpirePrefix);
  e.append(command_lower).append("' command");
  return e;
}

bool ExpireConditionHolds(uint32_t flags, int64_t current_ms, int64_t when_ms) {
  if ((flags & kExpireNx) && current_ms != -1) return false;
  if ((flags & kExpireXx) && current_ms == -1) return false;
  if ((flags & kExpireGt) && (current_ms == -1 || when_ms <= current_ms)) return false;
  if ((flags & kExpireLt) && current_ms != -1 && when_ms >= current_ms) return false;
  return true;
}

namespace {

// (ms + 500) / 1000 without overflowing near INT64_MAX.
int64_t RoundToSeconds(int64_t ms) { return ms / 1000 + (ms % 1000 >= 500 ? 1 : 0); }

}  // namespace

int64_t TtlReply(int64_t expire_ms, int64_t now_ms, bool in_ms) {
  if (expire_ms < 0) return expire_ms;
  int64_t ttl = expire_ms - now_ms;
  if (ttl < 0) ttl = 0;
  return in_ms ? ttl : RoundToSeconds(ttl);
}

int64_t ExpireTimeReply(int64_t expire_ms, bool in_ms) {
  if (expire_ms < 0) return expire_ms;
  return in_ms ? expire_ms : RoundToSeconds(expire_ms);
}

}  // namespace plinth::keys
