// Transactions as one client sees them on both hosts: MULTI queues, EXEC runs the queue as one
// array, a command refused while queueing aborts EXEC, a watched key changed by anything (a
// write, its own write, expiry, FLUSHDB, SWAPDB, a plugin's key_touched) makes EXEC answer
// null, and a transaction's effects reach the stream as one MULTI ... EXEC unit. Replies as
// Redis 7.0 gives them.
#include "case_support.h"

namespace plinth::hostapi {

HOSTAPI_CASE("transactions: MULTI queues and EXEC replies with every command's reply") {
  T t;
  CHECK(Run(t, {"MULTI"}) == "OK");
  CHECK(Run(t, {"SET", "a", "1"}) == "QUEUED");
  CHECK(Run(t, {"INCR", "a"}) == "QUEUED");
  CHECK(Run(t, {"GET", "a"}) == "QUEUED");
  CHECK(Run(t, {"INCR", "nosuchnumber", "x"}) ==
        "(error) ERR wrong number of arguments for "
        "'incr' command");
  CHECK(Run(t, {"EXEC"}) == "(error) EXECABORT Transaction discarded because of previous errors.");
  CHECK(Run(t, {"GET", "a"}) == "(nil)");  // nothing ran
  CHECK(Run(t, {"MULTI"}) == "OK");
  CHECK(Run(t, {"SET", "a", "x"}) == "QUEUED");
  CHECK(Run(t, {"INCR", "a"}) == "QUEUED");  // a runtime error stays inside the array
  CHECK(Run(t, {"GET", "a"}) == "QUEUED");
  CHECK(Run(t, {"EXEC"}) ==
        "1) OK\n2) (error) ERR value is not an integer or out of range\n3) \"x\"");
  CHECK(Run(t, {"MULTI"}) == "OK");
  CHECK(Run(t, {"EXEC"}) == "(empty array)");
}

HOSTAPI_CASE("transactions: misuse gets Redis's errors and does not abort") {
  T t;
  CHECK(Run(t, {"EXEC"}) == "(error) ERR EXEC without MULTI");
  CHECK(Run(t, {"DISCARD"}) == "(error) ERR DISCARD without MULTI");
  CHECK(Run(t, {"MULTI"}) == "OK");
  CHECK(Run(t, {"MULTI"}) == "(error) ERR MULTI calls can not be nested");
  CHECK(Run(t, {"WATCH", "k"}) == "(error) ERR WATCH inside MULTI is not allowed");
  CHECK(Run(t, {"SET", "k", "v"}) == "QUEUED");
  CHECK(Run(t, {"EXEC"}) == "1) OK");
  CHECK(Run(t, {"MULTI"}) == "OK");
  CHECK(Run(t, {"SET", "k", "w"}) == "QUEUED");
  CHECK(Run(t, {"NOSUCH", "x"}) ==
        "(error) ERR unknown command 'NOSUCH', with args beginning with: 'x' ");
  CHECK(Run(t, {"DISCARD"}) == "OK");
  CHECK(Run(t, {"GET", "k"}) == "\"v\"");
  CHECK(Run(t, {"WATCH"}) == "(error) ERR wrong number of arguments for 'watch' command");
}

HOSTAPI_CASE("transactions: EXEC refused for its arity discards the transaction") {
  T t;
  CHECK(Run(t, {"MULTI"}) == "OK");
  CHECK(Run(t, {"SET", "k", "v"}) == "QUEUED");
  CHECK(Run(t, {"EXEC", "x"}) ==
        "(error) EXECABORT Transaction discarded because of: wrong number of arguments for "
        "'exec' command");
  CHECK(Run(t, {"EXEC"}) == "(error) ERR EXEC without MULTI");
  CHECK(Run(t, {"GET", "k"}) == "(nil)");
  CHECK(Run(t, {"EXEC", "x"}) ==  // outside MULTI too, as Redis 7.0 answers
        "(error) EXECABORT Transaction discarded because of: wrong number of arguments for "
        "'exec' command");
}

HOSTAPI_CASE("transactions: RESET ends MULTI and unwatches") {
  T t;
  CHECK(Run(t, {"MULTI"}) == "OK");
  CHECK(Run(t, {"SET", "k", "v"}) == "QUEUED");
  CHECK(Run(t, {"RESET"}) == "RESET");
  CHECK(Run(t, {"EXEC"}) == "(error) ERR EXEC without MULTI");
  CHECK(Run(t, {"GET", "k"}) == "(nil)");
  CHECK(Run(t, {"WATCH", "k"}) == "OK");
  CHECK(Run(t, {"SET", "k", "v"}) == "OK");
  CHECK(Run(t, {"RESET"}) == "RESET");
  CHECK(Run(t, {"MULTI"}) == "OK");
  CHECK(Run(t, {"GET", "k"}) == "QUEUED");
  CHECK(Run(t, {"EXEC"}) == "1) \"v\"");
}

HOSTAPI_CASE("transactions: a watched key changed by any command fails EXEC") {
  T t;
  const std::vector<std::vector<std::string>> changes = {
      {"SET", "w", "same"},        {"DEL", "w"},
      {"EXPIRE", "w", "100"},      {"APPEND", "w", "x"},
      {"SETRANGE", "w", "0", "x"}, {"RENAME", "w", "w2"},
      {"PROBE.TOUCH", "w"},        {"FLUSHDB"},
      {"SWAPDB", "0", "1"},        {"MOVE", "w", "1"}};
  for (const auto& change : changes) {
    CAPTURE(change[0]);
    CHECK(Run(t, {"FLUSHALL"}) == "OK");
    CHECK(Run(t, {"SET", "w", "same"}) == "OK");
    CHECK(Run(t, {"WATCH", "w"}) == "OK");
    Run(t, change);
    CHECK(Run(t, {"MULTI"}) == "OK");
    CHECK(Run(t, {"SET", "done", "1"}) == "QUEUED");
    CHECK(Run(t, {"EXEC"}) == "(nil)");
    CHECK(Run(t, {"EXISTS", "done"}) == "(integer) 0");
  }
  // What does not change the key leaves EXEC alone: reads, a failed DEL, another key.
  CHECK(Run(t, {"FLUSHALL"}) == "OK");
  CHECK(Run(t, {"WATCH", "w", "absent"}) == "OK");
  CHECK(Run(t, {"GET", "w"}) == "(nil)");
  CHECK(Run(t, {"DEL", "absent"}) == "(integer) 0");
  CHECK(Run(t, {"SET", "other", "1"}) == "OK");
  CHECK(Run(t, {"FLUSHDB"}) == "OK");  // neither watched key existed
  CHECK(Run(t, {"MULTI"}) == "OK");
  CHECK(Run(t, {"SET", "done", "1"}) == "QUEUED");
  CHECK(Run(t, {"EXEC"}) == "1) OK");
}

HOSTAPI_CASE("transactions: UNWATCH, DISCARD and EXEC forget the watched keys") {
  T t;
  for (const char* end : {"UNWATCH", "DISCARD", "EXEC"}) {
    CAPTURE(end);
    CHECK(Run(t, {"WATCH", "w"}) == "OK");
    if (std::string(end) != "UNWATCH") CHECK(Run(t, {"MULTI"}) == "OK");
    Run(t, {end});
    CHECK(Run(t, {"SET", "w", end}) == "OK");
    CHECK(Run(t, {"MULTI"}) == "OK");
    CHECK(Run(t, {"GET", "w"}) == "QUEUED");
    CHECK(Run(t, {"EXEC"}) == "1) \"" + std::string(end) + "\"");
  }
}

HOSTAPI_CASE("transactions: a key expiring after WATCH fails EXEC but not one expired before") {
  T t;
  CHECK(Run(t, {"SET", "e", "1", "PX", "100"}) == "OK");
  CHECK(Run(t, {"WATCH", "e"}) == "OK");
  t.AdvanceMs(200);
  CHECK(Run(t, {"MULTI"}) == "OK");
  CHECK(Run(t, {"PING"}) == "QUEUED");
  CHECK(Run(t, {"EXEC"}) == "(nil)");
  CHECK(Run(t, {"SET", "f", "1", "PX", "100"}) == "OK");
  t.AdvanceMs(200);
  CHECK(Run(t, {"WATCH", "f"}) == "OK");
  CHECK(Run(t, {"GET", "f"}) == "(nil)");  // deletes it for its expiry: no change
  CHECK(Run(t, {"MULTI"}) == "OK");
  CHECK(Run(t, {"PING"}) == "QUEUED");
  CHECK(Run(t, {"EXEC"}) == "1) PONG");
}

HOSTAPI_CASE("refusals: server_refuse turns clients' writes or non-stale commands away") {
  T t;
  CHECK(Run(t, {"PROBE.REFUSE", "writes",
                "READONLY You can't write against a read only replica."}) == "OK");
  CHECK(Run(t, {"SET", "a", "1"}) ==
        "(error) READONLY You can't write against a read only replica.");
  CHECK(Run(t, {"GET", "a"}) == "(nil)");
  // Refused at queue time: the transaction is discarded, as in Redis.
  CHECK(Run(t, {"MULTI"}) == "OK");
  CHECK(Run(t, {"SET", "a", "1"}).rfind("(error) READONLY", 0) == 0);
  CHECK(Run(t, {"EXEC"}).rfind("(error) EXECABORT", 0) == 0);
  CHECK(Run(t, {"PROBE.REFUSE", "writes"}) == "OK");
  CHECK(Run(t, {"SET", "a", "1"}) == "OK");
  CHECK(Run(t, {"PROBE.REFUSE", "stale", "MASTERDOWN Link with MASTER is down"}) == "OK");
  CHECK(Run(t, {"GET", "a"}) == "(error) MASTERDOWN Link with MASTER is down");
  CHECK(Run(t, {"PROBE.REFUSE", "stale"}) == "OK");  // flagged stale: it still runs
  CHECK(Run(t, {"GET", "a"}) == "\"1\"");
}

HOSTAPI_CASE("transactions: the effects of EXEC reach the stream as one MULTI ... EXEC unit") {
  T t;
  CHECK(Run(t, {"MULTI"}) == "OK");
  CHECK(Run(t, {"SET", "a", "1"}) == "QUEUED");
  CHECK(Run(t, {"GET", "a"}) == "QUEUED");
  CHECK(Run(t, {"SELECT", "2"}) == "QUEUED");
  CHECK(Run(t, {"SET", "b", "2"}) == "QUEUED");
  CHECK(Run(t, {"EXEC"}) == "1) OK\n2) \"1\"\n3) OK\n4) OK");
  CHECK(Stream(t) == "0 MULTI | 0 SET a 1 | 2 SET b 2 | 2 EXEC");
  CHECK(Run(t, {"MULTI"}) == "OK");  // reads only: nothing to propagate, not even MULTI
  CHECK(Run(t, {"GET", "b"}) == "QUEUED");
  CHECK(Run(t, {"EXEC"}) == "1) \"2\"");
  CHECK(Stream(t) == "");
}

}  // namespace plinth::hostapi
