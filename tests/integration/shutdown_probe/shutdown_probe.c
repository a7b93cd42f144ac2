/* A test plugin that logs "shutdown hook of <name>" from its shutdown hook, built twice under
 * two names, to check that the host runs shutdown hooks in reverse load order. It also has a
 * busy command that stands for a long script: <name>.busy <ms> spins for ms, calling call_yield
 * every millisecond, until <name>.unbusy (PLINTH_CMD_ALLOW_BUSY) or a shutdown stops it.
 * Test-only. */
#include <plinth/plugin.h>
#include <stdlib.h>
#include <string.h>

static const plinth_host_api_t* api;
static plinth_plugin_t* me;
static int stop_busy;

static void Busy(plinth_call_t* call, void* ctx) {
  (void)ctx;
  size_t n = 0;
  const int64_t ms = atoll(api->call_arg(call, 1, &n));
  const char* err = "BUSY " PROBE_NAME " is busy";
  const int64_t start = api->time_us(me);
  int64_t last = start;
  stop_busy = 0;
  while (!stop_busy && !api->server_stopping(me) && api->time_us(me) - start < ms * 1000) {
    if (api->time_us(me) - last >= 1000) {
      api->call_yield(call, err, strlen(err));
      last = api->time_us(me);
    }
  }
  const char* why = stop_busy ? "stopped" : api->server_stopping(me) ? "shutdown" : "done";
  api->reply_simple(call, why, strlen(why));
}

static void Unbusy(plinth_call_t* call, void* ctx) {
  (void)ctx;
  stop_busy = 1;
  api->reply_simple(call, "OK", 2);
}

static int32_t Register(plinth_plugin_t* self, const char* name, uint32_t flags,
                        plinth_command_fn fn) {
  plinth_command_spec_t spec;
  memset(&spec, 0, sizeof spec);
  spec.struct_size = sizeof spec;
  spec.name = name;
  spec.arity = -1;
  spec.flags = flags;
  spec.handler = fn;
  return api->command_register(self, &spec);
}

static int32_t Init(plinth_plugin_t* self, const plinth_host_api_t* host) {
  api = host;
  me = self;
  if (Register(self, PROBE_NAME ".busy", PLINTH_CMD_NOPROPAGATE, Busy) != PLINTH_OK)
    return PLINTH_ERR;
  return Register(self, PROBE_NAME ".unbusy", PLINTH_CMD_ALLOW_BUSY, Unbusy);
}

static void Shutdown(plinth_plugin_t* self) {
  const char* msg = "shutdown hook of " PROBE_NAME;
  api->log_write(self, PLINTH_LOG_NOTICE, msg, strlen(msg));
}

static const plinth_plugin_descriptor_t kDescriptor = {sizeof(plinth_plugin_descriptor_t),
                                                       PLINTH_ABI_MAJOR,
                                                       PLINTH_TARGET_MINOR,
                                                       0,
                                                       PROBE_NAME,
                                                       "0",
                                                       "logs from its shutdown hook",
                                                       Init,
                                                       Shutdown,
                                                       {NULL, NULL, NULL, NULL}};

PLINTH_EXPORT const plinth_plugin_descriptor_t* plinth_plugin_entry_v1(void) {
  return &kDescriptor;
}
