// What replicate() costs a plugin: the validated path (one command-table lookup with the name
// lower-cased on the stack, the arity and argument checks, then the append) against the bypass
// (PLINTH_REPLICATE_NO_VALIDATE: the append alone) and against Core::Propagate called directly
// (the encoder's floor, no ABI call). The host has the real strings.so loaded, so the table
// holds what a server's does, and one batch consumer is active, so the stream encodes; it is
// drained with Core::BeforeSleep every kDrainEvery calls, as the shell does between loop turns,
// so its buffer stays small and is reused. Every variant reports allocs_per_call: allocations
// made inside the timed loop, counted by a tcmalloc new-hook (absent from sanitizer builds,
// which have no tcmalloc), which must read 0 in steady state. The command-level pair runs, through
// Core::Execute, a plugin-style command whose handler replicates three writes (the ctr
// example's CTR.TRANSFER: DECRBY, INCRBY, INCR), validated or bypassed: the end-to-end
// difference, MULTI insertion and EXEC included.
#include <benchmark/benchmark.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "host/core/call.h"
#include "host/core/core.h"
#include "host/core/session.h"
#include "host/shell/server.h"

#ifndef PLINTH_BENCH_PLUGIN_DIR
#error "PLINTH_BENCH_PLUGIN_DIR must name the folder holding strings.so"
#endif

// ---- allocation counting: tcmalloc (gperftools, linked in normal builds) calls a hook on every
// allocation, operator new and malloc alike ----

#ifndef PLINTH_NO_TCMALLOC
#include <gperftools/malloc_hook.h>
#endif

namespace {
std::atomic<uint64_t> allocations{0};
#ifndef PLINTH_NO_TCMALLOC
void OnAllocation(const void*, size_t) { allocations.fetch_add(1, std::memory_order_relaxed); }
#endif
}  // namespace

namespace {

using namespace plinth::host;

constexpr uint64_t kDrainEvery = 256;  // calls between two BeforeSleep drains

uint64_t stream_bytes = 0;  // delivered to the consumer, so the stream is not dead code
void OnBatch(void*, const plinth_stream_batch_t* b) { stream_bytes += b->len; }

// The ctr example's CTR.TRANSFER effects, from a handler, validated (ctx null) or bypassed.
void Transfer(plinth_call_t* call, void* ctx) {
  const plinth_host_api_t* api = call->core->plugins.api;
  const uint32_t flags = ctx ? PLINTH_REPLICATE_NO_VALIDATE : 0;
  const char* dec[2] = {"account:alice", "30"};
  const size_t dec_len[2] = {13, 2};
  const char* inc[2] = {"account:bob", "30"};
  const size_t inc_len[2] = {11, 2};
  const char* log[1] = {"ctr:transfers"};
  const size_t log_len[1] = {13};
  if (api->replicate(call, flags, "DECRBY", 2, dec, dec_len) != PLINTH_OK ||
      api->replicate(call, flags, "INCRBY", 2, inc, inc_len) != PLINTH_OK ||
      api->replicate(call, flags, "INCR", 1, log, log_len) != PLINTH_OK)
    return api->reply_error(call, "ERR refused", 11);
  api->reply_simple(call, "OK", 2);
}

uint64_t replies = 0, errors = 0;
void SinkItem(ReplySink*, const plinth_reply_item_t& item) {
  ++replies;
  if (item.type == PLINTH_REPLY_ERROR) ++errors;
}

// The host with the strings plugin, one active batch consumer and the two bench commands.
struct Host {
  Shell shell;
  Core& core = shell.core;
  Session session;
  ReplySink sink;

