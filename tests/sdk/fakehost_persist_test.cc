// The host API persistence and replication plugins build on, through the fake host (the
// host's own core) with the built strings, keys and hash plugins: the encoded propagation
// stream and its batches, before-sleep hooks, the loading state, internal clients, the keyspace
// outside a command (visit, load, flush), typed values through their RDB forms, and the one
// snapshot child.
#include <doctest/doctest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <map>
#include <plinth/fakehost.hpp>
#include <string>
#include <vector>

#include "mem_rdb_io.h"

using plinth::fakehost::FakeHost;

namespace {

const plinth_host_api_t* api = nullptr;
plinth_plugin_t* self = nullptr;
std::string g_stream;             // every batch, concatenated
std::vector<uint64_t> g_offsets;  // each batch's offset
uint64_t g_next = 0;              // the offset the next batch must have
std::vector<std::string> g_log;   // "batch" and "sleep", in order

void OnBatch(void*, const plinth_stream_batch_t* b) {
  CHECK(b->offset == g_next);  // each batch follows the last heard without a gap
  g_next = b->offset + b->len;
  g_offsets.push_back(b->offset);
  g_stream.append(b->data, b->len);
  g_log.push_back("batch");
}
void BeforeSleep(void*) {
  if (!g_log.empty() && g_log.back() == "batch") g_log.push_back("sleep");
}

int32_t Init(plinth_plugin_t* s, const plinth_host_api_t* host) {
  api = host;
  self = s;
  plinth_stream_consumer_spec_t c{};
  c.struct_size = sizeof c;
  c.name = "recorder";
  c.on_batch = OnBatch;
  if (api->stream_consumer_register(s, &c) != PLINTH_OK) return PLINTH_ERR;
  return api->before_sleep_register(s, BeforeSleep, nullptr);
}

const plinth_plugin_descriptor_t kRecorder = {sizeof(plinth_plugin_descriptor_t),
                                              PLINTH_ABI_MAJOR,
                                              PLINTH_ABI_MINOR,
                                              0,
                                              "recorder",
                                              "1",
                                              "records the encoded stream",
                                              Init,
                                              nullptr,
                                              {nullptr, nullptr, nullptr, nullptr}};

std::string PluginPath(const char* name) {
  return std::string(PLINTH_TEST_PLUGIN_DIR) + "/" + name + ".so";
}

void LoadAll(FakeHost& host) {
  g_stream.clear();
  g_offsets.clear();
  g_next = 0;
  g_log.clear();
  for (const char* p : {"connection", "strings", "keys", "hash"})
    REQUIRE_MESSAGE(host.LoadFile(PluginPath(p)), host.LoadError());
  REQUIRE(host.Load(&kRecorder));
}

}  // namespace

TEST_CASE("stream: batches carry RESP commands with SELECT where the database changes") {
  FakeHost host;
  LoadAll(host);
  CHECK(host.Call({"SET", "a", "1"}).str == "OK");
  CHECK(host.Call({"SELECT", "3"}).str == "OK");
  CHECK(host.Call({"SET", "b", "2"}).str == "OK");
  CHECK(host.Call({"GET", "b"}).str == "2");  // reads add nothing
  CHECK(g_stream ==
        "*2\r\n$6\r\nSELECT\r\n$1\r\n0\r\n*3\r\n$3\r\nSET\r\n$1\r\na\r\n$1\r\n1\r\n"
        "*2\r\n$6\r\nSELECT\r\n$1\r\n3\r\n*3\r\n$3\r\nSET\r\n$1\r\nb\r\n$1\r\n2\r\n");
  CHECK(g_offsets.size() == 2);
  CHECK(api->stream_offset(self) == g_stream.size());
  // Each batch reached the consumer before the before-sleep hooks ran.
  CHECK(g_log == std::vector<std::string>{"batch", "sleep", "batch", "sleep"});
}

TEST_CASE("stream: a transaction is one batch wrapped in MULTI and EXEC") {
  FakeHost host;
  LoadAll(host);
  CHECK(host.Call({"MULTI"}).str == "OK");
  CHECK(host.Call({"SET", "a", "1"}).str == "QUEUED");
  CHECK(host.Call({"INCR", "n"}).str == "QUEUED");
  CHECK(host.Call({"EXEC"}).elements.size() == 2);
  REQUIRE(g_offsets.size() == 1);
  CHECK(g_stream.find("*1\r\n$5\r\nMULTI\r\n") != std::string::npos);
  CHECK(g_stream.size() >= 14);
  CHECK(g_stream.compare(g_stream.size() - 14, 14, "*1\r\n$4\r\nEXEC\r\n") == 0);
}

