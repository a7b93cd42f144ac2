// The replication options (see options.h) under Redis's names and defaults. The host has no
// option aliases, so each old slave-* name is a second option: whichever of the pair was set
// last is the one Options points to (its apply moves the handle), and both run the same side
// effects (the replicaof pair starts or stops following, the read-only and stale-data pairs
// update the refusals). THREAD: main.
#include "replication/options.h"

#include <cstdio>
#include <cstring>
#include <plinth/plugin.hpp>
#include <plinth/text.hpp>
#include <string>

#include "replication/replica.h"
#include "replication/state.h"

namespace plinth::replication {
namespace {

// One option of the table: where its handle goes, its Redis name, and what it does when set.
struct Def {
  const plinth_option_t* Options::*slot;
  const char* name;
  uint32_t type;
  uint32_t flags;
  const char* def;
  int64_t min, max;
  const char* enum_values;
  const char* help;
  bool alias;  // an old slave-* name of the option before it
};

// What an apply callback needs: the plugin state, the option's slot and whether it is an alias.
struct Binding {
  Repl* r = nullptr;
  const Def* def = nullptr;
  Options* opts = nullptr;
};

bool registering = true;  // inside RegisterOptions: an alias's default must not take the slot

void Refuse(char* err, size_t errlen, const std::string& why) {
  if (err && errlen) std::snprintf(err, errlen, "%s", why.c_str());
}

// "host port", "" or "no one" (any case): host empty means no primary.
bool ParseReplicaOf(const std::string& v, std::string* host, int* port, std::string* why) {
  host->clear();
  *port = 0;
  if (v.empty() || text::EqualsNoCase(v, "no one")) return true;
  const size_t sp = v.find(' ');
  if (sp == std::string::npos || sp == 0) {
    *why = "replicaof takes \"<host> <port>\" or \"no one\"";
    return false;
  }
  *host = v.substr(0, sp);
  const std::string p = v.substr(v.find_first_not_of(' ', sp));
  int64_t n = 0;
  if (!text::ParseInt64(p, &n) || n < 0 || n > 65535) {
    *why = "Invalid master port";
    return false;
  }
  *port = static_cast<int>(n);
  return true;
}

int32_t Apply(void* ctx, const char* name, const char* value, size_t len, int64_t number, char* err,
              size_t errlen) {
  Binding* b = static_cast<Binding*>(ctx);
  Repl& r = *b->r;
  const Def& d = *b->def;
  const std::string v(value, len);
  if (d.slot == &Options::replicaof) {
    std::string host, why;
    int port = 0;
    if (!ParseReplicaOf(v, &host, &port, &why)) {
      Refuse(err, errlen, why);
      return PLINTH_ERR;
    }
    if (!(registering && d.alias && v.empty()) && r.replica &&
        !r.replica->Configure(host, port, &why)) {
      Refuse(err, errlen, why);
      return PLINTH_ERR;
    }
  } else if (d.slot == &Options::repl_diskless_load && number != 0) {
    Refuse(err, errlen, "only repl-diskless-load disabled is supported");
    return PLINTH_ERR;
  } else if (r.replica && (d.slot == &Options::replica_read_only ||
                           d.slot == &Options::replica_serve_stale_data)) {
    if (!(registering && d.alias && v == d.def))
      d.slot == &Options::replica_read_only ? r.replica->SetReadOnly(number != 0)
                                            : r.replica->SetServeStale(number != 0);
  }
  // The name set last is the one read: an alias's default at registration does not count.
  if (!(registering && d.alias && v == d.def))
    b->opts->*(d.slot) = sdk::Api().option_find(r.self, name);
  return PLINTH_OK;
}

constexpr uint32_t kM = PLINTH_OPT_MUTABLE | PLINTH_OPT_GLOBAL_NAME;
constexpr uint32_t kS = PLINTH_OPT_STRING, kI = PLINTH_OPT_INT, kB = PLINTH_OPT_BOOL;
constexpr int64_t kMaxInt = 2147483647;

const Def kDefs[] = {
    {&Options::replicaof, "replicaof", kS, kM, "", 0, 0, nullptr,
     "\"<host> <port>\" of the primary to follow, or \"\" (REPLICAOF)", false},
    {&Options::replicaof, "slaveof", kS, kM, "", 0, 0, nullptr, "alias of replicaof", true},
    {&Options::masterauth, "masterauth", kS, kM | PLINTH_OPT_SECRET, "", 0, 0, nullptr,
     "password this replica sends to its primary (AUTH)", false},
    {&Options::masteruser, "masteruser", kS, kM, "", 0, 0, nullptr,
     "user name this replica sends to its primary (AUTH user password)", false},
    {&Options::replica_read_only, "replica-read-only", kB, kM, "yes", 0, 0, nullptr,
     "a replica refuses clients' writes (-READONLY)", false},
    {&Options::replica_read_only, "slave-read-only", kB, kM, "yes", 0, 0, nullptr,
     "alias of replica-read-only", true},
    {&Options::replica_serve_stale_data, "replica-serve-stale-data", kB, kM, "yes", 0, 0, nullptr,
     "a replica whose link is down still serves data (no: -MASTERDOWN)", false},
    {&Options::replica_serve_stale_data, "slave-serve-stale-data", kB, kM, "yes", 0, 0, nullptr,
     "alias of replica-serve-stale-data", true},
    {&Options::replica_priority, "replica-priority", kI, kM, "100", 0, kMaxInt, nullptr,
     "Sentinel's promotion priority (INFO slave_priority; 0: never)", false},
    {&Options::replica_priority, "slave-priority", kI, kM, "100", 0, kMaxInt, nullptr,
     "alias of replica-priority", true},
    {&Options::replica_announced, "replica-announced", kB, kM, "yes", 0, 0, nullptr,
     "Sentinel lists this replica (INFO replica_announced)", false},
    {&Options::replica_announce_ip, "replica-announce-ip", kS, kM, "", 0, 0, nullptr,
     "address this replica gives its primary (REPLCONF ip-address)", false},
    {&Options::replica_announce_ip, "slave-announce-ip", kS, kM, "", 0, 0, nullptr,
     "alias of replica-announce-ip", true},
    {&Options::replica_announce_port, "replica-announce-port", kI, kM, "0", 0, 65535, nullptr,
     "port this replica gives its primary (0: its own port)", false},
    {&Options::replica_announce_port, "slave-announce-port", kI, kM, "0", 0, 65535, nullptr,
     "alias of replica-announce-port", true},
    {&Options::repl_diskless_load, "repl-diskless-load", PLINTH_OPT_ENUM, kM, "disabled", 0, 0,
     "disabled|on-empty-db|swapdb", "how a replica loads a full sync (only disabled: via a file)",
     false},
    {&Options::repl_backlog_size, "repl-backlog-size", PLINTH_OPT_MEMORY, kM, "1mb", 1, INT64_MAX,
     nullptr, "bytes of the stream kept for partial resyncs", false},
    {&Options::repl_backlog_ttl, "repl-backlog-ttl", kI, kM, "3600", 0, kMaxInt, nullptr,
     "seconds without replicas before the backlog is freed (0: never)", false},
    {&Options::repl_diskless_sync, "repl-diskless-sync", kB, kM, "yes", 0, 0, nullptr,
     "full syncs stream the snapshot to replicas instead of writing a file", false},
    {&Options::repl_diskless_sync_delay, "repl-diskless-sync-delay", kI, kM, "5", 0, kMaxInt,
     nullptr, "seconds a diskless full sync waits for more replicas", false},
    {&Options::repl_diskless_sync_max_replicas, "repl-diskless-sync-max-replicas", kI, kM, "0", 0,
     kMaxInt, nullptr, "start a diskless full sync at once with this many replicas waiting", false},
    {&Options::repl_ping_replica_period, "repl-ping-replica-period", kI, kM, "10", 1, kMaxInt,
     nullptr, "seconds between the primary's PINGs in the stream", false},
    {&Options::repl_ping_replica_period, "repl-ping-slave-period", kI, kM, "10", 1, kMaxInt,
     nullptr, "alias of repl-ping-replica-period", true},
    {&Options::repl_timeout, "repl-timeout", kI, kM, "60", 1, kMaxInt, nullptr,
     "seconds of silence before either side drops the link", false},
    {&Options::min_replicas_to_write, "min-replicas-to-write", kI, kM, "0", 0, kMaxInt, nullptr,
     "refuse writes (-NOREPLICAS) with fewer good replicas (0: off)", false},
    {&Options::min_replicas_to_write, "min-slaves-to-write", kI, kM, "0", 0, kMaxInt, nullptr,
     "alias of min-replicas-to-write", true},
    {&Options::min_replicas_max_lag, "min-replicas-max-lag", kI, kM, "10", 0, kMaxInt, nullptr,
     "seconds since its last ack within which a replica is good", false},
    {&Options::min_replicas_max_lag, "min-slaves-max-lag", kI, kM, "10", 0, kMaxInt, nullptr,
     "alias of min-replicas-max-lag", true},
};

Binding g_bindings[sizeof kDefs / sizeof kDefs[0]];

}  // namespace

bool RegisterOptions(Repl& r, Options* out) {
  registering = true;
  bool ok = true;
  for (size_t i = 0; i < sizeof kDefs / sizeof kDefs[0] && ok; ++i) {
    const Def& d = kDefs[i];
    g_bindings[i] = Binding{&r, &d, out};
    plinth_option_spec_t o{};
    o.struct_size = sizeof o;
    o.name = d.name;
    o.type = d.type;
    o.flags = d.flags;
    o.default_value = d.def;
    o.min = d.min;
    o.max = d.max;
    o.enum_values = d.enum_values;
    o.description = d.help;
    o.apply = &Apply;
    o.ctx = &g_bindings[i];
    const plinth_option_t* h = sdk::Api().option_register(r.self, &o);
    if (!h) ok = false;
    // Without an apply having taken the slot (a main name) it points at the main option.
    if (h && !d.alias && !(out->*(d.slot))) out->*(d.slot) = h;
  }
  registering = false;
  out->dir = sdk::Api().option_find(r.self, "dir");
  out->port = sdk::Api().option_find(r.self, "port");
  out->output_limit = sdk::Api().option_find(r.self, "client-output-buffer-limit");
  return ok;
}

}  // namespace plinth::replication
