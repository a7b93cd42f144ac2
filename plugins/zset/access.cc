// Shared handler helpers (see access.h).
#include "zset/access.h"

#include <new>

#include "zset/ranges.h"
#include "zset/type.h"

namespace plinth::zset {

Found ReadZset(const sdk::Call& c, std::string_view key, const ZSet** z) {
  const plinth_value_t* v = c.Get(key);
  if (!v) return Found::kMissing;
  if (sdk::Api().value_type(v) != ZsetTypeId()) return Found::kWrongType;
  *z = static_cast<const ZSet*>(sdk::Api().value_payload(v));
  return Found::kZset;
}

bool ReadZsetOrReply(const sdk::Call& c, std::string_view key, const ZSet** z) {
  *z = nullptr;
  if (ReadZset(c, key, z) == Found::kWrongType) {
    c.Error(errors::kWrongType);
    return false;
  }
  return true;
}

ZSet* MutableZset(const sdk::Call& c, std::string_view key) {
  void* p = sdk::Api().key_payload_mut(c.raw(), key.data(), key.size(), ZsetTypeId());
  if (!p) throw std::bad_alloc();
  return static_cast<ZSet*>(p);
}

void StoreZset(const sdk::Call& c, std::string_view key, std::unique_ptr<ZSet> z) {
  plinth_value_t* v = sdk::Api().value_create_typed(sdk::Host::self, ZsetTypeId(), z.get());
  if (!v) throw std::bad_alloc();
  z.release();
  sdk::Api().key_set(c.raw(), key.data(), key.size(), v, 0);
}

void Notify(const sdk::Call& c, const char* event, std::string_view key) {
  sdk::Api().keyspace_event(c.raw(), PLINTH_NOTIFY_ZSET, event, key.data(), key.size());
}

bool DeleteIfEmpty(const sdk::Call& c, std::string_view key, const ZSet& z) {
  if (z.Size() != 0) return false;
  c.Delete(key);
  sdk::Api().keyspace_event(c.raw(), PLINTH_NOTIFY_GENERIC, "del", key.data(), key.size());
  return true;
}

bool Resp3(const sdk::Call& c) { return sdk::Api().client_protocol(c.raw()) == 3; }

void EntryReply::Begin(size_t n) const {
  const auto count = static_cast<int64_t>(n);
  c_.Array(withscores_ && !nested_ ? 2 * count : count);
}

void EntryReply::Add(std::string_view member, double score) const {
  if (nested_) c_.Array(2);
  c_.Bulk(member);
  if (withscores_) c_.Double(score);
}

}  // namespace plinth::zset
