// The fake host's keyspace (see keyspace.h). Main thread only.
#include "keyspace.h"

#include <plinth/plugin.h>

#include <algorithm>
#include <utility>

namespace plinth::fakehost {
namespace {

// The scan cursor space: never 0 for a key, so 0 can mean "done".
uint64_t ScanHash(const std::string& key) {
  uint64_t h = std::hash<std::string>()(key);
  return h == 0 ? 1 : h;
}

void ReleaseAll(Keyspace::Db& db) {
  for (auto& kv : db) ReleaseValue(kv.second.value);
  db.clear();
}

bool Live(const Entry& e, int64_t now_ms) { return e.expire_at_ms < 0 || e.expire_at_ms > now_ms; }

}  // namespace

Keyspace::Keyspace() : dbs_(kDbCount) {}

Keyspace::~Keyspace() {
  for (Db& db : dbs_) ReleaseAll(db);
}

Entry* Keyspace::Find(int32_t db, std::string_view key) {
  if (!ValidDb(db)) return nullptr;
  auto it = dbs_[db].find(key);
  return it == dbs_[db].end() ? nullptr : &it->second;
}

void Keyspace::Set(int32_t db, std::string_view key, ValueRec* v, bool keep_ttl) {
  if (!ValidDb(db)) {
    ReleaseValue(v);
    return;
  }
  auto it = dbs_[db].find(key);
  if (it == dbs_[db].end()) {
    dbs_[db].emplace(std::string(key), Entry{v, -1});
    return;
  }
  ReleaseValue(it->second.value);
  it->second.value = v;
  if (!keep_ttl) it->second.expire_at_ms = -1;
}

bool Keyspace::Delete(int32_t db, std::string_view key) {
  if (!ValidDb(db)) return false;
  auto it = dbs_[db].find(key);
  if (it == dbs_[db].end()) return false;
  ReleaseValue(it->second.value);
  dbs_[db].erase(it);
  return true;
}

uint64_t Keyspace::Size(int32_t db) const { return ValidDb(db) ? dbs_[db].size() : 0; }

uint64_t Keyspace::Flush(int32_t db) {
  uint64_t removed = 0;
  for (int32_t i = 0; i < kDbCount; ++i) {
    if (db != -1 && db != i) continue;
    removed += dbs_[i].size();
    ReleaseAll(dbs_[i]);
  }
  return removed;
}

void Keyspace::Swap(int32_t a, int32_t b) {
  if (ValidDb(a) && ValidDb(b)) std::swap(dbs_[a], dbs_[b]);
}

int32_t Keyspace::Move(int32_t src_db, std::string_view src, int32_t dst_db, std::string_view dst,
                       uint32_t flags) {
  Entry* s = Find(src_db, src);
  if (!s) return -1;
  if (src_db == dst_db && src == dst) return 1;
  const bool copy = (flags & PLINTH_MOVE_COPY) != 0;
  Entry* d = Find(dst_db, dst);
  if (d && ((flags & PLINTH_MOVE_NX) || (copy && !(flags & PLINTH_MOVE_REPLACE)))) return 0;
  Entry moved = *s;
  if (copy) {
    RetainValue(moved.value);
  } else {
    dbs_[src_db].erase(dbs_[src_db].find(src));
  }
  if (d) Delete(dst_db, dst);
  dbs_[dst_db].emplace(std::string(dst), moved);
  return 1;
}

uint64_t Keyspace::Scan(int32_t db, uint64_t cursor, uint64_t count, int64_t now_ms,
                        const Visit& visit) {
  if (!ValidDb(db)) return 0;
  std::vector<std::pair<uint64_t, const std::string*>> order;
  for (const auto& kv : dbs_[db]) {
    uint64_t h = ScanHash(kv.first);
    if (h >= cursor) order.emplace_back(h, &kv.first);
  }
  std::sort(order.begin(), order.end(), [](const auto& a, const auto& b) {
    return a.first < b.first || (a.first == b.first && *a.second < *b.second);
  });
  if (count == 0) count = 1;
  // Copy the keys first: the visitor may not modify the keyspace, but be safe if it does.
  std::vector<std::string> keys;
  uint64_t groups = 0;
  size_t i = 0;
  for (; i < order.size(); ++i) {
    if (i == 0 || order[i].first != order[i - 1].first) {
      if (groups == count) break;
      ++groups;
    }
    keys.push_back(*order[i].second);
  }
  uint64_t next = i < order.size() ? order[i].first : 0;
  for (const std::string& k : keys) {
    Entry* e = Find(db, k);
    if (e && Live(*e, now_ms)) visit(k, *e);
  }
  return next;
}

const std::string* Keyspace::Random(int32_t db, int64_t now_ms) {
  if (!ValidDb(db)) return nullptr;
  std::vector<const std::string*> live;
  for (const auto& kv : dbs_[db])
    if (Live(kv.second, now_ms)) live.push_back(&kv.first);
  if (live.empty()) return nullptr;
  return live[rng_() % live.size()];
}

uint64_t Keyspace::ExpiresCount(int32_t db) const {
  if (!ValidDb(db)) return 0;
  uint64_t n = 0;
  for (const auto& kv : dbs_[db]) n += kv.second.expire_at_ms >= 0 ? 1 : 0;
  return n;
}

}  // namespace plinth::fakehost
