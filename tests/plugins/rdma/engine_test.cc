// Two protocol engines over an in-process fabric that behaves like RC queue pairs: an RDMA
// write lands in the peer's registered buffer at once (rkey and bounds checked), its
// completion and every control message arrive later, in order per direction, interleaved at
// random. Random message sizes up to 64 MiB both ways must arrive byte for byte; the broken
// engine variants must be caught.
#include "rdma/engine.h"

#include <doctest/doctest.h>

#include <cstring>
#include <deque>
#include <memory>
#include <random>
#include <string>
#include <vector>

using namespace plinth::rdma;

namespace {

// The byte at position pos of direction dir's stream.
char StreamByte(int dir, uint64_t pos) {
  return static_cast<char>(((pos + 1) * 2654435761ULL >> 13) ^ (dir ? 0x5a : 0xa5));
}

struct Fabric;

struct Side : Wire {
  Fabric* fabric = nullptr;
  int idx = 0;
  std::vector<char> rx;
  uint32_t rkey = 0;
  std::unique_ptr<Engine> engine;
  bool SendCtl(const uint8_t msg[kCtlSize]) override;
  bool WriteWithImm(uint64_t addr, uint32_t key, const char* data, uint32_t len) override;
};

struct Event {
  bool data;
  std::string ctl;  // a control message
  uint32_t imm = 0;
};

struct Fabric {
  Side sides[2];
  std::deque<Event> to[2];          // completions waiting for each side, in order
  uint32_t byte_len_of_writes = 0;  // what a WRITE WITH IMM completion says in byte_len
  std::string error;
};

bool Side::SendCtl(const uint8_t msg[kCtlSize]) {
  fabric->to[1 - idx].push_back({false, std::string(reinterpret_cast<const char*>(msg), kCtlSize)});
  return true;
}

bool Side::WriteWithImm(uint64_t addr, uint32_t key, const char* data, uint32_t len) {
  Side& peer = fabric->sides[1 - idx];
  const auto base = reinterpret_cast<uint64_t>(peer.rx.data());
  if (key != peer.rkey || addr < base || addr + len > base + peer.rx.size()) {
    fabric->error = "remote access error";
    return false;
  }
  std::memcpy(reinterpret_cast<char*>(addr), data, len);  // one-sided: lands now
  fabric->to[1 - idx].push_back({true, {}, len});
  return true;
}

struct Result {
  bool identical = false;
  std::string why;
  uint64_t refreshes = 0;
};

// Sends sizes[dir] messages each way and checks what arrives. rx_len: each side's RX buffer.
Result RunStreams(uint32_t rx_len, const std::vector<uint64_t> sizes[2], Fault fault_b,
                  uint32_t byte_len_of_writes, uint32_t seed) {
  Fabric f;
  f.byte_len_of_writes = byte_len_of_writes;
  std::mt19937 rng(seed);
  for (int i = 0; i < 2; ++i) {
    Side& s = f.sides[i];
    s.fabric = &f;
    s.idx = i;
    s.rx.assign(rx_len, 0);
    s.rkey = 0x1000 + static_cast<uint32_t>(i);
    s.engine =
        std::make_unique<Engine>(&s, s.rx.data(), rx_len, reinterpret_cast<uint64_t>(s.rx.data()),
                                 s.rkey, i == 1 ? fault_b : Fault::kNone);
    REQUIRE(s.engine->Start(0));
  }
  uint64_t total[2] = {0, 0}, sent[2] = {0, 0}, got[2] = {0, 0};
  for (int d = 0; d < 2; ++d)
    for (uint64_t n : sizes[d]) total[d] += n;
  std::vector<char> chunk;
  Result r;
  for (int idle = 0; idle < 1000;) {
    bool progress = false;
    for (int d = 0; d < 2; ++d) {  // side d writes a random chunk of its stream
      Engine& e = *f.sides[d].engine;
      if (sent[d] < total[d] && e.Writable()) {
        const uint64_t want = std::min<uint64_t>(total[d] - sent[d], 1 + rng() % (256 << 10));
        chunk.resize(want);
        for (uint64_t i = 0; i < want; ++i) chunk[i] = StreamByte(d, sent[d] + i);
        const int64_t w = e.Write(chunk.data(), want);
        if (w < 0) {
          r.why = "write failed: " + f.error;
          return r;
        }
        sent[d] += static_cast<uint64_t>(w);
        progress |= w > 0;
      }
    }
    for (int d = 0; d < 2; ++d) {  // a random number of completions arrive at side d
      Engine& e = *f.sides[d].engine;
      for (size_t k = rng() % 4; k > 0 && !f.to[d].empty(); --k) {
        Event ev = f.to[d].front();
        f.to[d].pop_front();
        progress = true;
        const bool ok =
            ev.data ? e.OnData(ev.imm, f.byte_len_of_writes ? ev.imm : 0)
                    : e.OnControl(reinterpret_cast<const uint8_t*>(ev.ctl.data()), ev.ctl.size());
        if (!ok) {
          r.why = std::string("protocol error at side ") + char('0' + d);
          return r;
        }
      }
    }
    for (int d = 0; d < 2; ++d) {  // side d's parser takes part of what it has
      Engine& e = *f.sides[d].engine;
      const std::string_view in = e.Readable();
      if (in.empty()) continue;
      // Half the time all of it (a parser takes every complete request), else a prefix.
      const size_t take = rng() % 2 ? in.size() : 1 + rng() % in.size();
      for (size_t i = 0; i < take; ++i) {
        if (in[i] != StreamByte(1 - d, got[d] + i)) {
          r.why =
              "stream " + std::to_string(1 - d) + " corrupt at byte " + std::to_string(got[d] + i);
          return r;
        }
      }
      got[d] += take;
      REQUIRE(e.Consume(take));
      progress = true;
    }
    if (got[0] == total[1] && got[1] == total[0]) {
      for (int d = 0; d < 2; ++d)  // what is still on its way must be well-formed too
        for (const Event& ev : f.to[d])
          if (!(ev.data ? f.sides[d].engine->OnData(ev.imm, ev.imm)
                        : f.sides[d].engine->OnControl(
                              reinterpret_cast<const uint8_t*>(ev.ctl.data()), ev.ctl.size()))) {
            r.why = std::string("protocol error at side ") + char('0' + d) + " after the end";
            return r;
          }
      r.identical = true;
      r.refreshes = f.sides[0].engine->refreshes_sent() + f.sides[1].engine->refreshes_sent();
      return r;
    }
    idle = progress ? 0 : idle + 1;
  }
  r.why = "stalled with " + std::to_string(got[0]) + "/" + std::to_string(total[1]) + " and " +
          std::to_string(got[1]) + "/" + std::to_string(total[0]) + " bytes received";
  return r;
}

std::vector<uint64_t> RandomSizes(std::mt19937& rng, int count) {
  std::vector<uint64_t> s = {64ull << 20};  // one message of 64 MiB
  for (int i = 0; i < count; ++i) s.push_back(1 + rng() % (1u << (1 + rng() % 20)));
  return s;
}

}  // namespace

