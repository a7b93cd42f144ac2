"""maxmemory with real processes and real memory: the server under test (or, with --server
/usr/bin/redis-server, Redis itself, to check the test) is put over its limit with redis-py.

- noeviction: writes get exactly Redis's OOM error, reads and DEL go on, nothing is evicted;
- allkeys-lru with a replica: 24 MiB written into a 4 MiB budget without one error, used
  memory stays near the limit, and the replica, which ignores maxmemory, receives the evictions
  as DELs and ends with the primary's exact keyspace;
- volatile-lru: keys without a TTL are never evicted; once no key with one is left, writes get
  the OOM error;
- LRU quality: keys read recently survive a flood of new keys that evicts most of the rest.

Exits 77 when redis-py or the replication plugin is missing."""

import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "replication"))
import repl_support as rs  # noqa: E402
from repl_support import support  # noqa: E402

OOM = "OOM command not allowed when used memory > 'maxmemory'."
VALUE = b"v" * 1024
MIB = 1024 * 1024


def used(c):
    return int(c.info("memory")["used_memory"])


def limit_above_now(c, policy, headroom):
    """Sets maxmemory to what c uses now plus headroom bytes, with policy. Returns the limit."""
    limit = used(c) + headroom
    c.config_set("maxmemory-policy", policy)
    c.config_set("maxmemory", limit)
    return limit


def write(c, prefix, n, ttl=None, batch=200):
    """SETs prefix<i> for i < n in pipelined batches; returns the error replies' texts."""
    errors = []
    for start in range(0, n, batch):
        p = c.pipeline(transaction=False)
        for i in range(start, min(n, start + batch)):
            if ttl:
                p.set("%s%d" % (prefix, i), VALUE, ex=ttl)
            else:
                p.set("%s%d" % (prefix, i), VALUE)
        errors += [str(r) for r in p.execute(raise_on_error=False) if isinstance(r, Exception)]
    return errors


def present(c, prefix, n):
    got = 0
    for start in range(0, n, 500):
        got += c.exists(*["%s%d" % (prefix, i) for i in range(start, min(n, start + 500))])
    return got


def noeviction(server):
    srv = rs.start(server, name="noeviction")
    try:
        c = rs.client(srv.port)
        c.set("before", "1")
        limit_above_now(c, "noeviction", 2 * MIB)
        errors = write(c, "k", 4000)
        support.expect(errors, "writes past maxmemory refused")
        support.expect_eq(errors[0], OOM, "the OOM error")
        support.expect_eq(c.get("before"), b"1", "a read under OOM")
        support.expect_eq(c.delete("k0"), 1, "DEL under OOM")
        support.expect_eq(int(c.info("stats")["evicted_keys"]), 0, "evicted_keys")
        c.config_set("maxmemory", 0)
        support.expect_eq(c.set("after", "1"), True, "a write once the limit is lifted")
        print("PASS noeviction: %d of 4000 writes refused with the OOM error; reads and DEL "
              "served" % len(errors))
    finally:
        srv.stop()


def allkeys_lru_with_replica(server):
    primary = rs.start(server, name="primary")
    replica = rs.start(server, rs.replica_of(primary.port), name="replica")
    try:
        p, r = rs.client(primary.port), rs.client(replica.port)
        rs.wait_link_up(r)
        limit = limit_above_now(p, "allkeys-lru", 4 * MIB)
        peak = 0
        errors = []
        for part in range(8):
            errors += write(p, "k%d:" % part, 3000)
            peak = max(peak, used(p))
        support.expect_eq(errors, [], "error replies under allkeys-lru")
        evicted = int(p.info("stats")["evicted_keys"])
        support.expect(evicted > 12000, "keys evicted", evicted)
        support.expect(peak < limit + 2 * MIB, "used memory near the limit", peak, limit)
        p.config_set("maxmemory", 0)  # reading the keyspace must not evict more
        rs.wait_caught_up(p, r)
        a, b = rs.keyspace.dump(p), rs.keyspace.dump(r)
        support.expect(a == b, "the replica's keyspace is the primary's", len(a), len(b))
        print("PASS allkeys-lru: 24000 writes of 1 KiB into a %.1f MiB limit, 0 errors, %d "
              "evicted, peak used %.1f MiB; the replica holds the same %d keys" %
              (limit / MIB, evicted, peak / MIB, len(a)))
    finally:
        replica.stop()
        primary.stop()


def volatile_lru(server):
    srv = rs.start(server, name="volatile")
    try:
        c = rs.client(srv.port)
        support.expect_eq(write(c, "keep", 1000), [], "writes before the limit")
        limit_above_now(c, "volatile-lru", 3 * MIB)
        errors = write(c, "ttl", 6000, ttl=3600)
        support.expect_eq(present(c, "keep", 1000), 1000, "keys without a TTL kept")
        support.expect(int(c.info("stats")["evicted_keys"]) > 1000, "keys with a TTL evicted")
        support.expect_eq(errors, [], "errors while keys with a TTL remain")
        c.execute_command("FLUSHDB")  # only keys without a TTL from here on
        support.expect_eq(write(c, "keep", 1000), [], "writes after FLUSHDB")
        c.config_set("maxmemory", used(c) - MIB)
        errors = write(c, "more", 10)
        support.expect_eq(errors[:1], [OOM], "OOM once no key has a TTL")
        support.expect_eq(present(c, "keep", 1000), 1000, "keys without a TTL still kept")
        print("PASS volatile-lru: 1000 keys without a TTL kept while keys with one were "
              "evicted; OOM once none is left")
    finally:
        srv.stop()


def lru_keeps_recent(server):
    srv = rs.start(server, name="lru")
    try:
        c = rs.client(srv.port)
        support.expect_eq(write(c, "old", 4000), [], "the first keys")
        time.sleep(2.1)  # idle times have a one-second resolution
        p = c.pipeline(transaction=False)
        for i in range(0, 4000, 4):
            p.get("old%d" % i)  # every fourth key is read: 1000 hot keys
        p.execute()
        time.sleep(1.1)
        c.config_set("maxmemory-policy", "allkeys-lru")
        c.config_set("maxmemory", used(c))
        support.expect_eq(write(c, "new", 2000), [], "errors under allkeys-lru")
        hot = sum(c.exists(*["old%d" % i for i in range(j, min(4000, j + 400), 4)])
                  for j in range(0, 4000, 400))
        cold = present(c, "old", 4000) - hot
        support.expect(hot >= 900, "hot keys kept (of 1000)", hot)
        support.expect(cold < 2000, "cold keys evicted (of 3000 some must go)", cold)
        print("PASS lru: %d of 1000 recently read keys kept, %d of 3000 others" % (hot, cold))
    finally:
        srv.stop()


def main():
    args = rs.parse_args(__doc__)
    rs.require(args.server)
    noeviction(args.server)
    allkeys_lru_with_replica(args.server)
    volatile_lru(args.server)
    lru_keeps_recent(args.server)
    return 0


if __name__ == "__main__":
    support.main_guard(main)
