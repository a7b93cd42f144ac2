"""Replicas under load, on loopback with real processes: a primary and replicas of the server
under test (--server; the primary may be another binary, --primary, such as Debian's
redis-server 7.0), fed by redis-benchmark and redis-py. Checks, each ending with identical
keyspaces: (1) 1M mixed writes over every type with TTLs reach two replicas; (2) a link cut
inside the backlog resyncs partially; (3) a gap larger than the backlog resyncs fully; (4) a
replica restarted with SIGTERM resyncs; (5) a replica SIGKILLed during its full sync recovers
after a restart; (6) a replica that cannot keep up is dropped at its output limit and resyncs
once, with no reconnect loop. Prints the figures. Exit 77 without redis-benchmark or redis-py.
--part bulk|gaps|slow runs one of the three independent parts ((1)-(2), (3)-(5), (6)), each with
its own servers, so CTest can run them side by side; the default runs all three.
Run with /usr/bin/python3."""

import os
import random
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import repl_support as rs  # noqa: E402

BENCH = "/usr/bin/redis-benchmark"
WRITES = "set,incr,lpush,rpush,lpop,rpop,sadd,hset,spop,zadd,zpopmin,mset"
TTL_SLACK_MS = 1000


def bench(port, n, rand=100000, data=3, tests=WRITES):
    """redis-benchmark -P 16 writes to 127.0.0.1:port; returns (requests, seconds)."""
    start = time.monotonic()
    subprocess.run([BENCH, "-h", rs.HOST, "-p", str(port), "-P", "16", "-c", "8", "-n", str(n),
                    "-r", str(rand), "-d", str(data), "-t", tests, "-q"],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=300)
    return n * len(tests.split(",")), time.monotonic() - start


def expires(c, count, rand=100000):
    """TTLs on random benchmark keys: long ones (kept, compared within TTL_SLACK_MS) and a few
    short ones (gone before the comparison: the primary's expiry DELs reach the replicas)."""
    pipe = c.pipeline(transaction=False)
    for _ in range(count):
        k = "key:%012d" % random.randrange(rand)
        if random.random() < 0.1:
            pipe.pexpire("counter:%012d" % random.randrange(rand), random.randint(1, 300))
        else:
            pipe.expire(k, random.randint(300, 3000))
    pipe.execute()


def dump(c):
    """Database 0 (the only one the load uses) as {key: (type, value)} and {key: pttl},
    pipelined; keys that expired meanwhile (TYPE none) are left out."""
    keys = list(c.scan_iter(count=5000))
    values, ttls = {}, {}
    for i in range(0, len(keys), 2000):
        part = keys[i:i + 2000]
        pipe = c.pipeline(transaction=False)
        for k in part:
            pipe.type(k)
        types = [t.decode() for t in pipe.execute()]
        pipe = c.pipeline(transaction=False)
        for k, t in zip(part, types):
            if t == "string":
                pipe.get(k)
            elif t == "list":
                pipe.lrange(k, 0, -1)
            elif t == "set":
                pipe.smembers(k)
            elif t == "hash":
                pipe.hgetall(k)
            elif t == "zset":
                pipe.zrange(k, 0, -1, withscores=True)
            else:
                pipe.exists(k)
            pipe.pttl(k)
        res = pipe.execute()
        for j, (k, t) in enumerate(zip(part, types)):
            v, ttl = res[2 * j], res[2 * j + 1]
            if t == "none" or ttl == -2:
                continue
            if t == "set":
                v = sorted(v)
            elif t == "hash":
                v = sorted(v.items())
            values[k] = (t, v)
            ttls[k] = ttl
    return values, ttls


