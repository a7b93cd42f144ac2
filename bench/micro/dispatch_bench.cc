// Command dispatch through the plugin ABI against a direct call. The "plugin" variants load the
// real strings.so through the host loader and call its GET/SET handler through the registered
// plinth_command_spec_t, so the handler reaches the keyspace through the host API table. The
// "direct" variants do the same work (lookup, expiry check, hit counting, value creation) as a
// host function called directly. Both include the command-table lookup and skip reply encoding
// (a call without a client replies nowhere), so the difference is the cost of the ABI boundary.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "host/core/call.h"
#include "host/core/core.h"
#include "host/shell/server.h"

#ifndef PLINTH_BENCH_PLUGIN_DIR
#error "PLINTH_BENCH_PLUGIN_DIR must name the folder holding strings.so"
#endif

namespace {

using namespace plinth::host;

constexpr int kKeys = 1024;  // small: the point is the call path, not cache misses

std::string Key(int i) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "key:%012d", i);
  return buf;
}

// The host with the strings plugin loaded and kKeys keys in db 0. Built once.
struct Host {
  std::vector<std::string> keys;
  std::string value = std::string(16, 'v');

  Shell shell;
  Core& s = shell.core;

  Host() {
    s.options.SetPending("loglevel", "warning");
    std::string err;
    if (!RegisterShellOptions(shell, &err) ||
        !s.plugins.Load(PluginRequest{"strings", false, {}}, PLINTH_BENCH_PLUGIN_DIR, &err)) {
      std::fprintf(stderr, "dispatch_bench: cannot set up the host: %s\n", err.c_str());
      std::exit(1);
    }
    s.keyspace.Create();  // as Shell::Run
    for (int i = 0; i < kKeys; ++i) {
      keys.push_back(Key(i));
      s.keyspace.dbs[0].Set(keys.back(), ValueCreateString(value.data(), value.size()), false);
    }
  }
};

Host& H() {
  static Host* h = new Host();
  return *h;
}

// What a monolithic server's GET does once it has found its command: no function table.
void DirectGet(plinth_call* call) {
  Core& s = *call->core;
  std::string_view key(call->argv[1], call->argvlen[1]);
  Entry* e = s.keyspace.dbs[call->db].Find(key);
  if (e && plinth::host::EntryExpired(e, call->now_ms)) {
    s.keyspace.expiry.ExpireKey(call->db, key);
    e = nullptr;
  }
  if (e) {
    s.server.stats.keyspace_hits++;
  } else {
    s.server.stats.keyspace_misses++;
  }
  call->replies++;
  benchmark::DoNotOptimize(e ? plinth::host::StringData(plinth::host::EntryValue(e)) : nullptr);
}

void DirectSet(plinth_call* call) {
  Core& s = *call->core;
  plinth_value_t* v = ValueCreateString(call->argv[2], call->argvlen[2]);
  s.keyspace.dbs[call->db].Set(std::string_view(call->argv[1], call->argvlen[1]), v, false);
  s.keyspace.dirty++;
  call->replies++;
}

// Runs one request of argv through the registry: lookup, arity, then the handler (plugin) or
// the direct function. Returns false when the command is missing or produced no reply.
template <bool kPlugin>
bool Dispatch(const char* const* argv, const size_t* len, int32_t argc,
              void (*direct)(plinth_call*)) {
  Core& core = H().s;
  Command* cmd = core.registry.FindCommand(std::string_view(argv[0], len[0]));
  if (!cmd) return false;
  int32_t a = cmd->spec.arity;
  if (a > 0 ? argc != a : argc < -a) return false;
  plinth_call call;
  call.core = &core;
  call.cmd = cmd;
  call.argc = argc;
  call.argv = argv;
  call.argvlen = len;
  call.now_ms = 1;
  if (kPlugin) {
    cmd->spec.handler(&call, cmd->spec.ctx);
  } else {
    direct(&call);
  }
  return call.replies == 1;
}

template <bool kPlugin>
void BM_DispatchGet(benchmark::State& state) {
  Host& h = H();
  size_t i = 0;
  for (auto _ : state) {
    const std::string& k = h.keys[i++ & (kKeys - 1)];
    const char* argv[2] = {"GET", k.data()};
    size_t len[2] = {3, k.size()};
    if (!Dispatch<kPlugin>(argv, len, 2, DirectGet)) state.SkipWithError("GET failed");
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_DispatchGet<true>)->Name("BM_DispatchGet/plugin_abi");
BENCHMARK(BM_DispatchGet<false>)->Name("BM_DispatchGet/direct");

template <bool kPlugin>
void BM_DispatchSet(benchmark::State& state) {
  Host& h = H();
  size_t i = 0;
  for (auto _ : state) {
    const std::string& k = h.keys[i++ & (kKeys - 1)];
    const char* argv[3] = {"SET", k.data(), h.value.data()};
    size_t len[3] = {3, k.size(), h.value.size()};
    if (!Dispatch<kPlugin>(argv, len, 3, DirectSet)) state.SkipWithError("SET failed");
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_DispatchSet<true>)->Name("BM_DispatchSet/plugin_abi");
BENCHMARK(BM_DispatchSet<false>)->Name("BM_DispatchSet/direct");

// The command-table lookup alone (case-folding plus the hash map).
void BM_CommandLookup(benchmark::State& state) {
  H();
  Core& core = H().s;
  for (auto _ : state) benchmark::DoNotOptimize(core.registry.FindCommand("get"));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_CommandLookup);

}  // namespace
