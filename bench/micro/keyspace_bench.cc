// The keyspace at one million keys: lookups (hit and miss), overwrites, insert+delete, and
// setting/clearing expiry times, on random keys so the table does not sit in cache. Items/s.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "host/core/db.h"
#include "host/core/value.h"

namespace {

using plinth::host::Db;
using plinth::host::Entry;
using plinth::host::ValueCreateString;

constexpr int kKeys = 1'000'000;
constexpr size_t kOrderLen = 1 << 16;  // random visit order, reused cyclically

std::string Key(const char* prefix, int i) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%s%012d", prefix, i);
  return buf;
}

// One million "key:%012d" keys with 16-byte values, built once for every benchmark here.
struct Keyspace {
  Db db;
  std::vector<std::string> keys;
  std::vector<std::string> missing;
  std::vector<uint32_t> order;

  Keyspace() {
    keys.reserve(kKeys);
    const std::string value(16, 'v');
    for (int i = 0; i < kKeys; ++i) {
      keys.push_back(Key("key:", i));
      db.Set(keys.back(), ValueCreateString(value.data(), value.size()), false);
    }
    for (int i = 0; i < 4096; ++i) missing.push_back(Key("nokey:", i));
    std::mt19937 rng(7);
    std::uniform_int_distribution<uint32_t> pick(0, kKeys - 1);
    order.resize(kOrderLen);
    for (uint32_t& o : order) o = pick(rng);
  }
  const std::string& RandomKey(size_t i) const { return keys[order[i & (kOrderLen - 1)]]; }
};

Keyspace& Ks() {
  static Keyspace* ks = new Keyspace();  // kept to exit: freeing 1M keys is not the benchmark
  return *ks;
}

void BM_KeyspaceGetHit(benchmark::State& state) {
  Keyspace& ks = Ks();
  size_t i = 0;
  for (auto _ : state) {
    Entry* e = ks.db.Find(ks.RandomKey(i++));
    benchmark::DoNotOptimize(plinth::host::StringLen(plinth::host::EntryValue(e)));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_KeyspaceGetHit);

void BM_KeyspaceGetMiss(benchmark::State& state) {
  Keyspace& ks = Ks();
  size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(ks.db.Find(ks.missing[i++ & 4095]));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_KeyspaceGetMiss);

// SET on an existing key: a new 16-byte value replaces (and frees) the old one.
void BM_KeyspaceSetOverwrite(benchmark::State& state) {
  Keyspace& ks = Ks();
  const std::string value(16, 'w');
  size_t i = 0;
  for (auto _ : state) {
    ks.db.Set(ks.RandomKey(i++), ValueCreateString(value.data(), value.size()), false);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_KeyspaceSetOverwrite);

// SET of a new key then DEL of it: one insertion and one removal per item pair.
void BM_KeyspaceInsertDelete(benchmark::State& state) {
  Keyspace& ks = Ks();
  const std::string value(16, 'n');
  size_t i = 0;
  for (auto _ : state) {
    const std::string& k = ks.missing[i++ & 4095];
    ks.db.Set(k, ValueCreateString(value.data(), value.size()), false);
    ks.db.Delete(k);
  }
  state.SetItemsProcessed(state.iterations() * 2);
}
BENCHMARK(BM_KeyspaceInsertDelete);

// EXPIRE then PERSIST on random keys: a lookup plus the expiring-keys index update, twice.
void BM_KeyspaceExpireSetClear(benchmark::State& state) {
  Keyspace& ks = Ks();
  size_t i = 0;
  for (auto _ : state) {
    Entry* e = ks.db.Find(ks.RandomKey(i++));
    ks.db.SetExpire(e, 4102444800000);
    e = ks.db.Find(ks.RandomKey(i - 1));
    ks.db.SetExpire(e, -1);
  }
  state.SetItemsProcessed(state.iterations() * 2);
}
BENCHMARK(BM_KeyspaceExpireSetClear);

// The active-expiry sampling step: a random key among those with a TTL (range(0) of them).
void BM_KeyspaceRandomExpiring(benchmark::State& state) {
  Keyspace& ks = Ks();
  const size_t n = static_cast<size_t>(state.range(0));
  for (size_t j = 0; j < n; ++j) ks.db.SetExpire(ks.db.Find(ks.keys[j]), 4102444800000);
  for (auto _ : state) benchmark::DoNotOptimize(ks.db.Sample(true));
  for (size_t j = 0; j < n; ++j) ks.db.SetExpire(ks.db.Find(ks.keys[j]), -1);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_KeyspaceRandomExpiring)->Arg(100'000);

void BM_HashBytes16(benchmark::State& state) {
  const std::string k = Key("key:", 123456);
  for (auto _ : state) benchmark::DoNotOptimize(plinth::host::HashBytes(k.data(), k.size()));
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(k.size()));
}
BENCHMARK(BM_HashBytes16);

}  // namespace
