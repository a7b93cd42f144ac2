// The hash write commands: HSET, HMSET, HSETNX, HDEL, HINCRBY and HINCRBYFLOAT. Each one checks
// its arguments and the key's type before it touches the value, so an error changes nothing.
// HINCRBYFLOAT propagates as HSET of its result so replicas never redo float arithmetic.
#include <cmath>
#include <plinth/errors.hpp>
#include <plinth/number.hpp>
#include <plinth/text.hpp>
#include <string>

#include "hash/access.h"
#include "hash/commands.h"
#include "hash/options.h"

namespace plinth::hash {
namespace {

// HSET and HMSET: pairs from argv[2]. Replies nothing; returns the count of new fields, or -1
// after replying an error.
int64_t SetPairs(Call& c) {
  const int argc = c.argc();
  if (argc % 2 != 0) {
    std::string name = text::ToLower(c.arg(0));
    c.Error(std::string(errors::kWrongArgumentsPrefix) + name + "' command");
    return -1;
  }
  std::string_view key = c.arg(1);
  Hash* h = WriteHash(c, key);
  if (!h) return -1;
  const Limits limits = CurrentLimits();
  int64_t added = 0;
  for (int i = 2; i < argc; i += 2) added += h->Set(c.arg(i), c.arg(i + 1), limits) ? 1 : 0;
  Notify(c, "hset", key);
  return added;
}

}  // namespace

void HSetCommand(Call& c) {
  const int64_t added = SetPairs(c);
  if (added >= 0) c.Integer(added);
}

void HMSetCommand(Call& c) {
  if (SetPairs(c) >= 0) c.Ok();
}

void HSetNxCommand(Call& c) {
  std::string_view key = c.arg(1), field = c.arg(2);
  const Hash* h = nullptr;
  if (!ReadHash(c, key, &h)) return;
  if (h && h->Get(field, nullptr)) {
    c.Integer(0);
    return;
  }
  WriteHash(c, key)->Set(field, c.arg(3), CurrentLimits());
  Notify(c, "hset", key);
  c.Integer(1);
}

void HDelCommand(Call& c) {
  std::string_view key = c.arg(1);
  const Hash* h = nullptr;
  if (!ReadHash(c, key, &h)) return;
  bool any = false;
  for (int i = 2; h && !any && i < c.argc(); ++i) any = h->Get(c.arg(i), nullptr);
  if (!any) {  // nothing to delete: not a change, not propagated
    c.Integer(0);
    return;
  }
  Hash* w = WriteHash(c, key);
  int64_t deleted = 0;
  for (int i = 2; i < c.argc() && !w->Empty(); ++i) deleted += w->Delete(c.arg(i)) ? 1 : 0;
  Notify(c, "hdel", key);
  DeleteIfEmpty(c, key, w);
  c.Integer(deleted);
}

void HIncrByCommand(Call& c) {
  std::string_view key = c.arg(1), field = c.arg(2);
  int64_t incr = 0;
  if (!text::ParseInt64(c.arg(3), &incr)) {
    c.Error(errors::kNotInteger);
    return;
  }
  const Hash* h = nullptr;
  if (!ReadHash(c, key, &h)) return;
  int64_t value = 0;
  std::string_view old;
  if (h && h->Get(field, &old) && !text::ParseInt64(old, &value)) {
    c.Error(kErrHashNotInteger);
    return;
  }
  int64_t result = 0;
  if (__builtin_add_overflow(value, incr, &result)) {
    c.Error(errors::kOverflow);
    return;
  }
  WriteHash(c, key)->Set(field, std::to_string(result), CurrentLimits());
  Notify(c, "hincrby", key);
  c.Integer(result);
}

void HIncrByFloatCommand(Call& c) {
  std::string_view key = c.arg(1), field = c.arg(2);
  long double incr = 0;
  if (!number::ParseLongDouble(c.arg(3), &incr)) {
    c.Error(errors::kNotFloat);
    return;
  }
  if (std::isinf(incr)) {  // ParseLongDouble already refuses NaN
    c.Error(kErrNanOrInfArg);
    return;
  }
  const Hash* h = nullptr;
  if (!ReadHash(c, key, &h)) return;
  long double value = 0;
  std::string_view old;
  if (h && h->Get(field, &old) && !number::ParseLongDouble(old, &value)) {
    c.Error(kErrHashNotFloat);
    return;
  }
  value += incr;
  if (std::isnan(value) || std::isinf(value)) {
    c.Error(errors::kNanOrInf);
    return;
  }
  const std::string result = number::FormatLongDouble(value);
  WriteHash(c, key)->Set(field, result, CurrentLimits());
  Notify(c, "hincrbyfloat", key);
  c.Bulk(result);
  Propagate(c, "hset", {key, field, result});
}

}  // namespace plinth::hash
