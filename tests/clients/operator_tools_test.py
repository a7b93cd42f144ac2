#!/usr/bin/python3
"""The operator's tools with real clients against a real plinth-server (the diagnostics and
connection plugins): MONITOR shows another client's commands in order, with its address and
quoting, and a script's as "lua"; SLOWLOG read by redis-py and redis-cli; LATENCY LATEST after
a slow script; CLIENT PAUSE WRITE during a write load holds every write while reads go on and
releases them in order after CLIENT UNPAUSE, losing none. --against-redis runs the same checks
against redis-server 7.0."""

import os
import subprocess
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


def client(port, **kw):
    return redis.Redis(host="127.0.0.1", port=port, socket_timeout=20, **kw)


def monitor_lines(conn, n):
    """The next n MONITOR lines from a support.RespConn in monitor mode."""
    lines = []
    while len(lines) < n:
        rep = conn.read()[1]
        expect(rep.kind == "+", "a MONITOR line is a status reply: %r" % (rep,))
        lines.append(rep.data.decode() if isinstance(rep.data, bytes) else rep.data)
    return lines


@check("diagnostics", "strings")
def monitor_shows_every_command_in_order(port):
    r = client(port)
    addr = r.client_info()["addr"]
    with support.RespConn(port) as mon:
        expect_eq(mon.call("MONITOR")[1].data, b"OK", "MONITOR")
        p = r.pipeline(transaction=False)
        for i in range(200):
            p.set("mon:%d" % i, "v%d" % i)
            p.get("mon:%d" % i)
        p.execute()
        r.set("mon:q", 'a "quoted"\nvalue')
        r.config_get("maxmemory")  # administrative: not shown
        r.incr("mon:n")
        lines = monitor_lines(mon, 402)
    want = []
    for i in range(200):
        want += ['"SET" "mon:%d" "v%d"' % (i, i), '"GET" "mon:%d"' % i]
    want += ['"SET" "mon:q" "a \\"quoted\\"\\nvalue"', '"INCRBY" "mon:n" "1"']
    for line, cmd in zip(lines, want):
        stamp, rest = line.split(" ", 1)
        expect(float(stamp) > time.time() - 60, "a unix time with microseconds: %r" % line)
        expect_eq(len(stamp.split(".")[1]), 6, "six digits of microseconds")
        expect_eq(rest, "[0 %s] %s" % (addr, cmd), "the monitor line")


@check("diagnostics", "strings", "scripting")
def monitor_shows_a_scripts_commands_as_lua(port):
    r = client(port)
    with support.RespConn(port) as mon:
        mon.call("MONITOR")
        r.eval("redis.call('set', KEYS[1], ARGV[1]); return 1", 1, "mon:lua", "x")
        lines = monitor_lines(mon, 2)
    # As in Redis: the script first, then the commands it ran.
    expect(lines[0].endswith('"EVAL" "redis.call(\'set\', KEYS[1], ARGV[1]); return 1" "1" '
                             '"mon:lua" "x"'), "the EVAL: %r" % lines[0])
    expect(lines[1].endswith('[0 lua] "set" "mon:lua" "x"'), "then its SET: %r" % lines[1])


