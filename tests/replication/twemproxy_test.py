"""Sharding behind twemproxy: three nodes of the server under test behind Debian's nutcracker
(ketama, fnv1a_64). redis-py's smoke checks of the commands twemproxy passes on go through the
proxy; then each node, read directly, holds a fair share of the keys, every key lives on
exactly one node, and every value is what was written. --trace puts a logging proxy before
each node and prints what nutcracker sent. Exits 77 when nutcracker or redis-py is missing."""

import hashlib
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import repl_support as rs  # noqa: E402
from repl_support import support  # noqa: E402

NODES = 3
KEYS = 1000


def name(prefix, i):
    """prefix:<12 hex digits>: names that differ over their whole length, as ids do. fnv1a_64
    places names that differ only in their last characters (key:1, key:2...) close together,
    and ketama then gives most of them to one node."""
    return "%s:%s" % (prefix, hashlib.sha1(b"%d" % i).hexdigest()[:12])


def write_config(folder, listen_port, node_ports):
    path = os.path.join(folder, "nutcracker.yml")
    with open(path, "w") as f:
        f.write("plinth:\n"
                "  listen: 127.0.0.1:%d\n"
                "  hash: fnv1a_64\n"
                "  distribution: ketama\n"
                "  redis: true\n"
                "  auto_eject_hosts: false\n"
                "  timeout: 5000\n"
                "  servers:\n" % listen_port)
        # Named servers: ketama places the names, not the ports, so the spread is the same on
        # every run.
        for i, p in enumerate(node_ports):
            f.write("   - 127.0.0.1:%d:1 node%d\n" % (p, i))
    return path


def start_nutcracker(node_ports):
    """nutcracker on a free port in front of node_ports, after `nutcracker -t` accepted its
    configuration. A support.Server."""
    def make(port):
        folder = tempfile.mkdtemp(prefix="nutcracker-")
        conf = write_config(folder, port, node_ports)
        check = subprocess.run([rs.NUTCRACKER, "-t", "-c", conf], capture_output=True,
                               text=True, timeout=30)
        assert check.returncode == 0 and "syntax is ok" in check.stdout + check.stderr, \
            check.stdout + check.stderr
        return [rs.NUTCRACKER, "-c", conf, "-s", str(rs.free_port()), "-a", rs.HOST], folder
    return support._start("nutcracker", make)


def smoke(c):
    """The redis-py calls twemproxy supports, through the proxy. Returns the keyspace the
    nodes must hold, as keyspace.dump gives it."""
    want = {}
    assert c.ping() is True
    pipe = c.pipeline(transaction=False)  # pipelining through the proxy
    for i in range(KEYS):
        pipe.set(name("key", i), "value:%d" % i)
    assert all(r is True for r in pipe.execute())
    for i in range(KEYS):
        want[(0, name("key", i).encode())] = ("string", b"value:%d" % i, False)
    assert c.get(name("key", 7)) == b"value:7"
    names = [name("key", i) for i in range(0, KEYS, 9)] + ["missing"]
    assert c.mget(names) == [b"value:%d" % i for i in range(0, KEYS, 9)] + [None]
    assert c.mset({name("mset", i): "m%d" % i for i in range(30)}) is True
    for i in range(30):
        want[(0, name("mset", i).encode())] = ("string", b"m%d" % i, False)
    for j in range(20):
        k = "counter:%d" % j
        assert c.execute_command("INCR", k) == 1 and c.incrby(k, 10) == 11
        assert c.execute_command("DECR", k) == 10
        want[(0, k.encode())] = ("string", b"10", False)
        k = "append:%d" % j
        assert c.set(k, "ab") and c.append(k, "cd") == 4 and c.strlen(k) == 4
        want[(0, k.encode())] = ("string", b"abcd", False)
        k = "ttl:%d" % j
        assert c.set(k, "t") and c.expire(k, 600) is True and 590 <= c.ttl(k) <= 600
        want[(0, k.encode())] = ("string", b"t", True)
        k = "hash:%d" % j
        assert c.hset(k, "f1", "v1") == 1 and c.hset(k, mapping={"f2": "v2", "f3": "v3"}) == 2
        assert c.hget(k, "f2") == b"v2"
        assert c.hgetall(k) == {b"f1": b"v1", b"f2": b"v2", b"f3": b"v3"}
        want[(0, k.encode())] = ("hash", [(b"f1", b"v1"), (b"f2", b"v2"), (b"f3", b"v3")], False)
        k = "list:%d" % j
        assert c.lpush(k, "a", "b", "c") == 3 and c.lrange(k, 0, -1) == [b"c", b"b", b"a"]
        want[(0, k.encode())] = ("list", [b"c", b"b", b"a"], False)
        k = "set:%d" % j
        assert c.sadd(k, "x", "y", "z") == 3 and c.smembers(k) == {b"x", b"y", b"z"}
        want[(0, k.encode())] = ("set", [b"x", b"y", b"z"], False)
        k = "zset:%d" % j
        assert c.zadd(k, {"a": 1, "b": 2.5}) == 2
        assert c.zrange(k, 0, -1, withscores=True) == [(b"a", 1.0), (b"b", 2.5)]
        want[(0, k.encode())] = ("zset", [(b"a", 1.0), (b"b", 2.5)], False)
    tmp = [name("tmp", i) for i in range(100)]
    pipe = c.pipeline(transaction=False)
    for k in tmp:
        pipe.set(k, "x")
    pipe.execute()
    assert c.delete(*tmp) == 100  # one DEL, split over the nodes by the proxy
    assert c.exists(tmp[3]) == 0 and c.exists(name("key", 3)) == 1
    assert c.type("hash:0") == b"hash" and c.type("zset:0") == b"zset"
    assert c.type(name("key", 1)) == b"string" and c.type(tmp[1]) == b"none"
    return want


