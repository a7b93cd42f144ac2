// ZPOPMIN, ZPOPMAX, ZMPOP and the blocking BZPOPMIN, BZPOPMAX and BZMPOP. A blocking command
// first tries to serve; when no key has entries it blocks through call_block and is run again
// (PLINTH_BLOCK_WOKEN: try again, block again if still nothing; PLINTH_BLOCK_TIMEOUT: the null
// array). Served pops propagate as ZPOPMIN/ZPOPMAX, as Redis 7.0 rewrites them.
#include <plinth/errors.hpp>
#include <plinth/keys.hpp>
#include <plinth/plugin.hpp>
#include <plinth/text.hpp>
#include <string>
#include <vector>

#include "zset/access.h"
#include "zset/commands.h"
#include "zset/ranges.h"

namespace plinth::zset {
namespace {

using sdk::Call;

// The reply shapes of Redis's genericZpopCommand.
struct PopShape {
  bool emit_key = false;  // BZPOP*, ZMPOP, BZMPOP: the key first
  bool nested = false;    // [member, score] pairs (ZMPOP always; ZPOP* with count in RESP3)
};

// Pops up to count entries (count -1: one, flat) from the lowest (or highest, max) end of the
// set z under key and replies them in shape. z must be non-empty.
void PopAndReply(const Call& c, std::string_view key, const ZSet* z, bool max, int64_t count,
                 PopShape shape) {
  if (count == -1) count = 1;
  const size_t n = z->Size();
  const size_t take = static_cast<uint64_t>(count) < n ? static_cast<size_t>(count) : n;
  const auto t = static_cast<int64_t>(take);
  if (shape.emit_key && shape.nested) {
    c.Array(2);
    c.Bulk(key);
    c.Array(t);
  } else if (shape.emit_key) {
    c.Array(2 * t + 1);
    c.Bulk(key);
  } else {
    c.Array(shape.nested ? t : 2 * t);
  }
  Cursor cur = z->At(max ? n - 1 : 0);
  for (size_t i = 0; i < take; ++i) {
    if (shape.nested) c.Array(2);
    c.Bulk(cur.Member());
    c.Double(cur.Score());
    if (max)
      cur.Prev();
    else
      cur.Next();
  }
  ZSet* rw = MutableZset(c, key);
  if (max)
    rw->EraseRanks(n - take, n);
  else
    rw->EraseRanks(0, take);
  Notify(c, max ? "zpopmax" : "zpopmin", key);
  DeleteIfEmpty(c, key, *rw);
}

void Propagate(const Call& c, std::string_view key, bool max, const std::string* count) {
  const char* cmd = max ? "ZPOPMAX" : "ZPOPMIN";
  const char* argv[2] = {key.data(), count ? count->data() : nullptr};
  const size_t lens[2] = {key.size(), count ? count->size() : 0};
  sdk::Api().replicate(c.raw(), 0, cmd, count ? 2 : 1, argv, lens);
}

void PopMinMax(Call& c, bool max) {
  if (c.argc() > 3) return c.Error(errors::kSyntax);
  int64_t count = -1;
  if (c.argc() == 3 && (!text::ParseInt64(c.arg(2), &count) || count < 0))
    return c.Error(errors::kNotPositive);
  const std::string_view key = c.arg(1);
  const ZSet* z = nullptr;
  if (!ReadZsetOrReply(c, key, &z)) return;
  if (!z || count == 0) return c.Array(0);
  PopAndReply(c, key, z, max, count, PopShape{false, Resp3(c) && count != -1});
}

void ZPopMin(Call& c) { PopMinMax(c, false); }
void ZPopMax(Call& c) { PopMinMax(c, true); }

// ZMPOP / BZMPOP arguments after the timeout: numkeys key... MIN|MAX [COUNT count].
struct MpopArgs {
  int first_key = 0, nkeys = 0;
  bool max = false;
  int64_t count = 1;
};

bool ParseMpop(const Call& c, int numkeys_at, MpopArgs* a) {
  int64_t nk = 0;
  if (!text::ParseInt64(c.arg(numkeys_at), &nk) || nk < 1) {
    c.Error(errors::kNumkeysNotPositive);
    return false;
  }
  if (nk >= c.argc() || numkeys_at + nk + 1 >= c.argc()) {
    c.Error(errors::kSyntax);
    return false;
  }
  const int64_t where = numkeys_at + nk + 1;
  const std::string_view w = c.arg(static_cast<int>(where));
  if (text::EqualsNoCase(w, "min")) {
    a->max = false;
  } else if (text::EqualsNoCase(w, "max")) {
    a->max = true;
  } else {
    c.Error(errors::kSyntax);
    return false;
  }
  bool have_count = false;
  for (int j = static_cast<int>(where) + 1; j < c.argc(); ++j) {
    if (!have_count && text::EqualsNoCase(c.arg(j), "count") && j + 1 < c.argc()) {
      ++j;
      if (!text::ParseInt64(c.arg(j), &a->count) || a->count < 1) {
        c.Error(errors::kCountNotPositive);
        return false;
      }
      have_count = true;
    } else {
      c.Error(errors::kSyntax);
      return false;
    }
  }
  a->first_key = numkeys_at + 1;
  a->nkeys = static_cast<int>(nk);
  return true;
}

// Serves from the first key of argv[first, first + n) holding a sorted set. Returns 1 when it
// served (and replied), 0 when no key holds one, -1 when it replied WRONGTYPE. With
// skip_wrong, keys of another type are passed over (a woken client stays blocked, as 7.0).
int ServeFirst(const Call& c, int first, int n, bool max, int64_t count, PopShape shape,
               bool skip_wrong, const std::string* prop_count) {
  for (int i = first; i < first + n; ++i) {
    const std::string_view key = c.arg(i);
    const ZSet* z = nullptr;
    const Found f = ReadZset(c, key, &z);
    if (f == Found::kMissing || (f == Found::kWrongType && skip_wrong)) continue;
    if (f == Found::kWrongType) {
      c.Error(errors::kWrongType);
      return -1;
    }
    PopAndReply(c, key, z, max, count, shape);
    Propagate(c, key, max, prop_count);
    return 1;
  }
  return 0;
}

void ZMPop(Call& c) {
  MpopArgs a;
  if (!ParseMpop(c, 1, &a)) return;
  const std::string count = std::to_string(a.count);
  if (ServeFirst(c, a.first_key, a.nkeys, a.max, a.count, PopShape{true, true}, false, &count) == 0)
    c.NullArray();
}

// Serves, or blocks on argv[first, first + n) for timeout_ms, or replies the timeout null.
void ServeOrBlock(const Call& c, int first, int n, bool max, int64_t count, PopShape shape,
                  int64_t timeout_ms, const std::string* prop_count) {
  const int32_t state = sdk::Api().call_block_state(c.raw());
  if (state == PLINTH_BLOCK_TIMEOUT) return c.NullArray();
  const int served =
      ServeFirst(c, first, n, max, count, shape, state == PLINTH_BLOCK_WOKEN, prop_count);
  if (served != 0) return;
  std::vector<const char*> keys;
  std::vector<size_t> lens;
  for (int i = first; i < first + n; ++i) {
    const std::string_view k = c.arg(i);
    keys.push_back(k.data());
    lens.push_back(k.size());
  }
  if (sdk::Api().call_block(c.raw(), n, keys.data(), lens.data(), timeout_ms) != PLINTH_OK)
    c.NullArray();
}

void BPopMinMax(Call& c, bool max) {
  int64_t timeout_ms = 0;
  std::string error;
  if (!ParseTimeout(c.arg(c.argc() - 1), &timeout_ms, &error)) return c.Error(error);
  ServeOrBlock(c, 1, c.argc() - 2, max, -1, PopShape{true, false}, timeout_ms, nullptr);
}

void BZPopMin(Call& c) { BPopMinMax(c, false); }
void BZPopMax(Call& c) { BPopMinMax(c, true); }

void BZMPop(Call& c) {
  MpopArgs a;
  if (!ParseMpop(c, 2, &a)) return;
  int64_t timeout_ms = 0;
  std::string error;
  if (!ParseTimeout(c.arg(1), &timeout_ms, &error)) return c.Error(error);
  const std::string count = std::to_string(a.count);
  ServeOrBlock(c, a.first_key, a.nkeys, a.max, a.count, PopShape{true, true}, timeout_ms, &count);
}

constexpr uint32_t kWF = PLINTH_CMD_WRITE | PLINTH_CMD_FAST;
constexpr uint32_t kWB = PLINTH_CMD_WRITE | PLINTH_CMD_BLOCKING;

const sdk::CommandDef kCommands[] = {
    {"zpopmin", -2, kWF, 1, 1, 1, &ZPopMin, "sorted-set", "key [count]",
     "Remove and return members with the lowest scores in a sorted set", "5.0.0",
     PLINTH_ACL_SORTEDSET},
    {"zpopmax", -2, kWF, 1, 1, 1, &ZPopMax, "sorted-set", "key [count]",
     "Remove and return members with the highest scores in a sorted set", "5.0.0",
     PLINTH_ACL_SORTEDSET},
    {"zmpop", -4, PLINTH_CMD_WRITE, 0, 0, 0, &ZMPop, "sorted-set",
     "numkeys key [key ...] MIN|MAX [COUNT count]",
     "Remove and return members with scores in a sorted set", "7.0.0", PLINTH_ACL_SORTEDSET, 0,
     &sdk::KeysAfterNumkeys<1, PLINTH_KEY_READ | PLINTH_KEY_WRITE>},
    {"bzpopmin", -3, kWB | PLINTH_CMD_FAST | PLINTH_CMD_NOSCRIPT, 1, -2, 1, &BZPopMin, "sorted-set",
     "key [key ...] timeout",
     "Remove and return the member with the lowest score from one or more sorted sets, or block "
     "until one is available",
     "5.0.0", PLINTH_ACL_SORTEDSET},
    {"bzpopmax", -3, kWB | PLINTH_CMD_FAST | PLINTH_CMD_NOSCRIPT, 1, -2, 1, &BZPopMax, "sorted-set",
     "key [key ...] timeout",
     "Remove and return the member with the highest score from one or more sorted sets, or "
     "block until one is available",
     "5.0.0", PLINTH_ACL_SORTEDSET},
    {"bzmpop", -5, kWB, 0, 0, 0, &BZMPop, "sorted-set",
     "timeout numkeys key [key ...] MIN|MAX [COUNT count]",
     "Remove and return members with scores in a sorted set or block until one is available",
     "7.0.0", PLINTH_ACL_SORTEDSET, 0,
     &sdk::KeysAfterNumkeys<2, PLINTH_KEY_READ | PLINTH_KEY_WRITE>},
};

}  // namespace

bool RegisterPopCommands() { return sdk::RegisterCommands(kCommands); }

}  // namespace plinth::zset