def same(primary, replicas, what):
    """Waits until every replica reached the primary's offset (equal once the stream is
    quiet), then asserts each keyspace equals the primary's. Prints the figures."""
    p = rs.client(primary.port)
    for _ in range(50):
        want = p.info("replication")["master_repl_offset"]
        for r in replicas:
            rs.wait_caught_up(p, rs.client(r.port), timeout=120)
        offs = [rs.client(r.port).info("replication")["slave_repl_offset"] for r in replicas]
        if all(o == want for o in offs) and \
                p.info("replication")["master_repl_offset"] == want:
            break
        time.sleep(0.1)
    else:
        raise AssertionError("%s: offsets never settled: primary %d, replicas %r" %
                             (what, want, offs))
    start = time.monotonic()
    pv, pt = dump(p)
    for r in replicas:
        rv, rt = dump(rs.client(r.port))
        if pv != rv:
            import keyspace  # repl_support put tests/persistence on the path
            raise AssertionError("%s: %s differs from the primary (%d vs %d keys)\n%s" %
                                 (what, r.name, len(rv), len(pv), keyspace.diff(pv, rv)))
        # The replica is read later: its TTLs are smaller by up to the time since the
        # primary's dump began.
        slack = (time.monotonic() - start) * 1000 + TTL_SLACK_MS
        bad = [k for k, t in pt.items()
               if (t < 0) != (rt.get(k, -1) < 0) or not -TTL_SLACK_MS <= t - rt.get(k, -1) <= slack]
        if bad:
            raise AssertionError("%s: %d TTLs differ on %s, first %r: %r vs %r" %
                                 (what, len(bad), r.name, bad[0], pt[bad[0]], rt.get(bad[0])))
    print("  %s: offset %d, %d keys (%d with a TTL) identical on %d replica(s), compared in "
          "%.1f s" % (what, want, len(pv), sum(1 for t in pt.values() if t > 0), len(replicas),
                      time.monotonic() - start), flush=True)


def syncs(port):
    s = rs.client(port).info("stats")
    return s["sync_full"], s["sync_partial_ok"], s["sync_partial_err"]


