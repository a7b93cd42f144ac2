"""The rdb plugin's failure paths with a real plinth-server and real files. A key of the
nopersist fixture's type (no persisted form) makes every save fail:

- SHUTDOWN (and SIGTERM) with save points set answer/log Redis 7.0's errors and keep the server
  running with its data; SHUTDOWN NOSAVE and SHUTDOWN FORCE still exit; once the key is gone a
  SIGTERM saves and exits, and a restart finds the data.
- a failed BGSAVE turns writes into -MISCONF (stop-writes-on-bgsave-error, Redis 7.0's text)
  while reads keep working; the option and a good SAVE lift it.

Exits 77 when redis-py or the fixture is missing. Run with /usr/bin/python3."""

import argparse
import os
import signal
import sys
import time

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(_HERE, "..", "..", "clients"))
import support  # noqa: E402

try:
    import redis
except ImportError:
    redis = None

MISCONF = ("MISCONF Redis is configured to save RDB snapshots, but it's currently unable to "
           "persist to disk. Commands that may modify the data set are disabled, because this "
           "instance is configured to report errors during writes if RDB snapshotting fails "
           "(stop-writes-on-bgsave-error option). Please check the Redis logs for details about "
           "the RDB error.")


def start(args, extra=(), workdir=None):
    """plinth-server with the default plugins and the fixture, its folder workdir (a new one
    when None); the server and a redis-py client."""
    argv = [args.server] + support.plugin_args(args.server) + ["--plugin", args.nopersist]
    base = argv + ["--bind", "127.0.0.1", "--appendonly", "no"] + list(extra)
    srv = support._start("plinth", lambda port: (base + ["--port", str(port)], workdir))
    return srv, redis.Redis(host="127.0.0.1", port=srv.port, socket_timeout=10)


def error_of(fn):
    try:
        fn()
    except redis.exceptions.ResponseError as e:
        return str(e)
    raise AssertionError("no error")


def shutdown(c, *words):
    """SHUTDOWN words: one that works closes the connection without a reply."""
    try:
        c.execute_command("SHUTDOWN", *words)
    except redis.exceptions.ConnectionError:
        pass


def wait_exit(srv):
    srv.proc.wait(30)
    return srv.proc.returncode


def check_shutdown_aborts(args):
    workdir = None
    srv, c = start(args, ["--save", "3600 1"])
    try:
        workdir = srv.workdir
        c.set("a", "1")
        c.execute_command("NOPERSIST.SET", "bad")
        got = error_of(lambda: c.execute_command("SHUTDOWN"))
        assert got == "Errors trying to SHUTDOWN. Check logs.", got
        assert c.get("a") == b"1" and srv.alive()
        assert "Error trying to save the DB, can't exit." in srv.log(), srv.log()[-2000:]
        got = error_of(lambda: c.execute_command("SHUTDOWN", "SAVE"))
        assert got == "Errors trying to SHUTDOWN. Check logs.", got
        # SIGTERM: logged, not obeyed; the server goes on serving its data.
        srv.proc.send_signal(signal.SIGTERM)
        support.until("SIGTERM's refusal in the log",
              lambda: srv.log().count("Error trying to save the DB, can't exit.") >= 3)
        assert c.get("a") == b"1" and srv.alive()
        # Once the unsaveable key is gone, SIGTERM saves and exits; the data survives.
        c.delete("bad")
        srv.proc.send_signal(signal.SIGTERM)
        assert wait_exit(srv) == 0, srv.log()[-2000:]
        assert os.path.exists(os.path.join(workdir, "dump.rdb"))
        srv2, c2 = start(args, ["--save", ""], workdir=workdir)
        try:
            assert c2.get("a") == b"1"
        finally:
            shutdown(c2, "NOSAVE")
            wait_exit(srv2)
    finally:
        srv.stop()


def check_shutdown_nosave_and_force(args):
    for words in (["NOSAVE"], ["FORCE"], ["SAVE", "FORCE"]):
        srv, c = start(args, ["--save", "3600 1"])
        try:
            c.execute_command("NOPERSIST.SET", "bad")
            shutdown(c, *words)
            assert wait_exit(srv) == 0, (words, srv.log()[-2000:])
            if "FORCE" in words:
                assert "Error trying to save the DB. Exit anyway." in srv.log(), srv.log()
        finally:
            srv.stop()


def check_misconf(args):
    srv, c = start(args, ["--save", "3600 1"])
    try:
        c.set("a", "1")
        c.execute_command("NOPERSIST.SET", "bad")
        c.execute_command("BGSAVE")
        support.until("the BGSAVE failing", lambda: c.info("persistence")["rdb_bgsave_in_progress"] == 0
              and c.info("persistence")["rdb_last_bgsave_status"] == "err")
        assert error_of(lambda: c.set("b", "2")) == MISCONF
        assert error_of(lambda: c.delete("bad")) == MISCONF
        assert c.get("a") == b"1"  # reads keep working
        c.config_set("stop-writes-on-bgsave-error", "no")
        assert c.set("b", "2")
        c.config_set("stop-writes-on-bgsave-error", "yes")
        assert error_of(lambda: c.set("b", "3")) == MISCONF
        c.config_set("save", "")  # no save points: no refusal, as in Redis
        assert c.set("b", "3")
        c.config_set("save", "3600 1")
        assert error_of(lambda: c.set("b", "4")) == MISCONF
        # A good SAVE clears it.
        c.config_set("stop-writes-on-bgsave-error", "no")
        c.delete("bad")
        c.config_set("stop-writes-on-bgsave-error", "yes")
        assert error_of(lambda: c.set("b", "4")) == MISCONF
        assert c.execute_command("SAVE")
        assert c.info("persistence")["rdb_last_bgsave_status"] == "ok"
        assert c.set("b", "4")
    finally:
        err = srv.stop_cleanly()
        assert err is None, err


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
            os.path.join(support.plugin_dir(args.server), "rdb.so")):
        print("SKIP: the nopersist fixture or the rdb plugin is not built")
        return support.SKIP
    for check in (check_misconf, check_shutdown_aborts, check_shutdown_nosave_and_force):
        start_t = time.monotonic()
        check(args)
        print("PASS %s (%.1f s)" % (check.__name__, time.monotonic() - start_t), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
