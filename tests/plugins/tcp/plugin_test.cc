// Loads the built tcp.so, runs its init against a minimal host table, and drives the
// transport: options, start, accept with flags and address text, read, writev, close, stop.
#include <arpa/inet.h>
#include <dlfcn.h>
#include <doctest/doctest.h>
#include <netinet/in.h>
#include <plinth/plugin.h>
#include <unistd.h>

#include <cstring>
#include <map>
#include <string>
#include <vector>

// The option handle of this minimal host: the option's name.
struct plinth_option {
  std::string name;
};

namespace {

struct FakeHost {
  std::map<std::string, plinth_option_spec_t> options;
  std::map<std::string, plinth_option> handles;
  std::map<std::string, std::string> values;  // configured values, else the default
  plinth_transport_spec_t transport{};
  std::vector<std::pair<int32_t, std::string>> listeners;
};
FakeHost g_host;

void LogWrite(plinth_plugin_t*, uint32_t, const char*, size_t) {}
const plinth_option_t* OptionRegister(plinth_plugin_t*, const plinth_option_spec_t* spec) {
  g_host.options[spec->name] = *spec;
  return &(g_host.handles[spec->name] = plinth_option{spec->name});
}
std::string Value(const char* name) {
  auto v = g_host.values.find(name);
  if (v != g_host.values.end()) return v->second;
  auto o = g_host.options.find(name);
  return o == g_host.options.end() ? "" : o->second.default_value;
}
int64_t OptionInt(const plinth_option_t* o) {
  const std::string v = Value(o->name.c_str());
  return v.empty() ? 0 : std::stoll(v);
}
const char* OptionString(const plinth_option_t* o, size_t* len) {
  static std::string v;
  v = Value(o->name.c_str());
  *len = v.size();
  return v.c_str();
}
int32_t TransportRegister(plinth_plugin_t*, const plinth_transport_spec_t* spec) {
  g_host.transport = *spec;
  return 3;
}
int32_t ListenerAdd(plinth_plugin_t*, int32_t id, int32_t fd, const char* description) {
  CHECK(id == 3);
  g_host.listeners.emplace_back(fd, description);
  return PLINTH_OK;
}

const plinth_transport_spec_t& LoadTcp() {
  static bool loaded = false;
  if (loaded) return g_host.transport;
  const std::string path = std::string(PLINTH_TEST_PLUGIN_DIR) + "/tcp.so";
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  REQUIRE_MESSAGE(handle != nullptr, dlerror());
  auto entry = reinterpret_cast<plinth_plugin_entry_v1_fn>(dlsym(handle, PLINTH_ENTRY_SYMBOL));
  REQUIRE(reinterpret_cast<void*>(entry) != nullptr);
  const plinth_plugin_descriptor_t* d = entry();
  CHECK(std::string(d->name) == "tcp");
  static plinth_host_api_t api{};
  api.struct_size = sizeof api;
  api.abi_major = PLINTH_ABI_MAJOR;
  api.abi_minor = PLINTH_ABI_MINOR;
  api.log_write = &LogWrite;
  api.option_register = &OptionRegister;
  api.option_int = &OptionInt;
  api.option_string = &OptionString;
  api.transport_register = &TransportRegister;
  api.listener_add = &ListenerAdd;
  REQUIRE(d->init(nullptr, &api) == PLINTH_OK);
  loaded = true;
  return g_host.transport;
}

int FreePort() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in sa{};
  sa.sin_family = AF_INET;
  sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  REQUIRE(bind(fd, reinterpret_cast<sockaddr*>(&sa), sizeof sa) == 0);
  socklen_t len = sizeof sa;
  getsockname(fd, reinterpret_cast<sockaddr*>(&sa), &len);
  close(fd);
  return ntohs(sa.sin_port);
}

bool Apply(const char* name, const std::string& value) {
  const plinth_option_spec_t& o = g_host.options.at(name);
  if (o.apply == nullptr) return true;
  char err[128] = "";
  return o.apply(o.ctx, name, value.data(), value.size(), 0, err, sizeof err) == PLINTH_OK;
}

