"""A failing AOF rewrite with a real plinth-server: a key of the nopersist fixture's type (no
persisted form) makes every rewrite fail. The failure is logged with its reason, shown in INFO
persistence (aof_last_bgrewrite_status:err, aof_last_bgrewrite_error), and the automatic retries
back off (1 s doubling) instead of forking every cron tick; BGREWRITEAOF is not held back, and a
rewrite that works clears it all. Exits 77 when redis-py or the fixture is missing.
Run with /usr/bin/python3."""

import argparse
import os
import sys
import time

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(_HERE, "..", "..", "clients"))
import support  # noqa: E402

try:
    import redis
except ImportError:
    redis = None


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--server", required=True)
    ap.add_argument("--nopersist", required=True)
    args = ap.parse_args()
    args.server, args.nopersist = os.path.abspath(args.server), os.path.abspath(args.nopersist)
    if redis is None:
        print("SKIP: redis-py is missing")
        return support.SKIP
    if not os.path.exists(args.nopersist) or not os.path.exists(
            os.path.join(support.plugin_dir(args.server), "aof.so")):
        print("SKIP: the nopersist fixture or the aof plugin is not built")
        return support.SKIP
    base = ([args.server] + support.plugin_args(args.server) +
            ["--plugin", args.nopersist, "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no"])
    srv = support._start("plinth", lambda port: (base + ["--port", str(port)], None))
    try:
        c = redis.Redis(host="127.0.0.1", port=srv.port, socket_timeout=10)
        c.set("a", "1")
        c.execute_command("NOPERSIST.SET", "bad")
        c.config_set("appendonly", "yes")  # its first rewrite fails, and so would every retry
        info = support.until("the rewrite failing", lambda: (lambda i: i if
                     i["aof_last_bgrewrite_status"] == "err" else None)(c.info("persistence")))
        assert "'bad'" in str(info.get("aof_last_bgrewrite_error")), info
        first = time.monotonic()
        support.until("the reason in the log",
              lambda: "Background AOF rewrite terminated with error: key 'bad'" in srv.log())
        # Retries 1 s, then 2 s after the failure: at most 3 attempts in the first 2.5 s (the
        # old code forked every 100 ms tick: about 25).
        time.sleep(max(0.0, 2.5 - (time.monotonic() - first)))
        failures = c.info("persistence")["aof_rewrites_consecutive_failures"]
        assert 1 <= failures <= 3, (failures, srv.log()[-3000:])
        assert "the next automatic rewrite waits" in srv.log()
        assert c.get("a") == b"1"
        # Fixed: BGREWRITEAOF runs at once, whatever the backoff, and clears the failure.
        c.delete("bad")
        c.execute_command("BGREWRITEAOF")
        info = support.until("a rewrite that works", lambda: (lambda i: i if
                     i["aof_last_bgrewrite_status"] == "ok" and
                     i["aof_rewrite_in_progress"] == 0 else None)(c.info("persistence")))
        assert info["aof_rewrites_consecutive_failures"] == 0, info
        assert info.get("aof_last_bgrewrite_error", "") in ("", None), info
    finally:
        err = srv.stop_cleanly()
    assert err is None, err
    print("PASS rewrite_failure")
    return 0


if __name__ == "__main__":
    sys.exit(main())
