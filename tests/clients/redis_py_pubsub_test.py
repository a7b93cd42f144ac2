#!/usr/bin/python3
"""redis-py (Debian's python3-redis) pub/sub against a real plinth-server with the pubsub
plugin: a listener thread (PubSub.run_in_thread) receiving in order, PSUBSCRIBE and pmessage,
PUBSUB introspection, keyspace notifications heard by a redis-py subscriber, the RESP2
subscriber-mode error, binary payloads, and subscribers killed mid-stream while the others keep
receiving. --against-redis runs the same checks against redis-server 7.0."""

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

# The server may not load pubsub by default: ask for it unless support.py's plugin list
# already does (optional, so a server whose defaults include it does not fail on the repeat).
_start_plinth = support.start_plinth


def _start_with_pubsub(server_path, extra=()):
    more = [] if "pubsub" in support.plugin_args(server_path) else ["--plugin-optional", "pubsub"]
    return _start_plinth(server_path, more + list(extra))


support.start_plinth = _start_with_pubsub


def client(port, **kw):
    return redis.Redis(host="127.0.0.1", port=port, socket_timeout=20, **kw)


def wait_for(pred, what, timeout=10.0):
    """Polls pred() until it is true; AssertionError naming what after timeout seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if pred():
            return
        time.sleep(0.01)
    raise AssertionError("timed out waiting for " + what)


def next_message(p, timeout=5.0):
    """The next message (confirmations included) a PubSub receives, or AssertionError."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        m = p.get_message(timeout=0.1)
        if m is not None:
            return m
    raise AssertionError("no pub/sub message within %.0f s" % timeout)


def wait_receivers(r, channel, n):
    """Waits until PUBSUB NUMSUB says channel has n subscribers."""
    wait_for(lambda: r.pubsub_numsub(channel) == [(channel.encode(), n)],
             "%d subscribers of %s" % (n, channel))


@check("pubsub")
def listener_thread_receives_in_order(port):
    r = client(port)
    p = r.pubsub()
    got = []
    p.subscribe(**{"py:ch": lambda m: got.append(m["data"])})
    worker = p.run_in_thread(sleep_time=0.01, daemon=True)
    try:
        wait_receivers(r, "py:ch", 1)
        for i in range(200):
            expect_eq(r.publish("py:ch", "m%d" % i), 1, "publish receivers")
        wait_for(lambda: len(got) == 200, "200 messages")
        expect_eq(got, [b"m%d" % i for i in range(200)], "messages in publish order")
        expect_eq(r.publish("py:nobody", "x"), 0, "publish without subscribers")
    finally:
        worker.stop()
        worker.join(5)
        p.close()


@check("pubsub")
def subscribe_confirmations_and_unsubscribe(port):
    r = client(port)
    p = r.pubsub()
    p.subscribe("py:a", "py:b")
    first, second = next_message(p), next_message(p)
    expect_eq((first["type"], first["channel"], first["data"]), ("subscribe", b"py:a", 1),
              "first confirmation")
    expect_eq((second["type"], second["channel"], second["data"]), ("subscribe", b"py:b", 2),
              "second confirmation")
    p.psubscribe("py:p*")
    expect_eq(next_message(p)["data"], 3, "patterns count with channels")
    p.unsubscribe()
    counts = sorted([next_message(p)["data"], next_message(p)["data"]])
    expect_eq(counts, [1, 2], "unsubscribe all confirms each channel")
    p.punsubscribe()
    last = next_message(p)
    expect_eq((last["type"], last["data"]), ("punsubscribe", 0), "last confirmation")
    expect_eq(p.subscribed, False, "redis-py sees the client leave subscriber mode")
    p.close()


@check("pubsub")
def psubscribe_and_pmessage(port):
    r = client(port)
    p = r.pubsub(ignore_subscribe_messages=True)
    p.psubscribe("py:news.*")
    p.subscribe("py:news.eu")
    wait_for(lambda: r.pubsub_numpat() == 1, "one pattern")
    wait_receivers(r, "py:news.eu", 1)
    expect_eq(r.publish("py:news.eu", "hello"), 2, "channel and pattern both count")
    expect_eq(r.publish("py:news.us", "hi"), 1, "only the pattern matches")
    seen = []
    while len(seen) < 3:
        m = next_message(p)
        seen.append((m["type"], m["pattern"], m["channel"], m["data"]))
    expect_eq(sorted(seen[:2]), sorted([("message", None, b"py:news.eu", b"hello"),
                                        ("pmessage", b"py:news.*", b"py:news.eu", b"hello")]),
              "both deliveries of the first message")
    expect_eq(seen[2], ("pmessage", b"py:news.*", b"py:news.us", b"hi"), "pmessage")
    expect(b"py:news.eu" in r.pubsub_channels("py:news*"), "pubsub channels",
           r.pubsub_channels())
    p.close()


@check("pubsub")
def binary_payloads(port):
    r = client(port)
    p = r.pubsub(ignore_subscribe_messages=True)
    channel = b"py:bin\x00\xff"
    payload = b"\x00\r\n$5\r\n*\xfe" * 1000
    p.subscribe(channel)
    wait_for(lambda: r.pubsub_numsub(channel) == [(channel, 1)], "binary channel subscriber")
    expect_eq(r.publish(channel, payload), 1, "publish binary")
    m = next_message(p)
    expect_eq((m["channel"], m["data"]), (channel, payload), "binary message intact")
    p.close()


