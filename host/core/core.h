// The host's core: the objects that hold the server's semantics, each one concept, made and
// wired together here. It knows no event loop and no process global: one instance, reached
// through the call, plugin and timer handles it hands out, talks to the outside through its
// Env (server.env()) and each command's ReplySink. Main thread only unless noted.
//
//   server       the process: env, clock, log, statistics, facts, INFO, cron  (server.h)
//   registry     the command table                                             (registry.h)
//   auth         requirepass and the ACL provider                              (auth.h)
//   options      the options, the host's and the plugins'                       (options.h)
//   keyspace     databases, types, expiry, eviction, watched keys               (keyspace.h)
//   dispatch     the request path                                               (dispatch.h)
//   sessions     blocked and paused commands                                    (sessions.h)
//   events       keyspace, client, key change and command events                (events.h)
//   propagation  the stream of effects and its units                            (propagation.h)
//   plugins      the loader and the loaded plugins                              (plugins.h)
//   endpoints    the protocol, the transports, the reply path                   (hooks.h)
//   listeners    stream consumers, before-sleep hooks, INFO sections            (hooks.h)
#pragma once

#include <plinth/plugin.h>

#include <string>
#include <string_view>
#include <vector>

#include "host/core/auth.h"
#include "host/core/dispatch.h"
#include "host/core/env.h"
#include "host/core/events.h"
#include "host/core/hooks.h"
#include "host/core/keyspace.h"
#include "host/core/options.h"
#include "host/core/plugins.h"
#include "host/core/propagation.h"
#include "host/core/registry.h"
#include "host/core/server.h"
#include "host/core/session.h"
#include "host/core/sessions.h"

namespace plinth::host {

class Core {
 public:
  // A core with no databases yet (Keyspace::Create), no plugins and the host's commands.
  explicit Core(const Env& env);
  ~Core();
  Core(const Core&) = delete;
  Core& operator=(const Core&) = delete;

  Server server;
  Registry registry;
  Auth auth;
  Options options;
  Keyspace keyspace{*this};
  Dispatch dispatch{*this};
  Sessions sessions{*this};
  Events events{*this};
  Listeners listeners;
  Propagation propagation{listeners};
  Plugins plugins{*this};
  Endpoints endpoints;
};

inline void Keyspace::KeyTouched(int32_t db, std::string_view key, bool expiry) {
  if (!watches.empty()) watches.Touched(db, key, dbs[db], expiry);
  core_.events.KeyChanged(db, key.data(), key.size());
}

inline void Keyspace::KeyCreated(int32_t db, std::string_view key) {
  core_.sessions.blocking.Signal(db, key);
  if (!core_.events.keyspace_listeners.empty())
    core_.events.Notify(db, PLINTH_NOTIFY_NEW, "new", key);
}

}  // namespace plinth::host

// A plugin as the host knows it; plinth_plugin_t* points to one.
struct plinth_plugin {
  plinth::host::Core* core = nullptr;
  std::string path;
  std::string name;
  plinth_plugin_descriptor_t descriptor{};  // the host's zero-filled copy of the plugin's
  void* handle = nullptr;
  bool optional = false;
  std::vector<plinth_timer_t*> init_timers;  // started during init: stopped if init fails
  std::string init_warning;                  // the last warning it logged during init
};
