"""The primary side of the replication plugin with real processes on loopback: a disk full sync
of a payload larger than the 8 MB window with writes during it, two replicas sharing one
diskless child, WAIT (acks, timeout, MULTI, errors), REPLCONF's errors, SYNC and PSYNC from a
raw socket, a silent replica closed after repl-timeout, min-replicas-to-write, resizing the
backlog and its ttl. Replicas are Debian's redis-server 7.0 and plinth-server. Exits 77 when
redis-server, redis-py or the replication plugin is missing. Run with /usr/bin/python3."""

import os
import socket
import sys
import threading
import time

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(_HERE, "..", "..", "replication"))
import repl_support as rs  # noqa: E402

PAYLOAD_KEYS = 120000  # about 14 MB of RDB: more than one 8 MB window of output


def stop_primary(p):
    """Stops the primary; a crash or a sanitizer report at shutdown fails the check."""
    err = p.stop_cleanly()
    if err:
        raise AssertionError(err)


def fill(c, n, prefix="k"):
    """n strings of 100 random hex digits (LZF cannot shrink them)."""
    pipe = c.pipeline(transaction=False)
    for i in range(n):
        pipe.set("%s:%d" % (prefix, i), os.urandom(50).hex())
        if i % 5000 == 4999:
            pipe.execute()
    pipe.execute()


def strings_and_lists(c):
    """Database 0 as {key: value}, read in bulk (the tests write strings and lists only)."""
    keys = sorted(c.scan_iter(count=10000))
    out = {}
    for i in range(0, len(keys), 5000):
        chunk = keys[i:i + 5000]
        types = c.pipeline(transaction=False)
        for k in chunk:
            types.type(k)
        pipe = c.pipeline(transaction=False)
        for k, t in zip(chunk, types.execute()):
            pipe.lrange(k, 0, -1) if t == b"list" else pipe.get(k)
        out.update(zip(chunk, pipe.execute()))
    return out


def same_keyspace(primary, replicas, what):
    for rep in replicas:
        rs.wait_caught_up(primary, rep)
    want = strings_and_lists(primary)
    for rep in replicas:
        got = strings_and_lists(rep)
        assert got == want, "%s: %d keys vs %d, first difference at %r" % (
            what, len(want), len(got), next((k for k in sorted(set(want) | set(got))
                                             if want.get(k) != got.get(k)), None))
    print("  %s: %d keys identical on %d replica(s)" % (what, len(want), len(replicas)))


def check_disk_sync(server):
    """repl-diskless-sync no: the payload goes out of a file in chunks while writes continue."""
    p = rs.start(server, ["--repl-diskless-sync", "no"], name="primary")
    reps = []
    try:
        pc = rs.client(p.port)
        fill(pc, PAYLOAD_KEYS)
        stop = threading.Event()

        def writer():
            w = rs.client(p.port)
            i = 0
            while not stop.is_set():
                w.incr("during")
                w.rpush("l", i)
                i += 1
        t = threading.Thread(target=writer)
        t.start()
        reps = [rs.start_reference(rs.replica_of(p.port)), rs.start(server, rs.replica_of(p.port))]
        for r in reps:
            rs.wait_link_up(rs.client(r.port), timeout=60)
        stop.set()
        t.join()
        log = p.log()
        assert "target disk" in log, log[-2000:]
        size = int(log.split("written to disk (")[1].split(" ")[0])
        assert size > 8 << 20, size
        same_keyspace(pc, [rs.client(r.port) for r in reps],
                      "disk sync of %d keys (%.1f MB)" % (PAYLOAD_KEYS, size / 1e6))
        assert not [f for f in os.listdir(p.workdir) if f.startswith("temp-repl-")], \
            "the sync file stayed"
    finally:
        for r in reps:
            r.stop()
        stop_primary(p)


def check_shared_diskless_child(server):
    """Two replicas asking within repl-diskless-sync-delay take one child."""
    # 5 s (Redis's default): room for both replicas to start on a loaded machine.
    p = rs.start(server, ["--repl-diskless-sync", "yes", "--repl-diskless-sync-delay", "5"],
                 name="primary")
    reps = []
    try:
        pc = rs.client(p.port)
        fill(pc, PAYLOAD_KEYS)  # more than the 8 MB window: the pipe waits for the sockets
        reps = [rs.start_reference(rs.replica_of(p.port)), rs.start(server, rs.replica_of(p.port))]
        for r in reps:
            rs.wait_link_up(rs.client(r.port))
        pc.set("after", "sync")
        same_keyspace(pc, [rs.client(r.port) for r in reps], "diskless sync")
        log = p.log()
        assert log.count("Starting a full sync") == 1, log[-2000:]
        assert "of 2 replica(s) with target replicas sockets" in log, log[-2000:]
        assert pc.info("stats")["sync_full"] == 2
    finally:
        for r in reps:
            r.stop()
        stop_primary(p)


