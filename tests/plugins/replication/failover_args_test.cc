// FAILOVER's parser and checks (plugins/replication/failover_args.h): the replies Redis 7.0
// gives for each malformed or untimely FAILOVER, and the requests it accepts.
#include "replication/failover_args.h"

#include <doctest/doctest.h>

#include <string>
#include <string_view>
#include <vector>

namespace {

using plinth::replication::CheckFailover;
using plinth::replication::FailoverReplica;
using plinth::replication::FailoverRequest;
using plinth::replication::ParseFailover;

std::string Parse(std::vector<std::string_view> args, FailoverRequest* req = nullptr) {
  FailoverRequest local;
  return ParseFailover(args, req ? req : &local);
}

const std::vector<FailoverReplica> kOne = {{"127.0.0.1", 7001, true, 100}};

}  // namespace

TEST_CASE("failover args: accepts every option once, in any order and case") {
  FailoverRequest req;
  CHECK(Parse({}, &req).empty());
  CHECK(req.host.empty());
  CHECK(req.timeout_ms == 0);
  CHECK(Parse({"timeout", "500", "FORCE", "to", "10.0.0.1", "6380"}, &req).empty());
  CHECK(req.host == "10.0.0.1");
  CHECK(req.port == 6380);
  CHECK(req.force);
  CHECK(req.timeout_ms == 500);
  CHECK_FALSE(req.abort);
  CHECK(Parse({"AbOrT"}, &req).empty());
  CHECK(req.abort);
}

TEST_CASE("failover args: a repeated, unknown or short option is a syntax error") {
  CHECK(Parse({"timeout", "5", "timeout", "6"}) == "ERR syntax error");
  CHECK(Parse({"to", "h", "1", "to", "h", "2"}) == "ERR syntax error");
  CHECK(Parse({"force", "force"}) == "ERR syntax error");
  CHECK(Parse({"to", "h"}) == "ERR syntax error");
  CHECK(Parse({"timeout"}) == "ERR syntax error");
  CHECK(Parse({"abort", "timeout", "5"}) == "ERR syntax error");
  CHECK(Parse({"bogus"}) == "ERR syntax error");
}

TEST_CASE("failover args: numbers are checked as Redis checks them") {
  CHECK(Parse({"timeout", "x"}) == "ERR value is not an integer or out of range");
  CHECK(Parse({"timeout", "0"}) == "ERR FAILOVER timeout must be greater than 0");
  CHECK(Parse({"timeout", "-1"}) == "ERR FAILOVER timeout must be greater than 0");
  CHECK(Parse({"to", "h", "port"}) == "ERR value is not an integer or out of range");
}

TEST_CASE("failover checks: state errors come in Redis's order") {
  FailoverRequest req;
  CHECK(CheckFailover(req, true, true, {}) == "ERR FAILOVER already in progress.");
  CHECK(CheckFailover(req, false, true, kOne) ==
        "ERR FAILOVER is not valid when server is a replica.");
  CHECK(CheckFailover(req, false, false, {}) == "ERR FAILOVER requires connected replicas.");
  CHECK(CheckFailover(req, false, false, kOne).empty());
}

TEST_CASE("failover checks: FORCE needs TO and TIMEOUT, and TO names an online replica") {
  FailoverRequest req;
  req.force = true;
  req.timeout_ms = 100;
  const std::string force_err =
      "ERR FAILOVER with force option requires both a timeout and target HOST and IP.";
  CHECK(CheckFailover(req, false, false, kOne) == force_err);
  req.host = "127.0.0.1";
  req.port = 7001;
  req.timeout_ms = 0;
  CHECK(CheckFailover(req, false, false, kOne) == force_err);
  req.timeout_ms = 100;
  CHECK(CheckFailover(req, false, false, kOne).empty());
  req.port = 7002;
  CHECK(CheckFailover(req, false, false, kOne) ==
        "ERR FAILOVER target HOST and PORT is not a replica.");
  const std::vector<FailoverReplica> syncing = {{"127.0.0.1", 7002, false, 0}};
  CHECK(CheckFailover(req, false, false, syncing) == "ERR FAILOVER target replica is not online.");
}
