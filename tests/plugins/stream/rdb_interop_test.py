#!/usr/bin/python3
"""Stream RDB interop with Debian's redis-server 7.0, with real processes: Plinth saves streams
(nodes, deletions, consumer groups, PELs) that redis-check-rdb accepts and redis-server loads
under sanitize-dump-payload yes with the same XINFO STREAM FULL; and Plinth loads what
redis-server saves. Exit 0 pass, 1 fail, 77 when redis-server or redis-check-rdb is missing."""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "clients"))

import support  # noqa: E402

REDIS = "/usr/bin/redis-server"
CHECK = "/usr/bin/redis-check-rdb"


def plinth_args(server):
    """--plugin stream unless the server loads it by default already."""
    helptext = subprocess.run([server, "--help"], capture_output=True, text=True).stdout
    defaults = ""
    if "Default plugins" in helptext:
        defaults = helptext.split("Default plugins")[1].split("\n")[1]
    return [] if "stream" in defaults.split() else ["--plugin", "stream"]


def fill(conn):
    conn.call("CONFIG", "SET", "stream-node-max-entries", "3")
    for i in range(1, 12):
        conn.call("XADD", "s", "%d-1" % i, "f", str(i), "g", "text-%d" % i)
    conn.call("XDEL", "s", "2-1", "7-1")
    conn.call("XGROUP", "CREATE", "s", "g", "0")
    conn.call("XREADGROUP", "GROUP", "g", "alice", "COUNT", "3", "STREAMS", "s", ">")
    conn.call("XGROUP", "CREATECONSUMER", "s", "g", "bob")
    conn.call("XGROUP", "CREATE", "s", "g2", "$", "ENTRIESREAD", "11")
    conn.call("XADD", "empty", "1-1", "f", "v")
    conn.call("XDEL", "empty", "1-1")


def snapshot(conn):
    out = []
    for key in ("s", "empty"):
        out.append(conn.call("XINFO", "STREAM", key, "FULL", "COUNT", "0")[0])
        out.append(conn.call("XRANGE", key, "-", "+")[0])
        out.append(conn.call("XPENDING", key, "g")[0] if key == "s" else b"")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--server", required=True)
    args = ap.parse_args()
    args.server = os.path.abspath(args.server)
    if not (os.path.exists(REDIS) and os.path.exists(CHECK)):
        print("SKIP: redis-server or redis-check-rdb missing")
        return 77
    extra = plinth_args(args.server)
    work = tempfile.mkdtemp(prefix="stream-rdb-")
    failures = []
    try:
        # Plinth writes, Redis reads.
        p = support.start_plinth(args.server, extra + ["--dir", work, "--dbfilename", "p.rdb",
                                                       "--appendonly", "no"])
        conn = support.RespConn(p.port)
        fill(conn)
        want = snapshot(conn)
        conn.call("SAVE")
        conn.close()
        p.stop()
        chk = subprocess.run([CHECK, os.path.join(work, "p.rdb")], capture_output=True, text=True)
        if "RDB looks OK" not in chk.stdout:
            failures.append("redis-check-rdb refused Plinth's file: " + chk.stdout[-500:])
        r = support.start_redis(REDIS, ["--dir", work, "--dbfilename", "p.rdb",
                                        "--sanitize-dump-payload", "yes"])
        conn = support.RespConn(r.port)
        if snapshot(conn) != want:
            failures.append("redis-server's view of Plinth's file differs")
        # Redis writes (its own file, from what it loaded plus more), Plinth reads.
        conn.call("XADD", "s", "20-1", "new", "entry")
        conn.call("XREADGROUP", "GROUP", "g2", "carol", "STREAMS", "s", ">")
        want = snapshot(conn)
        conn.call("SAVE")
        conn.close()
        r.stop()
        p = support.start_plinth(args.server, extra + ["--dir", work, "--dbfilename", "p.rdb",
                                                       "--appendonly", "no"])
        conn = support.RespConn(p.port)
        if snapshot(conn) != want:
            failures.append("Plinth's view of redis-server's file differs")
        conn.close()
        p.stop()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    for f in failures:
        print("FAIL:", f)
    print("stream rdb interop:", "FAIL" if failures else "PASS")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