TEST_CASE("rdma engine: random messages up to 64 MiB arrive identical both ways") {
  std::mt19937 rng(1);
  for (uint32_t rx_len : {64u << 10, 1u << 20}) {
    CAPTURE(rx_len);
    const std::vector<uint64_t> sizes[2] = {RandomSizes(rng, 100), RandomSizes(rng, 100)};
    const Result r = RunStreams(rx_len, sizes, Fault::kNone, 1, 7);
    CHECK_MESSAGE(r.identical, r.why);
    CHECK(r.refreshes >= 2 * (64ull << 20) / rx_len);  // every full buffer was refreshed
  }
}

TEST_CASE("rdma engine: the suite catches a receiver that refreshes early") {
  std::mt19937 rng(2);
  const std::vector<uint64_t> sizes[2] = {RandomSizes(rng, 20), RandomSizes(rng, 20)};
  const Result r = RunStreams(64 << 10, sizes, Fault::kEarlyRefresh, 1, 9);
  CHECK_FALSE(r.identical);
  MESSAGE("caught: ", r.why);
}

TEST_CASE("rdma engine: the suite catches a receiver that counts byte_len instead of imm") {
  std::mt19937 rng(3);
  const std::vector<uint64_t> sizes[2] = {RandomSizes(rng, 20), RandomSizes(rng, 20)};
  // byte_len 0 in WRITE WITH IMM completions, as providers may report it: only imm counts.
  const Result good = RunStreams(64 << 10, sizes, Fault::kNone, 0, 11);
  CHECK_MESSAGE(good.identical, good.why);
  const Result bad = RunStreams(64 << 10, sizes, Fault::kCountByteLen, 0, 11);
  CHECK_FALSE(bad.identical);
  MESSAGE("caught: ", bad.why);
}

namespace {
struct Recorder : Wire {
  std::vector<std::string> ctl;
  bool fail = false;
  bool SendCtl(const uint8_t msg[kCtlSize]) override {
    ctl.emplace_back(reinterpret_cast<const char*>(msg), kCtlSize);
    return !fail;
  }
  bool WriteWithImm(uint64_t, uint32_t, const char*, uint32_t) override { return !fail; }
};
std::string Ctl(const CtlMsg& m) {
  uint8_t b[kCtlSize];
  EncodeCtl(m, b);
  return std::string(reinterpret_cast<char*>(b), kCtlSize);
}
}  // namespace

