// The counter commands: INCR, DECR, INCRBY, DECRBY and INCRBYFLOAT. The stored value keeps its
// TTL, as Redis overwrites it in place. INCRBYFLOAT propagates as "SET key value KEEPTTL" so that
// replicas and AOF replays never redo float arithmetic. Main thread only.
#include <cmath>
#include <plinth/text.hpp>
#include <string>

#include "strings/commands.h"
#include "strings/errors.h"
#include "strings/number.h"
#include "strings/string_values.h"

namespace plinth::strings {
namespace {

// Adds incr to the integer at key (0 when missing) and replies the result.
void IncrDecr(const Call& c, int64_t incr) {
  std::string_view key = c.arg(1);
  const plinth_value_t* v = nullptr;
  if (!LookupString(c, key, &v)) return;
  int64_t value = 0;
  if (v && !text::ParseInt64(Bytes(v), &value)) {
    c.Error(errors::kNotInteger);
    return;
  }
  int64_t result = 0;
  if (!AddInt64(value, incr, &result)) {
    c.Error(errors::kOverflow);
    return;
  }
  c.PutString(key, std::to_string(result), PLINTH_SET_KEEPTTL);
  c.Event(PLINTH_NOTIFY_STRING, "incrby", key);
  c.Integer(result);
}

}  // namespace

void IncrCommand(Call& c) { IncrDecr(c, 1); }

void DecrCommand(Call& c) { IncrDecr(c, -1); }

void IncrByCommand(Call& c) {
  int64_t incr = 0;
  if (!text::ParseInt64(c.arg(2), &incr)) {
    c.Error(errors::kNotInteger);
    return;
  }
  IncrDecr(c, incr);
}

void DecrByCommand(Call& c) {
  int64_t decr = 0;
  if (!text::ParseInt64(c.arg(2), &decr)) {
    c.Error(errors::kNotInteger);
    return;
  }
  // Negating INT64_MIN does not fit: Redis refuses it before looking at the key.
  if (decr == INT64_MIN) {
    c.Error(kErrDecrOverflow);
    return;
  }
  IncrDecr(c, -decr);
}

void IncrByFloatCommand(Call& c) {
  std::string_view key = c.arg(1);
  const plinth_value_t* v = nullptr;
  if (!LookupString(c, key, &v)) return;
  long double value = 0, incr = 0;
  if ((v && !ParseLongDouble(Bytes(v), &value)) || !ParseLongDouble(c.arg(2), &incr)) {
    c.Error(errors::kNotFloat);
    return;
  }
  value += incr;
  if (std::isnan(value) || std::isinf(value)) {
    c.Error(errors::kNanOrInf);
    return;
  }
  std::string text = FormatLongDouble(value);
  c.PutString(key, text, PLINTH_SET_KEEPTTL | PLINTH_SET_NO_INT_ENCODING);  // Redis: embstr
  c.Event(PLINTH_NOTIFY_STRING, "incrbyfloat", key);
  c.Bulk(text);
  Propagate(c, "set", {key, text, "KEEPTTL"}, false);
}

}  // namespace plinth::strings
