"""FAILOVER between a primary and its replica loses no acknowledged write: writers RPUSH
increasing integers to their own lists while the primary hands over to its replica with the
coordinated FAILOVER; every write the old primary or the new one acknowledged must be on the new
primary, in order, and the old primary (now its replica) must converge to the same data. Also:
FAILOVER's argument and state errors, a TIMEOUT that aborts, and FAILOVER ABORT. With
--against-redis the same script checks Debian's redis-server 7.0."""

import argparse
import os
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import repl_support as rs  # noqa: E402

WRITERS = 4
HOST = rs.HOST


def error_of(c, *args):
    """The error text a command gets (AssertionError when it succeeds)."""
    try:
        reply = c.execute_command(*args)
    except rs.redis.exceptions.ResponseError as e:
        return str(e)
    raise AssertionError("%r: expected an error, got %r" % (args, reply))


def check_errors(p, r, r_port):
    """Redis 7.0's replies to bad or untimely FAILOVERs."""
    want = {
        ("FAILOVER",): None,  # on the replica: checked below
        ("FAILOVER", "ABORT"): "No failover in progress.",
        ("FAILOVER", "TO", HOST, "1"): "FAILOVER target HOST and PORT is not a replica.",
        ("FAILOVER", "FORCE"): "FAILOVER with force option requires both a timeout and "
                               "target HOST and IP.",
        ("FAILOVER", "TO", HOST, str(r_port), "FORCE"): "FAILOVER with force option requires "
                                                        "both a timeout and target HOST and IP.",
        ("FAILOVER", "TIMEOUT", "0"): "FAILOVER timeout must be greater than 0",
        ("FAILOVER", "TIMEOUT", "x"): "value is not an integer or out of range",
        ("FAILOVER", "TO", HOST): "syntax error",
        ("FAILOVER", "BOGUS"): "syntax error",
        ("FAILOVER", "ABORT", "TIMEOUT", "5"): "syntax error",
    }
    for args, text in want.items():
        if text:
            got = error_of(p, *args)
            assert got == text, (args, got, text)
    got = error_of(r, "FAILOVER")
    assert got == "FAILOVER is not valid when server is a replica.", got
    assert p.info("replication")["master_failover_state"] == "no-failover"
    print("FAILOVER's errors match Redis 7.0's", flush=True)


class Writer(threading.Thread):
    """RPUSHes 1, 2, 3... to its own list on the current primary (target[0]); a -READONLY
    reply or a lost connection moves to the next number (that write was not acknowledged)."""

    def __init__(self, n, target, stop):
        super().__init__(daemon=True)
        self.key = "failover:list:%d" % n
        self.target, self.stop = target, stop
        self.acked, self.attempted, self.readonly, self.errors = [], set(), 0, []

    def run(self):
        value, conns = 0, {}
        while not self.stop.is_set():
            value += 1
            port = self.target[0]
            try:
                c = conns.get(port) or conns.setdefault(port, rs.client(port))
                self.attempted.add(value)
                c.rpush(self.key, value)
                self.acked.append(value)
            except rs.redis.exceptions.ReadOnlyError:
                self.readonly += 1
                time.sleep(0.01)
            except rs.redis.exceptions.ResponseError as e:
                self.errors.append(str(e))
                time.sleep(0.01)
            except (rs.redis.exceptions.ConnectionError, rs.redis.exceptions.TimeoutError) as e:
                self.errors.append(repr(e))
                conns.pop(port, None)
                time.sleep(0.05)


def role_name(c):
    r = c.execute_command("ROLE")[0]
    return r.decode() if isinstance(r, bytes) else r


