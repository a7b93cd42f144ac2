// HSCAN key cursor [MATCH pattern] [COUNT count]. A listpack-encoded hash is returned whole in
// one reply with cursor 0, as Redis does; a hashtable is walked bucket by bucket with Redis's
// reverse-binary cursor until it holds COUNT strings (fields and values, before MATCH filters
// them, as Redis counts) or 10 x COUNT buckets were visited.
#include <plinth/text.hpp>
#include <string>
#include <vector>

#include "hash/access.h"
#include "hash/commands.h"
#include "hash/scan_args.h"

namespace plinth::hash {

void HScanCommand(Call& c) {
  uint64_t cursor = 0;
  if (!ParseScanCursor(c.arg(2), &cursor)) {
    c.Error(errors::kInvalidCursor);
    return;
  }
  const Hash* h = nullptr;
  if (!ReadHash(c, c.arg(1), &h)) return;
  if (!h) {
    c.Array(2);
    c.Bulk("0");
    c.Array(0);
    return;
  }
  std::vector<std::string_view> args;
  for (int i = 3; i < c.argc(); ++i) args.push_back(c.arg(i));
  ScanOptions opt;
  switch (ParseScanOptions(args, &opt)) {
    case ScanArgsError::kNotInteger:
      c.Error(errors::kNotInteger);
      return;
    case ScanArgsError::kSyntax:
      c.Error(errors::kSyntax);
      return;
    case ScanArgsError::kNone:
      break;
  }
  std::vector<std::string_view> out;  // field, value, field, value...
  auto keep = [&](std::string_view k, std::string_view v) {
    if (opt.has_pattern && !text::GlobMatch(opt.pattern, k)) return;
    out.push_back(k);
    out.push_back(v);
  };
  uint64_t next = 0;
  if (const Table* t = h->table()) {
    uint64_t visited = 0, buckets = 0;
    const uint64_t max_buckets = opt.count > UINT64_MAX / 10 ? UINT64_MAX : opt.count * 10;
    next = cursor;
    do {
      next = t->ScanBucket(next, [&](const Table::Entry& e) {
        ++visited;
        keep(e.field(), e.value());
      });
      // Redis counts the field and the value it collected against COUNT.
    } while (next != 0 && ++buckets < max_buckets && visited * 2 < opt.count);
  } else {
    h->ForEach(keep);
  }
  c.Array(2);
  c.Bulk(std::to_string(next));
  c.Array(static_cast<int64_t>(out.size()));
  for (std::string_view s : out) c.Bulk(s);
}

}  // namespace plinth::hash
