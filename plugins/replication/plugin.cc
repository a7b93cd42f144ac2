// The replication plugin's descriptor: REPLICAOF/SLAVEOF, ROLE, PSYNC, SYNC, REPLCONF, WAIT,
// FAILOVER and DEBUG CHANGE-REPL-ID, the stream consumer that feeds replicas, the client
// listener, the 100 ms cron, the before-sleep hook and INFO's replication section (plus sync_*
// in stats). The only file that touches the descriptor; the logic lives in primary*.cc,
// replica*.cc, failover*.cc and state.cc.
#include <memory>
#include <plinth/plugin.hpp>
#include <plinth/text.hpp>

#include "replication/backlog.h"
#include "replication/failover.h"
#include "replication/primary.h"
#include "replication/replica.h"
#include "replication/state.h"

namespace {

using plinth::replication::Repl;
using plinth::sdk::Call;

std::unique_ptr<Repl> g_repl;
std::unique_ptr<plinth::replication::Failover> g_failover;
plinth_timer_t* g_cron = nullptr;

void ReplicaOf(Call& c) { g_repl->replica->ReplicaOf(c.raw()); }
void Role(Call& c) { g_repl->replica->Role(c.raw()); }
// PSYNC and SYNC run on a stale replica and while loading (their flags), but a snapshot taken
// then would not match the offset it is sent with: the sub-replica retries later.
bool CanServeSync(const Call& c) {
  if (g_failover && g_failover->active()) {
    c.Error("NOMASTERLINK Can't SYNC while failing over");
    return false;
  }
  if (g_repl->is_replica() && !g_repl->replica->connected()) {
    c.Error("NOMASTERLINK Can't SYNC while not connected with my master");
    return false;
  }
  if (plinth::sdk::Api().server_loading(g_repl->self)) {
    c.Error("LOADING Plinth is loading the dataset in memory");
    return false;
  }
  return true;
}

// PSYNC <replid> <offset> FAILOVER: our primary's FAILOVER chose us; we take over first.
void Psync(Call& c) {
  if (c.argc() > 3 && plinth::text::EqualsNoCase(c.arg(3), "failover") && g_failover &&
      !g_failover->TakeOver(c.raw(), std::string(c.arg(1))))
    return;
  if (CanServeSync(c)) g_repl->primary->Psync(c.raw());
}
void Sync(Call& c) {
  if (CanServeSync(c)) g_repl->primary->Sync(c.raw());
}
void Replconf(Call& c) { g_repl->primary->Replconf(c.raw()); }
// DEBUG CHANGE-REPL-ID (a subcommand of the diagnostics plugin's DEBUG), for tests of PSYNC.
void DebugChangeReplId(Call& c) {
  if (c.argc() != 2)
    return c.Error(
        "ERR unknown subcommand or wrong number of arguments for 'change-repl-id'. Try DEBUG "
        "HELP.");
  plinth::sdk::Log(PLINTH_LOG_WARNING,
                   "Changing replication IDs after receiving DEBUG change-repl-id");
  plinth::replication::ChangeReplId(*g_repl);
  c.Ok();
}
void Wait(Call& c) { g_repl->primary->Wait(c.raw()); }
void FailoverCmd(Call& c) { g_failover->Command(c.raw()); }

// LOADING: allowed while a snapshot loads and (PLINTH_REFUSE_STALE) on a stale replica.
constexpr uint32_t kAlways = PLINTH_CMD_LOADING | PLINTH_CMD_STALE | PLINTH_CMD_NOSCRIPT;
constexpr uint32_t kAdmin = kAlways | PLINTH_CMD_ADMIN | PLINTH_CMD_NOPROPAGATE;

const plinth::sdk::CommandDef kCommands[] = {
    {"replicaof", 3, kAdmin, 0, 0, 0, &ReplicaOf, "server", "<host port | NO ONE>",
     "Configures a server as replica of another, or promotes it to a master.", "5.0.0"},
    {"slaveof", 3, kAdmin, 0, 0, 0, &ReplicaOf, "server", "<host port | NO ONE>",
     "Sets a Redis server as a replica of another, or promotes it to being a master.", "1.0.0"},
    {"role", 1, kAlways | PLINTH_CMD_FAST, 0, 0, 0, &Role, "server", nullptr,
     "Returns the replication role.", "2.8.12", PLINTH_ACL_ADMIN | PLINTH_ACL_DANGEROUS},
    {"psync", -3, kAdmin | PLINTH_CMD_NO_MULTI, 0, 0, 0, &Psync, "server", "replicationid offset",
     "An internal command used in replication.", "2.8.0"},
    {"sync", 1, kAdmin | PLINTH_CMD_NO_MULTI, 0, 0, 0, &Sync, "server", nullptr,
     "An internal command used in replication.", "1.0.0"},
    {"replconf", -1, kAdmin, 0, 0, 0, &Replconf, "server", nullptr,
     "An internal command for configuring the replication stream.", "3.0.0"},
    {"debug|change-repl-id", 2, PLINTH_CMD_PROTECTED | kAdmin, 0, 0, 0, &DebugChangeReplId,
     "server", nullptr, "Changes the replication IDs of the instance.", "1.0.0"},
    {"failover", -1,
     PLINTH_CMD_ADMIN | PLINTH_CMD_NOSCRIPT | PLINTH_CMD_STALE | PLINTH_CMD_NOPROPAGATE, 0, 0, 0,
     &FailoverCmd, "server", "[TO host port [FORCE]] [ABORT] [TIMEOUT milliseconds]",
     "Starts a coordinated failover from a server to one of its replicas.", "6.2.0"},
    {"wait", 3, kAlways, 0, 0, 0, &Wait, "generic", "numreplicas timeout",
     "Blocks until the asynchronous replication of all preceding write commands sent by the "
     "connection is completed.",
     "3.0.0", PLINTH_ACL_CONNECTION},
};

void InfoReplication(void*, plinth_info_t* info) {
  if (!g_repl || !g_repl->primary || !g_repl->replica) return;
  Repl& r = *g_repl;
  const plinth_host_api_t& api = plinth::sdk::Api();
  auto s = [&](const char* name, const std::string& v) {
    api.info_field(info, name, v.data(), v.size());
  };
  s("role", r.is_replica() ? "slave" : "master");
  if (r.is_replica()) r.replica->InfoFields(info);
  r.primary->InfoFields(info);
  s("master_failover_state", g_failover ? g_failover->state_name() : "no-failover");
  s("master_replid", r.replid);
  s("master_replid2", r.replid2);
  api.info_field_int(info, "master_repl_offset", static_cast<int64_t>(r.offset));
  api.info_field_int(info, "second_repl_offset", r.second_offset);
  r.primary->BacklogFields(info);
}

void InfoStats(void*, plinth_info_t* info) {
  if (g_repl && g_repl->primary) g_repl->primary->StatsFields(info);
}

bool RegisterHooks(Repl& r) {
  const plinth_host_api_t& api = plinth::sdk::Api();
  plinth_stream_consumer_spec_t c{};
  c.struct_size = sizeof c;
  c.name = "replication";
  c.ctx = &r;
  c.on_batch = [](void* ctx, const plinth_stream_batch_t* b) {
    Repl& rr = *static_cast<Repl*>(ctx);
    if (rr.primary) rr.primary->OnBatch(b);
  };
  if (api.stream_consumer_register(r.self, &c) != PLINTH_OK) return false;
  auto closed = [](void* ctx, uint64_t id, uint32_t event) {
    Repl& rr = *static_cast<Repl*>(ctx);
    if (event == PLINTH_CLIENT_CLOSED && rr.primary) rr.primary->ClientClosed(id);
  };
  if (api.client_listener_register(r.self, closed, &r) != PLINTH_OK) return false;
  auto cron = [](void* ctx) {
    Repl& rr = *static_cast<Repl*>(ctx);
    if (!rr.primary || !rr.replica) return;
    rr.primary->Cron();
    rr.replica->Cron();
    if (rr.failover) rr.failover->Tick();
  };
  g_cron = api.timer_start(r.self, 100, 100, cron, &r);
  if (!g_cron) return false;
  auto sleep = [](void* ctx) {
    Repl& rr = *static_cast<Repl*>(ctx);
    if (rr.primary) rr.primary->BeforeSleep();
  };
  if (api.before_sleep_register(r.self, sleep, &r) != PLINTH_OK) return false;
  return api.info_register(r.self, "replication", &InfoReplication, nullptr) == PLINTH_OK &&
         api.info_register(r.self, "stats", &InfoStats, nullptr) == PLINTH_OK;
}

bool Init() {
  const plinth_host_api_t& api = plinth::sdk::Api();
  if (!PLINTH_HAS(&api, server_run_id)) {
    plinth::sdk::Log(PLINTH_LOG_WARNING, "the host is too old: it has no replication functions");
    return false;
  }
  g_repl = std::make_unique<Repl>();
  Repl& r = *g_repl;
  r.self = plinth::sdk::Host::self;
  r.replid = plinth::replication::NewReplId();
  r.replid2 = std::string(40, '0');
  r.primary = std::make_unique<plinth::replication::Primary>(r);
  r.replica = std::make_unique<plinth::replication::Replica>(r);
  g_failover = std::make_unique<plinth::replication::Failover>(r);
  r.failover = g_failover.get();
  // Options first: a configured replicaof is recorded, then followed once the loop runs.
  return plinth::replication::RegisterOptions(r, &r.opts) &&
         plinth::sdk::RegisterCommands(kCommands) && RegisterHooks(r) && r.replica->Start();
}

// The Repl itself stays until the plugin is unloaded: hooks the host might still call see
// null halves and do nothing.
void Shutdown() {
  if (!g_repl) return;
  if (g_cron) plinth::sdk::Api().timer_stop(g_cron);
  g_cron = nullptr;
  g_repl->failover = nullptr;
  g_failover.reset();
  g_repl->replica.reset();  // stops the link thread first: its events reach the primary side
  g_repl->primary.reset();
}

}  // namespace

PLINTH_PLUGIN("replication", "0.1.0",
              "primary/replica replication (Redis PSYNC2 wire, REPLICAOF, WAIT, FAILOVER)", &Init,
              &Shutdown)