@check("diagnostics", "strings")
def slowlog_with_redis_py_and_redis_cli(port):
    r = client(port)
    r.config_set("slowlog-log-slower-than", 0)
    try:
        r.slowlog_reset()
        r.client_setname("slowpoke")
        r.set("slow:k", "x" * 300)
        entries = r.slowlog_get(3)  # newest first: the SET, CLIENT SETNAME, SLOWLOG RESET
        expect_eq(len(entries), 3, "SLOWLOG GET 3")
        expect_eq(entries[0]["command"], b"SET slow:k " + b"x" * 128 + b"... (172 more bytes)",
                  "the SET, its value cut at 128 bytes")
        expect_eq(entries[1]["command"], b"CLIENT SETNAME slowpoke", "then CLIENT SETNAME")
        expect(entries[0]["id"] > entries[1]["id"] > entries[2]["id"], "newest first")
        expect(all(e["duration"] >= 0 for e in entries), "durations")
        raw = r.execute_command("SLOWLOG", "GET", "1")[0]
        expect_eq(raw[4].decode(), r.client_info()["addr"], "the client's address")
        expect_eq(raw[5], b"slowpoke", "the client's name")
        out = subprocess.run(["redis-cli", "-p", str(port), "SLOWLOG", "LEN"],
                             capture_output=True, text=True, timeout=10).stdout.strip()
        expect(int(out) >= 4, "redis-cli SLOWLOG LEN: %r" % out)
        expect_eq(r.slowlog_reset(), True, "SLOWLOG RESET")
        expect(r.slowlog_len() <= 1, "empty after RESET (but for RESET itself)")
    finally:
        r.config_set("slowlog-log-slower-than", 10000)


@check("diagnostics", "scripting")
def latency_latest_after_a_slow_script(port):
    r = client(port)
    r.config_set("latency-monitor-threshold", 5)
    try:
        r.execute_command("LATENCY", "RESET")
        r.eval("local t = redis.call('time'); local s = t[1] * 1000000 + t[2]; "
               "while true do local n = redis.call('time'); "
               "if n[1] * 1000000 + n[2] - s > 30000 then break end end return 1", 0)
        latest = r.execute_command("LATENCY", "LATEST")
        events = {e[0].decode() if isinstance(e[0], bytes) else e[0]: e for e in latest}
        expect("command" in events, "a 'command' spike: %r" % latest)
        expect(events["command"][2] >= 30, "at least 30 ms: %r" % latest)
        expect(abs(events["command"][1] - time.time()) < 60, "when: %r" % latest)
        hist = r.execute_command("LATENCY", "HISTORY", "command")
        expect(len(hist) >= 1 and hist[-1][1] >= 30, "HISTORY: %r" % hist)
    finally:
        r.config_set("latency-monitor-threshold", 0)


def _writer(port, name, stop, acked):
    c = client(port)
    i = 0
    while not stop.is_set():
        c.rpush("pause:" + name, i)
        acked[name] = i + 1
        i += 1


@check("strings", "list")
def client_pause_write_holds_writes_and_releases_them_in_order(port):
    r = client(port)
    stop, acked = threading.Event(), {}
    names = ["w%d" % i for i in range(4)]
    writers = [threading.Thread(target=_writer, args=(port, n, stop, acked), daemon=True)
               for n in names]
    for t in writers:
        t.start()
    try:
        time.sleep(0.3)
        expect(all(acked.get(n, 0) > 0 for n in names), "the writers run: %r" % acked)
        expect_eq(r.client_pause(30000, all=False), True, "CLIENT PAUSE 30000 WRITE")
        time.sleep(0.2)  # writes in flight at the pause finish or are held
        before = dict(acked)
        reads = 0
        deadline = time.monotonic() + 1.0
        while time.monotonic() < deadline:
            lens = [r.llen("pause:" + n) for n in names]
            reads += 1
        expect(reads > 50, "reads are served during the pause (%d)" % reads)
        expect_eq(dict(acked), before, "no write is acknowledged during the pause")
        expect_eq(lens, [before[n] for n in names], "and none reached the keyspace")
        expect_eq(r.execute_command("CLIENT", "UNPAUSE"), b"OK", "CLIENT UNPAUSE")
        time.sleep(0.3)
        expect(all(acked[n] > before[n] for n in names), "writes resume: %r" % acked)
    finally:
        stop.set()
        for t in writers:
            t.join(20)
    for n in names:
        got = [int(x) for x in r.lrange("pause:" + n, 0, -1)]
        expect_eq(got, list(range(acked[n])), "every acknowledged write of %s, in order" % n)


if __name__ == "__main__":
    support.main_guard(checks.run)