  Host() {
    core.options.SetPending("loglevel", "warning");
    std::string err;
    if (!RegisterShellOptions(shell, &err) ||
        !core.plugins.Load(PluginRequest{"strings", false, {}}, PLINTH_BENCH_PLUGIN_DIR, &err)) {
      std::fprintf(stderr, "replicate_bench: cannot set up the host: %s\n", err.c_str());
      std::exit(1);
    }
    core.keyspace.Create();
    plinth_stream_consumer_spec_t consumer{};
    consumer.struct_size = sizeof consumer;
    consumer.name = "bench";
    consumer.on_batch = OnBatch;
    core.listeners.AddConsumer(&consumer, "bench");
    core.propagation.CountActiveConsumers();
    for (int bypass = 0; bypass < 2; ++bypass) {
      plinth_command_spec_t spec{};
      spec.struct_size = sizeof spec;
      spec.name = bypass ? "bench.transfer_novalidate" : "bench.transfer";
      spec.arity = 1;
      spec.flags = PLINTH_CMD_WRITE | PLINTH_CMD_FAST;
      spec.handler = Transfer;
      spec.ctx = bypass ? &core : nullptr;
      core.registry.AddCommand(&spec, "bench");
    }
    if (!core.propagation.Encoding()) {
      std::fprintf(stderr, "replicate_bench: the stream is not encoding\n");
      std::exit(1);
    }
    session.authenticated = true;
    sink.item = SinkItem;
#ifndef PLINTH_NO_TCMALLOC
    MallocHook::AddNewHook(&OnAllocation);
    auto* probe = new std::string(100, 'x');  // the hook counts: a 0 below is a real 0
    benchmark::DoNotOptimize(probe);
    delete probe;
    if (allocations.load() == 0) {
      std::fprintf(stderr, "replicate_bench: the allocation hook does not count\n");
      std::exit(1);
    }
#endif
  }
};

Host& H() {
  static Host* h = new Host();
  return *h;
}

// Runs one call kCountedCalls times after the timed loop (the stream sized by then) and
// reports the allocations they made per call: the benchmark library's own start and stop stay
// out of the figure.
constexpr uint64_t kCountedCalls = 100000;
template <typename Fn>
void CountAllocations(benchmark::State& state, Core& core, Fn call) {
#ifndef PLINTH_NO_TCMALLOC
  const uint64_t start = allocations.load();
  for (uint64_t i = 1; i <= kCountedCalls; ++i) {
    call();
    if (i % kDrainEvery == 0) core.server.BeforeSleep();
  }
  const uint64_t n = allocations.load() - start;
  state.counters["allocs_per_call"] = static_cast<double>(n) / kCountedCalls;
#else
  (void)state, (void)core, (void)call;  // sanitizer builds: no hook to count with
#endif
}

// SET key value KEEPTTL, the ctr example's CTR.INCRBY effect.
const char* const kArgv[3] = {"counter:000001", "12345", "KEEPTTL"};
const size_t kArgvLen[3] = {14, 5, 7};

template <uint32_t kFlags>
void ReplicateLoop(benchmark::State& state, uint64_t n, Core& core, plinth_call& call) {
  const plinth_host_api_t* api = core.plugins.api;
  for (uint64_t i = 0; i < n; ++i) {
    if (api->replicate(&call, kFlags, "SET", 3, kArgv, kArgvLen) != PLINTH_OK)
      state.SkipWithError("replicate refused");
    if (i % kDrainEvery == kDrainEvery - 1) core.server.BeforeSleep();
  }
}

template <uint32_t kFlags>
void BM_Replicate(benchmark::State& state) {
  Core& core = H().core;
  plinth_call call;  // a handler's call with no client, in db 0
  call.core = &core;
  ReplicateLoop<kFlags>(state, 4 * kDrainEvery, core, call);  // warm-up: the buffer's size
  core.server.BeforeSleep();
  const plinth_host_api_t* api = core.plugins.api;
  uint64_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(api->replicate(&call, kFlags, "SET", 3, kArgv, kArgvLen));
    if (++i % kDrainEvery == 0) core.server.BeforeSleep();
  }
  core.server.BeforeSleep();
  CountAllocations(state, core, [&] { api->replicate(&call, kFlags, "SET", 3, kArgv, kArgvLen); });
  core.server.BeforeSleep();
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Replicate<0>)->Name("BM_Replicate_Validated");
BENCHMARK(BM_Replicate<PLINTH_REPLICATE_NO_VALIDATE>)->Name("BM_Replicate_NoValidate");

// The floor: the same effect straight into Core::Propagate (no ABI call, no checks).
void BM_Stream_PlainAppend(benchmark::State& state) {
  Core& core = H().core;
  for (uint64_t i = 0; i < 4 * kDrainEvery; ++i)
    core.propagation.Propagate(0, "SET", 3, 3, kArgv, kArgvLen);
  core.server.BeforeSleep();
  uint64_t i = 0;
  for (auto _ : state) {
    core.propagation.Propagate(0, "SET", 3, 3, kArgv, kArgvLen);
    if (++i % kDrainEvery == 0) core.server.BeforeSleep();
  }
  core.server.BeforeSleep();
  CountAllocations(state, core,
                   [&] { core.propagation.Propagate(0, "SET", 3, 3, kArgv, kArgvLen); });
  core.server.BeforeSleep();
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Stream_PlainAppend);

// The command-table lookup replicate() validates with, alone.
void BM_Replicate_Lookup(benchmark::State& state) {
  Core& core = H().core;
  for (auto _ : state) benchmark::DoNotOptimize(core.registry.FindCommand("SET"));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Replicate_Lookup);

// A command replicating three writes, run through Core::Execute as a client's would be.
template <bool kBypass>
void BM_Command_Transfer(benchmark::State& state) {
  Host& h = H();
  const char* argv[1] = {kBypass ? "bench.transfer_novalidate" : "bench.transfer"};
  const size_t len[1] = {std::char_traits<char>::length(argv[0])};
  for (uint64_t i = 0; i < 4 * kDrainEvery; ++i) {
    h.core.dispatch.Execute(h.session, h.sink, 1, argv, len);
    if (i % kDrainEvery == kDrainEvery - 1) h.core.server.BeforeSleep();
  }
  h.core.server.BeforeSleep();
  const uint64_t errors_before = errors;
  uint64_t i = 0;
  for (auto _ : state) {
    h.core.dispatch.Execute(h.session, h.sink, 1, argv, len);
    if (++i % kDrainEvery == 0) h.core.server.BeforeSleep();
  }
  h.core.server.BeforeSleep();
  CountAllocations(state, h.core,
                   [&] { h.core.dispatch.Execute(h.session, h.sink, 1, argv, len); });
  h.core.server.BeforeSleep();
  if (errors != errors_before) state.SkipWithError("the command was refused");
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Command_Transfer<false>)->Name("BM_Command_Transfer3/validated");
BENCHMARK(BM_Command_Transfer<true>)->Name("BM_Command_Transfer3/novalidate");

}  // namespace
