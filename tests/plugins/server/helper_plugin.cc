// The helper plugin of the server command tests (see helper_plugin.h).
#include "helper_plugin.h"

namespace plinth::server::test {
namespace {

const plinth_host_api_t* api = nullptr;

void ReplyOk(plinth_call_t* c, void*) { api->reply_simple(c, "OK", 2); }

plinth_command_spec_t Command(const char* name, int32_t arity, uint32_t flags, int32_t first,
                              int32_t last, const char* group, const char* args,
                              const char* summary) {
  plinth_command_spec_t s{};
  s.struct_size = sizeof s;
  s.name = name;
  s.arity = arity;
  s.flags = flags;
  s.first_key = first;
  s.last_key = last;
  s.key_step = first ? 1 : 0;
  s.handler = ReplyOk;
  s.group = group;
  s.args = args;
  s.summary = summary;
  s.since = summary ? "1.0.0" : nullptr;
  return s;
}

plinth_option_spec_t Option(const char* name, uint32_t type, uint32_t flags, const char* def) {
  plinth_option_spec_t o{};
  o.struct_size = sizeof o;
  o.name = name;
  o.type = type;
  o.flags = flags;
  o.default_value = def;
  o.min = 0;
  o.max = 100;
  o.enum_values = type == PLINTH_OPT_ENUM ? "a|b|c" : nullptr;
  o.description = name;
  return o;
}

void InfoHelper(void*, plinth_info_t* info) { api->info_field_int(info, "helper_field", 1); }
void InfoOther(void*, plinth_info_t* info) { api->info_field(info, "other_field", "x", 1); }

int32_t Init(plinth_plugin_t* self, const plinth_host_api_t* host) {
  api = host;
  const plinth_command_spec_t commands[] = {
      Command("set", -3, PLINTH_CMD_WRITE | PLINTH_CMD_DENYOOM, 1, 1, "string",
              "key value [NX|XX] [GET]", "Set the string value of a key"),
      Command("mget", -2, PLINTH_CMD_READONLY | PLINTH_CMD_FAST, 1, -1, "string", "key [key ...]",
              "Get the values of all the given keys"),
      Command("nohint", 1, 0, 0, 0, nullptr, nullptr, nullptr),
  };
  for (const plinth_command_spec_t& c : commands)
    if (api->command_register(self, &c) != PLINTH_OK) return PLINTH_ERR;
  const plinth_option_spec_t options[] = {
      Option("num", PLINTH_OPT_INT, PLINTH_OPT_MUTABLE, "5"),
      Option("word", PLINTH_OPT_ENUM, PLINTH_OPT_MUTABLE, "a"),
      Option("fixed", PLINTH_OPT_STRING, 0, "x"),
  };
  for (const plinth_option_spec_t& o : options)
    if (!api->option_register(self, &o)) return PLINTH_ERR;
  if (api->info_register(self, "helper", InfoHelper, nullptr) != PLINTH_OK) return PLINTH_ERR;
  return api->info_register(self, "other", InfoOther, nullptr);
}

const plinth_plugin_descriptor_t kHelper = {sizeof(plinth_plugin_descriptor_t),
                                            PLINTH_ABI_MAJOR,
                                            PLINTH_ABI_MINOR,
                                            0,
                                            "helper",
                                            "1.2.3",
                                            "test helper",
                                            Init,
                                            nullptr,
                                            {nullptr, nullptr, nullptr, nullptr}};

}  // namespace

const plinth_plugin_descriptor_t* HelperDescriptor() { return &kHelper; }

}  // namespace plinth::server::test