def check_wait_and_errors(server):
    p = rs.start(server, ["--repl-diskless-sync-delay", "0"], name="primary")
    rep = None
    try:
        pc = rs.client(p.port)
        assert pc.execute_command("WAIT", 0, 0) == 0
        rep = rs.start_reference(rs.replica_of(p.port))
        rc = rs.client(rep.port)
        rs.wait_link_up(rc)
        pc.set("w", 1)
        assert pc.execute_command("WAIT", 1, 5000) == 1
        start = time.monotonic()
        assert pc.execute_command("WAIT", 2, 300) == 1
        took = time.monotonic() - start
        assert 0.25 < took < 2, took
        pipe = pc.pipeline(transaction=True)
        pipe.set("m", 1)
        pipe.execute_command("WAIT", 5, 0)  # cannot block in MULTI: the count now
        assert pipe.execute()[1] in (0, 1)
        for args, err in (((1, -1), "timeout is negative"),
                          (("x", 1), "not an integer"),
                          ((1, "x"), "timeout is not an integer"),
                          ((1, 2 ** 63 - 1000), "timeout is out of range")):
            try:
                pc.execute_command("WAIT", *args)
                raise AssertionError("WAIT %r: no error" % (args,))
            except rs.redis.ResponseError as e:
                assert err in str(e), e
        try:
            pc.execute_command("REPLCONF", "bogus", "1")
            raise AssertionError("REPLCONF bogus: no error")
        except rs.redis.ResponseError as e:
            assert "Unrecognized REPLCONF option: bogus" in str(e), e
        assert pc.execute_command("REPLCONF", "listening-port", "7000") == b"OK"
        # PSYNC cannot be queued: the transaction is discarded, the client stays a client
        pipe = pc.pipeline(transaction=True)
        pipe.execute_command("PSYNC", "?", "-1")
        try:
            pipe.execute()
            raise AssertionError("PSYNC in MULTI: no error")
        except rs.redis.ResponseError as e:
            assert "not allowed inside a transaction" in str(e) or "EXECABORT" in str(e), e
        assert pc.ping()
        try:
            rc.execute_command("WAIT", 1, 0)
            raise AssertionError("WAIT on a replica: no error")
        except rs.redis.ResponseError as e:
            assert "replica" in str(e), e
        # ROLE lists the replica with its acked offset
        role = pc.execute_command("ROLE")
        assert role[0] == b"master" and len(role[2]) == 1, role
        print("  WAIT: acked 1, timed out after %.2f s, MULTI and errors fine" % took)
    finally:
        if rep:
            rep.stop()
        stop_primary(p)


def read_until(s, pred, timeout=10):
    buf = b""
    deadline = time.monotonic() + timeout
    s.settimeout(0.5)
    while time.monotonic() < deadline and not pred(buf):
        try:
            chunk = s.recv(1 << 16)
        except socket.timeout:
            continue
        if not chunk:
            break
        buf += chunk
    return buf


