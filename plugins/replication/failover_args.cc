// FAILOVER's parser and checks (see failover_args.h), worded as Redis 7.0 words them.
#include "replication/failover_args.h"

#include <plinth/errors.hpp>
#include <plinth/text.hpp>

namespace plinth::replication {
namespace {}  // namespace

std::string ParseFailover(const std::vector<std::string_view>& args, FailoverRequest* out) {
  *out = FailoverRequest{};
  if (args.size() == 1 && text::EqualsNoCase(args[0], "abort")) {
    out->abort = true;
    return "";
  }
  bool has_to = false;
  // As Redis: each option once (a second TIMEOUT, TO or FORCE is a syntax error), ABORT only
  // alone.
  for (size_t j = 0; j < args.size(); ++j) {
    const size_t left = args.size() - j - 1;
    if (text::EqualsNoCase(args[j], "timeout") && left >= 1 && out->timeout_ms == 0) {
      int64_t ms = 0;
      if (!text::ParseInt64(args[j + 1], &ms)) return std::string(errors::kNotInteger);
      if (ms <= 0) return "ERR FAILOVER timeout must be greater than 0";
      out->timeout_ms = ms;
      j += 1;
    } else if (text::EqualsNoCase(args[j], "to") && left >= 2 && !has_to) {
      if (!text::ParseInt64(args[j + 2], &out->port)) return std::string(errors::kNotInteger);
      out->host = std::string(args[j + 1]);
      has_to = true;
      j += 2;
    } else if (text::EqualsNoCase(args[j], "force") && !out->force) {
      out->force = true;
    } else {
      return std::string(errors::kSyntax);
    }
  }
  return "";
}

const FailoverReplica* FindFailoverReplica(const std::vector<FailoverReplica>& replicas,
                                           const std::string& host, int64_t port) {
  for (const FailoverReplica& r : replicas)
    if (r.ip == host && r.port == port) return &r;
  return nullptr;
}

std::string CheckFailover(const FailoverRequest& req, bool in_progress, bool is_replica,
                          const std::vector<FailoverReplica>& replicas) {
  if (in_progress) return "ERR FAILOVER already in progress.";
  if (is_replica) return "ERR FAILOVER is not valid when server is a replica.";
  if (replicas.empty()) return "ERR FAILOVER requires connected replicas.";
  if (req.force && (req.timeout_ms == 0 || req.host.empty()))
    return "ERR FAILOVER with force option requires both a timeout and target HOST and IP.";
  if (!req.host.empty()) {
    const FailoverReplica* target = FindFailoverReplica(replicas, req.host, req.port);
    if (!target) return "ERR FAILOVER target HOST and PORT is not a replica.";
    if (!target->online) return "ERR FAILOVER target replica is not online.";
  }
  return "";
}

}  // namespace plinth::replication