def writes(port, count, size=64, prefix="w"):
    c = rs.client(port)
    pipe = c.pipeline(transaction=False)
    for i in range(count):
        pipe.set("%s:%d" % (prefix, i), os.urandom(size // 2).hex())
        if len(pipe) >= 500:
            pipe.execute()
    pipe.execute()


class Run:
    def __init__(self, args):
        self.args = args
        self.servers = []

    def primary(self, extra=()):
        srv = rs.start(self.args.primary, ["--repl-diskless-sync-delay", "0"] + list(extra),
                       name="primary")
        self.servers.append(srv)
        return srv

    def replica(self, primary, name, wait=True):
        srv = rs.start(self.args.server, rs.replica_of(primary.port), name=name)
        self.servers.append(srv)
        if wait:
            rs.wait_link_up(rs.client(srv.port), timeout=60)
        return srv

    def bulk(self):
        """(1) and (2): two replicas of one primary through 1M writes, then a link cut."""
        p = self.primary(["--repl-backlog-size", "64mb"])
        r1, r2 = self.replica(p, "replica1"), self.replica(p, "replica2")
        total, secs = 0, 0.0
        for run in range(3):
            n, s = bench(p.port, 28000)
            total, secs = total + n, secs + s
            expires(rs.client(p.port), 20000)
        print("(1) %d writes in %.1f s (%.0f/s) plus 60000 EXPIREs" % (total, secs, total / secs),
              flush=True)
        time.sleep(0.5)  # the short TTLs pass
        same(p, [r1, r2], "(1) bulk load")
        try:
            rs.client(r1.port).set("x", "y")
            raise AssertionError("a replica accepted a write")
        except rs.redis.exceptions.ReadOnlyError:
            pass
        role = rs.client(r1.port).execute_command("ROLE")
        assert role[0] == b"slave" and role[3] == b"connected", role
        # (2) cut both links inside the backlog
        before = syncs(p.port)
        killed = rs.client(p.port).execute_command("CLIENT", "KILL", "TYPE", "replica")
        writes(p.port, 3000, prefix="cut")
        rs.wait_link_up(rs.client(r1.port))
        rs.wait_link_up(rs.client(r2.port))
        writes(p.port, 1000, prefix="after")
        same(p, [r1, r2], "(2) partial resync")
        after = syncs(p.port)
        print("(2) %d links cut: sync_full +%d, sync_partial_ok +%d" %
              (killed, after[0] - before[0], after[1] - before[1]), flush=True)
        assert after[1] - before[1] == 2 and after[0] == before[0], (before, after)

    def gaps(self):
        """(3), (4), (5): a small backlog; a gap past it, a restart, a kill during a sync."""
        p = self.primary(["--repl-backlog-size", "256kb"])
        r = self.replica(p, "replica3")
        bench(p.port, 10000)
        same(p, [r], "(3) before the gap")
        before = syncs(p.port)
        r.proc.send_signal(signal.SIGSTOP)
        try:
            rs.client(p.port).execute_command("CLIENT", "KILL", "TYPE", "replica")
            writes(p.port, 8000, size=256, prefix="gap")  # 2 MB past a 256 KB backlog
        finally:
            r.proc.send_signal(signal.SIGCONT)
        time.sleep(1.5)
        same(p, [r], "(3) gap past the backlog")
        after = syncs(p.port)
        print("(3) sync_full +%d, sync_partial_ok +%d, sync_partial_err +%d" %
              tuple(a - b for a, b in zip(after, before)), flush=True)
        assert after[0] - before[0] == 1, (before, after)
        # (4) SIGTERM and start again
        problem = r.stop_cleanly()
        assert not problem, problem
        writes(p.port, 2000, prefix="restart")
        start = time.monotonic()
        r = self.replica(p, "replica3b")
        print("(4) restarted replica's link up in %.2f s" % (time.monotonic() - start), flush=True)
        same(p, [r], "(4) restarted replica")
        # (5) a big keyspace, the replica killed during its full sync
        bench(p.port, 200000, rand=1000000, data=100, tests="set")
        rs.client(p.port).config_set("rdb-key-save-delay", "10")  # slower child, where known
        victim = self.replica(p, "replica5", wait=False)
        vc, seen = rs.client(victim.port), None
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and seen is None:
            try:
                info = vc.info("replication")
                if info.get("master_sync_in_progress") == 1 and \
                        info.get("master_sync_read_bytes", 0) > 0:
                    seen = "transfer (%d of %d bytes read)" % (
                        info["master_sync_read_bytes"], info.get("master_sync_total_bytes", -1))
            except rs.redis.exceptions.BusyLoadingError:
                seen = "loading"
            except rs.redis.exceptions.ConnectionError:
                pass
            time.sleep(0.005)
        victim.proc.kill()
        victim.stop()
        victim.killed = True
        rs.client(p.port).config_set("rdb-key-save-delay", "0")
        print("(5) replica SIGKILLed during its full sync: %s" % (seen or "NOT SEEN"), flush=True)
        assert seen, "the full sync was never seen in progress"
        r5 = self.replica(p, "replica5b")
        same(p, [r, r5], "(5) after a kill during a full sync")

    def slow(self):
        """(6): a stopped replica dropped at its output limit resyncs once, then stays."""
        p = self.primary(["--client-output-buffer-limit", "replica 1mb 512kb 1"])
        r = self.replica(p, "replica6")
        bench(p.port, 5000)
        same(p, [r], "(6) before the stall")
        before = syncs(p.port)
        r.proc.send_signal(signal.SIGSTOP)
        try:
            writes(p.port, 4000, size=4096, prefix="stall")  # 16 MB
            pc = rs.client(p.port)
            rs._until("the stalled replica dropped",
                      lambda: pc.info("replication")["connected_slaves"] == 0, 30)
        finally:
            r.proc.send_signal(signal.SIGCONT)
        rs.wait_link_up(rs.client(r.port), timeout=60)
        time.sleep(5)  # a reconnect loop would show here
        same(p, [r], "(6) after the output limit")
        after = syncs(p.port)
        full, part = after[0] - before[0], after[1] - before[1]
        print("(6) dropped at its output limit: then sync_full +%d, sync_partial_ok +%d over 5 s"
              % (full, part), flush=True)
        assert full + part == 1, (before, after)

    def main(self, parts):
        try:
            for part in parts:
                random.seed(13)  # each part the same with or without the others
                getattr(self, part)()
                # SIGTERM must end each server with status 0 (a sanitizer report fails it).
                servers, self.servers = self.servers, []
                problems = [s.stop_cleanly() for s in servers if not getattr(s, "killed", False)]
                problems = [p for p in problems if p]
                if problems:
                    raise AssertionError("\n".join(problems))
        except Exception:
            for s in self.servers:
                print("---- %s log tail:\n%s" % (s.name, s.log()[-2500:]))
            raise
        finally:
            for s in self.servers:
                s.stop()
        print("PASS replicas" + ("" if len(parts) == len(PARTS) else " " + " ".join(parts)))
        return 0


PARTS = ("bulk", "gaps", "slow")


def main():
    def add(ap):
        ap.add_argument("--primary", help="the primary's binary (default: --server)")
        ap.add_argument("--part", choices=PARTS, action="append",
                        help="run only this part (repeatable; default: all)")
    args = rs.parse_args(__doc__.split("\n")[0], add)
    args.primary = os.path.abspath(args.primary or args.server)
    rs.require(args.server, tools=[(BENCH, "redis-tools")])
    if args.primary != args.server:
        rs.require(args.primary)
    return Run(args).main(args.part or PARTS)


if __name__ == "__main__":
    rs.support.main_guard(main)
