// stop-writes-on-bgsave-error: while the last background save failed, save points are set and
// the option is yes (Redis's default), clients' write commands are refused with Redis 7.0's
// -MISCONF error through the host's server_refuse; reads keep working. Main thread.
#pragma once

namespace plinth::rdb {

// Registers the option. false when the host refused it. Init only.
bool RegisterMisconfOption();

// Called whenever one of the inputs changes: whether the last background save (or a SAVE since)
// succeeded, and whether save points are configured. Sets or lifts the refusal.
void UpdateMisconf(bool last_bgsave_ok, bool has_save_points);

}  // namespace plinth::rdb