TEST_CASE("rdma engine: control messages as real peers expect them") {
  Recorder w;
  std::vector<char> rx(4096);
  Engine e(&w, rx.data(), 4096, 0x7000, 42);
  REQUIRE(e.Start(1000));
  CtlMsg reg;
  reg.op = Op::kRegisterXferMemory;
  reg.addr = 0x7000;
  reg.length = 4096;
  reg.rkey = 42;
  REQUIRE(w.ctl.size() == 1);
  CHECK(w.ctl[0] == Ctl(reg));  // each side registers its RX buffer on ESTABLISHED
  CHECK_FALSE(e.Writable());    // no write before the peer's buffer is known
  CHECK(e.Write("x", 1) == 0);
  CtlMsg get;
  get.op = Op::kGetServerFeature;
  get.select = 7;
  get.features = 99;
  const std::string g = Ctl(get);
  REQUIRE(e.OnControl(reinterpret_cast<const uint8_t*>(g.data()), g.size()));
  CtlMsg reply;
  reply.op = Op::kGetServerFeature;
  reply.select = 7;
  CHECK(w.ctl.back() == Ctl(reply));  // the selector echoed, features 0
  CtlMsg set;
  set.op = Op::kSetClientFeature;
  set.features = 1;
  const std::string s = Ctl(set);
  CHECK(e.OnControl(reinterpret_cast<const uint8_t*>(s.data()), s.size()));
  CHECK(w.ctl.size() == 2);  // refused without a reply
  const std::string forty(40, '\0');
  CHECK_FALSE(e.OnControl(reinterpret_cast<const uint8_t*>(forty.data()), 40));
  std::string unknown(kCtlSize, '\0');
  unknown[1] = 9;
  CHECK_FALSE(e.OnControl(reinterpret_cast<const uint8_t*>(unknown.data()), kCtlSize));
  // Keepalive every 3 s, and a failed send breaks the connection.
  CHECK(e.Tick(3999));
  CHECK(w.ctl.size() == 2);
  CHECK(e.Tick(4000));
  CtlMsg k;
  k.op = Op::kKeepalive;
  CHECK(w.ctl.back() == Ctl(k));
  w.fail = true;
  CHECK_FALSE(e.Tick(7000));
}

TEST_CASE("rdma engine: a peer that writes past the buffer or refreshes early is refused") {
  Recorder w;
  std::vector<char> rx(4096);
  Engine e(&w, rx.data(), 4096, 0x7000, 42);
  REQUIRE(e.Start(0));
  CHECK(e.OnData(4000, 4000));
  CHECK_FALSE(e.OnData(100, 100));  // 4100 > 4096
  Engine tx(&w, rx.data(), 4096, 0x7000, 42);
  CtlMsg reg;
  reg.op = Op::kRegisterXferMemory;
  reg.addr = 0x9000;
  reg.length = 100;
  reg.rkey = 5;
  const std::string r = Ctl(reg);
  REQUIRE(tx.OnControl(reinterpret_cast<const uint8_t*>(r.data()), r.size()));
  CHECK(tx.Write(std::string(150, 'a').data(), 150) == 100);  // the peer's buffer is full
  CHECK(tx.Write("b", 1) == 0);                               // would block
  REQUIRE(tx.OnControl(reinterpret_cast<const uint8_t*>(r.data()), r.size()));  // a refresh
  CHECK(tx.Write("b", 1) == 1);
  CHECK_FALSE(tx.OnControl(reinterpret_cast<const uint8_t*>(r.data()), r.size()));  // early
}

TEST_CASE("rdma engine: a peer buffer of 0 or over 16 MiB is refused") {
  Recorder w;
  std::vector<char> rx(4096);
  for (const uint32_t length : {0u, kMaxRxLen + 1}) {
    Engine tx(&w, rx.data(), 4096, 0x7000, 42);
    CtlMsg reg;
    reg.op = Op::kRegisterXferMemory;
    reg.addr = 0x9000;
    reg.length = length;
    reg.rkey = 5;
    const std::string r = Ctl(reg);
    CHECK_FALSE(tx.OnControl(reinterpret_cast<const uint8_t*>(r.data()), r.size()));
  }
  Engine ok(&w, rx.data(), 4096, 0x7000, 42);
  CtlMsg reg;
  reg.op = Op::kRegisterXferMemory;
  reg.addr = 0x9000;
  reg.length = kMaxRxLen;
  reg.rkey = 5;
  const std::string r = Ctl(reg);
  CHECK(ok.OnControl(reinterpret_cast<const uint8_t*>(r.data()), r.size()));
}
