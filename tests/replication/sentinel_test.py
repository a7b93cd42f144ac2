"""Automatic failover with Debian's redis-sentinel: a primary and two replicas (the server under
test) watched by three sentinels (quorum 2). A writer goes through redis-py's Sentinel client,
SET then WAIT 1; the primary is SIGKILLed mid-run; a replica is promoted, the client follows
it, every write WAIT acknowledged before the kill is on the new primary, and the other replica
follows the new primary with the same keys. --trace puts a logging proxy before each server and
prints what the sentinels sent. Exits 77 when redis-sentinel or redis-py is missing."""

import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import repl_support as rs  # noqa: E402
from repl_support import redis, support  # noqa: E402

NAME = "mymaster"
SENTINELS = 3
WRITE_BEFORE_KILL_S = 2.0
FAILOVER_BOUND_S = 30.0
ACKS_AFTER_FAILOVER = 200
RESETS = []  # what reset a connection during the final check (see dump_retrying)


def start_sentinel(i, primary_port):
    def make(port):
        folder = tempfile.mkdtemp(prefix="sentinel%d-" % i)
        conf = os.path.join(folder, "sentinel.conf")  # each its own: sentinel rewrites it
        with open(conf, "w") as f:
            f.write("port %d\nbind 127.0.0.1\ndaemonize no\ndir %s\n"
                    "sentinel monitor %s 127.0.0.1 %d 2\n"
                    "sentinel down-after-milliseconds %s 1000\n"
                    "sentinel failover-timeout %s 10000\n"
                    "sentinel parallel-syncs %s 1\n" %
                    (port, folder, NAME, primary_port, NAME, NAME, NAME))
        return [rs.REDIS_SENTINEL, conf], folder
    return support._start("sentinel%d" % i, make)


def wait_sentinels_ready(sentinels, timeout=30):
    """Each sentinel sees both replicas (not down) and the two other sentinels."""
    def ready():
        for s in sentinels:
            c = rs.client(s.port, socket_timeout=2)
            try:
                reps = c.sentinel_slaves(NAME)
                peers = c.sentinel_sentinels(NAME)
            finally:
                c.close()
            if len(reps) != 2 or any("down" in ",".join(r["flags"]) or
                                     "disconnected" in ",".join(r["flags"]) for r in reps):
                return False
            if len(peers) != SENTINELS - 1:
                return False
        return True
    rs._until("sentinels seeing 2 replicas and %d peers" % (SENTINELS - 1), ready, timeout, 0.2)


def primary_addr(sentinels):
    """get-master-addr-by-name from the first sentinel that answers, as a port, or None."""
    for s in sentinels:
        c = rs.client(s.port, socket_timeout=0.5)
        try:
            host, port = c.sentinel_get_master_addr_by_name(NAME)
            return int(port)
        except (redis.exceptions.RedisError, TypeError):
            continue
        finally:
            c.close()
    return None


def write_through_failover(sentinels, primary, old_port):
    """SET k<i> v<i> then WAIT 1 1000 through the Sentinel client; SIGKILLs the primary after
    WRITE_BEFORE_KILL_S. Returns (acked_before_kill, acked_after, figures)."""
    sentinel = redis.sentinel.Sentinel([(rs.HOST, s.port) for s in sentinels],
                                       socket_timeout=1.0,
                                       sentinel_kwargs={"socket_timeout": 0.5})
    master = sentinel.master_for(NAME, socket_timeout=1.0)
    acked_before, acked_after = [], []
    errors, i = 0, 0
    started = time.monotonic()
    t_kill = t_promoted = t_first_write = None
    next_poll = 0.0
    while True:
        now = time.monotonic()
        if t_kill is None and now - started > WRITE_BEFORE_KILL_S:
            primary.proc.kill()
            primary.proc.wait()
            t_kill = now
        if t_kill is not None and t_promoted is None and now >= next_poll:
            port = primary_addr(sentinels)
            if port is not None and port != old_port:
                t_promoted = time.monotonic()
            next_poll = now + 0.1
        if t_kill is not None and now - t_kill > FAILOVER_BOUND_S:
            raise AssertionError("no promoted primary taking writes within %.0f s of the kill "
                                 "(sentinel says port %r; %d errors)" %
                                 (FAILOVER_BOUND_S, primary_addr(sentinels), errors))
        if len(acked_after) >= ACKS_AFTER_FAILOVER:
            break
        try:
            master.set("k%d" % i, "v%d" % i)
            n = master.execute_command("WAIT", 1, 1000)
        except redis.exceptions.RedisError:
            errors += 1
            time.sleep(0.05)
            i += 1
            continue
        if n >= 1:
            if t_kill is None:
                acked_before.append(i)
            elif t_promoted is not None:
                acked_after.append(i)
                if t_first_write is None:
                    t_first_write = time.monotonic()
        i += 1
    figures = {"writes tried": i, "errors": errors, "kill after s": t_kill - started,
               "promotion s": t_promoted - t_kill, "first acked write s": t_first_write - t_kill}
    return acked_before, acked_after, figures


def dump_retrying(client, what, attempts=3):
    """The keyspace of client, read again from the start when the connection is reset: a
    sentinel's reconfiguration ends with CLIENT KILL TYPE normal, which every client of a
    failed-over deployment must survive. Each reset is printed."""
    for attempt in range(attempts):
        try:
            return rs.keyspace.dump(client)
        except redis.exceptions.ConnectionError as e:
            print("note: the %s reset the connection while being read (%r); reading again" %
                  (what, e))
            RESETS.append(what)
            if attempt == attempts - 1:
                raise
            time.sleep(0.2)


