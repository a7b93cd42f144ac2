// Helpers shared by the set commands (see access.h).
#include "set/access.h"

#include <new>
#include <random>
#include <vector>

#include "set/type.h"

namespace plinth::set {

using sdk::Api;

const SetValue* ReadSet(const Call& c, std::string_view key, bool* wrongtype) {
  *wrongtype = false;
  const plinth_value_t* v = c.Get(key);
  if (!v) return nullptr;
  if (Api().value_type(v) != SetTypeId()) {
    *wrongtype = true;
    return nullptr;
  }
  return static_cast<const SetValue*>(Api().value_payload(v));
}

SetValue* WriteSet(const Call& c, std::string_view key) {
  void* p = Api().key_payload_mut(c.raw(), key.data(), key.size(), SetTypeId());
  if (!p) throw std::bad_alloc();
  return static_cast<SetValue*>(p);
}

void StoreSet(const Call& c, std::string_view key, std::unique_ptr<SetValue> set) {
  plinth_value_t* v = Api().value_create_typed(sdk::Host::self, SetTypeId(), set.get());
  if (!v) throw std::bad_alloc();
  set.release();  // the value owns it now
  Api().key_set(c.raw(), key.data(), key.size(), v, 0);
}

void DeleteEmptied(const Call& c, std::string_view key) {
  c.Delete(key);
  Api().keyspace_event(c.raw(), PLINTH_NOTIFY_GENERIC, "del", key.data(), key.size());
}

void SetEvent(const Call& c, const char* event, std::string_view key) {
  Api().keyspace_event(c.raw(), PLINTH_NOTIFY_SET, event, key.data(), key.size());
}

void Replicate(const Call& c, const char* command, std::initializer_list<std::string_view> args) {
  const char* argv[4];
  size_t lens[4];
  int32_t n = 0;
  for (std::string_view a : args) {
    if (n == 4) break;
    argv[n] = a.data();
    lens[n++] = a.size();
  }
  Api().replicate(c.raw(), PLINTH_REPLICATE_NO_VALIDATE, command, n, argv, lens);
}

uint64_t RandomBelow(uint64_t n) {
  // xorshift64* seeded once; Lemire's multiply-shift maps it to [0, n).
  static uint64_t state = [] {
    std::random_device rd;
    uint64_t s = (static_cast<uint64_t>(rd()) << 32) ^ rd();
    return s ? s : 0x9E3779B97F4A7C15ull;
  }();
  state ^= state >> 12;
  state ^= state << 25;
  state ^= state >> 27;
  uint64_t r = state * 0x2545F4914F6CDD1Dull;
  return static_cast<uint64_t>((static_cast<__uint128_t>(r) * n) >> 64);
}

}  // namespace plinth::set
