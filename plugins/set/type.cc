// The set type's callbacks (see type.h). rdb_load adds members one at a time, so the
// loaded set gets the encoding the same adds would give it (an intset while it may be one).
#include "set/type.h"

#include <memory>
#include <new>
#include <plinth/value_type.hpp>

#include "set/set_value.h"

namespace plinth::set {
namespace {

void Visit(const void* payload, plinth_member_fn fn, void* arg) {
  static_cast<const SetValue*>(payload)->ForEach(
      [&](std::string_view m) { fn(arg, m.data(), m.size(), 1.0); });
}

constexpr plinth_type_spec_t MakeSpec() {
  plinth_type_spec_t t = sdk::ValueTypeSpec<SetValue, &SaveSet, &LoadSet>("set", PLINTH_RDB_SET);
  t.visit = &Visit;
  return t;
}

sdk::ValueType set_type(MakeSpec());

}  // namespace

const plinth_type_spec_t& SetTypeSpec() { return set_type.spec(); }

bool RegisterSetType() { return set_type.Register(); }

uint32_t SetTypeId() { return set_type.id(); }

void FreeSet(void* payload) { set_type.spec().free_payload(payload); }

void* CopySet(const void* payload) { return set_type.spec().copy(payload); }

int32_t SaveSet(const void* payload, plinth_rdb_io_t* io) {
  const SetValue* set = static_cast<const SetValue*>(payload);
  if (io->write_len(io, set->Size()) != PLINTH_OK) return PLINTH_ERR;
  MemberBuf buf;
  for (size_t i = 0; i < set->Size(); ++i) {
    std::string_view m = set->At(i, &buf);
    if (io->write_string(io, m.data(), m.size()) != PLINTH_OK) return PLINTH_ERR;
  }
  return PLINTH_OK;
}

void* LoadSet(uint32_t rdb_type, plinth_rdb_io_t* io) {
  if (rdb_type != PLINTH_RDB_SET) return nullptr;
  uint64_t n = 0;
  if (io->read_len(io, &n) != PLINTH_OK || n == 0) return nullptr;
  try {
    auto set = std::make_unique<SetValue>();
    // Size the table up front only for a count the input could plausibly hold; a lying
    // length then fails at the first missing string instead of reserving gigabytes.
    if (static_cast<int64_t>(n) > MaxIntsetEntries()) set->ConvertToTable(n < 65536 ? n : 65536);
    for (uint64_t i = 0; i < n; ++i) {
      const char* s = nullptr;
      size_t len = 0;
      if (io->read_string(io, &s, &len) != PLINTH_OK) return nullptr;
      if (!set->Add(std::string_view(s, len))) return nullptr;  // a duplicate: corrupt
    }
    return set.release();
  } catch (...) {
    return nullptr;
  }
}

}  // namespace plinth::set
