"""Replication interop with Debian's redis-server 7.0, both ways: redis-server as a replica of
the server under test, and the server under test as a replica of redis-server. A mixed load of
about 20,000 writes over every type (TTLs, counters, deletes, expiries, MULTI/EXEC, two
databases) goes to the primary; once the replica's offset has caught up, both keyspaces match
key by key: type, value, no TTL on the same keys, TTLs within 2 s. Exits 77 when redis-server
or redis-py is missing."""

import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import repl_support as rs  # noqa: E402
from repl_support import support  # noqa: E402

WRITES = 20000
NAMES = 600  # distinct names per type and database: updates land on existing keys


def one_write(rng, pipe, short_ttls):
    """Queues one random write on pipe (db already chosen); short_ttls collects the deadline
    of keys given a TTL that runs out during the test."""
    k = rng.randrange(NAMES)
    op = rng.randrange(20)
    if op == 0:
        pipe.set("s:%d" % k, "v%d" % rng.randrange(10 ** 6))
    elif op == 1:
        pipe.set("s:%d" % k, "x" * rng.randrange(1, 200), ex=rng.randrange(300, 900))
    elif op == 2:
        ms = rng.randrange(100, 1500)
        pipe.set("short:%d" % k, "gone soon", px=ms)
        short_ttls.append(time.monotonic() + ms / 1000.0)
    elif op == 3:
        pipe.execute_command("INCR", "c:%d" % k)
    elif op == 4:
        pipe.incrby("c:%d" % k, rng.randrange(-50, 50))
    elif op == 5:
        pipe.incrbyfloat("f:%d" % k, rng.choice(("0.5", "1.25", "-3")))
    elif op == 6:
        pipe.append("s:%d" % k, "+")
    elif op == 7:
        pipe.hset("h:%d" % k, mapping={"f%d" % rng.randrange(40): rng.randrange(1000)
                                       for _ in range(rng.randrange(1, 4))})
    elif op == 8:
        pipe.hincrby("h:%d" % k, "n", 3) if rng.random() < 0.5 else \
            pipe.hdel("h:%d" % k, "f%d" % rng.randrange(40))
    elif op == 9:
        pipe.rpush("l:%d" % k, *["e%d" % rng.randrange(100) for _ in range(rng.randrange(1, 5))])
    elif op == 10:
        pipe.lpush("l:%d" % k, "head") if rng.random() < 0.6 else pipe.lpop("l:%d" % k)
    elif op == 11:
        pipe.ltrim("l:%d" % k, 0, 20)
    elif op == 12:
        pipe.sadd("S:%d" % k, *["m%d" % rng.randrange(300) for _ in range(rng.randrange(1, 4))])
    elif op == 13:
        pipe.srem("S:%d" % k, "m%d" % rng.randrange(300))
    elif op == 14:
        pipe.zadd("z:%d" % k, {"m%d" % rng.randrange(100): rng.randrange(-1000, 1000) / 8.0})
    elif op == 15:
        pipe.zincrby("z:%d" % k, 1.5, "m%d" % rng.randrange(100)) if rng.random() < 0.7 else \
            pipe.zrem("z:%d" % k, "m%d" % rng.randrange(100))
    elif op == 16:
        pipe.delete("%s:%d" % (rng.choice("shlSzcf"), k))
    elif op == 17:
        pipe.expire("%s:%d" % (rng.choice("hlSzc"), k), rng.randrange(300, 900))
    elif op == 18:
        pipe.persist("%s:%d" % (rng.choice("hlSzc"), k))
    else:
        pipe.set("s:%d" % k, rng.randrange(10 ** 9), keepttl=True)


def load(port, seed=13):
    """Writes WRITES commands to the primary at port: batches of 100 in pipelines, one batch
    in ten as MULTI/EXEC, 30% of them in database 1 (reached with SELECT). Returns the latest
    deadline of a short TTL."""
    rng = random.Random(seed)
    c = rs.client(port)
    short_ttls = [0.0]
    done = 0
    while done < WRITES:
        transaction = rng.random() < 0.1
        pipe = c.pipeline(transaction=transaction)
        db = 1 if rng.random() < 0.3 else 0
        if db:
            pipe.execute_command("SELECT", 1)
        for _ in range(100):
            one_write(rng, pipe, short_ttls)
        if db:
            pipe.execute_command("SELECT", 0)  # the pooled connection goes back in db 0
        pipe.execute()
        done += 100
    c.close()
    return max(short_ttls)


def direction(primary, replica, label):
    started = time.monotonic()
    p, r = rs.client(primary.port), rs.client(replica.port)
    rs.wait_link_up(r)
    last_ttl = load(primary.port)
    loaded = time.monotonic() - started
    # Let the short TTLs run out; reading them on the primary deletes them there and sends
    # the deletes to the replica, so both end without them.
    time.sleep(max(0.0, last_ttl - time.monotonic()) + 0.2)
    want = rs.snapshot(p)
    offset = rs.wait_caught_up(p, r)
    got = rs.snapshot(r)
    rs.compare(want, got, label)
    assert r.info("replication")["role"] == "slave"
    for s in (primary, replica):
        assert s.alive(), "%s died:\n%s" % (s.name, s.log()[-3000:])
    p.close()
    r.close()
    with_ttl = sum(1 for t in want[1].values() if t != -1)
    return "%d writes in %.1f s, %d keys (%d with a TTL) in 2 databases, offset %d, %.1f s" % (
        WRITES, loaded, len(want[0]), with_ttl, offset, time.monotonic() - started)


def run(name, fn):
    started = time.monotonic()
    servers = []
    try:
        print("PASS %s: %s" % (name, fn(servers)), flush=True)
        return True
    except AssertionError as e:
        print("FAIL %s (%.1f s): %s" % (name, time.monotonic() - started, e), flush=True)
        for s in servers:
            print("--- %s log tail:\n%s" % (s.name, s.log()[-2000:]))
        return False
    finally:
        for s in servers:
            s.stop()


def main():
    args = rs.parse_args(__doc__)
    rs.require(args.server, [(rs.REDIS_SERVER, "redis-server")])

    def reference_replica(servers):
        servers.append(rs.start(args.server, name="primary"))
        servers.append(rs.start_reference(rs.replica_of(servers[0].port)))
        return direction(servers[0], servers[1], "redis 7.0 replica of the server under test")

    def reference_primary(servers):
        servers.append(rs.start_reference())
        servers.append(rs.start(args.server, rs.replica_of(servers[0].port), name="replica"))
        return direction(servers[0], servers[1], "server under test replica of redis 7.0")

    ok = run("redis 7.0 replica of the server under test", reference_replica)
    ok = run("the server under test replica of redis 7.0", reference_primary) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    support.main_guard(main)
