#!/usr/bin/python3
"""redis-py (Debian's python3-redis) against a real plinth-server: the hash, list, set and
sorted-set plugins through the library's API (encodings switching at Redis's thresholds, COPY
then a write to one side, TYPE and UNLINK of a large set), and blocking pops: timeouts,
wake-ups by another client in the order clients blocked, BLMOVE and BZPOPMIN, a pipeline that
waits behind a blocked command, and a blocked client that goes away. No timing is asserted."""

import os
import socket
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import support  # noqa: E402
from support import expect, expect_eq  # noqa: E402

try:
    import redis
except ImportError:
    print("SKIP: redis-py is missing (apt-get install python3-redis; use /usr/bin/python3)")
    sys.exit(support.SKIP)

checks = support.Checks(__doc__)
check = checks.check


def client(port):
    return redis.Redis(host="127.0.0.1", port=port, socket_timeout=20)


def later(seconds, fn, *args):
    """Runs fn(*args) on a thread after seconds; returns the thread."""
    t = threading.Thread(target=lambda: (time.sleep(seconds), fn(*args)))
    t.start()
    return t


@check("hash", "keys")
def hashes(port):
    r = client(port)
    expect_eq(r.hset("t:h", mapping={"name": "ada", "visits": 1}), 2, "hset")
    expect_eq(r.hincrby("t:h", "visits", 4), 5, "hincrby")
    expect_eq(r.hgetall("t:h"), {b"name": b"ada", b"visits": b"5"}, "hgetall")
    expect_eq(r.type("t:h"), b"hash", "type")
    expect_eq(r.object("encoding", "t:h"), b"listpack", "small hash")
    r.hset("t:h", mapping={"f%d" % i: i for i in range(600)})
    expect_eq(r.object("encoding", "t:h"), b"hashtable", "past hash-max-listpack-entries")
    expect_eq(r.hlen("t:h"), 602, "hlen")


@check("list", "keys")
def lists(port):
    r = client(port)
    expect_eq(r.rpush("t:l", *range(600)), 600, "rpush")
    expect_eq(r.lrange("t:l", 0, 2), [b"0", b"1", b"2"], "lrange")
    expect_eq(len(r.lrange("t:l", 0, -1)), 600, "lrange all")
    expect_eq(r.lindex("t:l", -1), b"599", "lindex")
    expect_eq(r.lpop("t:l", 2), [b"0", b"1"], "lpop count")
    expect_eq(r.type("t:l"), b"list", "type")


@check("set", "keys")
def sets_copy_and_unlink(port):
    r = client(port)
    expect_eq(r.sadd("t:s", *range(10)), 10, "sadd")
    expect_eq(r.object("encoding", "t:s"), b"intset", "integers")
    expect_eq(r.copy("t:s", "t:s2"), True, "copy")
    r.sadd("t:s2", "x")  # the copy changes alone
    expect_eq(r.object("encoding", "t:s2"), b"hashtable", "a non-integer member")
    expect_eq(r.scard("t:s"), 10, "the original kept its members")
    expect_eq(r.scard("t:s2"), 11, "the copy got one more")
    pipe = r.pipeline(transaction=False)
    for base in range(0, 1000000, 10000):
        pipe.sadd("t:big", *range(base, base + 10000))
    pipe.execute()
    expect_eq(r.scard("t:big"), 1000000, "a million members")
    start = time.monotonic()
    expect_eq(r.unlink("t:big"), 1, "unlink")
    print("  UNLINK of a 1M-member set answered in %.1f ms" % ((time.monotonic() - start) * 1e3))
    expect_eq(r.exists("t:big"), 0, "gone")


@check("zset", "keys")
def sorted_sets(port):
    r = client(port)
    expect_eq(r.zadd("t:z", {"a": 1, "b": 2.5, "c": 10}), 3, "zadd")
    expect_eq(r.zrange("t:z", 0, -1, withscores=True), [(b"a", 1.0), (b"b", 2.5), (b"c", 10.0)],
              "zrange withscores")
    expect_eq(r.zincrby("t:z", 5, "a"), 6.0, "zincrby")
    expect_eq(r.zrank("t:z", "a"), 1, "zrank")
    expect_eq(r.zrangebyscore("t:z", "(2.5", "+inf"), [b"a", b"c"], "zrangebyscore")
    expect_eq(r.zpopmin("t:z"), [(b"b", 2.5)], "zpopmin")


