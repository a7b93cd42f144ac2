// EXPIRE, PEXPIRE, EXPIREAT, PEXPIREAT, EXPIRETIME, PEXPIRETIME, TTL, PTTL and PERSIST.
// Expiry is stored by the host as absolute unix ms; relative times are resolved against the
// call's cached time and propagated as PEXPIREAT (or DEL when already past) so replicas and the
// AOF replay the same absolute effect. Main thread.
#include <plinth/text.hpp>
#include <string>

#include "common/subcommand.h"
#include "keys/expire_args.h"
#include "keys/handlers.h"

namespace plinth::keys {
namespace {

void ExpireGeneric(Call& c, ExpireUnit unit, std::string_view name) {
  std::string error;
  uint32_t flags = 0;
  if (!ParseExpireOptions(ArgsFrom(c, 3), &flags, &error)) {
    NoPropagate(c);
    return c.Error(error);
  }
  int64_t value = 0;
  if (!text::ParseInt64(c.arg(2), &value)) {
    NoPropagate(c);
    return c.Error(errors::kNotInteger);
  }
  int64_t now = c.NowMs();
  int64_t when = 0;
  if (!ExpireAtMs(value, unit, now, &when)) {
    NoPropagate(c);
    return c.Error(InvalidExpireTimeError(name));
  }
  std::string_view key = c.arg(1);
  int64_t current = c.ExpireGet(key);
  if (current == -2 || (flags != 0 && !ExpireConditionHolds(flags, current, when))) {
    NoPropagate(c);
    return c.Integer(0);
  }
  if (when <= now) {
    c.Delete(key);
    NotifyGeneric(c, "del", key);
    Replicate(c, "del", {key});
    return c.Integer(1);
  }
  c.ExpireSet(key, when);
  NotifyGeneric(c, "expire", key);
  Replicate(c, "pexpireat", {key, std::to_string(when)});
  c.Integer(1);
}

void TtlGeneric(Call& c, bool in_ms) {
  c.Integer(TtlReply(c.ExpireGet(c.arg(1)), c.NowMs(), in_ms));
}

void ExpireTimeGeneric(Call& c, bool in_ms) {
  c.Integer(ExpireTimeReply(c.ExpireGet(c.arg(1)), in_ms));
}

}  // namespace

void Expire(Call& c) { ExpireGeneric(c, {true, true}, "expire"); }
void PExpire(Call& c) { ExpireGeneric(c, {false, true}, "pexpire"); }
void ExpireAt(Call& c) { ExpireGeneric(c, {true, false}, "expireat"); }
void PExpireAt(Call& c) { ExpireGeneric(c, {false, false}, "pexpireat"); }
void ExpireTime(Call& c) { ExpireTimeGeneric(c, false); }
void PExpireTime(Call& c) { ExpireTimeGeneric(c, true); }
void Ttl(Call& c) { TtlGeneric(c, false); }
void PTtl(Call& c) { TtlGeneric(c, true); }

void Persist(Call& c) {
  std::string_view key = c.arg(1);
  if (c.ExpireGet(key) < 0) {
    NoPropagate(c);
    return c.Integer(0);
  }
  c.ExpireSet(key, -1);
  NotifyGeneric(c, "persist", key);
  c.Integer(1);
}

}  // namespace plinth::keys