TEST_CASE("tcp plugin: registers the Redis options with Redis defaults") {
  LoadTcp();
  const std::map<std::string, std::string> defaults = {
      {"bind", "127.0.0.1 ::1"}, {"port", "6379"},   {"tcp-backlog", "511"},
      {"tcp-keepalive", "300"},  {"unixsocket", ""}, {"unixsocketperm", "0"}};
  for (const auto& [name, def] : defaults) {
    INFO(name);
    REQUIRE(g_host.options.count(name) == 1);
    const plinth_option_spec_t& o = g_host.options[name];
    CHECK(std::string(o.default_value) == def);
    CHECK((o.flags & PLINTH_OPT_GLOBAL_NAME) != 0);
  }
  CHECK(g_host.options["port"].max == 65535);
  CHECK((g_host.options["tcp-keepalive"].flags & PLINTH_OPT_MUTABLE) != 0);
  CHECK(Apply("unixsocketperm", "700"));
  CHECK_FALSE(Apply("unixsocketperm", "779"));
  CHECK(Apply("bind", "* -::*"));
  CHECK_FALSE(Apply("bind", " "));
}

TEST_CASE("tcp plugin: start listens, accept fills the connection, IO works, stop closes") {
  const plinth_transport_spec_t& t = LoadTcp();
  const int port = FreePort();
  g_host.values["port"] = std::to_string(port);
  g_host.values["bind"] = "127.0.0.1";
  g_host.listeners.clear();
  REQUIRE(t.start(t.ctx) == PLINTH_OK);
  REQUIRE(g_host.listeners.size() == 1);
  CHECK(g_host.listeners[0].second == "127.0.0.1:" + std::to_string(port));
  const int lfd = g_host.listeners[0].first;

  const int client = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in sa{};
  sa.sin_family = AF_INET;
  sa.sin_port = htons(static_cast<uint16_t>(port));
  sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  REQUIRE(connect(client, reinterpret_cast<sockaddr*>(&sa), sizeof sa) == 0);

  void* conn = nullptr;
  int32_t fd = -1;
  char peer[64] = "", local[64] = "";
  uint32_t flags = 0;
  int32_t r = PLINTH_IO_AGAIN;
  for (int i = 0; i < 200 && r == PLINTH_IO_AGAIN; i++, usleep(1000)) {
    r = t.accept(t.ctx, lfd, &conn, &fd, peer, sizeof peer, local, sizeof local, &flags);
  }
  REQUIRE(r == PLINTH_OK);
  CHECK(fd >= 0);
  CHECK(flags == PLINTH_CONN_LOCAL);
  CHECK(std::string(local) == "127.0.0.1:" + std::to_string(port));
  CHECK(std::string(peer).rfind("127.0.0.1:", 0) == 0);

  char buf[32];
  CHECK(t.read(t.ctx, conn, buf, sizeof buf) == PLINTH_IO_AGAIN);
  REQUIRE(write(client, "PING\r\n", 6) == 6);
  int64_t n = PLINTH_IO_AGAIN;
  for (int i = 0; i < 200 && n == PLINTH_IO_AGAIN; i++, usleep(1000)) {
    n = t.read(t.ctx, conn, buf, sizeof buf);
  }
  CHECK(n == 6);
  const plinth_iovec_t iov[2] = {{"+PO", 3}, {"NG\r\n", 4}};
  CHECK(t.writev(t.ctx, conn, iov, 2) == 7);
  CHECK(read(client, buf, sizeof buf) == 7);
  t.close(t.ctx, conn);
  CHECK(read(client, buf, sizeof buf) == 0);
  close(client);
  t.stop(t.ctx);
  g_host.values.clear();
}

TEST_CASE("tcp plugin: start fails when the port is taken") {
  const plinth_transport_spec_t& t = LoadTcp();
  const int port = FreePort();
  const int blocker = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in sa{};
  sa.sin_family = AF_INET;
  sa.sin_port = htons(static_cast<uint16_t>(port));
  sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  REQUIRE(bind(blocker, reinterpret_cast<sockaddr*>(&sa), sizeof sa) == 0);
  REQUIRE(listen(blocker, 1) == 0);
  g_host.values["port"] = std::to_string(port);
  g_host.values["bind"] = "127.0.0.1";
  g_host.listeners.clear();
  CHECK(t.start(t.ctx) == PLINTH_ERR);
  CHECK(g_host.listeners.empty());
  close(blocker);
  g_host.values.clear();
}

}  // namespace