def check_nodes(nodes, want):
    """Reads every node directly: the union is want, no key on two nodes, each node > 15%."""
    merged, shares = {}, []
    for n in nodes:
        direct = rs.client(n.port)
        got = rs.keyspace.dump(direct)
        direct.close()
        both = set(got) & set(merged)
        assert not both, "keys on two nodes: %r" % sorted(both)[:5]
        merged.update(got)
        shares.append(len(got))
    if merged != want:
        raise AssertionError("nodes hold %d keys, %d written\n%s" %
                             (len(merged), len(want), rs.keyspace.diff(want, merged)))
    total = sum(shares)
    for n, count in zip(nodes, shares):
        assert count > 0.15 * total, "node %d holds %d of %d keys" % (n.port, count, total)
    return shares


def print_trace(proxies):
    counts = {}
    for p in proxies:
        for conn in p.commands():
            for cmd in conn:
                name = rs.command_name(cmd)
                counts[name] = counts.get(name, 0) + 1
    print("nutcracker sent to the nodes: " +
          ", ".join("%s x%d" % kv for kv in sorted(counts.items())))


def main():
    args = rs.parse_args(__doc__, lambda ap: ap.add_argument(
        "--trace", action="store_true", help="print the commands nutcracker sends the nodes"))
    rs.require(args.server, [(rs.NUTCRACKER, "nutcracker")])
    started = time.monotonic()
    nodes, proxies, proxy = [], [], None
    try:
        for i in range(NODES):
            nodes.append(rs.start(args.server, name="node%d" % i))
        ports = [n.port for n in nodes]
        if args.trace:
            proxies = [rs.TraceProxy(p) for p in ports]
            ports = [p.port for p in proxies]
        proxy = start_nutcracker(ports)
        c = rs.client(proxy.port)
        want = smoke(c)
        c.close()
        shares = check_nodes(nodes, want)
        if args.trace:
            print_trace(proxies)
        for n in nodes:
            assert n.alive(), "%s died:\n%s" % (n.name, n.log()[-3000:])
        print("PASS twemproxy: %d keys through nutcracker, spread %s over %d nodes (%.1f s)" %
              (len(want), "/".join(map(str, shares)), NODES, time.monotonic() - started))
        return 0
    except AssertionError as e:
        print("FAIL twemproxy: %s" % e)
        if proxy:
            print("nutcracker log:\n" + proxy.log()[-2000:])
        return 1
    finally:
        if proxy:
            proxy.stop()
        for p in proxies:
            p.stop()
        for n in nodes:
            n.stop()


if __name__ == "__main__":
    support.main_guard(main)