@check("pubsub")
def subscriber_mode_allows_only_subscriber_commands(port):
    with support.RespConn(port) as c:
        _, rep = c.call("SUBSCRIBE", "py:mode")
        expect_eq([x.data for x in rep.data], [b"subscribe", b"py:mode", b"1"], "confirmation")
        raw, _ = c.call("DBSIZE")
        expect_eq(raw, b"-ERR Can't execute 'dbsize': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / "
                  b"PING / QUIT / RESET are allowed in this context\r\n", "subscriber mode error")
        raw, _ = c.call("PING")
        expect_eq(raw, b"*2\r\n$4\r\npong\r\n$0\r\n\r\n", "PING in subscriber mode")
        raw, _ = c.call("UNSUBSCRIBE")
        expect_eq(raw, b"*3\r\n$11\r\nunsubscribe\r\n$7\r\npy:mode\r\n:0\r\n", "unsubscribe")
        raw, _ = c.call("UNSUBSCRIBE")
        expect_eq(raw, b"*3\r\n$11\r\nunsubscribe\r\n$-1\r\n:0\r\n", "unsubscribe with none")
        raw, _ = c.call("DBSIZE")
        expect(raw.startswith(b":"), "normal commands again", raw)


@check("pubsub", "keys")
def keyspace_notifications(port):
    r = client(port)
    before = r.config_get("notify-keyspace-events")["notify-keyspace-events"]
    r.config_set("notify-keyspace-events", "KEgx")
    p = r.pubsub(ignore_subscribe_messages=True)
    try:
        p.psubscribe("__keyspace@0__:py:ks*")
        for event in ("del", "expire", "persist", "rename_to", "expired"):
            p.subscribe("__keyevent@0__:" + event)
        wait_for(lambda: r.pubsub_numpat() >= 1, "keyspace pattern")
        r.set("py:ks1", "v")
        r.expire("py:ks1", 100)
        r.persist("py:ks1")
        r.rename("py:ks1", "py:ks2")
        r.delete("py:ks2")
        r.set("py:ks3", "v")
        r.pexpire("py:ks3", 30)  # the server's expiry raises "expired"
        want = {("__keyspace@0__:py:ks1", "expire"), ("__keyevent@0__:expire", "py:ks1"),
                ("__keyspace@0__:py:ks1", "persist"), ("__keyevent@0__:persist", "py:ks1"),
                ("__keyspace@0__:py:ks1", "rename_from"),
                ("__keyspace@0__:py:ks2", "rename_to"), ("__keyevent@0__:rename_to", "py:ks2"),
                ("__keyspace@0__:py:ks2", "del"), ("__keyevent@0__:del", "py:ks2"),
                ("__keyspace@0__:py:ks3", "expire"),
                ("__keyspace@0__:py:ks3", "expired"), ("__keyevent@0__:expired", "py:ks3")}
        got = set()
        deadline = time.monotonic() + 10
        while not want <= got and time.monotonic() < deadline:
            m = p.get_message(timeout=0.1)
            if m is not None:
                got.add((m["channel"].decode(), m["data"].decode()))
        expect(want <= got, "keyspace notifications", sorted(want - got))
        r.config_set("notify-keyspace-events", "")
        r.set("py:ks4", "v")
        r.delete("py:ks4")
        expect_eq(p.get_message(timeout=0.3), None, "no notification once disabled")
    finally:
        r.config_set("notify-keyspace-events", before)
        p.close()


@check("pubsub")
def refuses_unknown_notify_letters(port):
    r = client(port)
    try:
        r.config_set("notify-keyspace-events", "KEq")
        raise AssertionError("an unknown letter was accepted")
    except redis.ResponseError as e:
        expect("Invalid event class character" in str(e), "error text", str(e))


def _publisher(port, channel, stop, sent):
    """Publishes "0", "1", ... on channel until stop is set; counts into sent[0]."""
    r = client(port)
    while not stop.is_set():
        r.publish(channel, str(sent[0]))
        sent[0] += 1
    r.close()


@check("pubsub", "connection")
def subscriber_killed_mid_stream(port):
    r = client(port)
    channel = "py:stream"
    keeper = r.pubsub(ignore_subscribe_messages=True)
    keeper.subscribe(channel)
    victims = [support.RespConn(port) for _ in range(2)]
    _, rep = victims[1].call("CLIENT", "ID")
    victim_id = int(rep.data)
    for v in victims:
        v.call("SUBSCRIBE", channel)
    wait_receivers(r, channel, 3)
    stop, sent = threading.Event(), [0]
    pub = threading.Thread(target=_publisher, args=(port, channel, stop, sent), daemon=True)
    pub.start()
    try:
        received = []
        while len(received) < 500:
            received.append(int(next_message(keeper)["data"]))
        # One victim vanishes without a word (its unread messages pile up until the server
        # notices), the other is killed by the server.
        victims[0].sock.shutdown(socket.SHUT_RDWR)
        victims[0].close()
        expect_eq(r.client_kill_filter(_id=victim_id), 1, "client kill id")
        wait_receivers(r, channel, 1)
        while len(received) < 3000:
            received.append(int(next_message(keeper)["data"]))
    finally:
        stop.set()
        pub.join(10)
        for v in victims:
            v.close()
    expect_eq(received, list(range(received[0], received[0] + len(received))),
              "the surviving subscriber missed nothing and kept the order")
    expect_eq(r.publish(channel, "last"), 1, "only the survivor is left")
    keeper.close()


if __name__ == "__main__":
    support.main_guard(checks.run)
