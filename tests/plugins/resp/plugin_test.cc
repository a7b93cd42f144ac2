// Loads the built resp.so, runs its init against a minimal host table, and drives the
// registered protocol hooks the way the host will: parse with the resume contract, encode.
#include <dlfcn.h>
#include <doctest/doctest.h>
#include <plinth/plugin.h>

#include <cstring>
#include <map>
#include <string>

namespace {

struct FakeHost {
  plinth_protocol_spec_t protocol{};
  int protocols = 0;
  plinth_option_spec_t option{};
  std::string option_name;
  std::map<std::string, int64_t> ints;
};
FakeHost g_host;

void LogWrite(plinth_plugin_t*, uint32_t, const char*, size_t) {}
int32_t ProtocolRegister(plinth_plugin_t*, const plinth_protocol_spec_t* spec) {
  g_host.protocol = *spec;
  g_host.protocols++;
  return PLINTH_OK;
}
int32_t OptionRegister(plinth_plugin_t*, const plinth_option_spec_t* spec) {
  g_host.option = *spec;
  g_host.option_name = spec->name;
  return PLINTH_OK;
}
int64_t OptionGetInt(const char* name, int64_t def) {
  auto it = g_host.ints.find(name);
  return it == g_host.ints.end() ? def : it->second;
}

const plinth_protocol_spec_t& LoadResp() {
  static bool loaded = false;
  if (loaded) return g_host.protocol;
  const std::string path = std::string(PLINTH_TEST_PLUGIN_DIR) + "/resp.so";
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  REQUIRE_MESSAGE(handle != nullptr, dlerror());
  auto entry = reinterpret_cast<plinth_plugin_entry_v1_fn>(dlsym(handle, PLINTH_ENTRY_SYMBOL));
  REQUIRE(reinterpret_cast<void*>(entry) != nullptr);
  const plinth_plugin_descriptor_t* d = entry();
  REQUIRE(d->abi_major == PLINTH_ABI_MAJOR);
  CHECK(std::string(d->name) == "resp");
  static plinth_host_api_t api{};
  api.struct_size = sizeof api;
  api.abi_major = PLINTH_ABI_MAJOR;
  api.abi_minor = PLINTH_ABI_MINOR;
  api.log_write = &LogWrite;
  api.protocol_register = &ProtocolRegister;
  api.option_register = &OptionRegister;
  api.option_get_int = &OptionGetInt;
  g_host.ints["proto-max-bulk-len"] = 2 * 1024 * 1024;  // as if configured
  REQUIRE(d->init(nullptr, &api) == PLINTH_OK);
  loaded = true;
  return g_host.protocol;
}

struct Request {
  int32_t status;
  size_t consumed, need;
  plinth_request_t req{sizeof(plinth_request_t), 0, nullptr, nullptr};
  char err[128] = "";
};

Request Parse(const plinth_protocol_spec_t& p, void* session, const std::string& buf,
              uint32_t flags = 0) {
  Request r;
  r.status = p.parse(p.ctx, session, buf.data(), buf.size(), flags, &r.consumed, &r.need, &r.req,
                     r.err, sizeof r.err);
  return r;
}

TEST_CASE("resp plugin: registers the protocol and proto-max-bulk-len") {
  const plinth_protocol_spec_t& p = LoadResp();
  CHECK(g_host.protocols == 1);
  CHECK(std::string(p.name) == "resp");
  CHECK(g_host.option_name == "proto-max-bulk-len");
  CHECK(g_host.option.type == PLINTH_OPT_MEMORY);
  CHECK(g_host.option.flags == (PLINTH_OPT_MUTABLE | PLINTH_OPT_GLOBAL_NAME));
  CHECK(std::string(g_host.option.default_value) == "512mb");
  CHECK(g_host.option.min == 1024 * 1024);
}

TEST_CASE("resp plugin: parse follows the resume contract and fills the request") {
  const plinth_protocol_spec_t& p = LoadResp();
  void* s = p.session_create(p.ctx);
  REQUIRE(s != nullptr);
  const std::string full = "*2\r\n$3\r\nGET\r\n$3\r\nkey\r\n";
  Request r = Parse(p, s, full.substr(0, 15));
  CHECK(r.status == PLINTH_PARSE_NEED_MORE);
  CHECK(r.need == 0);
  r = Parse(p, s, full.substr(0, 18));
  CHECK(r.status == PLINTH_PARSE_NEED_MORE);
  CHECK(r.consumed == 0);
  CHECK(r.need == 22);
  r = Parse(p, s, full);
  REQUIRE(r.status == PLINTH_PARSE_OK);
  CHECK(r.consumed == full.size());
  REQUIRE(r.req.argc == 2);
  CHECK(std::string(r.req.argv[1], r.req.argvlen[1]) == "key");
  r = Parse(p, s, "\r\n");
  CHECK(r.status == PLINTH_PARSE_EMPTY);
  CHECK(r.consumed == 2);
  r = Parse(p, s, "*11\r\n", PLINTH_PARSE_UNAUTHENTICATED);
  CHECK(r.status == PLINTH_PARSE_ERROR);
  CHECK(std::string(r.err) == "Protocol error: unauthenticated multibulk length");
  p.session_destroy(p.ctx, s);
}

TEST_CASE("resp plugin: proto-max-bulk-len comes from the configured value and CONFIG SET") {
  const plinth_protocol_spec_t& p = LoadResp();
  void* s = p.session_create(p.ctx);
  CHECK(Parse(p, s, "*1\r\n$2097152\r\n").status == PLINTH_PARSE_NEED_MORE);
  p.session_destroy(p.ctx, s);
  s = p.session_create(p.ctx);
  Request r = Parse(p, s, "*1\r\n$2097153\r\n");
  CHECK(r.status == PLINTH_PARSE_ERROR);
  CHECK(std::string(r.err) == "Protocol error: invalid bulk length");
  char err[128] = "";
  REQUIRE(g_host.option.apply(g_host.option.ctx, "proto-max-bulk-len", "3mb", 3, err, sizeof err) ==
          PLINTH_OK);
  CHECK(Parse(p, s, "*1\r\n$2097153\r\n").status == PLINTH_PARSE_NEED_MORE);
  CHECK(g_host.option.apply(g_host.option.ctx, "proto-max-bulk-len", "1k", 2, err, sizeof err) ==
        PLINTH_ERR);
  CHECK(std::strlen(err) > 0);
  p.session_destroy(p.ctx, s);
}

TEST_CASE("resp plugin: encode and frame_bulk write RESP") {
  const plinth_protocol_spec_t& p = LoadResp();
  char storage[64];
  plinth_outbuf_t out{storage, 0, sizeof storage, nullptr, nullptr};
  plinth_reply_item_t item{};
  item.struct_size = sizeof item;
  item.type = PLINTH_REPLY_MAP;
  item.integer = 1;
  REQUIRE(p.encode(p.ctx, 3, &item, &out) == PLINTH_OK);
  REQUIRE(p.encode(p.ctx, 2, &item, &out) == PLINTH_OK);
  CHECK(std::string(out.data, out.len) == "%1\r\n*2\r\n");
  char pre[32], suf[8];
  plinth_outbuf_t prefix{pre, 0, sizeof pre, nullptr, nullptr};
  plinth_outbuf_t suffix{suf, 0, sizeof suf, nullptr, nullptr};
  REQUIRE(p.frame_bulk(p.ctx, 2, 5, &prefix, &suffix) == PLINTH_OK);
  CHECK(std::string(prefix.data, prefix.len) == "$5\r\n");
  CHECK(std::string(suffix.data, suffix.len) == "\r\n");
}

}  // namespace