def check_raw_links(server):
    """SYNC gets "$<len>" and no +FULLRESYNC; a PSYNC replica that acks once and then stays
    silent is closed after repl-timeout; min-replicas-to-write follows good replicas."""
    p = rs.start(server, ["--repl-diskless-sync", "yes", "--repl-diskless-sync-delay", "0",
                          "--repl-timeout", "2", "--min-replicas-max-lag", "1"], name="primary")
    try:
        pc = rs.client(p.port)
        pc.set("a", "b")
        s = socket.create_connection((rs.HOST, p.port))
        s.sendall(b"SYNC\r\n")
        buf = read_until(s, lambda b: b.lstrip(b"\n").startswith(b"$") and b"\r\n" in b)
        head = buf.lstrip(b"\n")
        assert head.startswith(b"$") and not head.startswith(b"$EOF:"), buf[:80]
        size = int(head[1:head.index(b"\r\n")])
        body = head[head.index(b"\r\n") + 2:]
        body += read_until(s, lambda b: len(body) + len(b) >= size)
        assert body[:5] == b"REDIS", body[:16]
        s.close()

        s = socket.create_connection((rs.HOST, p.port))
        s.sendall(b"REPLCONF listening-port 9999\r\nREPLCONF capa eof capa psync2\r\n"
                  b"PSYNC ? -1\r\n")
        buf = read_until(s, lambda b: b.count(b"\r\n") >= 3 and b"$EOF:" in b)
        assert buf.startswith(b"+OK\r\n+OK\r\n+FULLRESYNC "), buf[:120]
        mark = buf[buf.index(b"$EOF:") + 5:][:40]
        buf += read_until(s, lambda b: (buf + b).count(mark) >= 2)
        assert buf.count(mark) >= 2, "no end mark"
        s.sendall(b"*3\r\n$8\r\nREPLCONF\r\n$3\r\nACK\r\n$1\r\n0\r\n")
        info = pc.info("replication")
        assert info["connected_slaves"] == 1 and info["slave0"]["port"] == 9999, info
        pc.config_set("min-replicas-to-write", "1")
        time.sleep(0.3)
        s.sendall(b"*3\r\n$8\r\nREPLCONF\r\n$3\r\nACK\r\n$1\r\n0\r\n")  # lag 0 again
        time.sleep(0.2)  # the primary's cron re-counts good replicas every 100 ms
        pc.set("ok", "1")  # one good replica
        pc.config_set("min-replicas-to-write", "2")
        time.sleep(0.3)
        try:
            pc.set("no", "1")
            raise AssertionError("write accepted without 2 good replicas")
        except rs.redis.ResponseError as e:
            assert str(e).startswith("NOREPLICAS"), e
        pc.config_set("min-replicas-to-write", "0")
        time.sleep(0.3)
        pc.set("ok", "2")
        # silent from now on: closed after repl-timeout (2 s)
        rs._until("silent replica closed",
                  lambda: pc.info("replication")["connected_slaves"] == 0, 6)
        assert "timedout replica" in p.log()
        s.close()
        print("  SYNC payload %d bytes, silent replica closed, NOREPLICAS refusals fine" % size)
    finally:
        stop_primary(p)


def check_backlog(server):
    p = rs.start(server, ["--repl-backlog-ttl", "1", "--repl-diskless-sync-delay", "0"],
                 name="primary")
    rep = None
    try:
        pc = rs.client(p.port)
        assert pc.info("replication")["repl_backlog_active"] == 0
        rep = rs.start_reference(rs.replica_of(p.port))
        rs.wait_link_up(rs.client(rep.port))
        pc.config_set("repl-backlog-size", "32kb")
        fill(pc, 2000, "b")
        time.sleep(0.3)
        info = pc.info("replication")
        assert info["repl_backlog_active"] == 1 and info["repl_backlog_size"] == 32768, info
        assert info["repl_backlog_histlen"] == 32768, info
        assert info["repl_backlog_first_byte_offset"] == info["master_repl_offset"] - 32768 + 1
        # A huge size is taken as the stream grows, not allocated at once (it crashed).
        pc.config_set("repl-backlog-size", "100gb")
        time.sleep(0.3)
        fill(pc, 100, "h")
        info = pc.info("replication")
        assert info["repl_backlog_size"] == 100 << 30, info
        assert info["repl_backlog_histlen"] > 32768, info
        assert info["repl_backlog_first_byte_offset"] == \
            info["master_repl_offset"] - info["repl_backlog_histlen"] + 1, info
        rs.wait_caught_up(pc, rs.client(rep.port))
        rep.stop()
        rep = None
        rs._until("backlog freed after its ttl",
                  lambda: pc.info("replication")["repl_backlog_active"] == 0, 6)
        print("  backlog resized to 32 KB and 100 GB, freed after its 1 s ttl")
    finally:
        if rep:
            rep.stop()
        stop_primary(p)


def main():
    args = rs.parse_args(__doc__)
    rs.require(args.server, [(rs.REDIS_SERVER, "redis-server")])
    if rs.is_redis(args.server):
        print("SKIP: this test is for plinth-server's replication plugin")
        return rs.SKIP
    for check in (check_wait_and_errors, check_raw_links, check_backlog,
                  check_shared_diskless_child, check_disk_sync):
        start = time.monotonic()
        check(args.server)
        print("PASS %s (%.1f s)" % (check.__name__, time.monotonic() - start))
    return 0


if __name__ == "__main__":
    sys.exit(main())