def check_after(new_primary, other, new_primary_announced, acked):
    p = rs.client(new_primary.port)
    role = p.execute_command("ROLE")
    assert role[0] == b"master", "promoted server's ROLE: %r" % role
    missing = []
    for start in range(0, len(acked), 500):
        chunk = acked[start:start + 500]
        got = p.mget(["k%d" % i for i in chunk])
        missing += [i for i, v in zip(chunk, got) if v != b"v%d" % i]
    assert not missing, "%d acknowledged writes lost, first: %r" % (len(missing), missing[:10])
    o = rs.client(other.port)

    def follows():
        info = o.info("replication")
        return info.get("role") == "slave" and info.get("master_port") == \
            new_primary_announced and info.get("master_link_status") == "up"
    rs._until("the other replica following the new primary", follows, 30, 0.1)
    rs.wait_caught_up(p, o)
    a, b = dump_retrying(p, "new primary"), dump_retrying(o, "other replica")
    if a != b:
        raise AssertionError("the other replica differs from the new primary (%d vs %d keys)\n"
                             "%s" % (len(a), len(b), rs.keyspace.diff(a, b)))
    p.close()
    o.close()
    return len(a)


def print_trace(proxies):
    """What the sentinels sent the servers: command counts, every distinct command other than
    PING, PUBLISH and CLIENT SETNAME, and each distinct MULTI...EXEC block in order."""
    counts, distinct, blocks = {}, [], []
    for p in proxies:
        for conn in p.commands():
            if not any(rs.command_name(c) == "CLIENT SETNAME" and c[2].startswith(b"sentinel-")
                       for c in conn):
                continue
            block = None
            for cmd in conn:
                name = rs.command_name(cmd)
                counts[name] = counts.get(name, 0) + 1
                shape = b" ".join(cmd).decode("latin-1")
                if name not in ("PING", "PUBLISH", "CLIENT SETNAME") and \
                        shape not in distinct:
                    distinct.append(shape)
                if name == "MULTI":
                    block = []
                if block is not None:
                    block.append(shape)
                if name == "EXEC" and block is not None:
                    if block not in blocks:
                        blocks.append(block)
                    block = None
    print("sentinels sent the servers: " +
          ", ".join("%s x%d" % kv for kv in sorted(counts.items())))
    print("distinct commands other than PING, PUBLISH and CLIENT SETNAME:")
    for shape in distinct:
        print("  " + shape[:200])
    for block in blocks:
        print("transaction: " + " / ".join(block))


def main():
    args = rs.parse_args(__doc__, lambda ap: ap.add_argument(
        "--trace", action="store_true", help="print the commands the sentinels send"))
    rs.require(args.server, [(rs.REDIS_SENTINEL, "redis-sentinel")])
    began = time.monotonic()
    servers, sentinels, proxies = [], [], []
    try:
        primary = rs.start(args.server, name="primary")
        servers.append(primary)
        # announced[i]: the port the sentinels know server i by (its proxy's with --trace).
        announced = [primary.port]
        if args.trace:
            proxies.append(rs.TraceProxy(primary.port))
            announced[0] = proxies[0].port
        for i in (1, 2):
            extra = rs.replica_of(primary.port)
            if args.trace:
                proxies.append(rs.TraceProxy())
                extra += ["--replica-announce-port", str(proxies[i].port)]
            servers.append(rs.start(args.server, extra, name="replica%d" % i))
            if args.trace:
                proxies[i].backend = servers[i].port
            announced.append(proxies[i].port if args.trace else servers[i].port)
        for r in servers[1:]:
            rs.wait_link_up(rs.client(r.port))
        for i in range(SENTINELS):
            sentinels.append(start_sentinel(i, announced[0]))
        wait_sentinels_ready(sentinels)
        ready_s = time.monotonic() - began
        acked_before, acked_after, figures = write_through_failover(sentinels, primary,
                                                                    announced[0])
        new_port = primary_addr(sentinels)
        assert new_port in announced[1:], "sentinel names port %r" % new_port
        k = announced.index(new_port)
        keys = check_after(servers[k], servers[3 - k], new_port, acked_before + acked_after)
        if args.trace:
            print_trace(proxies)
        if RESETS:  # which sentinel events came with the reset, for the record
            for s in sentinels:
                events = [ln for ln in s.log().splitlines() if " +" in ln or " -" in ln]
                print("--- %s events:\n%s" % (s.name, "\n".join(events[-40:])))
        for s in sentinels + servers[1:]:
            assert s.alive(), "%s died:\n%s" % (s.name, s.log()[-3000:])
        print("PASS sentinel failover: setup %.1f s; %d writes acknowledged before the kill, all "
              "kept; %d after; promotion %.1f s and first acknowledged write %.1f s after the "
              "kill; %d writes tried, %d failed; replicas agree on %d keys (%.1f s total)" %
              (ready_s, len(acked_before), len(acked_after), figures["promotion s"],
               figures["first acked write s"], figures["writes tried"], figures["errors"], keys,
               time.monotonic() - began))
        return 0
    except (AssertionError, redis.exceptions.RedisError) as e:
        print("FAIL sentinel failover: %r" % e)
        for s in sentinels + servers:
            print("--- %s log tail:\n%s" % (s.name, s.log()[-1500:]))
        return 1
    finally:
        for s in sentinels:
            s.stop()
        for p in proxies:
            p.stop()
        for s in servers:
            s.stop()


if __name__ == "__main__":
    support.main_guard(main)
