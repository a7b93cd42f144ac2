// The compat fixtures 1-3 (built against the frozen ABI 1.0 header) loaded from their .so
// files into the fake host: the same behaviour as in the server, without one.
#include <doctest/doctest.h>

#include <plinth/fakehost.hpp>
#include <string>
#include <vector>

#include "mem_rdb_io.h"

using plinth::fakehost::FakeHost;
using plinth::fakehost::ReplyType;

namespace {

std::string Fixture(const char* kind) {
  return std::string(PLINTH_COMPAT_DIR) + "/compat_" + kind + ".so";
}

std::string Plugin(const char* name) {
  return std::string(PLINTH_TEST_PLUGIN_DIR) + "/" + name + ".so";
}

bool Has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Retains the value stored under "want" in a database (db_visit outside any command).
struct Finder {
  std::string want;
  const plinth_value_t* found = nullptr;
  const plinth_host_api_t* api = nullptr;
  static int32_t Visit(void* arg, const char* key, size_t klen, const plinth_value_t* v, int64_t) {
    auto* f = static_cast<Finder*>(arg);
    if (std::string(key, klen) != f->want) return 0;
    f->api->value_retain(v);
    f->found = v;
    return 1;
  }
};

}  // namespace

TEST_CASE("abi compat: a 1.0 command, option, INFO section and type work in the fake host") {
  const int64_t live_before = FakeHost::LiveValues();
  {
    FakeHost host;
    host.SetOption("compat_command.step", "2");  // as --compat_command.step 2
    REQUIRE_MESSAGE(host.LoadFile(Fixture("command")), host.LoadError());
    CHECK(host.Call({"COMPAT.CTR.NEW", "c", "5"}).str == "OK");
    CHECK(host.Call({"COMPAT.CTR.INCR", "c"}).integer == 7);
    REQUIRE(host.SetOption("compat_command.step", "10"));  // CONFIG SET
    CHECK(host.Call({"compat.ctr.incr", "c"}).integer == 17);
    std::string why;
    CHECK_FALSE(host.SetOption("compat_command.step", "0", &why));  // refused by apply
    CHECK(Has(why, "step must not be 0"));
    CHECK(host.GetOption("compat_command.step") == "10");
    CHECK(host.Call({"COMPAT.CTR.GET", "c"}).integer == 17);
    CHECK(host.Call({"COMPAT.CTR.GET", "none"}).IsNull());
    host.PutString("s", "text");
    CHECK(host.Call({"COMPAT.CTR.INCR", "s"}).str.rfind("WRONGTYPE", 0) == 0);
    CHECK(host.Call({"COMPAT.CTR.GET"}).str ==
          "ERR wrong number of arguments for 'compat.ctr.get' command");
    // Writes propagate verbatim.
    CHECK(host.Propagated().back().argv == std::vector<std::string>{"compat.ctr.incr", "c"});
    const std::string info = host.Info("compat_command");
    CHECK(Has(info, "abi_minor:0\r\n"));  // built against the frozen 1.0 header
    // Its command spec is 1.0's, shorter than this host's (1.1 appended complexity): the
    // host accepted the short struct and reads the fields it lacks as zeros.
    const size_t at = info.find("command_spec_size:");
    REQUIRE(at != std::string::npos);
    CHECK(std::stoul(info.substr(at + 18)) < sizeof(plinth_command_spec_t));
    CHECK(Has(info, "created:1\r\n"));
    CHECK(Has(info, "incrs:2\r\n"));
    CHECK(Has(info, "step:10\r\n"));
    CHECK(Has(info, "step_applies:2\r\n"));
    CHECK(Has(info, "type_name:compatctr\r\n"));

    // The type's rdb_save and rdb_load round trip, through the host's value_rdb_* calls.
    const plinth_host_api_t* api = host.Api();
    Finder f{"c", nullptr, api};
    api->db_visit(host.TestPlugin(), 0, &Finder::Visit, &f);
    REQUIRE(f.found != nullptr);
    plinth::testing::MemRdbIo io;
    uint32_t rdb_type = 0;
    REQUIRE(api->value_rdb_save(f.found, &io.io, &rdb_type) == PLINTH_OK);
    CHECK(rdb_type == PLINTH_RDB_LIST);
    CHECK(io.items == std::vector<std::string>{"#1", "$17"});
    api->value_release(f.found);
    plinth_value_t* copy = api->value_rdb_load(host.TestPlugin(), PLINTH_RDB_LIST, &io.io);
    REQUIRE(copy != nullptr);
    REQUIRE(api->key_load(host.TestPlugin(), 0, "loaded", 6, copy, -1) == PLINTH_OK);
    CHECK(host.Call({"COMPAT.CTR.GET", "loaded"}).integer == 17);
    plinth::testing::MemRdbIo bad;  // malformed input: NULL, nothing leaked
    bad.items = {"#2", "$1", "$2"};
    CHECK(api->value_rdb_load(host.TestPlugin(), PLINTH_RDB_LIST, &bad.io) == nullptr);
  }
  CHECK(FakeHost::LiveValues() == live_before);
}

TEST_CASE("abi compat: a 1.0 option with a flag bit 1.0 does not define loads and works") {
  FakeHost host;
  host.SetOption("compat_command.loose", "3");  // as --compat_command.loose 3
  REQUIRE_MESSAGE(host.LoadFile(Fixture("command")), host.LoadError());
  CHECK(host.GetOption("compat_command.loose") == "3");
  REQUIRE_MESSAGE(host.LoadFile(Plugin("server")), host.LoadError());
  const uint64_t remote = host.AddClient();  // not local: the bit did not make it protected
  CHECK(host.CallAs(remote, {"CONFIG", "SET", "compat_command.loose", "4"})->str == "OK");
  CHECK(host.GetOption("compat_command.loose") == "4");
}

