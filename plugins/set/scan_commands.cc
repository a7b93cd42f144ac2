// SSCAN: an intset answers everything at once with cursor 0; a hashtable walks its buckets
// (SetValue::Scan). MATCH filters what was visited, as in Redis.
#include <plinth/errors.hpp>
#include <plinth/text.hpp>
#include <string>
#include <vector>

#include "set/access.h"
#include "set/commands.h"
#include "set/scan_args.h"

namespace plinth::set {

void SScan(Call& c) {
  uint64_t cursor = 0;
  if (!ParseCursor(c.arg(2), &cursor)) return c.Error(errors::kInvalidCursor);
  bool wrongtype = false;
  const SetValue* set = ReadSet(c, c.arg(1), &wrongtype);
  if (wrongtype) return c.Error(errors::kWrongType);
  if (!set) {
    c.Array(2);
    c.Bulk("0");
    return c.Array(0);
  }
  std::vector<std::string_view> words;
  for (int i = 3; i < c.argc(); ++i) words.push_back(c.arg(i));
  ScanOptions opts;
  std::string error;
  if (!ParseScanOptions(words, &opts, &error)) return c.Error(error);
  std::vector<std::string> found;
  uint64_t next = set->Scan(cursor, opts.count, [&](std::string_view m) {
    if (!opts.has_pattern || text::GlobMatch(opts.pattern, m)) found.emplace_back(m);
  });
  c.Array(2);
  c.Bulk(std::to_string(next));
  c.Array(static_cast<int64_t>(found.size()));
  for (const std::string& m : found) c.Bulk(m);
}

}  // namespace plinth::set
