// The replication plugin's config options, under Redis's names and defaults, registered at init
// (options.cc). Handles are read with sdk::OptionInt / sdk::OptionString at use. THREAD: main.
#pragma once

#include <plinth/plugin.h>

namespace plinth::replication {

struct Repl;

struct Options {
  // replica side
  const plinth_option_t* replicaof = nullptr;          // "<host> <port>" or "" (slaveof alias)
  const plinth_option_t* masterauth = nullptr;         // AUTH password towards the primary
  const plinth_option_t* masteruser = nullptr;         // AUTH user towards the primary
  const plinth_option_t* replica_read_only = nullptr;  // yes (slave-read-only)
  const plinth_option_t* replica_serve_stale_data = nullptr;  // yes (slave-serve-stale-data)
  const plinth_option_t* replica_priority = nullptr;          // 100 (slave-priority)
  const plinth_option_t* replica_announced = nullptr;         // yes
  const plinth_option_t* replica_announce_ip = nullptr;       // ""
  const plinth_option_t* replica_announce_port = nullptr;     // 0
  const plinth_option_t* repl_diskless_load = nullptr;        // disabled (only value accepted)
  // primary side
  const plinth_option_t* repl_backlog_size = nullptr;         // 1mb
  const plinth_option_t* repl_backlog_ttl = nullptr;          // 3600 (seconds; 0: never free)
  const plinth_option_t* repl_diskless_sync = nullptr;        // yes
  const plinth_option_t* repl_diskless_sync_delay = nullptr;  // 5 (seconds)
  const plinth_option_t* repl_diskless_sync_max_replicas = nullptr;  // 0
  const plinth_option_t* repl_ping_replica_period = nullptr;         // 10 (seconds)
  const plinth_option_t* repl_timeout = nullptr;                     // 60 (seconds; both sides)
  const plinth_option_t* min_replicas_to_write = nullptr;            // 0 (min-slaves-to-write)
  const plinth_option_t* min_replicas_max_lag = nullptr;             // 10 (min-slaves-max-lag)
  // shared with other plugins, found at first use (may stay null)
  const plinth_option_t* dir = nullptr;           // rdb plugin: where sync files go
  const plinth_option_t* port = nullptr;          // tcp plugin: REPLCONF listening-port
  const plinth_option_t* output_limit = nullptr;  // shell: client-output-buffer-limit
};

// Registers every option above (with Redis's old slave-* names as aliases where Redis has
// them). Returns false when the host refused one. Init only.
bool RegisterOptions(Repl& r, Options* out);

}  // namespace plinth::replication
