// The periodic server job (hz times a second): the core's active expiry, idle client
// timeouts, output buffer soft limits. Main thread only.
#pragma once

#include <uv.h>

namespace plinth::host {

class Shell;

// Starts timer (a handle the shell owns) at the configured hz.
void CronStart(Shell& shell, uv_timer_t* timer);
void CronStop(uv_timer_t* timer);

}  // namespace plinth::host
