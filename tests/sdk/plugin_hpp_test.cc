// The C++ wrapper (plugin.hpp) against the fake host: PLINTH_PLUGIN's descriptor, command
// registration, RAII values, and exceptions turned into error replies or a failed init.
#include <doctest/doctest.h>

#include <plinth/fakehost.hpp>
#include <plinth/plugin.hpp>
#include <stdexcept>

using plinth::fakehost::FakeHost;
namespace sdk = plinth::sdk;

namespace {

void Echo(sdk::Call& c) { c.Bulk(c.arg(1)); }
void Boom(sdk::Call&) { throw std::runtime_error("boom"); }
void Weird(sdk::Call&) { throw 42; }
void Swap(sdk::Call& c) {
  sdk::Value old = sdk::Value::Retain(c.Get(c.arg(1)));
  c.Put(c.arg(1), sdk::Value::String(c.arg(2)));
  if (!old) return c.Null();
  c.Bulk(sdk::StringOf(old.get()));
}

const sdk::CommandDef kCommands[] = {
    {"wrap.echo", 2, PLINTH_CMD_READONLY | PLINTH_CMD_FAST, 0, 0, 0, Echo},
    {"wrap.boom", 1, PLINTH_CMD_READONLY, 0, 0, 0, Boom},
    {"wrap.weird", 1, PLINTH_CMD_READONLY, 0, 0, 0, Weird},
    {"wrap.swap", 3, PLINTH_CMD_WRITE, 1, 1, 1, Swap},
};

bool Init() { return sdk::RegisterCommands(kCommands); }

bool g_throw_in_init = false;
bool ThrowingInit() {
  if (g_throw_in_init) throw std::runtime_error("no config");
  return false;
}

int32_t ThrowingTrampoline(plinth_plugin_t* self, const plinth_host_api_t* api) {
  return sdk::detail::InitTrampoline(self, api, ThrowingInit);
}

}  // namespace

PLINTH_PLUGIN("wrap", "0.1.0", "plugin.hpp test plugin", Init, nullptr)

TEST_CASE("plugin.hpp: PLINTH_PLUGIN emits a v1 descriptor the host accepts") {
  const plinth_plugin_descriptor_t* d = plinth_plugin_entry_v1();
  CHECK(d->struct_size == sizeof(plinth_plugin_descriptor_t));
  CHECK(d->abi_major == PLINTH_ABI_MAJOR);
  CHECK(std::string(d->name) == "wrap");
  FakeHost host;
  CHECK(host.Load(&plinth_plugin_entry_v1));
  CHECK(host.Call({"WRAP.ECHO", "hi"}).ToString() == "\"hi\"");
}

TEST_CASE("plugin.hpp: an exception escaping a handler becomes an ERR reply") {
  FakeHost host;
  REQUIRE(host.Load(&plinth_plugin_entry_v1));
  CHECK(host.Call({"wrap.boom"}).ToString() == "(error) ERR boom");
  CHECK(host.Call({"wrap.weird"}).str == "ERR internal error in command handler");
}

TEST_CASE("plugin.hpp: values are released when their Value goes out of scope") {
  const int64_t before = FakeHost::LiveValues();
  {
    FakeHost host;
    REQUIRE(host.Load(&plinth_plugin_entry_v1));
    CHECK(host.Call({"wrap.swap", "k", "1"}).IsNull());
    CHECK(host.Call({"wrap.swap", "k", "2"}).str == "1");
    CHECK(FakeHost::LiveValues() == before + 1);
    CHECK(host.Propagated().size() == 2);
  }
  CHECK(FakeHost::LiveValues() == before);
}

TEST_CASE("plugin.hpp: an init that throws or returns false fails with stage init") {
  const plinth_plugin_descriptor_t d = {sizeof(plinth_plugin_descriptor_t),
                                        PLINTH_ABI_MAJOR,
                                        PLINTH_ABI_MINOR,
                                        0,
                                        "thrower",
                                        "1",
                                        "",
                                        ThrowingTrampoline,
                                        nullptr,
                                        {nullptr, nullptr, nullptr, nullptr}};
  FakeHost host;
  g_throw_in_init = true;
  CHECK_FALSE(host.Load(&d, "t.so"));
  CHECK(host.LoadError() == "plugin t.so: init: init returned an error: init threw: no config");
  g_throw_in_init = false;
  CHECK_FALSE(host.Load(&d, "t.so"));
  CHECK(host.LoadError() == "plugin t.so: init: init returned an error");
}