def failover_under_load(p, r, p_port, r_port):
    target, stop = [p_port], threading.Event()
    writers = [Writer(n, target, stop) for n in range(WRITERS)]
    for w in writers:
        w.start()
    time.sleep(1.0)
    partial_before = r.info("stats")["sync_partial_ok"]
    t0 = time.monotonic()
    assert p.execute_command("FAILOVER") in (b"OK", "OK", True)
    rs._until("the old replica a master", lambda: role_name(r) == "master", 30)
    rs._until("the old primary a replica", lambda: role_name(p) == "slave", 30)
    took = time.monotonic() - t0
    target[0] = r_port
    before = [len(w.acked) for w in writers]
    rs._until("writes acknowledged by the new primary",
              lambda: all(len(w.acked) > b + 50 for w, b in zip(writers, before)), 30)
    stop.set()
    for w in writers:
        w.join(10)
    rs._until("both sides done failing over", lambda: all(
        c.info("replication")["master_failover_state"] == "no-failover" for c in (p, r)), 10)
    rs.wait_link_up(p)
    rs.wait_caught_up(r, p)
    total = 0
    for w in writers:
        final = [int(v) for v in r.lrange(w.key, 0, -1)]
        assert final == sorted(set(final)), "%s out of order" % w.key
        assert set(final) <= w.attempted, "%s holds values never written" % w.key
        missing = sorted(set(w.acked) - set(final))
        assert not missing, "%s lost acknowledged writes: %r" % (w.key, missing[:20])
        assert [v for v in final if v in set(w.acked)] == w.acked
        old = [int(v) for v in p.lrange(w.key, 0, -1)]
        assert old == final, "%s: the old primary differs" % w.key
        total += len(w.acked)
        unexpected = [e for e in w.errors if "READONLY" not in e]
        assert not unexpected, unexpected[:5]
    partial = r.info("stats")["sync_partial_ok"] - partial_before
    print("failover in %.2f s under %d writers: %d acknowledged writes all on the new primary, "
          "%d -READONLY, old primary converged, partial resyncs on the new primary: %d"
          % (took, WRITERS, total, sum(w.readonly for w in writers), partial), flush=True)
    assert partial >= 1, "the old primary did not continue with a partial resync"


def timeout_and_abort(primary, replica, replica_port):
    """A replica that cannot ack (DEBUG SLEEP) makes FAILOVER TIMEOUT abort, and FAILOVER ABORT
    end a failover; writes go on at the primary both times."""
    slept = []
    sleeper = threading.Thread(target=lambda: slept.append(rs.client(
        replica_port, socket_timeout=30).execute_command("DEBUG", "SLEEP", "3")), daemon=True)
    sleeper.start()
    time.sleep(0.3)
    primary.set("failover:before-timeout", 1)
    assert primary.execute_command("FAILOVER", "TIMEOUT", "500") in (b"OK", "OK", True)
    assert primary.info("replication")["master_failover_state"] == "waiting-for-sync"
    assert error_of(primary, "FAILOVER") == "FAILOVER already in progress."
    rs._until("FAILOVER TIMEOUT aborted", lambda: primary.info("replication")[
        "master_failover_state"] == "no-failover", 5)
    assert role_name(primary) == "master"
    primary.set("failover:after-timeout", 1)
    assert primary.execute_command("FAILOVER", "TO", HOST, str(replica_port)) in \
        (b"OK", "OK", True)
    assert primary.execute_command("FAILOVER", "ABORT") in (b"OK", "OK", True)
    assert primary.info("replication")["master_failover_state"] == "no-failover"
    assert role_name(primary) == "master"
    primary.set("failover:after-abort", 1)
    sleeper.join(10)
    assert slept, "DEBUG SLEEP on the replica failed"
    print("FAILOVER TIMEOUT aborted, FAILOVER ABORT ended one; writes went on", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--server", help="plinth-server (or a redis-server) under test")
    ap.add_argument("--against-redis", action="store_true",
                    help="run against Debian's redis-server 7.0 instead")
    args = ap.parse_args()
    server = rs.REDIS_SERVER if args.against_redis else args.server
    if not server:
        ap.error("--server or --against-redis")
    server = os.path.abspath(server)
    rs.require(server)
    extra = ["--enable-debug-command", "yes"]
    servers = []
    try:
        p = rs.start(server, extra, name="primary")
        servers.append(p)
        r = rs.start(server, extra + rs.replica_of(p.port), name="replica")
        servers.append(r)
        pc, rc = rs.client(p.port), rs.client(r.port)
        rs.wait_link_up(rc)
        rs.wait_caught_up(pc, rc)
        check_errors(pc, rc, r.port)
        failover_under_load(pc, rc, p.port, r.port)
        timeout_and_abort(rc, pc, p.port)
    except Exception:
        for s in servers:
            print("---- %s log tail:\n%s" % (s.name, s.log()[-3000:]))
        raise
    finally:
        for s in servers:
            s.stop()
    print("PASS failover")
    return 0


if __name__ == "__main__":
    rs.support.main_guard(main)
