// The periodic server job (hz times a second): active expiry, idle client timeouts, output
// buffer soft limits. Main thread only.
#pragma once

#include <cstdint>

namespace plinth::host {

// Starts the cron timer at the configured hz.
void CronStart();
void CronStop();
// One active-expiry pass over every database within budget_us. Returns keys expired.
uint64_t ActiveExpireCycle(int64_t budget_us);

}  // namespace plinth::host
