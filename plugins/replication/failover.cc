// FAILOVER's state machine (see failover.h), after Redis 7.0's failoverCommand,
// updateFailoverStatus and abortFailover in replication.c.
#include "replication/failover.h"

#include <limits>
#include <plinth/plugin.hpp>
#include <vector>

#include "replication/failover_args.h"
#include "replication/primary.h"
#include "replication/replica.h"
#include "replication/state.h"

namespace plinth::replication {
namespace {

// The pause lasts until the failover ends; a far end that no clock arithmetic overflows.
constexpr int64_t kPauseForeverMs = std::numeric_limits<int64_t>::max() / 4;

}  // namespace

Failover::Failover(Repl& r) : r_(r) {}

Failover::~Failover() {
  if (paused_) sdk::Api().clients_pause(r_.self, PLINTH_PAUSE_NONE, 0);
}

void Failover::Log(const std::string& text) const {
  sdk::Api().log_write(r_.self, PLINTH_LOG_NOTICE, text.data(), text.size());
}

std::string Failover::Target() const {
  return host_.empty() ? "any replica" : host_ + ":" + std::to_string(port_);
}

const char* Failover::state_name() const {
  switch (state_) {
    case State::kNone:
      return "no-failover";
    case State::kWaitForSync:
      return "waiting-for-sync";
    case State::kInProgress:
      return "failover-in-progress";
  }
  return "no-failover";
}

void Failover::Command(plinth_call_t* call) {
  sdk::Call c(call);
  std::vector<std::string_view> args;
  for (int i = 1; i < c.argc(); ++i) args.push_back(c.arg(i));
  FailoverRequest req;
  std::string err = ParseFailover(args, &req);
  if (!err.empty()) return c.Error(err);
  if (req.abort) {
    if (!active()) return c.Error("ERR No failover in progress.");
    Abort("Failover manually aborted");
    return c.Ok();
  }
  err = CheckFailover(req, active(), r_.is_replica(), r_.primary->Replicas());
  if (!err.empty()) return c.Error(err);
  if (!PLINTH_HAS(&sdk::Api(), clients_pause))
    return c.Error("ERR FAILOVER needs a host that can pause clients");
  host_ = req.host;
  port_ = static_cast<int>(req.port);
  force_ = req.force;
  end_ms_ = req.timeout_ms ? sdk::Api().time_us(r_.self) / 1000 + req.timeout_ms : 0;
  Log("FAILOVER requested to " + Target() + ".");
  state_ = State::kWaitForSync;
  r_.failover_hold = true;
  sdk::Api().clients_pause(r_.self, PLINTH_PAUSE_WRITE, kPauseForeverMs);
  paused_ = true;
  c.Ok();
}

void Failover::Tick() {
  if (state_ != State::kWaitForSync) return;
  if (end_ms_ && end_ms_ <= sdk::Api().time_us(r_.self) / 1000) {
    if (!force_) return Abort("Replica never caught up before timeout");
    Log("FAILOVER to " + Target() + " time out exceeded, failing over.");
    return Start(host_, port_);
  }
  // Caught up: the replica acked every byte of our history, the host's pending bytes too.
  const uint64_t end = r_.primary->StreamEnd();
  const std::vector<FailoverReplica> replicas = r_.primary->Replicas();
  const FailoverReplica* target = nullptr;
  if (!host_.empty()) {
    target = FindFailoverReplica(replicas, host_, port_);
  } else {
    for (const FailoverReplica& rep : replicas)
      if (rep.online && rep.ack_offset == end) target = &rep;
  }
  if (!target || !target->online || target->ack_offset != end) return;
  Log("Failover target " + target->ip + ":" + std::to_string(target->port) +
      " is synced, failing over.");
  Start(target->ip, target->port);
}

void Failover::Start(const std::string& host, int port) {
  host_ = host;
  port_ = port;
  state_ = State::kInProgress;
  r_.failover_hold = false;
  // Refuses writes (-READONLY) from here; the pause still holds those that came meanwhile.
  r_.replica->FailoverTo(host, port);
}

void Failover::LinkSynced() {
  if (state_ != State::kInProgress) return;
  Log("FAILOVER to " + Target() + " succeeded: following it.");
  Clear();
}

void Failover::LinkFailed(const std::string& reason) {
  if (state_ != State::kInProgress) return;
  Abort("Failover target rejected psync request: " + reason);
}

void Failover::Abort(const std::string& why) {
  if (state_ == State::kNone) return;
  Log("FAILOVER to " + Target() + " aborted: " + why);
  if (state_ == State::kInProgress) r_.replica->Promote();
  Clear();
}

void Failover::Clear() {
  state_ = State::kNone;
  host_.clear();
  port_ = 0;
  force_ = false;
  end_ms_ = 0;
  r_.failover_hold = false;
  if (paused_) sdk::Api().clients_pause(r_.self, PLINTH_PAUSE_NONE, 0);
  paused_ = false;
}

bool Failover::TakeOver(plinth_call_t* call, const std::string& replid) {
  sdk::Call c(call);
  if (replid != r_.replid) {
    c.Error("ERR PSYNC FAILOVER replid must match my replid.");
    return false;
  }
  if (!r_.is_replica()) return true;
  // Through the option, as REPLICAOF NO ONE: CONFIG GET replicaof and HELLO see the change.
  char err[256] = "";
  if (sdk::Api().config_set(call, "replicaof", 9, "", 0, err, sizeof err) != PLINTH_OK) {
    c.Error(std::string("ERR ") + err);
    return false;
  }
  const std::string who = "MASTER MODE enabled (failover request from client id " +
                          std::to_string(sdk::Api().client_id(call)) + ")";
  Log(who);
  return true;
}

}  // namespace plinth::replication
