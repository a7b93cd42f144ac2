// The replica's link events (see replica_impl.h): a full sync's snapshot loaded in slices
// between loop turns (clients get -LOADING meanwhile; the stream that arrives is queued), a
// partial resync's new replid, and the primary's stream applied through the internal client
// and fed, re-encoded byte for byte, to this server's backlog and sub-replicas.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <plinth/command_form.hpp>
#include <plinth/plugin.hpp>
#include <plinth/text.hpp>

#include "replication/failover.h"
#include "replication/primary.h"
#include "replication/replica_impl.h"

namespace plinth::replication {
namespace {

constexpr uint64_t kKeysPerSlice = 20000;
constexpr int64_t kRetryMs = 1000;
constexpr int64_t kMaxSyncRetryMs = 60000;
constexpr uint64_t kLoggedErrors = 10;  // errors of applied commands logged, then only counted
constexpr const char* kNoReplId = "0000000000000000000000000000000000000000";

bool IsGetAck(const std::vector<std::string>& argv) {
  return argv.size() >= 2 && text::EqualsNoCase(argv[0], "replconf") &&
         text::EqualsNoCase(argv[1], "getack");
}

// The replication commands themselves: a primary never propagates them, and run here they
// would turn this replica's own link around (REPLICAOF) or make the applying client a replica
// of ours (PSYNC). Skipped, so a confused primary costs nothing but the log line.
bool IsReplicationCommand(const std::string& name) {
  for (const char* c : {"replicaof", "slaveof", "psync", "sync", "replconf"})
    if (text::EqualsNoCase(name, c)) return true;
  return false;
}

}  // namespace

LinkEvents Replica::Impl::Events() {
  LinkEvents e;
  e.syncing = [this] { OnSyncing(); };
  e.full_sync = [this](const std::string& id, uint64_t offset) { OnFullSync(id, offset); };
  e.partial_sync = [this](const std::string& id) { OnPartialSync(id); };
  e.commands = [this](std::vector<StreamCommand> c) { OnCommands(std::move(c)); };
  e.progress = [this](uint64_t read, int64_t total) { OnProgress(read, total); };
  e.down = [this](const std::string& reason) { OnDown(reason); };
  return e;
}

void Replica::Impl::OnSyncing() {
  state = ReplState::kSync;
  last_io_ms = sync_start_ms = NowMs();
  sync_read = 0;
  sync_total = -1;
  UpdateRefusals();
}

void Replica::Impl::OnProgress(uint64_t read, int64_t total) {
  last_io_ms = NowMs();
  sync_read = read;
  sync_total = total;
  if (failover_psync) {  // +FULLRESYNC: the target took over
    failover_psync = false;
    if (r.failover) r.failover->LinkSynced();
  }
}

void Replica::Impl::OnFullSync(const std::string& replid, uint64_t offset) {
  last_io_ms = NowMs();
  Log(PLINTH_LOG_NOTICE, "Full resync from master: " + replid + ":" + std::to_string(offset));
  Log(PLINTH_LOG_NOTICE, "MASTER <-> REPLICA sync: received " + std::to_string(sync_read) +
                             " bytes from master to disk");
  // From here the keyspace is not the history our replid names any more.
  history_valid = false;
  r.primary->DisconnectAll();
  loading = true;
  sdk::Api().server_set_loading(self, 1);
  Log(PLINTH_LOG_NOTICE, "MASTER <-> REPLICA sync: Flushing old data");
  sdk::Api().db_flush_all(self);
  // The stream of a full sync starts in database 0: a fresh client is there.
  if (client) sdk::Api().client_destroy_internal(client);
  client = nullptr;
  queued.clear();
  sync_replid = replid;
  sync_offset = read_offset = offset;
  load_fd = open(load_path.c_str(), O_RDONLY | O_CLOEXEC);
  if (load_fd < 0) {
    const std::string why = "can't open " + load_path + ": " + std::strerror(errno);
    loading = false;  // nothing to abort but the loading state
    sdk::Api().server_set_loading(self, 0);
    Log(PLINTH_LOG_WARNING, "MASTER <-> REPLICA sync: " + why);
    link.reset();
    state = ReplState::kConnect;
    next_connect_ms = NowMs() + RetryDelayMs(true, why);
    UpdateRefusals();
    return;
  }
  loader = std::make_unique<rdb::KeyspaceLoader>(self, load_fd);
  Log(PLINTH_LOG_NOTICE, "MASTER <-> REPLICA sync: Loading DB in memory");
  LoadSlice();
}

void Replica::Impl::LoadSlice() {
  if (!loader) return;  // a task left from a load that was aborted
  switch (loader->Step(kKeysPerSlice)) {
    case rdb::KeyspaceLoader::Status::kMore: {
      auto task = [](void*) {
        if (Impl::live) Impl::live->LoadSlice();
      };
      if (sdk::Api().loop_post(self, task, nullptr) != PLINTH_OK)
        AbortLoad("the server is stopping");
      return;
    }
    case rdb::KeyspaceLoader::Status::kDone:
      return FinishLoad();
    case rdb::KeyspaceLoader::Status::kError: {
      const std::string why =
          "Failed trying to load the MASTER synchronization DB from disk: " + loader->error();
      AbortLoad(why);
      link.reset();
      state = ReplState::kConnect;
      next_connect_ms = NowMs() + RetryDelayMs(true, why);
      UpdateRefusals();
      return;
    }
  }
}

void Replica::Impl::AbortLoad(const std::string& why) {
  if (!loading) return;
  Log(PLINTH_LOG_WARNING,
      "MASTER <-> REPLICA sync: " + why + "; the part already loaded is dropped");
  loader.reset();
  if (load_fd >= 0) close(load_fd);
  load_fd = -1;
  unlink(load_path.c_str());
  queued.clear();
  queued.shrink_to_fit();
  loading = false;
  sdk::Api().db_flush_all(self);
  sdk::Api().server_set_loading(self, 0);
  history_valid = false;
}

void Replica::Impl::FinishLoad() {
  const uint64_t keys = loader->keys_loaded();
  loader.reset();
  close(load_fd);
  load_fd = -1;
  unlink(load_path.c_str());
  loading = false;
  sdk::Api().server_set_loading(self, 0);
  r.replid = sync_replid;
  r.replid2 = kNoReplId;
  r.second_offset = -1;
  r.offset = sync_offset;
  r.primary->ResetBacklog();
  history_valid = true;
  synced = true;
  char secs[32];
  std::snprintf(secs, sizeof secs, "%.3f", static_cast<double>(NowMs() - sync_start_ms) / 1000);
  Log(PLINTH_LOG_NOTICE, "MASTER <-> REPLICA sync: Finished with success (" + std::to_string(keys) +
                             " keys, " + secs + " seconds)");
  // A link that went down meanwhile is retried by Cron, with PSYNC from what is applied here.
  state = link ? ReplState::kConnected : ReplState::kConnect;
  last_ack_ms = 0;
  sync_failures = 0;
  sync_error.clear();
  UpdateRefusals();
  std::vector<StreamCommand> q = std::move(queued);
  queued = {};
  Apply(q.data(), q.size());
}

void Replica::Impl::OnPartialSync(const std::string& replid) {
  last_io_ms = NowMs();
  Log(PLINTH_LOG_NOTICE, "MASTER <-> REPLICA sync: Master accepted a Partial Resynchronization.");
  if (replid != r.replid) {
    Log(PLINTH_LOG_NOTICE, "Master replication ID changed to " + replid);
    r.replid2 = r.replid;
    r.second_offset = static_cast<int64_t>(r.offset) + 1;
    r.replid = replid;
    // Sub-replicas reconnect to learn the new replid (they continue with PSYNC).
    r.primary->DisconnectAll();
  }
  read_offset = r.offset;
  state = ReplState::kConnected;
  last_ack_ms = 0;
  sync_failures = 0;
  sync_error.clear();
  UpdateRefusals();
  if (failover_psync) {
    failover_psync = false;
    if (r.failover) r.failover->LinkSynced();
  }
}

void Replica::Impl::OnCommands(std::vector<StreamCommand> commands) {
  if (commands.empty()) return;
  last_io_ms = NowMs();
  read_offset = commands.back().end_offset;
  if (!loading) return Apply(commands.data(), commands.size());
  if (queued.empty()) {
    queued = std::move(commands);
  } else {
    for (StreamCommand& c : commands) queued.push_back(std::move(c));
  }
}

plinth_client_t* Replica::Impl::Client() {
  // Flags 0: its effects reach the host's stream, so this server's AOF holds them.
  if (!client) client = sdk::Api().client_create_internal(self, 0);
  return client;
}

void Replica::Impl::Apply(const StreamCommand* commands, size_t n) {
  if (n == 0) return;
  plinth_client_t* c = Client();
  if (!c) {
    Log(PLINTH_LOG_WARNING, "can't create the client applying the master's stream: out of memory");
    return;
  }
  encoded.clear();
  const uint64_t base = r.offset;
  bool getack = false;
  char err[256];
  for (size_t i = 0; i < n; ++i) {
    const std::vector<std::string>& a = commands[i].argv;
    form::AppendCommand(&encoded, a);  // the bytes a primary's stream carries
    if (base + encoded.size() != commands[i].end_offset && !offset_warned) {
      offset_warned = true;
      Log(PLINTH_LOG_WARNING, "the master's stream re-encoded does not match its offsets (" +
                                  std::to_string(base + encoded.size()) + " vs " +
                                  std::to_string(commands[i].end_offset) +
                                  "): sub-replicas and acks may be off");
    }
    if (a.empty()) continue;
    if (text::EqualsNoCase(a[0], "ping")) {
      ++pings;
      continue;
    }
    if (IsGetAck(a)) {
      getack = true;
      continue;
    }
    if (IsReplicationCommand(a[0])) {
      if (++apply_errors <= kLoggedErrors)
        Log(PLINTH_LOG_WARNING, "the master sent " + text::QuoteRepr(a[0]) + ": skipped");
      continue;
    }
    argv.clear();
    lens.clear();
    for (const std::string& s : a) {
      argv.push_back(s.data());
      lens.push_back(s.size());
    }
    if (sdk::Api().client_exec(c, static_cast<int32_t>(a.size()), argv.data(), lens.data(), err,
                               sizeof err) != PLINTH_OK &&
        ++apply_errors <= kLoggedErrors)
      Log(PLINTH_LOG_WARNING, "the master's " + text::QuoteRepr(a[0]) + " failed here: " + err);
  }
  Feed(r, encoded.data(), encoded.size());
  if (getack && link) link->Ack(r.offset);
}

int64_t Replica::Impl::RetryDelayMs(bool sync_failed, const std::string& why) {
  if (!sync_failed) return kRetryMs;
  ++sync_failures;
  sync_error = why;  // one INFO line: control bytes (a key's name) become '?'
  for (char& ch : sync_error)
    if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f) ch = '?';
  const int64_t delay =
      std::min<int64_t>(kMaxSyncRetryMs, kRetryMs << std::min<uint32_t>(sync_failures - 1, 6));
  Log(PLINTH_LOG_WARNING, "MASTER <-> REPLICA sync failed (" + std::to_string(sync_failures) +
                              " in a row): " + why + "; next try in " +
                              std::to_string(delay / 1000) + " s");
  return delay;
}

void Replica::Impl::OnDown(const std::string& reason) {
  const bool was_up = state == ReplState::kConnected;
  const bool sync_failed = state == ReplState::kSync && !loading;
  Log(PLINTH_LOG_WARNING,
      (was_up ? "Connection with master lost: "
              : "Replication link to " + host + ":" + std::to_string(port) + " failed: ") +
          reason);
  // Safe inside the link's own event: the task that runs it holds the link's insides.
  link.reset();
  if (was_up) down_since_ms = NowMs();
  if (!loading) {
    state = ReplState::kConnect;
    unlink(load_path.c_str());  // a snapshot cut short
  }
  next_connect_ms = NowMs() + RetryDelayMs(sync_failed, reason);
  UpdateRefusals();
  // FAILOVER's PSYNC to its target failed: the failover aborts (this server is a primary
  // again).
  if (failover_psync) {
    failover_psync = false;
    if (r.failover) r.failover->LinkFailed(reason);
  }
}

}  // namespace plinth::replication
