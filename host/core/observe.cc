// Command observers: plugins that hear the commands that ran (SLOWLOG, LATENCY, MONITOR), each
// above its own duration threshold. The dispatcher compares a command's duration with the
// lowest threshold and tells the observers only above it, so with every observer off a command pays
// one comparison.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>

#include "host/core/call.h"
#include "host/core/core.h"

namespace plinth::host {

void Events::TellObservers(const Session& s, const plinth_call& call, int64_t duration_us) {
  const std::string addr =
      s.internal ? std::string() : core_.server.env().clients->ClientAddr(s.id);
  plinth_command_event_t ev{};
  ev.struct_size = sizeof ev;
  ev.flags = ((s.run_flags & Session::kRunSession) ? PLINTH_EVENT_NESTED : 0) |
             (call.block_state != PLINTH_BLOCK_NONE ? PLINTH_EVENT_RERUN : 0) |
             (s.internal ? PLINTH_EVENT_INTERNAL : 0);
  ev.client_id = s.id;
  ev.db = call.db;
  ev.argc = call.argc;
  ev.argv = call.argv;
  ev.argvlen = call.argvlen;
  ev.name = call.cmd->name.c_str();
  ev.cmd_flags = call.cmd->spec.flags;
  ev.duration_us = duration_us;
  // The clock at its end less its duration; never before the call's own (millisecond) time.
  ev.start_us = std::max(call.now_ms * 1000, core_.server.env().clock->NowUs() - duration_us);
  ev.addr = addr.c_str();
  ev.addr_len = addr.size();
  ev.client_name = s.name.c_str();
  ev.client_name_len = s.name.size();
  // An observer registered by a plugin loading now may be added meanwhile: index, not iterate.
  for (size_t i = 0; i < observers.size(); ++i) {
    const CommandObserver& o = observers[i];
    if (o.min_us >= 0 && duration_us >= o.min_us) o.fn(o.ctx, &ev);
  }
}

}  // namespace plinth::host
