// FAILOVER's arguments and the checks it makes before a failover starts (Redis 7.0's
// failoverCommand), as plain functions over the words and the server's state, so they are
// tested without a host. Called by failover.cc. THREAD: any (no state).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace plinth::replication {

// FAILOVER [TO host port [FORCE]] [ABORT] [TIMEOUT milliseconds].
struct FailoverRequest {
  bool abort = false;  // FAILOVER ABORT (alone)
  std::string host;    // TO host port; "" when no target was named
  int64_t port = 0;
  bool force = false;      // FORCE: promote the target at the timeout even if it lags
  int64_t timeout_ms = 0;  // TIMEOUT; 0 when none (wait for the replica forever)
};

// A replica as FAILOVER sees it: its address (REPLCONF ip-address or its peer), its
// REPLCONF listening-port, whether it follows the stream, and the offset it acked.
struct FailoverReplica {
  std::string ip;
  int port = 0;
  bool online = false;
  uint64_t ack_offset = 0;
};

// Parses args (the command's words after FAILOVER). Returns "" and fills *out, or the error
// reply without its '-' (errors::kSyntax, ...), in Redis's wording.
std::string ParseFailover(const std::vector<std::string_view>& args, FailoverRequest* out);

// The checks of a parsed request that is not ABORT, in Redis's order. Returns "" when the
// failover may start, else the error reply without its '-'.
std::string CheckFailover(const FailoverRequest& req, bool in_progress, bool is_replica,
                          const std::vector<FailoverReplica>& replicas);

// The replica named host:port, or null.
const FailoverReplica* FindFailoverReplica(const std::vector<FailoverReplica>& replicas,
                                           const std::string& host, int64_t port);

}  // namespace plinth::replication
