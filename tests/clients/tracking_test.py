#!/usr/bin/python3
"""Client-side caching (CLIENT TRACKING) against a real plinth-server: a RESP3 connection that
read a key receives `>2 invalidate [key]` once another client (redis-py) writes it, its own
write's invalidation after the write's reply, a null on FLUSHALL and one on expiry; BCAST sends
the changed keys of its prefixes; REDIRECT reaches a RESP2 client subscribed to
__redis__:invalidate as a pub/sub message, and once that client is gone the tracking client
hears tracking-redir-broken. The installed redis-py (4.x) has no RESP3, so the tracking side
speaks raw RESP3. --against-redis runs the same checks against redis-server 7.0."""

import os
import socket
import sys
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


def invalidate(*keys):
    """The exact bytes of an invalidation push of keys (none: the null of a flush)."""
    head = b">2\r\n$10\r\ninvalidate\r\n"
    if not keys:
        return head + b"_\r\n"
    body = b"*%d\r\n" % len(keys)
    for k in keys:
        body += b"$%d\r\n%s\r\n" % (len(k), k.encode())
    return head + body


def tracker(port, *options):
    """A raw RESP3 connection with tracking on (options after ON)."""
    conn = support.RespConn(port)
    expect_eq(conn.call("HELLO", "3")[1].kind, "%", "HELLO 3")
    expect_eq(conn.call("CLIENT", "TRACKING", "ON", *options)[0], b"+OK\r\n", "CLIENT TRACKING ON")
    return conn


def nothing_more(conn, wait=0.3):
    """Expects no more bytes from conn within wait seconds."""
    conn.sock.settimeout(wait)
    try:
        got = conn.sock.recv(1 << 16)
        raise AssertionError("unexpected bytes: %s" % support.show(conn.buf + got))
    except socket.timeout:
        pass
    finally:
        conn.sock.settimeout(15)
    expect_eq(conn.buf, b"", "nothing buffered")


def writer(port):
    return redis.Redis(host="127.0.0.1", port=port, socket_timeout=20)


@check("strings", "server")
def a_reader_hears_another_clients_write_once(port):
    w = writer(port)
    w.set("ct:k", "1")
    with tracker(port) as a:
        expect_eq(a.call("GET", "ct:k")[0], b"$1\r\n1\r\n", "GET")
        expect_eq(a.call("MGET", "ct:m", "ct:n")[0], b"*2\r\n_\r\n_\r\n", "MGET")
        w.set("ct:k", "2")
        expect_eq(a.read()[0], invalidate("ct:k"), "the invalidation")
        w.set("ct:k", "3")  # not read again: no second message
        w.set("ct:other", "1")  # never read
        w.mset({"ct:n": "1", "ct:m": "2"})
        expect_eq(a.read()[0], invalidate("ct:n"), "MSET: one message per key")
        expect_eq(a.read()[0], invalidate("ct:m"), "the second key")
        nothing_more(a)


@check("strings", "server")
def the_writers_own_invalidation_follows_its_reply(port):
    with tracker(port) as a:
        a.call("GET", "ct:own")
        expect_eq(a.call("SET", "ct:own", "1")[0], b"+OK\r\n", "the reply first")
        expect_eq(a.read()[0], invalidate("ct:own"), "then the invalidation")
        a.call("GET", "ct:own")
        a.send_raw(support.encode(["MULTI"]) + support.encode(["SET", "ct:own", "2"]) +
                   support.encode(["GET", "ct:own"]) + support.encode(["EXEC"]))
        replies = [a.read()[0] for _ in range(5)]
        expect_eq(replies, [b"+OK\r\n", b"+QUEUED\r\n", b"+QUEUED\r\n", b"*2\r\n+OK\r\n$1\r\n2\r\n",
                            invalidate("ct:own")], "EXEC's whole reply, then the invalidation")
    with tracker(port, "NOLOOP") as b:
        b.call("GET", "ct:own")
        expect_eq(b.call("SET", "ct:own", "3")[0], b"+OK\r\n", "SET")
        nothing_more(b)


@check("strings", "server")
def flush_and_expiry_invalidate(port):
    w = writer(port)
    with tracker(port) as a:
        a.call("GET", "ct:f")
        w.flushall()
        expect_eq(a.read()[0], invalidate(), "FLUSHALL: a null")
        w.set("ct:x", "1", px=100)
        a.call("GET", "ct:x")
        a.sock.settimeout(5)  # the active expiry cycle deletes it within a few cron runs
        expect_eq(a.read()[0], invalidate("ct:x"), "expiry")


@check("strings", "server")
def bcast_sends_the_changed_keys_of_each_prefix(port):
    w = writer(port)
    with tracker(port, "BCAST", "PREFIX", "ct:ab", "PREFIX", "ct:b") as a:
        p = w.pipeline(transaction=True)
        for k in ("ct:abx", "ct:b1", "ct:zz", "ct:ab", "ct:abx"):
            p.set(k, "1")
        p.execute()
        expect_eq(a.read()[0], invalidate("ct:ab", "ct:abx"), "prefix ct:ab, keys sorted")
        expect_eq(a.read()[0], invalidate("ct:b1"), "prefix ct:b")
        raw = a.call("CLIENT", "TRACKINGINFO")[0]
        expect_eq(raw, b"%3\r\n$5\r\nflags\r\n~2\r\n$2\r\non\r\n$5\r\nbcast\r\n$8\r\nredirect\r\n"
                       b":0\r\n$8\r\nprefixes\r\n*2\r\n$5\r\nct:ab\r\n$4\r\nct:b\r\n",
                  "CLIENT TRACKINGINFO")
        nothing_more(a)


@check("strings", "server", "pubsub")
def redirect_to_a_resp2_subscriber_then_to_a_client_gone(port):
    w = writer(port)
    sub = support.RespConn(port)
    sub_id = int(sub.call("CLIENT", "ID")[1].data)
    sub.call("SUBSCRIBE", "__redis__:invalidate")
    r2 = writer(port)  # a RESP2 tracking client: redis-py
    expect_eq(r2.execute_command("CLIENT", "TRACKING", "ON", "REDIRECT", sub_id), b"OK", "REDIRECT")
    expect_eq(r2.execute_command("CLIENT", "GETREDIR"), sub_id, "CLIENT GETREDIR")
    r2.get("ct:r")
    w.set("ct:r", "1")
    expect_eq(sub.read()[0], b"*3\r\n$7\r\nmessage\r\n$20\r\n__redis__:invalidate\r\n*1\r\n$4\r\n"
                             b"ct:r\r\n", "the pub/sub message")
    with tracker(port, "REDIRECT", str(sub_id)) as a:
        a.call("GET", "ct:r")
        sub.close()
        time.sleep(0.2)  # the server notices the close
        w.set("ct:r", "2")
        expect_eq(a.read()[0], b">2\r\n$21\r\ntracking-redir-broken\r\n:%d\r\n" % sub_id,
                  "tracking-redir-broken")
        info = a.call("CLIENT", "TRACKINGINFO")[0]
        expect(b"broken_redirect" in info, "TRACKINGINFO shows it", info)


if __name__ == "__main__":
    support.main_guard(checks.run)
