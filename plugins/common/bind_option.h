// The option-apply callback that validates a bind list (the tcp plugin's bind, the rdma
// plugin's rdma-bind): the host calls it with the configured text before accepting it.
#ifndef PLINTH_PLUGINS_COMMON_BIND_OPTION_H
#define PLINTH_PLUGINS_COMMON_BIND_OPTION_H

#include <plinth/plugin.h>

namespace plinth::common {

// A plinth_option_apply_fn: PLINTH_OK when value parses as a bind list (ParseBindList), else
// PLINTH_ERR with the reason copied into err. OWNERSHIP: borrows value; writes err. THREAD:
// main.
int32_t ApplyBindOption(void* ctx, const char* name, const char* value, size_t len, int64_t num,
                        char* err, size_t errlen);

}  // namespace plinth::common

#endif  // PLINTH_PLUGINS_COMMON_BIND_OPTION_H