TEST_CASE("stream: relative expiry reaches the stream as an absolute time") {
  FakeHost host;
  LoadAll(host);
  host.SetTimeMs(1700000000000);
  CHECK(host.Call({"SET", "k", "v", "EX", "10"}).str == "OK");
  CHECK(host.Call({"EXPIRE", "k", "20"}).integer == 1);
  std::string lower = g_stream;  // plugins name the commands they replicate in either case
  for (char& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  CHECK(lower.find("$4\r\npxat\r\n$13\r\n1700000010000\r\n") != std::string::npos);
  CHECK(lower.find("pexpireat\r\n$1\r\nk\r\n$13\r\n1700000020000\r\n") != std::string::npos);
}

TEST_CASE("stream: an inactive consumer hears nothing and starts again with a SELECT") {
  FakeHost host;
  LoadAll(host);
  CHECK(host.Call({"SET", "a", "0"}).str == "OK");
  const size_t heard = g_stream.size();
  api->stream_consumer_active(self, 0);
  CHECK(host.Call({"SET", "a", "1"}).str == "OK");
  CHECK(g_stream.size() == heard);
  g_next = api->stream_offset(self);  // what it did not hear is behind it
  api->stream_consumer_active(self, 1);
  CHECK(host.Call({"SET", "a", "2"}).str == "OK");
  // Encoding resumed: the first batch names its database again.
  CHECK(g_stream.substr(heard).rfind("*2\r\n$6\r\nSELECT\r\n$1\r\n0\r\n*3\r\n$3\r\nSET", 0) == 0);
}

TEST_CASE("loading: clients get -LOADING except for loading commands, internal clients run") {
  FakeHost host;
  LoadAll(host);
  api->server_set_loading(self, 1);
  CHECK(api->server_loading(self) == 1);
  CHECK(host.Call({"GET", "k"}).str == "LOADING Plinth is loading the dataset in memory");
  plinth_client_t* c = api->client_create_internal(self, PLINTH_INTERNAL_NO_PROPAGATE);
  REQUIRE(c);
  auto exec = [&](std::vector<std::string> argv, std::string* err = nullptr) {
    std::vector<const char*> av;
    std::vector<size_t> al;
    for (const std::string& a : argv) {
      av.push_back(a.data());
      al.push_back(a.size());
    }
    char buf[128];
    const int32_t r =
        api->client_exec(c, static_cast<int32_t>(av.size()), av.data(), al.data(), buf, sizeof buf);
    if (err) *err = r == PLINTH_OK ? "" : buf;
    return r;
  };
  CHECK(exec({"SELECT", "2"}) == PLINTH_OK);
  CHECK(exec({"MULTI"}) == PLINTH_OK);
  CHECK(exec({"SET", "x", "1"}) == PLINTH_OK);
  CHECK(exec({"HSET", "x", "f", "1"}) == PLINTH_OK);  // queued: its error comes inside EXEC
  CHECK(exec({"EXEC"}) == PLINTH_OK);
  std::string err;
  CHECK(exec({"NOSUCH", "a"}, &err) == PLINTH_ERR);
  CHECK(err.rfind("ERR unknown command 'NOSUCH'", 0) == 0);
  CHECK(exec({"GET"}, &err) == PLINTH_ERR);
  CHECK(err == "ERR wrong number of arguments for 'get' command");
  api->client_destroy_internal(c);
  CHECK(g_stream.empty());  // its effects stayed off the stream
  api->server_set_loading(self, 0);
  CHECK(host.Call({"SELECT", "2"}).str == "OK");
  CHECK(host.Call({"GET", "x"}).str == "1");
}

TEST_CASE("keyspace outside a command: load, visit, count and flush") {
  FakeHost host;
  LoadAll(host);
  host.SetTimeMs(1700000000000);
  REQUIRE(api->key_load(self, 0, "a", 1, api->value_create_string("1", 1), -1) == PLINTH_OK);
  REQUIRE(api->key_load(self, 1, "b", 1, api->value_create_string("2", 1), 1800000000000) ==
          PLINTH_OK);
  CHECK(api->key_load(self, 0, "a", 1, api->value_create_string("3", 1), -1) == PLINTH_ERR);
  CHECK(api->key_load(self, 99, "c", 1, api->value_create_string("3", 1), -1) == PLINTH_ERR);
  CHECK(host.Call({"GET", "a"}).str == "1");
  uint64_t expires = 9;
  CHECK(api->db_keys(self, 1, &expires) == 1);
  CHECK(expires == 1);
  CHECK(api->db_total(self) == 16);
  std::map<std::string, int64_t> seen;
  auto visit = [](void* arg, const char* k, size_t n, const plinth_value_t*, int64_t exp) {
    (*static_cast<std::map<std::string, int64_t>*>(arg))[std::string(k, n)] = exp;
    return int32_t{0};
  };
  CHECK(api->db_visit(self, 1, visit, &seen) == PLINTH_OK);
  CHECK(seen == std::map<std::string, int64_t>{{"b", 1800000000000}});
  CHECK(api->db_visit(self, 16, visit, &seen) == PLINTH_ERR);
  api->db_flush_all(self);
  CHECK(api->db_keys(self, 0, nullptr) + api->db_keys(self, 1, nullptr) == 0);
}

TEST_CASE("typed values: a hash goes through its plain RDB form and back") {
  FakeHost host;
  LoadAll(host);
  CHECK(host.Call({"HSET", "h", "f1", "v1", "f2", "v2"}).integer == 2);
  const plinth_value_t* v = nullptr;
  auto find = [](void* arg, const char* k, size_t n, const plinth_value_t* val, int64_t) {
    if (std::string(k, n) == "h") *static_cast<const plinth_value_t**>(arg) = val;
    return int32_t{0};
  };
  REQUIRE(api->db_visit(self, 0, find, &v) == PLINTH_OK);
  REQUIRE(v);
  plinth::testing::MemRdbIo io;
  uint32_t rdb_type = 0;
  REQUIRE(api->value_rdb_save(v, &io.io, &rdb_type) == PLINTH_OK);
  CHECK(rdb_type == PLINTH_RDB_HASH);
  CHECK(api->value_rdb_type(v) == PLINTH_RDB_HASH);
  CHECK(io.items.size() == 5);  // the length, then two field/value pairs
  plinth_value_t* copy = api->value_rdb_load(self, PLINTH_RDB_HASH, &io.io);
  REQUIRE(copy);
  REQUIRE(api->key_load(self, 0, "h2", 2, copy, -1) == PLINTH_OK);
  CHECK(host.Call({"HGET", "h2", "f2"}).str == "v2");
  plinth::testing::MemRdbIo empty;
  CHECK(api->value_rdb_load(self, PLINTH_RDB_HASH, &empty.io) == nullptr);  // malformed
  CHECK(api->value_rdb_load(self, 99, &io.io) == nullptr);                  // no such form
  const plinth_value_t* s = api->value_create_string("x", 1);
  CHECK(api->value_rdb_save(s, &io.io, &rdb_type) == PLINTH_ERR);  // strings are the caller's
  api->value_release(s);
}

TEST_CASE("snapshot child: one at a time, reads the keyspace, reaped by its plugin") {
  FakeHost host;
  LoadAll(host);
  for (int i = 0; i < 10; ++i) host.PutString("k" + std::to_string(i), "v");
  const int32_t pid = api->fork_child(self);
  REQUIRE(pid >= 0);
  if (pid == 0) _exit(static_cast<int>(api->db_keys(self, 0, nullptr)));
  CHECK(api->fork_active(self) == pid);
  errno = 0;
  CHECK(api->fork_child(self) == -1);
  CHECK(errno == EBUSY);
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  CHECK(WEXITSTATUS(status) == 10);
  api->fork_done(self, pid);
  CHECK(api->fork_active(self) == 0);
}

TEST_CASE("shutdown: plugins read the flags SHUTDOWN was given") {
  FakeHost host;
  LoadAll(host);
  CHECK(api->server_shutdown_flags(self) == 0);
  const uint64_t before = api->server_dirty(self);
  CHECK(host.Call({"SET", "a", "1"}).str == "OK");
  CHECK(api->server_dirty(self) == before + 1);
}
