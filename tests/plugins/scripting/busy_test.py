#!/usr/bin/python3
"""Busy scripts, with real processes and redis-py: a script in an endless loop makes other
clients (new connections too) get -BUSY once busy-reply-threshold has passed, SCRIPT KILL ends
it with Redis's error, a script that wrote is UNKILLABLE until SHUTDOWN NOSAVE, FUNCTION KILL
ends a busy function, and the server keeps serving after. The same scenario runs against
Debian's redis-server 7.0 and plinth-server; what each client saw must be identical.
Exit 0 pass, 1 fail, 77 when redis-server is missing."""

import argparse
import os
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "clients"))

import redis  # noqa: E402
import support  # noqa: E402

THRESHOLD_MS = "200"
LOOP = "while true do end"
LIB = "#!lua name=spin\nredis.register_function('spin', function() while true do end end)"


def outcome(fn):
    """What a call gave: its reply, or its error text."""
    try:
        return ("ok", fn())
    except redis.exceptions.RedisError as e:
        return ("error", str(e))


def in_background(fn):
    """Starts fn on a thread; the returned getter waits for its outcome."""
    box = {}
    t = threading.Thread(target=lambda: box.update(r=outcome(fn)), daemon=True)
    t.start()

    def result():
        t.join(30)
        return box.get("r", ("error", "no reply within 30 s"))
    return result


def wait_busy(port, seen):
    """Polls PING on new connections until the server says BUSY (at most 10 s)."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        r = outcome(lambda: redis.Redis(port=port, socket_timeout=2).ping())
        if r[0] == "error" and "BUSY" in r[1]:
            seen.append(r)
            return True
        time.sleep(0.05)
    seen.append(("error", "never busy"))
    return False


def scenario(port):
    """Runs the scenario against the server on port; returns what the clients saw, in order."""
    seen = []
    other = redis.Redis(port=port, socket_timeout=10)
    other.set("k", "v")
    runner = redis.Redis(port=port, socket_timeout=30)
    # 1. An endless read-only script: -BUSY for others, SCRIPT KILL ends it.
    done = in_background(lambda: runner.eval(LOOP, 0))
    if wait_busy(port, seen):
        seen.append(outcome(lambda: other.get("k")))
        seen.append(outcome(lambda: other.execute_command("FUNCTION", "KILL")))
        seen.append(outcome(lambda: other.execute_command("SCRIPT", "KILL")))
    seen.append(done())
    seen.append(outcome(lambda: other.get("k")))
    seen.append(outcome(lambda: other.execute_command("SCRIPT", "KILL")))
    # 2. A busy function: FUNCTION KILL ends it.
    seen.append(outcome(lambda: other.execute_command("FUNCTION", "LOAD", LIB)))
    done = in_background(lambda: runner.execute_command("FCALL", "spin", 0))
    if wait_busy(port, seen):
        seen.append(outcome(lambda: other.execute_command("SCRIPT", "KILL")))
        seen.append(outcome(lambda: other.execute_command("FUNCTION", "KILL")))
    seen.append(done())
    # 3. A script that wrote cannot be killed; SHUTDOWN NOSAVE ends it and the server.
    done = in_background(lambda: runner.eval("redis.call('set','w','1') " + LOOP, 0))
    if wait_busy(port, seen):
        seen.append(outcome(lambda: other.execute_command("SCRIPT", "KILL")))
        seen.append(outcome(lambda: other.execute_command("SHUTDOWN", "NOSAVE")))
    done()  # the script's client sees its connection end (Redis) or the kill error (Plinth)
    return seen


def run(name, srv):
    try:
        seen = scenario(srv.port)
        deadline = time.monotonic() + 10
        while srv.alive() and time.monotonic() < deadline:
            time.sleep(0.05)
        seen.append(("exited", not srv.alive()))
        return seen
    finally:
        srv.stop()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--server", required=True)
    args = ap.parse_args()
    if not os.path.exists("/usr/bin/redis-server"):
        return support.SKIP
    opts = ("--busy-reply-threshold", THRESHOLD_MS)
    want = run("redis", support.start_redis(extra=opts))
    got = run("plinth", support.start_plinth(args.server, extra=opts))
    for i, (w, g) in enumerate(zip(want, got)):
        print("%-3d %s %r" % (i, "==" if w == g else "!=", g if w == g else (w, g)))
    if want != got:
        print("FAIL: redis-server saw %d steps, plinth-server %d, or they differ" %
              (len(want), len(got)))
        return 1
    print("PASS: %d steps identical" % len(got))
    return 0


if __name__ == "__main__":
    sys.exit(main())
