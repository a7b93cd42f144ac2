// The host API table (abi/host_api.h): HostApi() fills it once from the functions of each ABI
// header's concept (the other files of this folder), and the checks the register functions
// share. Main thread.
#include <string>

#include "host/core/api.h"
#include "host/core/core.h"

namespace plinth::host {

bool InInit(plinth_plugin_t* self, const char* what) {
  if (!self) return false;
  self->core->server.AssertMainThread(what);
  if (self->core->plugins.loading == self) return true;
  self->core->server.Log(LogLevel::kWarning,
                         "%s: %s refused: registration is only allowed during init",
                         self->name.c_str(), what);
  return false;
}

int32_t Refused(plinth_plugin_t* self, const std::string& why) {
  if (why.empty()) return PLINTH_OK;
  if (self->core->plugins.loading == self) self->init_warning = why;
  self->core->server.Log(LogLevel::kWarning, "%s: %s", self->name.c_str(), why.c_str());
  return PLINTH_ERR;
}

const plinth_host_api_t* HostApi() {
  static const plinth_host_api_t table = [] {
    plinth_host_api_t t{};
    t.struct_size = sizeof t;
    t.abi_major = PLINTH_ABI_MAJOR;
    t.abi_minor = PLINTH_ABI_MINOR;
    FillBaseApi(&t);
    FillCommandsApi(&t);
    FillRepliesApi(&t);
    FillReplyPathApi(&t);
    FillTypesApi(&t);
    FillEventsApi(&t);
    FillStreamApi(&t);
    FillTransportApi(&t);
    FillProtocolApi(&t);
    FillOptionsApi(&t);
    FillAclApi(&t);
    return t;
  }();
  return &table;
}

}  // namespace plinth::host
