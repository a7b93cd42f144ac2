// The "zset" type callbacks (see type.h). rdb_load rebuilds a set from the plain form, picking
// the encoding from the final size as Redis does, and refuses NaN scores and duplicates.
#include "zset/type.h"

#include <algorithm>
#include <cmath>
#include <new>
#include <plinth/value_type.hpp>
#include <string>
#include <utility>
#include <vector>

#include "zset/zset.h"

namespace plinth::zset {
namespace {

int32_t RdbSave(const void* p, plinth_rdb_io_t* io) {
  const auto* z = static_cast<const ZSet*>(p);
  if (io->write_len(io, z->Size()) != PLINTH_OK) return PLINTH_ERR;
  for (Cursor c = z->At(0); c.Valid(); c.Next()) {
    const std::string_view m = c.Member();
    if (io->write_string(io, m.data(), m.size()) != PLINTH_OK) return PLINTH_ERR;
    if (io->write_double(io, c.Score()) != PLINTH_OK) return PLINTH_ERR;
  }
  return PLINTH_OK;
}

void Visit(const void* p, plinth_member_fn fn, void* arg) {
  for (Cursor c = static_cast<const ZSet*>(p)->At(0); c.Valid(); c.Next()) {
    const std::string_view m = c.Member();
    fn(arg, m.data(), m.size(), c.Score());
  }
}

void* RdbLoad(uint32_t rdb_type, plinth_rdb_io_t* io) {
  if (rdb_type != PLINTH_RDB_ZSET_2) return nullptr;
  try {
    uint64_t n = 0;
    if (io->read_len(io, &n) != PLINTH_OK || n == 0) return nullptr;
    std::vector<std::pair<std::string, double>> entries;
    entries.reserve(static_cast<size_t>(std::min<uint64_t>(n, 1024)));
    for (uint64_t i = 0; i < n; ++i) {
      const char* s = nullptr;
      size_t len = 0;
      double score = 0;
      if (io->read_string(io, &s, &len) != PLINTH_OK) return nullptr;
      std::string member(s, len);
      if (io->read_double(io, &score) != PLINTH_OK || std::isnan(score)) return nullptr;
      entries.emplace_back(std::move(member), score);
    }
    std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) {
      return EntryLess(a.second, a.first, b.second, b.first);
    });
    std::vector<std::string_view> members;
    members.reserve(entries.size());
    for (const auto& e : entries) members.push_back(e.first);
    std::sort(members.begin(), members.end());
    if (std::adjacent_find(members.begin(), members.end()) != members.end()) return nullptr;
    std::vector<std::pair<std::string_view, double>> sorted;
    sorted.reserve(entries.size());
    for (const auto& e : entries) sorted.emplace_back(e.first, e.second);
    return ZSet::FromSorted(sorted).release();
  } catch (...) {
    return nullptr;
  }
}

constexpr plinth_type_spec_t MakeSpec() {
  plinth_type_spec_t t = sdk::ValueTypeSpec<ZSet, &RdbSave, &RdbLoad>("zset", PLINTH_RDB_ZSET_2);
  t.visit = &Visit;
  return t;
}

sdk::ValueType zset_type(MakeSpec());

}  // namespace

const plinth_type_spec_t& TypeSpec() { return zset_type.spec(); }

uint32_t ZsetTypeId() { return zset_type.id(); }

bool RegisterZsetType() { return zset_type.Register(); }

}  // namespace plinth::zset
