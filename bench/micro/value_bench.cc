// Value refcounting: retain/release pairs on one value (alone, and from two threads as IO
// threads do when they release values written by reference), and create/release of a string.
#include <benchmark/benchmark.h>

#include <string>

#include "host/core/value.h"

namespace {

using plinth::host::ValueCreateString;
using plinth::host::ValueRelease;
using plinth::host::ValueRetain;

plinth_value_t* Shared() {
  static plinth_value_t* v = ValueCreateString("shared-value", 12);
  return v;
}

// One retain and one release of the same value; with Threads(2) both threads hit one line.
void BM_ValueRetainRelease(benchmark::State& state) {
  plinth_value_t* v = Shared();
  for (auto _ : state) {
    ValueRetain(v);
    ValueRelease(v);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ValueRetainRelease)->Threads(1)->Threads(2)->UseRealTime();

// A new string value of range(0) bytes, then its last release (allocation and free).
void BM_ValueCreateRelease(benchmark::State& state) {
  const std::string s(static_cast<size_t>(state.range(0)), 'v');
  for (auto _ : state) {
    plinth_value_t* v = ValueCreateString(s.data(), s.size());
    benchmark::DoNotOptimize(v);
    ValueRelease(v);
  }
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(s.size()));
}
BENCHMARK(BM_ValueCreateRelease)->Arg(16)->Arg(512)->Arg(64 << 10);

}  // namespace
