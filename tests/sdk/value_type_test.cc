// <plinth/value_type.hpp>: the spec ValueTypeSpec builds from a payload class and its RDB
// functions, and a type registered through ValueType in the fake host. Built as C++17 like an
// out-of-tree plugin.
#include <doctest/doctest.h>

#include <cstring>
#include <memory>
#include <new>
#include <plinth/fakehost.hpp>
#include <plinth/value_type.hpp>
#include <string>
#include <vector>

#include "mem_rdb_io.h"

using plinth::fakehost::FakeHost;
using plinth::testing::MemRdbIo;
namespace sdk = plinth::sdk;

namespace {

int tallies_alive = 0;

// A toy payload with every optional member: a list of words, "big" past three.
struct Tally {
  std::vector<std::string> words;
  Tally() { ++tallies_alive; }
  Tally(const Tally& o) : words(o.words) { ++tallies_alive; }
  ~Tally() { --tallies_alive; }
  size_t MemoryUsage() const { return 100 + words.size(); }
  const char* EncodingName() const { return words.size() > 3 ? "big" : "small"; }
  size_t FreeEffort() const { return words.size(); }
};

bool SaveTally(const Tally& t, plinth_rdb_io_t* io) {
  if (io->write_len(io, t.words.size()) != PLINTH_OK) return false;
  for (const std::string& w : t.words) {
    if (io->write_string(io, w.data(), w.size()) != PLINTH_OK) return false;
  }
  return true;
}

std::unique_ptr<Tally> LoadTally(uint32_t rdb_type, plinth_rdb_io_t* io) {
  uint64_t n = 0;
  if (rdb_type != PLINTH_RDB_SET || io->read_len(io, &n) != PLINTH_OK) return nullptr;
  auto t = std::make_unique<Tally>();
  for (uint64_t i = 0; i < n; ++i) {
    const char* s = nullptr;
    size_t len = 0;
    if (io->read_string(io, &s, &len) != PLINTH_OK) return nullptr;
    t->words.emplace_back(s, len);
  }
  return t;
}

// A payload with none of the optional members, copied only through Clone().
struct Cell {
  explicit Cell(int v) : value(v) {}
  Cell(const Cell&) = delete;
  std::unique_ptr<Cell> Clone() const { return std::make_unique<Cell>(value + 1); }
  int value;
};

// A payload whose copy and RDB functions throw.
struct Brittle {
  Brittle() = default;
  Brittle(const Brittle&) { throw std::bad_alloc(); }
};
int32_t SaveBrittle(const void*, plinth_rdb_io_t*) { throw std::bad_alloc(); }
Brittle* LoadBrittle(uint32_t, plinth_rdb_io_t*) { throw std::bad_alloc(); }

constexpr plinth_type_spec_t kTallySpec =
    sdk::ValueTypeSpec<Tally, &SaveTally, &LoadTally>("tally", PLINTH_RDB_SET);

// -- the "tally" plugin: TALLY.ADD key word..., TALLY.ENC key, TALLY.MEM key --

sdk::ValueType tally_type(kTallySpec);
bool duplicate_refused = false;

void Add(sdk::Call& c) {
  const plinth_value_t* v = c.Get(c.arg(1));
  if (!v) {
    c.Put(c.arg(1), sdk::Value::Adopt(sdk::Api().value_create_typed(sdk::Host::self,
                                                                    tally_type.id(), new Tally())));
  } else if (sdk::Api().value_type(v) != tally_type.id()) {
    return c.Error("WRONGTYPE");
  }
  auto* t = static_cast<Tally*>(
      sdk::Api().key_payload_mut(c.raw(), c.arg(1).data(), c.arg(1).size(), tally_type.id()));
  for (int i = 2; i < c.argc(); ++i) t->words.emplace_back(c.arg(i));
  c.Integer(static_cast<int64_t>(t->words.size()));
}

void Enc(sdk::Call& c) { c.Bulk(sdk::Api().value_encoding_name(c.Get(c.arg(1)))); }

void Mem(sdk::Call& c) {
  c.Integer(static_cast<int64_t>(sdk::Api().value_memory(c.Get(c.arg(1)))));
}

void Del(sdk::Call& c) { c.Integer(c.Delete(c.arg(1)) ? 1 : 0); }

const sdk::CommandDef kCommands[] = {
    {"tally.add", -3, PLINTH_CMD_WRITE, 1, 1, 1, Add},
    {"tally.enc", 2, PLINTH_CMD_READONLY, 1, 1, 1, Enc},
    {"tally.mem", 2, PLINTH_CMD_READONLY, 1, 1, 1, Mem},
    {"tally.del", 2, PLINTH_CMD_WRITE, 1, 1, 1, Del},
};

bool Init() {
  if (!tally_type.Register()) return false;
  sdk::ValueType again(kTallySpec);  // the name and rdb_type are taken now
  duplicate_refused = !again.Register() && again.id() == 0;
  return sdk::RegisterCommands(kCommands);
}

}  // namespace

