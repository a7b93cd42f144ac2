"""ROBUSTNESS.md item 30 with real memory: under maxmemory the server's RSS stays near the limit
whatever the load, and with noeviction writes get Redis's OOM error while reads keep working.

- allkeys-lru: five times maxmemory (32 MiB) of random values of every type and of sizes from
  10 bytes to 256 KiB, with overwrites, deletes and expiring keys mixed in; the RSS read from
  /proc after every batch stays under baseline + 1.5 x maxmemory + 16 MiB;
- many clients: eight connections each pipeline 25 MiB of 256 KiB values at once (query buffers
  and evictions together), RSS sampled meanwhile, under the same bound;
- noeviction: past the limit, writes of every type get exactly the OOM error, reads of what was
  written and DEL are served, and RSS stays under the same bound through 5 x maxmemory of
  mostly refused writes.

--server PATH is plinth-server, or /usr/bin/redis-server to check the test against Redis.
Python 3 standard library only (tests/clients/support.py); fixed seeds."""

import os
import random
import sys
import threading

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "clients"))
import support  # noqa: E402

MIB = 1024 * 1024
LIMIT = 32 * MIB
OOM = b"-OOM command not allowed when used memory > 'maxmemory'.\r\n"


def rss(server):
    with open("/proc/%d/status" % server.proc.pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError("no VmRSS for the server")


def start(server_path, policy):
    extra = ["--maxmemory", str(LIMIT), "--maxmemory-policy", policy]
    if os.path.basename(server_path).startswith("redis-server"):
        return support.start_redis(server_path, extra)
    return support.start_plinth(server_path, list(support.PERSISTENCE_OFF) + extra)


def batch(rng, n, prefix):
    """n random writes of every type; returns (commands, bytes written)."""
    cmds, total = [], 0
    for _ in range(n):
        size = rng.choice([10, 100, 1000, 4000, 16000, 70000, 256 * 1024])
        value = rng.randbytes(size)
        key = "%s:%d" % (prefix, rng.randrange(4 * n))
        kind = rng.randrange(7)
        if kind == 0:
            cmds.append(["SET", key, value])
        elif kind == 1:
            cmds.append(["SET", key, value, "EX", "100"])
        elif kind == 2:
            cmds.append(["HSET", "h" + key, "f%d" % rng.randrange(50), value])
        elif kind == 3:
            cmds.append(["RPUSH", "l" + key, value, value[: size // 2]])
        elif kind == 4:
            cmds.append(["ZADD", "z" + key, str(rng.random()), value])
        elif kind == 5:
            cmds.append(["SADD", "s" + key, value])
        else:
            cmds.append(["XADD", "x" + key, "*", "f", value])
        total += size
        if rng.random() < 0.05:
            cmds.append(["DEL", key])
    return cmds, total


def send(conn, cmds):
    """Pipelines cmds; returns the raw replies."""
    conn.send_raw(b"".join(support.encode(c) for c in cmds))
    return [conn.read()[0] for _ in cmds]


def bound(baseline):
    return baseline + int(1.5 * LIMIT) + 16 * MIB


def eviction(server_path):
    rng = random.Random(30)
    srv = start(server_path, "allkeys-lru")
    try:
        c = support.RespConn(srv.port)
        baseline = rss(srv)
        written, peak = 0, 0
        while written < 5 * LIMIT:
            cmds, n = batch(rng, 100, "k")
            errors = [r for r in send(c, cmds) if r.startswith(b"-")]
            support.expect_eq(errors, [], "error replies under allkeys-lru")
            written += n
            peak = max(peak, rss(srv))
        info = c.call("INFO", "stats")[1].data.decode()
        evicted = int(info.split("evicted_keys:")[1].split()[0])
        support.expect(evicted > 0, "keys evicted", evicted)
        support.expect(peak < bound(baseline), "peak RSS under baseline + 1.5 x maxmemory + "
                       "16 MiB", peak // MIB, baseline // MIB)
        print("PASS allkeys-lru: %d MiB of mixed values into a %d MiB limit; RSS %d MiB at "
              "start, peak %d MiB (bound %d MiB), %d keys evicted" % (
                  written // MIB, LIMIT // MIB, baseline // MIB, peak // MIB,
                  bound(baseline) // MIB, evicted))
        problem = srv.stop_cleanly()
        support.expect(problem is None, "clean exit", problem)
    finally:
        srv.stop()


def many_clients(server_path):
    """Eight clients pipeline 100 values of 256 KiB each at once (200 MiB in flight) under
    allkeys-lru: query buffers and evictions together stay under the bound."""
    srv = start(server_path, "allkeys-lru")
    try:
        baseline = rss(srv)
        conns = [support.RespConn(srv.port, timeout=60) for _ in range(8)]
        value = random.Random(32).randbytes(256 * 1024)
        data = [b"".join(support.encode(["SET", "c%d:%d" % (n, i), value]) for i in range(100))
                for n in range(8)]
        peak = [0]
        done = threading.Event()

        def sample():
            while not done.is_set():
                peak[0] = max(peak[0], rss(srv))
                done.wait(0.005)

        sampler = threading.Thread(target=sample)
        sampler.start()
        senders = [threading.Thread(target=c.send_raw, args=(d,)) for c, d in zip(conns, data)]
        try:
            for t in senders:
                t.start()
            replies = [c.read()[0] for c in conns for _ in range(100)]
        finally:
            for t in senders:
                t.join()
            done.set()
            sampler.join()
        support.expect_eq(set(replies), {b"+OK\r\n"}, "replies under allkeys-lru")
        support.expect(peak[0] < bound(baseline), "peak RSS under baseline + 1.5 x maxmemory + "
                       "16 MiB", peak[0] // MIB, baseline // MIB)
        print("PASS many clients: 8 pipelines of 25 MiB at once into a %d MiB limit; RSS %d MiB "
              "at start, peak %d MiB" % (LIMIT // MIB, baseline // MIB, peak[0] // MIB))
        for c in conns:
            c.close()
    finally:
        srv.stop()


def noeviction(server_path):
    rng = random.Random(31)
    srv = start(server_path, "noeviction")
    try:
        c = support.RespConn(srv.port)
        baseline = rss(srv)
        c.call("SET", "kept", "v" * 1000)
        c.call("HSET", "hkept", "f", "v")
        refused = 0
        written, peak = 0, 0
        while written < 5 * LIMIT:
            cmds, n = batch(rng, 100, "n")
            for cmd, reply in zip(cmds, send(c, cmds)):
                if reply.startswith(b"-"):
                    support.expect_eq(reply, OOM, "the error of a refused " + cmd[0])
                    refused += 1
            written += n
            peak = max(peak, rss(srv))
        support.expect(refused > 1000, "writes refused past the limit", refused)
        # The batches' DELs may have made room, and what a client's buffers hold comes and
        # goes: a limit 1 MiB under what is used now refuses every write below.
        info = c.call("INFO", "memory")[1].data.decode()
        used = int(info.split("used_memory:")[1].split()[0])
        support.expect_eq(c.call("CONFIG", "SET", "maxmemory", str(used - MIB))[0],
                          b"+OK\r\n", "a limit under the memory used")
        for cmd in (["SET", "new", "x"], ["HSET", "hkept", "g", "x"], ["RPUSH", "lnew", "x"],
                    ["SADD", "snew", "x"], ["ZADD", "znew", "1", "x"], ["XADD", "xn", "*", "f",
                                                                        "v"]):
            support.expect_eq(c.call(*cmd)[0], OOM, "OOM for " + cmd[0])
        support.expect_eq(c.call("GET", "kept")[0], b"$1000\r\n" + b"v" * 1000 + b"\r\n",
                          "a read under OOM")
        support.expect_eq(c.call("HGET", "hkept", "f")[0], b"$1\r\nv\r\n", "HGET under OOM")
        support.expect_eq(c.call("PING")[0], b"+PONG\r\n", "PING under OOM")
        support.expect_eq(c.call("DEL", "kept")[0], b":1\r\n", "DEL under OOM")
        support.expect(peak < bound(baseline), "peak RSS under baseline + 1.5 x maxmemory + "
                       "16 MiB", peak // MIB, baseline // MIB)
        print("PASS noeviction: %d writes refused with the OOM error, reads and DEL served; "
              "RSS %d MiB at start, peak %d MiB" % (refused, baseline // MIB, peak // MIB))
        problem = srv.stop_cleanly()
        support.expect(problem is None, "clean exit", problem)
    finally:
        srv.stop()


def main():
    if len(sys.argv) != 3 or sys.argv[1] != "--server":
        print("usage: rss_test.py --server PATH")
        return 2
    path = os.path.abspath(sys.argv[2])
    eviction(path)
    many_clients(path)
    noeviction(path)
    return 0


if __name__ == "__main__":
    support.main_guard(main)
