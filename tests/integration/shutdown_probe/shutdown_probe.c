/* A test plugin that logs "shutdown hook of <name>" from its shutdown hook, built twice under
 * two names, to check that the host runs shutdown hooks in reverse load order. Test-only. */
#include <plinth/plugin.h>
#include <string.h>

static const plinth_host_api_t* api;

static int32_t Init(plinth_plugin_t* self, const plinth_host_api_t* host) {
  (void)self;
  api = host;
  return PLINTH_OK;
}

static void Shutdown(plinth_plugin_t* self) {
  const char* msg = "shutdown hook of " PROBE_NAME;
  api->log_write(self, PLINTH_LOG_NOTICE, msg, strlen(msg));
}

static const plinth_plugin_descriptor_t kDescriptor = {sizeof(plinth_plugin_descriptor_t),
                                                       PLINTH_ABI_MAJOR,
                                                       PLINTH_ABI_MINOR,
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
