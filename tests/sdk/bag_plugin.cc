// The "bag" test plugin (bag_plugin.h).
#include "bag_plugin.h"

#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace plinth::bagtest {
namespace {

using Bag = std::vector<std::string>;

const plinth_host_api_t* api = nullptr;
plinth_plugin_t* plugin = nullptr;
uint32_t bag_type = 0;

std::string_view Arg(plinth_call_t* c, int i) {
  size_t n = 0;
  const char* p = api->call_arg(c, i, &n);
  return {p, n};
}

void Error(plinth_call_t* c, std::string_view s) { api->reply_error(c, s.data(), s.size()); }
constexpr std::string_view kWrongType =
    "WRONGTYPE Operation against a key holding the wrong kind of value";

// The bag under key: nullptr when missing; *wrong when another type is there.
const Bag* Find(plinth_call_t* c, std::string_view key, bool* wrong) {
  const plinth_value_t* v = api->key_get(c, key.data(), key.size());
  *wrong = v && api->value_type(v) != bag_type;
  return v && !*wrong ? static_cast<const Bag*>(api->value_payload(v)) : nullptr;
}

void Add(plinth_call_t* c, void*) {
  std::string_view key = Arg(c, 1);
  bool wrong;
  if (!Find(c, key, &wrong) && !wrong) {
    plinth_value_t* v = api->value_create_typed(plugin, bag_type, new Bag());
    api->key_set(c, key.data(), key.size(), v, 0);
  }
  if (wrong) return Error(c, kWrongType);
  auto* bag = static_cast<Bag*>(api->key_payload_mut(c, key.data(), key.size(), bag_type));
  for (int i = 2; i < api->call_argc(c); ++i) bag->emplace_back(Arg(c, i));
  api->reply_integer(c, static_cast<int64_t>(bag->size()));
}

void Len(plinth_call_t* c, void*) {
  bool wrong;
  const Bag* bag = Find(c, Arg(c, 1), &wrong);
  if (wrong) return Error(c, kWrongType);
  api->reply_integer(c, bag ? static_cast<int64_t>(bag->size()) : 0);
}

void Copy(plinth_call_t* c, void*) {
  std::string_view s = Arg(c, 1), d = Arg(c, 2);
  api->reply_integer(
      c, api->key_move(c, s.data(), s.size(), d.data(), d.size(), -1, PLINTH_MOVE_COPY));
}

void Pop(plinth_call_t* c, void*) {
  std::string_view key = Arg(c, 1);
  const int64_t timeout = std::stoll(std::string(Arg(c, 2)));
  bool wrong;
  const Bag* bag = Find(c, key, &wrong);
  if (bag && !bag->empty()) {
    auto* mut = static_cast<Bag*>(api->key_payload_mut(c, key.data(), key.size(), bag_type));
    std::string member = std::move(mut->back());
    mut->pop_back();
    if (mut->empty()) api->key_delete(c, key.data(), key.size());
    return api->reply_bulk(c, member.data(), member.size());
  }
  if (api->call_block_state(c) != PLINTH_BLOCK_TIMEOUT) {
    const char* keys[1] = {key.data()};
    size_t lens[1] = {key.size()};
    if (api->call_block(c, 1, keys, lens, timeout) == PLINTH_OK) return;
  }
  api->reply_null(c);
}

void Enc(plinth_call_t* c, void*) {
  std::string_view key = Arg(c, 1);
  const plinth_value_t* v = api->key_get(c, key.data(), key.size());
  if (!v) return api->reply_null(c);
  const char* e = api->value_encoding_name(v);
  api->reply_bulk(c, e, std::char_traits<char>::length(e));
}

void Unlink(plinth_call_t* c, void*) {
  std::string_view key = Arg(c, 1);
  api->reply_integer(c, api->key_unlink(c, key.data(), key.size()));
}

void FreeBag(void* p) {
  while (HoldFreesForTest().load()) std::this_thread::yield();
  delete static_cast<Bag*>(p);
  FreedForTest()++;
}

void* CopyBag(const void* p) {
  CopiesForTest()++;
  return new Bag(*static_cast<const Bag*>(p));
}

const char* Encoding(const void* p) {
  return static_cast<const Bag*>(p)->size() <= 4 ? "small" : "big";
}

size_t Effort(const void* p) { return static_cast<const Bag*>(p)->size(); }

int32_t Register(plinth_plugin_t* self, const char* name, int32_t arity, uint32_t flags,
                 plinth_command_fn fn) {
  plinth_command_spec_t s{};
  s.struct_size = sizeof s;
  s.name = name;
  s.arity = arity;
  s.flags = flags;
  s.first_key = s.last_key = s.key_step = 1;
  s.handler = fn;
  return api->command_register(self, &s);
}

int32_t Init(plinth_plugin_t* self, const plinth_host_api_t* host) {
  api = host;
  plugin = self;
  plinth_type_spec_t t{};
  t.struct_size = sizeof t;
  t.name = "bag";
  t.free_payload = FreeBag;
  t.copy = CopyBag;
  t.encoding = Encoding;
  t.free_effort = Effort;
  bag_type = api->type_register(self, &t);
  if (bag_type == 0) return PLINTH_ERR;
  constexpr uint32_t kW = PLINTH_CMD_WRITE;
  bool ok = Register(self, "bag.add", -3, kW, Add) == PLINTH_OK &&
            Register(self, "bag.len", 2, PLINTH_CMD_READONLY, Len) == PLINTH_OK &&
            Register(self, "bag.copy", 3, kW, Copy) == PLINTH_OK &&
            Register(self, "bag.pop", 3, kW | PLINTH_CMD_BLOCKING, Pop) == PLINTH_OK &&
            Register(self, "bag.enc", 2, PLINTH_CMD_READONLY, Enc) == PLINTH_OK &&
            Register(self, "bag.unlink", 2, kW, Unlink) == PLINTH_OK;
  return ok ? PLINTH_OK : PLINTH_ERR;
}

const plinth_plugin_descriptor_t kDescriptor = {sizeof(plinth_plugin_descriptor_t),
                                                PLINTH_ABI_MAJOR,
                                                PLINTH_ABI_MINOR,
                                                0,
                                                "bag",
                                                "1",
                                                "a test value type",
                                                Init,
                                                nullptr,
                                                {nullptr, nullptr, nullptr, nullptr}};

}  // namespace

const plinth_plugin_descriptor_t* Descriptor() { return &kDescriptor; }
int& CopiesForTest() {
  static int n = 0;
  return n;
}
std::atomic<int>& FreedForTest() {
  static std::atomic<int> n{0};
  return n;
}
std::atomic<bool>& HoldFreesForTest() {
  static std::atomic<bool> hold{false};
  return hold;
}

}  // namespace plinth::bagtest
