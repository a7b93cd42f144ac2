// Argument rules of EXPIRE, PEXPIRE, EXPIREAT and PEXPIREAT (Redis 7.0): NX/XX/GT/LT options,
// the conversion to an absolute unix time in ms with overflow checks, and the condition test.
// Pure logic, no ABI types; called by the keys plugin's handlers on the main thread.
#ifndef PLINTH_KEYS_EXPIRE_ARGS_H
#define PLINTH_KEYS_EXPIRE_ARGS_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace plinth::keys {

// Condition options of the EXPIRE family.
inline constexpr uint32_t kExpireNx = 0x1;  // only when the key has no TTL
inline constexpr uint32_t kExpireXx = 0x2;  // only when the key has a TTL
inline constexpr uint32_t kExpireGt = 0x4;  // only when the new TTL is greater
inline constexpr uint32_t kExpireLt = 0x8;  // only when the new TTL is smaller

// Parses the option words after the time argument. Returns true and sets *flags, or returns
// false with the reply error in *error ("ERR Unsupported option foo", the NX/XX/GT/LT
// compatibility errors).
bool ParseExpireOptions(const std::vector<std::string_view>& words, uint32_t* flags,
                        std::string* error);

// How the EXPIRE-family time argument is read.
struct ExpireUnit {
  bool seconds;   // EXPIRE, EXPIREAT: the argument is in seconds
  bool relative;  // EXPIRE, PEXPIRE: the argument is added to now_ms
};

// Turns the parsed time argument into absolute unix ms. Returns false when the conversion or the
// addition overflows (the caller replies "ERR invalid expire time in '<cmd>' command").
bool ExpireAtMs(int64_t value, ExpireUnit unit, int64_t now_ms, int64_t* when_ms);

// The reply error for an overflowing time, e.g. "ERR invalid expire time in 'expire' command".
std::string InvalidExpireTimeError(std::string_view command_lower);

// Applies the NX/XX/GT/LT condition: current_ms is the key's absolute expiry or -1 when it has
// none. Returns true when the new expiry when_ms may be set. A key without a TTL counts as an
// infinite TTL for GT and LT, like Redis.
bool ExpireConditionHolds(uint32_t flags, int64_t current_ms, int64_t when_ms);

// TTL reply in seconds or ms from an absolute expiry (-1: no TTL, -2: no key), rounding seconds
// to the nearest like Redis and never going below 0 for a key still present.
int64_t TtlReply(int64_t expire_ms, int64_t now_ms, bool in_ms);

// EXPIRETIME/PEXPIRETIME reply: the absolute expiry in seconds (rounded) or ms, or -1/-2.
int64_t ExpireTimeReply(int64_t expire_ms, bool in_ms);

}  // namespace plinth::keys

#endif  // PLINTH_KEYS_EXPIRE_ARGS_H
