// RESP request parsing: one small request, a pipelined batch, and large bulk values delivered
// whole or in socket-sized pieces. Reports requests/s (items) and input bytes/s.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <string>
#include <vector>

#include "resp/parser.h"

namespace {

using plinth::resp::ParseLimits;
using plinth::resp::Parser;
using plinth::resp::ParseStatus;

std::string Multibulk(const std::vector<std::string>& args) {
  std::string out;
  out.append("*").append(std::to_string(args.size())).append("\r\n");
  for (const std::string& a : args) {
    out.append("$").append(std::to_string(a.size())).append("\r\n");
    out.append(a).append("\r\n");
  }
  return out;
}

std::string Key(int i) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "key:%012d", i);
  return buf;
}

// Parses every request in buf; returns how many there were (0 on any error).
int64_t ParseAll(Parser& p, const std::string& buf, const ParseLimits& limits) {
  int64_t n = 0;
  size_t pos = 0;
  while (pos < buf.size()) {
    auto r = p.Parse(buf.data() + pos, buf.size() - pos, limits);
    if (r.status != ParseStatus::kOk) return 0;
    benchmark::DoNotOptimize(p.argv());
    pos += r.consumed;
    ++n;
  }
  return n;
}

void Finish(benchmark::State& state, int64_t requests_per_iter, size_t bytes_per_iter) {
  state.SetItemsProcessed(state.iterations() * requests_per_iter);
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(bytes_per_iter));
}

// GET key: the most common request, parsed alone.
void BM_RespParseGet(benchmark::State& state) {
  Parser p;
  ParseLimits limits;
  const std::string req = Multibulk({"GET", Key(42)});
  for (auto _ : state) {
    if (ParseAll(p, req, limits) != 1) state.SkipWithError("parse failed");
  }
  Finish(state, 1, req.size());
}
BENCHMARK(BM_RespParseGet);

// SET key <512 bytes>, parsed alone.
void BM_RespParseSet512(benchmark::State& state) {
  Parser p;
  ParseLimits limits;
  const std::string req = Multibulk({"SET", Key(42), std::string(512, 'x')});
  for (auto _ : state) {
    if (ParseAll(p, req, limits) != 1) state.SkipWithError("parse failed");
  }
  Finish(state, 1, req.size());
}
BENCHMARK(BM_RespParseSet512);

// An inline PING, as telnet-style clients send it.
void BM_RespParseInlinePing(benchmark::State& state) {
  Parser p;
  ParseLimits limits;
  const std::string req = "PING\r\n";
  for (auto _ : state) {
    if (ParseAll(p, req, limits) != 1) state.SkipWithError("parse failed");
  }
  Finish(state, 1, req.size());
}
BENCHMARK(BM_RespParseInlinePing);

// A pipeline of range(0) GETs that arrived in one read.
void BM_RespParsePipelinedGet(benchmark::State& state) {
  Parser p;
  ParseLimits limits;
  std::string buf;
  const int64_t n = state.range(0);
  for (int64_t i = 0; i < n; ++i) buf += Multibulk({"GET", Key(static_cast<int>(i))});
  for (auto _ : state) {
    if (ParseAll(p, buf, limits) != n) state.SkipWithError("parse failed");
  }
  Finish(state, n, buf.size());
}
BENCHMARK(BM_RespParsePipelinedGet)->Arg(16)->Arg(256);

// SET with a range(0)-byte value that arrived whole. Items only: the parser records where the
// payload lies without reading it, so bytes/s would only restate the payload size.
void BM_RespParseLargeBulk(benchmark::State& state) {
  Parser p;
  ParseLimits limits;
  const std::string req =
      Multibulk({"SET", Key(1), std::string(static_cast<size_t>(state.range(0)), 'v')});
  for (auto _ : state) {
    if (ParseAll(p, req, limits) != 1) state.SkipWithError("parse failed");
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_RespParseLargeBulk)->Arg(64 << 10)->Arg(1 << 20);

// The same request delivered 16 KiB at a time: each call passes everything received so far,
// as the host does, so this shows that resuming never rescans the payload.
void BM_RespParseLargeBulkIn16KiBReads(benchmark::State& state) {
  Parser p;
  ParseLimits limits;
  const std::string req =
      Multibulk({"SET", Key(1), std::string(static_cast<size_t>(state.range(0)), 'v')});
  constexpr size_t kRead = 16 << 10;
  for (auto _ : state) {
    size_t have = 0;
    for (;;) {
      have = std::min(req.size(), have + kRead);
      auto r = p.Parse(req.data(), have, limits);
      if (r.status == ParseStatus::kOk) break;
      if (r.status != ParseStatus::kNeedMore || have == req.size()) {
        state.SkipWithError("parse failed");
        break;
      }
    }
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_RespParseLargeBulkIn16KiBReads)->Arg(64 << 10)->Arg(1 << 20);

}  // namespace