PLINTH_PLUGIN("tally", "0.1.0", "value_type.hpp test plugin", Init, nullptr)

TEST_CASE("value type: the spec names the type and forwards to the payload class") {
  const plinth_type_spec_t& t = kTallySpec;
  CHECK(t.struct_size == sizeof(plinth_type_spec_t));
  CHECK(std::strcmp(t.name, "tally") == 0);
  CHECK(t.rdb_type == PLINTH_RDB_SET);
  CHECK(t.reserved0 == 0);
  CHECK((t.visit == nullptr));
  {
    auto* p = new Tally();
    p->words = {"a", "b"};
    CHECK(t.memory_usage(p) == 102);
    CHECK(std::strcmp(t.encoding(p), "small") == 0);
    CHECK(t.free_effort(p) == 2);
    auto* copy = static_cast<Tally*>(t.copy(p));
    REQUIRE(copy != nullptr);
    CHECK(copy != p);
    CHECK(copy->words == p->words);
    t.free_payload(copy);
    t.free_payload(p);
  }
  CHECK(tallies_alive == 0);
}

TEST_CASE("value type: rdb_save and rdb_load round-trip through the type's functions") {
  Tally t;
  t.words = {"x", "yy", "zzz"};
  MemRdbIo io;
  REQUIRE(kTallySpec.rdb_save(&t, &io.io) == PLINTH_OK);
  CHECK(io.items == std::vector<std::string>{"#3", "$x", "$yy", "$zzz"});
  auto* loaded = static_cast<Tally*>(kTallySpec.rdb_load(PLINTH_RDB_SET, &io.io));
  REQUIRE(loaded != nullptr);
  CHECK(loaded->words == t.words);
  kTallySpec.free_payload(loaded);
  MemRdbIo empty;
  CHECK(kTallySpec.rdb_load(PLINTH_RDB_SET, &empty.io) == nullptr);  // short input
  CHECK(kTallySpec.rdb_load(PLINTH_RDB_LIST, &io.io) == nullptr);    // another form
  CHECK(tallies_alive == 1);                                         // only t
}

TEST_CASE("value type: members a payload lacks leave their callbacks NULL, Clone copies") {
  constexpr plinth_type_spec_t t = sdk::ValueTypeSpec<Cell, nullptr, nullptr>("cell", 0);
  CHECK((t.memory_usage == nullptr));
  CHECK((t.encoding == nullptr));
  CHECK((t.free_effort == nullptr));
  CHECK((t.rdb_save == nullptr));
  CHECK((t.rdb_load == nullptr));
  CHECK(t.rdb_type == 0);
  Cell* c = new Cell(7);
  auto* copy = static_cast<Cell*>(t.copy(c));
  REQUIRE(copy != nullptr);
  CHECK(copy->value == 8);  // made by Clone
  t.free_payload(copy);
  t.free_payload(c);
}

TEST_CASE("value type: an exception reaches the host as NULL or PLINTH_ERR") {
  constexpr plinth_type_spec_t t =
      sdk::ValueTypeSpec<Brittle, &SaveBrittle, &LoadBrittle>("brittle", PLINTH_RDB_LIST);
  Brittle b;
  MemRdbIo io;
  CHECK(t.copy(&b) == nullptr);
  CHECK(t.rdb_save(&b, &io.io) == PLINTH_ERR);
  CHECK(t.rdb_load(PLINTH_RDB_LIST, &io.io) == nullptr);
}

TEST_CASE("value type: a registered type's values report through its callbacks and are freed") {
  CHECK(tally_type.id() == 0);
  {
    FakeHost host;
    REQUIRE(host.Load(plinth_plugin_entry_v1));
    CHECK(tally_type.id() >= 16);
    CHECK(duplicate_refused);
    CHECK(host.Call({"TALLY.ADD", "k", "a", "b"}).integer == 2);
    CHECK(host.Call({"TALLY.ENC", "k"}).str == "small");
    const int64_t small = host.Call({"TALLY.MEM", "k"}).integer;
    CHECK(small >= 102);
    CHECK(host.Call({"TALLY.ADD", "k", "c", "d"}).integer == 4);
    CHECK(host.Call({"TALLY.ENC", "k"}).str == "big");
    CHECK(host.Call({"TALLY.MEM", "k"}).integer == small + 2);
    CHECK(tallies_alive == 1);
    CHECK(host.Call({"TALLY.DEL", "k"}).integer == 1);
    CHECK(tallies_alive == 0);
    CHECK(host.Call({"TALLY.ADD", "k2", "x"}).integer == 1);
  }
  CHECK(tallies_alive == 0);  // the host freed what it still held
}