@check("list")
def blocking_pop_timeout_and_wakeup(port):
    r, other = client(port), client(port)
    start = time.monotonic()
    expect_eq(r.blpop("t:empty", timeout=0.3), None, "BLPOP timed out")
    waited = time.monotonic() - start
    expect(waited >= 0.25, "BLPOP waited for its timeout", waited)
    t = later(0.2, other.rpush, "t:q", "job")
    expect_eq(r.blpop(["t:none", "t:q"], timeout=5), (b"t:q", b"job"), "woken by RPUSH")
    t.join()
    expect_eq(r.exists("t:q"), 0, "the popped list is gone")


@check("list")
def blocked_clients_are_served_in_order(port):
    first, second, pusher = client(port), client(port), client(port)
    results = {}

    def wait(name, conn):
        results[name] = conn.brpop("t:order", timeout=5)

    t1 = threading.Thread(target=wait, args=("first", first))
    t1.start()
    time.sleep(0.2)
    t2 = threading.Thread(target=wait, args=("second", second))
    t2.start()
    time.sleep(0.2)
    expect_eq(pusher.info("clients")["blocked_clients"], 2, "INFO counts the waiters")
    pusher.lpush("t:order", "one")
    t1.join()
    expect_eq(results.get("first"), (b"t:order", b"one"), "the first to block got it")
    expect(t2.is_alive(), "the second still waits", results)
    pusher.lpush("t:order", "two")
    t2.join()
    expect_eq(results.get("second"), (b"t:order", b"two"), "then the second")


@check("list", "zset")
def blmove_and_bzpopmin(port):
    r, other = client(port), client(port)
    t = later(0.2, other.rpush, "t:src", "x")
    expect_eq(r.blmove("t:src", "t:dst", 5, "LEFT", "RIGHT"), b"x", "BLMOVE woken")
    t.join()
    expect_eq(r.lrange("t:dst", 0, -1), [b"x"], "moved")
    t = later(0.2, other.zadd, "t:zq", {"m": 3})
    expect_eq(r.bzpopmin("t:zq", timeout=5), (b"t:zq", b"m", 3.0), "BZPOPMIN woken")
    t.join()
    expect_eq(r.bzpopmax("t:zq", timeout=0.1), None, "BZPOPMAX timed out")


@check("list", "connection")
def pipeline_waits_behind_a_blocked_command(port):
    r, other = client(port), client(port)
    pipe = r.pipeline(transaction=False)
    pipe.blpop("t:pipe", timeout=5)
    pipe.ping()
    pipe.llen("t:pipe")
    t = later(0.3, other.rpush, "t:pipe", "a", "b")
    expect_eq(pipe.execute(), [(b"t:pipe", b"a"), True, 1], "replies in order after the wake-up")
    t.join()


@check("list", "connection")
def blocked_client_that_disconnects(port):
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(b"*3\r\n$5\r\nBLPOP\r\n$6\r\nt:gone\r\n$1\r\n0\r\n")
    time.sleep(0.2)
    s.close()
    time.sleep(0.2)
    r = client(port)
    expect_eq(r.rpush("t:gone", "kept"), 1, "push after the waiter left")
    expect_eq(r.lrange("t:gone", 0, -1), [b"kept"], "nobody took it")
    expect(r.ping(), "the server still answers")


@check("list")
def blocking_inside_multi_answers_at_once(port):
    r = client(port)
    pipe = r.pipeline(transaction=True)
    pipe.blpop("t:never", timeout=0)
    expect_eq(pipe.execute(), [None], "BLPOP in MULTI does not block")


if __name__ == "__main__":
    support.main_guard(checks.run)
