// RESP reply encoding into a growable output buffer, the way the host hands one to the resp
// plugin: status, integer, bulk of several sizes, an MGET-style array, and a RESP3 map.
#include <benchmark/benchmark.h>
#include <plinth/plugin.h>

#include <cstdlib>
#include <string>

#include "resp/encoder.h"

namespace {

using plinth::resp::EncodeReply;

int32_t Grow(plinth_outbuf_t* out, size_t min_free) {
  size_t cap = out->cap ? out->cap : 256;
  while (cap - out->len < min_free) cap *= 2;
  char* p = static_cast<char*>(std::realloc(out->data, cap));
  if (!p) return PLINTH_ERR;
  out->data = p;
  out->cap = cap;
  return PLINTH_OK;
}

// An output buffer reused across iterations, like a client's tail segment.
struct Out {
  plinth_outbuf_t buf{sizeof(plinth_outbuf_t), nullptr, 0, 0, Grow, nullptr};
  ~Out() { std::free(buf.data); }
};

plinth_reply_item_t Item(uint32_t type, int64_t integer = 0, const char* data = nullptr,
                         size_t len = 0) {
  plinth_reply_item_t it{};
  it.struct_size = sizeof it;
  it.type = type;
  it.integer = integer;
  it.data = data;
  it.len = len;
  return it;
}

void BM_RespEncodeOk(benchmark::State& state) {
  Out out;
  const plinth_reply_item_t ok = Item(PLINTH_REPLY_SIMPLE, 0, "OK", 2);
  for (auto _ : state) {
    out.buf.len = 0;
    if (!EncodeReply(2, ok, &out.buf)) state.SkipWithError("encode failed");
    benchmark::DoNotOptimize(out.buf.data);
  }
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(state.iterations() * 5);
}
BENCHMARK(BM_RespEncodeOk);

void BM_RespEncodeInteger(benchmark::State& state) {
  Out out;
  int64_t v = 1234567;
  for (auto _ : state) {
    out.buf.len = 0;
    if (!EncodeReply(2, Item(PLINTH_REPLY_INTEGER, v++), &out.buf)) state.SkipWithError("fail");
    benchmark::DoNotOptimize(out.buf.data);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_RespEncodeInteger);

// A GET reply of range(0) bytes (copied into the buffer: the non-zero-copy path).
void BM_RespEncodeBulk(benchmark::State& state) {
  Out out;
  const std::string value(static_cast<size_t>(state.range(0)), 'v');
  const plinth_reply_item_t bulk = Item(PLINTH_REPLY_BULK, 0, value.data(), value.size());
  for (auto _ : state) {
    out.buf.len = 0;
    if (!EncodeReply(2, bulk, &out.buf)) state.SkipWithError("encode failed");
    benchmark::DoNotOptimize(out.buf.data);
  }
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(value.size()));
}
BENCHMARK(BM_RespEncodeBulk)->Arg(16)->Arg(512)->Arg(64 << 10);

// An MGET of 10 keys: the array header and ten 16-byte bulks; items are reply elements.
void BM_RespEncodeArrayOfBulks(benchmark::State& state) {
  Out out;
  const std::string value(16, 'v');
  const plinth_reply_item_t head = Item(PLINTH_REPLY_ARRAY, 10);
  const plinth_reply_item_t bulk = Item(PLINTH_REPLY_BULK, 0, value.data(), value.size());
  for (auto _ : state) {
    out.buf.len = 0;
    bool ok = EncodeReply(2, head, &out.buf);
    for (int i = 0; i < 10; ++i) ok &= EncodeReply(2, bulk, &out.buf);
    if (!ok) state.SkipWithError("encode failed");
    benchmark::DoNotOptimize(out.buf.data);
  }
  state.SetItemsProcessed(state.iterations() * 10);
}
BENCHMARK(BM_RespEncodeArrayOfBulks);

// A RESP3 map of 8 pairs (HELLO-style), and the same map downgraded to RESP2.
void BM_RespEncodeMap(benchmark::State& state) {
  Out out;
  const uint32_t proto = static_cast<uint32_t>(state.range(0));
  const plinth_reply_item_t head = Item(PLINTH_REPLY_MAP, 8);
  const plinth_reply_item_t key = Item(PLINTH_REPLY_BULK, 0, "field", 5);
  const plinth_reply_item_t val = Item(PLINTH_REPLY_INTEGER, 42);
  for (auto _ : state) {
    out.buf.len = 0;
    bool ok = EncodeReply(proto, head, &out.buf);
    for (int i = 0; i < 8; ++i)
      ok &= EncodeReply(proto, key, &out.buf) && EncodeReply(proto, val, &out.buf);
    if (!ok) state.SkipWithError("encode failed");
    benchmark::DoNotOptimize(out.buf.data);
  }
  state.SetItemsProcessed(state.iterations() * 16);
}
BENCHMARK(BM_RespEncodeMap)->ArgName("proto")->Arg(2)->Arg(3);

}  // namespace