namespace {

// A 1.2 plugin whose option names a path and says so (PLINTH_OPT_PROTECTED).
int32_t ProtectedInit(plinth_plugin_t* self, const plinth_host_api_t* api) {
  plinth_option_spec_t o{};
  o.struct_size = sizeof o;
  o.name = "spool-dir";
  o.type = PLINTH_OPT_STRING;
  o.flags = PLINTH_OPT_MUTABLE | PLINTH_OPT_PROTECTED;
  o.default_value = "/var/spool/p";
  o.description = "where files go";
  return api->option_register(self, &o) ? PLINTH_OK : PLINTH_ERR;
}
const plinth_plugin_descriptor_t kProtected = {sizeof(plinth_plugin_descriptor_t),
                                               PLINTH_ABI_MAJOR,
                                               2,
                                               0,
                                               "prot",
                                               "1",
                                               "an option with PLINTH_OPT_PROTECTED",
                                               ProtectedInit,
                                               nullptr,
                                               {nullptr, nullptr, nullptr, nullptr}};

}  // namespace

TEST_CASE(
    "abi 1.2: a plugin's protected option is refused to clients enable-protected-configs "
    "does not allow") {
  FakeHost host;  // enable-protected-configs local
  host.SetOption("prot.spool-dir", "/srv/spool");
  REQUIRE_MESSAGE(host.Load(&kProtected, "prot"), host.LoadError());
  CHECK(host.GetOption("prot.spool-dir") == "/srv/spool");  // the config may
  REQUIRE_MESSAGE(host.LoadFile(Plugin("server")), host.LoadError());
  const uint64_t remote = host.AddClient(), local = host.AddClient();
  host.SetClientLocal(local, true);
  CHECK(host.CallAs(remote, {"CONFIG", "SET", "prot.spool-dir", "/tmp"})->str ==
        "ERR CONFIG SET failed (possibly related to argument 'prot.spool-dir') - can't set "
        "protected config");
  CHECK(host.GetOption("prot.spool-dir") == "/srv/spool");
  CHECK(host.CallAs(local, {"CONFIG", "SET", "prot.spool-dir", "/tmp"})->str == "OK");
  CHECK(host.GetOption("prot.spool-dir") == "/tmp");
  // The setting itself is immutable, as in Redis.
  CHECK(host.CallAs(local, {"CONFIG", "SET", "enable-protected-configs", "yes"})->str ==
        "ERR CONFIG SET failed (possibly related to argument 'enable-protected-configs') - "
        "can't set immutable config");
  CHECK(host.GetOption("enable-protected-configs") == "local");
}

TEST_CASE("abi compat: a 1.0 plugin runs commands through call_command in the fake host") {
  FakeHost host;
  REQUIRE_MESSAGE(host.LoadFile(Plugin("strings")), host.LoadError());
  REQUIRE_MESSAGE(host.LoadFile(Fixture("call")), host.LoadError());
  CHECK(host.Call({"COMPAT.CALL.SETGET", "k", "hello"}).str == "hello");
  CHECK(host.GetString("k") == "hello");
  // The nested SET joins the call's propagation unit.
  bool nested_set = false;
  for (const auto& p : host.Propagated())
    nested_set = nested_set || p.argv == std::vector<std::string>{"SET", "k", "hello"};
  CHECK(nested_set);
  CHECK(host.Call({"COMPAT.CALL.RUN", "GET", "k"}).str == "hello");
  CHECK(host.Call({"COMPAT.CALL.RUN", "INCR", "n"}).integer == 1);
  CHECK(host.Call({"COMPAT.CALL.RUN", "GET", "missing"}).IsNull());
  const auto err = host.Call({"COMPAT.CALL.RUN", "NOSUCH"});
  CHECK(err.IsError());
  CHECK(Has(err.str, "unknown command"));
  CHECK(Has(host.Call({"COMPAT.CALL.RUN", "INCR", "k"}).str, "not an integer"));
}

TEST_CASE("abi compat: a 1.0 stream consumer sees every write in the fake host") {
  FakeHost host;
  REQUIRE_MESSAGE(host.LoadFile(Plugin("strings")), host.LoadError());
  REQUIRE_MESSAGE(host.LoadFile(Fixture("stream")), host.LoadError());
  const auto before = host.Call({"COMPAT.STREAM.STATS"});
  REQUIRE(before.type == ReplyType::kArray);
  CHECK(host.Call({"SET", "alpha", "one"}).str == "OK");
  CHECK(host.Call({"GET", "alpha"}).str == "one");
  const auto after = host.Call({"COMPAT.STREAM.STATS"});
  REQUIRE(after.elements.size() == 4);
  CHECK(after.elements[0].integer > before.elements[0].integer);
  CHECK(after.elements[1].integer > before.elements[1].integer);
  CHECK(after.elements[2].integer == 0);  // no gap between batches
  CHECK(Has(host.Call({"COMPAT.STREAM.TAIL"}).str, "$3\r\nSET\r\n$5\r\nalpha\r\n$3\r\none\r\n"));
  CHECK(Has(host.Info("compat_stream"), "gaps:0\r\n"));
}
