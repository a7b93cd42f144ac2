// The "kv" test plugin (see kv_plugin.h).
#include "kv_plugin.h"

#include <cstdlib>
#include <cstring>
#include <string_view>

namespace plinth::kvtest {
namespace {

const plinth_host_api_t* api = nullptr;
uint32_t box_type = 0;
plinth_plugin_t* plugin = nullptr;

std::string_view Arg(plinth_call_t* c, int i) {
  size_t len = 0;
  const char* p = api->call_arg(c, i, &len);
  return std::string_view(p ? p : "", len);
}

void Error(plinth_call_t* c, const char* s) { api->reply_error(c, s, std::strlen(s)); }
void Ok(plinth_call_t* c) { api->reply_simple(c, "OK", 2); }

void Set(plinth_call_t* c, void*) {
  auto k = Arg(c, 1), v = Arg(c, 2);
  api->key_set(c, k.data(), k.size(), api->value_create_string(v.data(), v.size()), 0);
  Ok(c);
}

void Get(plinth_call_t* c, void*) {
  auto k = Arg(c, 1);
  const plinth_value_t* v = api->key_get(c, k.data(), k.size());
  if (!v) return api->reply_null(c);
  api->reply_value(c, v);
}

void Del(plinth_call_t* c, void*) {
  int64_t n = 0;
  for (int i = 1; i < api->call_argc(c); ++i)
    n += api->key_delete(c, Arg(c, i).data(), Arg(c, i).size());
  api->reply_integer(c, n);
}

void PexpireAt(plinth_call_t* c, void*) {
  auto k = Arg(c, 1);
  api->reply_integer(c, api->key_expire_set(c, k.data(), k.size(), std::atoll(Arg(c, 2).data())));
}

void Select(plinth_call_t* c, void*) {
  if (api->client_select(c, std::atoi(Arg(c, 1).data())) != PLINTH_OK)
    return Error(c, "ERR DB index is out of range");
  Ok(c);
}

// INCRBY key n, propagated as SET key <new value> through replicate().
void IncrBy(plinth_call_t* c, void*) {
  auto k = Arg(c, 1);
  const plinth_value_t* v = api->key_get(c, k.data(), k.size());
  size_t len = 0;
  const char* old = v ? api->value_string(v, &len) : "0";
  std::string text = std::to_string(std::atoll(std::string(old, v ? len : 1).c_str()) +
                                    std::atoll(Arg(c, 2).data()));
  api->key_set(c, k.data(), k.size(), api->value_create_string(text.data(), text.size()), 0);
  const char* argv[] = {k.data(), text.c_str()};
  size_t lens[] = {k.size(), text.size()};
  if (api->replicate(c, 0, "set", 2, argv, lens) != PLINTH_OK) return Error(c, "ERR replicate");
  api->reply_integer(c, std::atoll(text.c_str()));
}

// REPL <flags> <command> [args...]: calls replicate() verbatim and replies with its result.
void Repl(plinth_call_t* c, void*) {
  std::vector<std::string> args;
  std::vector<const char*> argv;
  std::vector<size_t> lens;
  for (int i = 3; i < api->call_argc(c); ++i) args.emplace_back(Arg(c, i));
  for (auto& a : args) {
    argv.push_back(a.c_str());
    lens.push_back(a.size());
  }
  int32_t rc = api->replicate(c, static_cast<uint32_t>(std::atoi(Arg(c, 1).data())),
                              std::string(Arg(c, 2)).c_str(), static_cast<int32_t>(argv.size()),
                              argv.data(), lens.data());
  api->reply_integer(c, rc);
}

// SHAPES: one reply of every kind, nested.
void Shapes(plinth_call_t* c, void*) {
  api->reply_array(c, 6);
  api->reply_integer(c, 1);
  api->reply_array(c, 2);
  api->reply_bulk(c, "a\"b\n", 4);
  api->reply_null(c);
  api->reply_map(c, 1);
  api->reply_simple(c, "k", 1);
  api->reply_double(c, 0.1);
  api->reply_set(c, 0);
  api->reply_bool(c, 1);
  api->reply_verbatim(c, "txt", "hi", 2);
}

void NoReply(plinth_call_t*, void*) {}
void TwoReplies(plinth_call_t* c, void*) {
  Ok(c);
  Ok(c);
}

// BOX key: stores a value of the plugin's "box" type.
void Box(plinth_call_t* c, void*) {
  auto k = Arg(c, 1);
  plinth_value_t* v = api->value_create_typed(plugin, box_type, std::malloc(8));
  api->key_set(c, k.data(), k.size(), v, 0);
  api->reply_simple(c, api->type_name(plugin, api->value_type(v)), 3);
}

void Info(void*, plinth_info_t* info) {
  api->info_field(info, "kv_mode", "test", 4);
  api->info_field_int(info, "kv_answer", 42);
}

void Consume(void*, const plinth_stream_batch_t* batch) {
  ConsumedForTest().emplace_back(batch->data, batch->len);
}

void* CopyBox(const void* p) {
  void* c = std::malloc(8);
  if (c) std::memcpy(c, p, 8);
  return c;
}

void FreeBox(void* p) {
  std::free(p);
  ++FreedBoxesForTest();
}

int32_t Apply(void*, const char*, const char* value, size_t len, int64_t, char* err,
              size_t errlen) {
  if (std::string_view(value, len) == "reject") {
    std::snprintf(err, errlen, "the word 'reject' is refused");
    return PLINTH_ERR;
  }
  AppliedForTest().emplace_back(value, len);
  return PLINTH_OK;
}

int32_t Command(plinth_plugin_t* self, const char* name, int32_t arity, uint32_t flags,
                plinth_command_fn fn) {
  plinth_command_spec_t s{};
  s.struct_size = sizeof s;
  s.name = name;
  s.arity = arity;
  s.flags = flags;
  s.first_key = (flags & PLINTH_CMD_WRITE) || std::strcmp(name, "get") == 0 ? 1 : 0;
  s.last_key = s.first_key;
  s.key_step = s.first_key;
  s.handler = fn;
  return api->command_register(self, &s);
}

int32_t Init(plinth_plugin_t* self, const plinth_host_api_t* host) {
  plugin = self;
  api = host;
  const uint32_t W = PLINTH_CMD_WRITE, R = PLINTH_CMD_READONLY;
  if (Command(self, "set", 3, W, Set) || Command(self, "get", 2, R, Get) ||
      Command(self, "del", -2, W, Del) || Command(self, "pexpireat", 3, W, PexpireAt) ||
      Command(self, "select", 2, PLINTH_CMD_FAST, Select) ||
      Command(self, "incrby", 3, W, IncrBy) || Command(self, "repl", -3, W, Repl) ||
      Command(self, "shapes", 1, R, Shapes) || Command(self, "noreply", 1, R, NoReply) ||
      Command(self, "tworeplies", 1, R, TwoReplies) || Command(self, "box", 2, W, Box))
    return PLINTH_ERR;
  plinth_option_spec_t o{};
  o.struct_size = sizeof o;
  o.name = "mode";
  o.type = PLINTH_OPT_ENUM;
  o.flags = PLINTH_OPT_MUTABLE;
  o.default_value = "fast";
  o.enum_values = "fast|safe|reject";
  o.apply = Apply;
  if (!api->option_register(self, &o)) return PLINTH_ERR;
  o = plinth_option_spec_t{};
  o.struct_size = sizeof o;
  o.name = "limit";
  o.type = PLINTH_OPT_MEMORY;
  o.default_value = "1kb";
  o.min = 0;
  o.max = 1 << 20;
  if (!api->option_register(self, &o)) return PLINTH_ERR;
  if (api->info_register(self, "kv", Info, nullptr)) return PLINTH_ERR;
  plinth_stream_consumer_spec_t sc{};
  sc.struct_size = sizeof sc;
  sc.name = "kv-log";
  sc.on_batch = Consume;
  if (api->stream_consumer_register(self, &sc)) return PLINTH_ERR;
  plinth_type_spec_t t{};
  t.struct_size = sizeof t;
  t.name = "box";
  t.free_payload = FreeBox;
  t.copy = CopyBox;
  box_type = api->type_register(self, &t);
  return box_type >= 16 ? PLINTH_OK : PLINTH_ERR;
}

const plinth_plugin_descriptor_t kDescriptor = {sizeof(plinth_plugin_descriptor_t),
                                                PLINTH_ABI_MAJOR,
                                                PLINTH_ABI_MINOR,
                                                0,
                                                "kv",
                                                "1.0",
                                                "key/value commands for the fake host's tests",
                                                Init,
                                                nullptr,
                                                {nullptr, nullptr, nullptr, nullptr}};

}  // namespace

const plinth_plugin_descriptor_t* Descriptor() { return &kDescriptor; }
std::vector<std::string>& ConsumedForTest() {
  static std::vector<std::string> lines;
  return lines;
}
int& FreedBoxesForTest() {
  static int n = 0;
  return n;
}
std::vector<std::string>& AppliedForTest() {
  static std::vector<std::string> values;
  return values;
}

}  // namespace plinth::kvtest
