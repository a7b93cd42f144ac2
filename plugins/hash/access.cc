// Key access helpers of the hash commands (see access.h).
#include "hash/access.h"

#include <new>
#include <vector>

#include "hash/type.h"

namespace plinth::hash {

bool ReadHash(const Call& c, std::string_view key, const Hash** out) {
  const plinth_value_t* v = c.Get(key);
  *out = nullptr;
  if (!v) return true;
  if (sdk::Api().value_type(v) != HashTypeId()) {
    c.Error(errors::kWrongType);
    return false;
  }
  *out = static_cast<const Hash*>(sdk::Api().value_payload(v));
  return true;
}

Hash* WriteHash(const Call& c, std::string_view key) {
  const plinth_value_t* v = c.Get(key);
  if (v && sdk::Api().value_type(v) != HashTypeId()) {
    c.Error(errors::kWrongType);
    return nullptr;
  }
  if (!v) {
    auto* h = new Hash();
    plinth_value_t* nv = sdk::Api().value_create_typed(sdk::Host::self, HashTypeId(), h);
    if (!nv) {
      delete h;
      throw std::bad_alloc();
    }
    c.Put(key, sdk::Value::Adopt(nv));
  }
  void* p = sdk::Api().key_payload_mut(c.raw(), key.data(), key.size(), HashTypeId());
  if (!p) throw std::bad_alloc();
  return static_cast<Hash*>(p);
}

void DeleteIfEmpty(const Call& c, std::string_view key, const Hash* h) {
  if (!h->Empty()) return;
  c.Delete(key);
  sdk::Api().keyspace_event(c.raw(), PLINTH_NOTIFY_GENERIC, "del", key.data(), key.size());
}

void Notify(const Call& c, const char* name, std::string_view key) {
  sdk::Api().keyspace_event(c.raw(), PLINTH_NOTIFY_HASH, name, key.data(), key.size());
}

bool Propagate(const Call& c, const char* command, std::initializer_list<std::string_view> args) {
  return c.Replicate(command, args);
}

int Protocol(const Call& c) { return sdk::Api().client_protocol(c.raw()); }

}  // namespace plinth::hash
