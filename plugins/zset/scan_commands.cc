// ZSCAN key cursor [MATCH pattern] [COUNT count]. A listpack set is returned whole with cursor
// 0; a skiplist set is walked by member-index home slot in Redis's reverse-binary cursor
// order, so a member present for the whole scan is returned at least once even when the index
// grows or shrinks between calls. Scores come as bulk text (%.17g), as Redis 7.0.
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <plinth/errors.hpp>
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

// strtoull over the whole text, as Redis's parseScanCursorOrReply ("-1" wraps).
bool ParseCursor(std::string_view s, uint64_t* out) {
  const std::string t(s);
  if (!t.empty() && std::isspace(static_cast<unsigned char>(t[0]))) return false;
  char* end = nullptr;
  errno = 0;
  const unsigned long long v = std::strtoull(t.c_str(), &end, 10);
  if (*end != '\0' || errno == ERANGE) return false;
  *out = v;
  return true;
}

uint64_t Reverse(uint64_t v) {
  v = ((v >> 1) & 0x5555555555555555ull) | ((v & 0x5555555555555555ull) << 1);
  v = ((v >> 2) & 0x3333333333333333ull) | ((v & 0x3333333333333333ull) << 2);
  v = ((v >> 4) & 0x0F0F0F0F0F0F0F0Full) | ((v & 0x0F0F0F0F0F0F0F0Full) << 4);
  v = ((v >> 8) & 0x00FF00FF00FF00FFull) | ((v & 0x00FF00FF00FF00FFull) << 8);
  v = ((v >> 16) & 0x0000FFFF0000FFFFull) | ((v & 0x0000FFFF0000FFFFull) << 16);
  return (v >> 32) | (v << 32);
}

struct Found2 {
  std::string_view member;
  double score;
};

void ReplyScan(const Call& c, uint64_t cursor, const std::vector<Found2>& items) {
  c.Array(2);
  const std::string cur = std::to_string(cursor);
  c.Bulk(cur);
  c.Array(static_cast<int64_t>(items.size() * 2));
  char buf[64];
  for (const Found2& f : items) {
    c.Bulk(f.member);
    c.Bulk(std::string_view(buf, FormatScore(f.score, buf, sizeof buf)));
  }
}

void ZScan(Call& c) {
  uint64_t cursor = 0;
  if (!ParseCursor(c.arg(2), &cursor)) return c.Error(errors::kInvalidCursor);
  const ZSet* z = nullptr;
  if (!ReadZsetOrReply(c, c.arg(1), &z)) return;
  if (!z) return ReplyScan(c, 0, {});
  int64_t count = 10;
  std::string_view pattern;
  bool use_pattern = false;
  for (int i = 3; i < c.argc(); i += 2) {
    const std::string_view w = c.arg(i);
    const bool has_value = i + 1 < c.argc();
    if (has_value && text::EqualsNoCase(w, "count")) {
      if (!text::ParseInt64(c.arg(i + 1), &count)) return c.Error(errors::kNotInteger);
      if (count < 1) return c.Error(errors::kSyntax);
    } else if (has_value && text::EqualsNoCase(w, "match")) {
      pattern = c.arg(i + 1);
      use_pattern = !(pattern.size() == 1 && pattern[0] == '*');
    } else {
      return c.Error(errors::kSyntax);
    }
  }
  std::vector<Found2> items;
  const auto keep = [&](std::string_view m) { return !use_pattern || text::GlobMatch(pattern, m); };
  const Skiplist* sl = z->Large();
  if (!sl) {
    for (Cursor e = z->At(0); e.Valid(); e.Next())
      if (keep(e.Member())) items.push_back({e.Member(), e.Score()});
    return ReplyScan(c, 0, items);
  }
  const size_t slots = sl->Index().Slots();
  const uint64_t mask = slots - 1;
  std::vector<const SkipNode*> nodes;
  // At most ten home slots per member asked for, as Redis bounds a scan step; COUNT is the
  // client's number, so the product is checked (a huge COUNT scans the whole index once).
  int64_t budget = 0;
  if (__builtin_mul_overflow(count, int64_t{10}, &budget)) budget = INT64_MAX;
  size_t found = 0;
  do {
    nodes.clear();
    sl->Index().NodesAtHome(static_cast<size_t>(cursor & mask), &nodes);
    found += nodes.size();
    for (const SkipNode* n : nodes) {
      const std::string_view m = Skiplist::MemberOf(n);
      if (keep(m)) items.push_back({m, Skiplist::ScoreOf(n)});
    }
    cursor |= ~mask;
    cursor = Reverse(Reverse(cursor) + 1);
  } while (cursor != 0 && --budget > 0 && found < static_cast<size_t>(count));
  ReplyScan(c, cursor, items);
}

const sdk::CommandDef kCommands[] = {
    {"zscan", -3, PLINTH_CMD_READONLY, 1, 1, 1, &ZScan, "sorted-set",
     "key cursor [MATCH pattern] [COUNT count]",
     "Incrementally iterate sorted sets elements and "
     "associated scores",
     "2.8.0", PLINTH_ACL_SORTEDSET},
};

}  // namespace

bool RegisterScanCommand() { return sdk::RegisterCommands(kCommands); }

}  // namespace plinth::zset
