// KEYS, SCAN, RANDOMKEY, DBSIZE, FLUSHDB and FLUSHALL: keyspace-wide commands built on the
// host's key_scan / key_random / db_* functions. Main thread.
#include <plinth/errors.hpp>
#include <plinth/text.hpp>
#include <string>
#include <unordered_set>

#include "common/subcommand.h"
#include "keys/handlers.h"
#include "keys/options.h"
#include "keys/scan_args.h"

namespace plinth::keys {

using sdk::Api;

namespace {

// What a key_scan visit collects: the key and its type id (the value is only borrowed).
struct ScanSink {
  const ScanOptions* opts = nullptr;
  std::vector<std::string> keys;
  static void Visit(void* arg, const char* key, size_t klen, const plinth_value_t* value) {
    auto* self = static_cast<ScanSink*>(arg);
    std::string_view k(key, klen);
    const ScanOptions& o = *self->opts;
    if (o.has_pattern && !text::GlobMatch(o.pattern, k)) return;
    if (o.has_type) {
      const char* type = value ? Api().type_name(sdk::Host::self, Api().value_type(value)) : "none";
      if (!text::EqualsNoCase(o.type, type ? type : "")) return;
    }
    self->keys.emplace_back(k);
  }
};

// True when key has an expiry that the call's clock has passed (the host may not have removed
// it yet; Redis hides such keys from KEYS and SCAN).
bool LogicallyExpired(const Call& c, std::string_view key) {
  int64_t when = c.ExpireGet(key);
  return when == -2 || (when >= 0 && when <= c.NowMs());
}

// Replies with the keys that are not logically expired; with dedupe, each key once.
void ReplyKeys(const Call& c, const std::vector<std::string>& keys, bool dedupe) {
  std::unordered_set<std::string_view> seen;
  std::vector<const std::string*> live;
  live.reserve(keys.size());
  for (const std::string& k : keys) {
    if (dedupe && !seen.insert(k).second) continue;
    if (!LogicallyExpired(c, k)) live.push_back(&k);
  }
  c.Array(static_cast<int64_t>(live.size()));
  for (const std::string* k : live) c.Bulk(*k);
}

void Flush(Call& c, int32_t db) {
  std::string error;
  FlushMode mode;
  if (!ParseFlushMode(ArgsFrom(c, 1), &mode, &error)) {
    NoPropagate(c);
    return c.Error(error);
  }
  bool async = mode == FlushMode::kAsync ||
               (mode == FlushMode::kDefault &&
                sdk::OptionInt(sdk::FindOption("lazyfree-lazy-user-flush")) != 0);
  Api().db_flush(c.raw(), db, async ? 1 : 0);
  c.Ok();
}

}  // namespace

void Keys(Call& c) {
  ScanOptions opts;
  opts.pattern = c.arg(1);
  opts.has_pattern = opts.pattern != "*";
  ScanSink sink;
  sink.opts = &opts;
  constexpr uint64_t kBucketsPerStep = 1024;
  uint64_t cursor = 0;
  do {
    cursor = Api().key_scan(c.raw(), cursor, kBucketsPerStep, &ScanSink::Visit, &sink);
  } while (cursor != 0);
  // A full scan visits every key at least once; a resize in between may repeat some.
  ReplyKeys(c, sink.keys, true);
}

void Scan(Call& c) {
  uint64_t cursor = 0;
  if (!ParseScanCursor(c.arg(1), &cursor)) return c.Error(errors::kInvalidCursor);
  std::string error;
  ScanOptions opts;
  if (!ParseScanOptions(ArgsFrom(c, 2), &opts, &error)) return c.Error(error);
  ScanSink sink;
  sink.opts = &opts;
  // Like Redis, one call does a bounded amount of work: at most ten steps of COUNT buckets,
  // stopping early once COUNT keys were collected.
  constexpr int kMaxSteps = 10;
  int steps = 0;
  do {
    cursor = Api().key_scan(c.raw(), cursor, opts.count, &ScanSink::Visit, &sink);
  } while (cursor != 0 && ++steps < kMaxSteps && sink.keys.size() < opts.count);
  c.Array(2);
  c.Bulk(std::to_string(cursor));
  ReplyKeys(c, sink.keys, false);
}

void RandomKey(Call& c) {
  std::string key;
  auto visit = [](void* arg, const char* k, size_t klen, const plinth_value_t*) {
    static_cast<std::string*>(arg)->assign(k, klen);
  };
  if (Api().key_random(c.raw(), visit, &key) != 1) return c.Null();
  c.Bulk(key);
}

void DbSize(Call& c) { c.Integer(static_cast<int64_t>(Api().db_size(c.raw()))); }
void FlushDb(Call& c) { Flush(c, Api().db_current(c.raw())); }
void FlushAll(Call& c) { Flush(c, -1); }

}  // namespace plinth::keys
