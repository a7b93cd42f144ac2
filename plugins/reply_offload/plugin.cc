// The reply_offload plugin: the zero-copy reply path. It registers the host's reply path and
// answers, for each bulk reply of a stored string value, whether the host queues it by
// reference (the value retained, written with writev straight from its bytes and released by
// the thread that wrote it) or copies it as without this plugin.
#include <plinth/plugin.hpp>

#include "reply_offload/policy.h"

namespace plinth::reply_offload {
namespace {

Policy g_policy = DefaultPolicy(0);

int32_t ApplyMinSize(void*, const char*, const char*, size_t, int64_t number, char*, size_t) {
  g_policy = DefaultPolicy(number);
  return PLINTH_OK;
}

int32_t ByReferenceCb(void*, const plinth_reply_value_info_t* info) {
  return ByReference(g_policy, info->len, info->io_threads_active) ? 1 : 0;
}

bool Init() {
  const plinth_host_api_t& api = sdk::Api();
  plinth_option_spec_t opt{};
  opt.struct_size = sizeof opt;
  opt.name = "min-size";
  opt.type = PLINTH_OPT_MEMORY;
  opt.flags = PLINTH_OPT_MUTABLE;
  opt.default_value = "0";
  opt.min = 0;
  opt.max = INT64_MAX;
  opt.description =
      "Smallest value replied by reference; 0 uses the measured sizes (16kb inline, 64kb with "
      "IO threads)";
  opt.apply = &ApplyMinSize;
  if (!api.option_register(sdk::Host::self, &opt)) return false;
  static const plinth_reply_path_spec_t spec = {sizeof(plinth_reply_path_spec_t), "reply_offload",
                                                nullptr, &ByReferenceCb};
  return api.reply_path_register(sdk::Host::self, &spec) == PLINTH_OK;
}

}  // namespace
}  // namespace plinth::reply_offload

PLINTH_PLUGIN("reply_offload", "1.0.0",
              "Zero-copy replies: large string values are written straight from the keyspace",
              &plinth::reply_offload::Init, nullptr)
