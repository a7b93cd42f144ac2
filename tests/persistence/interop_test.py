"""Persistence interop with Debian's redis-server 7.0, with real processes and real files:
Plinth loads a dump.rdb that redis-server wrote (every type and encoding, TTLs, several
databases) and ends with the same keyspace; redis-server loads Plinth's dump.rdb and
redis-check-rdb accepts it; Plinth loads an appendonlydir that redis-server wrote (RDB base and
AOF base). Keyspaces are compared key by key with plain reads. Exits 77 when redis-server or
redis-py is missing."""

import argparse
import os
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import crash_support  # noqa: E402
import keyspace  # noqa: E402
from crash_support import SKIP, CrashServer  # noqa: E402

REDIS = "/usr/bin/redis-server"
CHECK_RDB = "/usr/bin/redis-check-rdb"


class Redis:
    """redis-server 7.0 in folder dir (its --dir) on a free port."""

    def __init__(self, folder, extra=()):
        self.dir = folder
        self.port = crash_support.free_port()
        self.log = open(os.path.join(folder, "redis.log"), "wb")
        self.proc = subprocess.Popen(
            [REDIS, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", folder,
             "--daemonize", "no", "--save", ""] + list(extra),
            stdout=self.log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        self.client = crash_support.redis.Redis(host="127.0.0.1", port=self.port,
                                                socket_timeout=10)
        deadline = time.monotonic() + 10
        while True:
            try:
                self.client.ping()
                return
            except (crash_support.redis.exceptions.ConnectionError,
                    crash_support.redis.exceptions.BusyLoadingError):
                if time.monotonic() > deadline or self.proc.poll() is not None:
                    raise RuntimeError("redis-server did not start")
                time.sleep(0.05)

    def shutdown(self, how="NOSAVE"):
        try:
            self.client.execute_command("SHUTDOWN", how)
        except crash_support.redis.exceptions.ConnectionError:
            pass
        self.proc.wait(30)
        self.log.close()


def same(a, b, what):
    if a != b:
        raise AssertionError("%s: keyspaces differ (%d vs %d keys)\n%s" %
                             (what, len(a), len(b), keyspace.diff(a, b)))


def redis_rdb_into_plinth(server, top):
    r = Redis(top)
    try:
        keyspace.fill(r.client)
        r.client.execute_command("SAVE")
        want = keyspace.dump(r.client)
    finally:
        r.shutdown()
    with CrashServer(server, args=["--save", ""]) as p:
        shutil.copy(os.path.join(top, "dump.rdb"), p.datadir)
        p.start()
        c = p.client()
        same(keyspace.dump(c), want, "redis 7.0 dump.rdb loaded by plinth")
        info = c.info("persistence")
        assert info["rdb_last_load_keys_loaded"] == len(want), info
        # The compact encodings came back as this server's own.
        for key, enc in (("db0:list:big", b"quicklist"), ("db0:set:intset", b"intset"),
                         ("db0:hash:bigvalue", b"hashtable"), ("db0:zset:small", b"listpack")):
            got = c.object("encoding", key)
            assert got == enc, (key, got)
        c.close()
    return "%d keys" % len(want)


def plinth_rdb_into_redis(server, top):
    with CrashServer(server, args=["--save", ""]) as p:
        p.start()
        c = p.client()
        keyspace.fill(c)
        want = keyspace.dump(c)
        assert c.execute_command("SAVE") in (True, b"OK")
        c.close()
        path = os.path.join(p.datadir, "dump.rdb")
        check = subprocess.run([CHECK_RDB, path], capture_output=True, text=True, timeout=60)
        assert check.returncode == 0 and "RDB looks OK" in check.stdout, check.stdout
        shutil.copy(path, top)
    r = Redis(top)
    try:
        same(keyspace.dump(r.client), want, "plinth dump.rdb loaded by redis 7.0")
    finally:
        r.shutdown()
    return "%d keys, redis-check-rdb: RDB looks OK" % len(want)


def redis_aof_into_plinth(server, top, preamble):
    r = Redis(top, ["--appendonly", "yes", "--appendfsync", "always",
                    "--aof-use-rdb-preamble", preamble])
    try:
        keyspace.fill(r.client)
        r.client.execute_command("BGREWRITEAOF")  # the keys so far go to the base
        deadline = time.monotonic() + 30
        while r.client.info("persistence")["aof_rewrite_in_progress"] or \
                r.client.info("persistence")["aof_rewrite_scheduled"]:
            assert time.monotonic() < deadline, "redis rewrite did not finish"
            time.sleep(0.05)
        # More effects after the rewrite land in the incr file: a transaction, a SELECT, a
        # delete, an expiry.
        r.client.execute_command("MULTI")
        r.client.execute_command("INCR", "after:counter")
        r.client.execute_command("LPUSH", "db0:list:small", "head")
        r.client.execute_command("EXEC")
        r.client.execute_command("SELECT", 3)
        r.client.execute_command("DEL", "db3:raw")
        r.client.execute_command("EXPIRE", "db3:embstr", "1000")
        r.client.execute_command("SELECT", 0)
        want = keyspace.dump(r.client)
    finally:
        r.shutdown("NOSAVE")
    aofdir = os.path.join(top, "appendonlydir")
    kinds = sorted(f.rsplit(".", 2)[-2] + "." + f.rsplit(".", 1)[-1] for f in os.listdir(aofdir)
                   if not f.endswith("manifest"))
    with CrashServer(server, args=["--save", "", "--appendonly", "yes"]) as p:
        shutil.copytree(aofdir, os.path.join(p.datadir, "appendonlydir"))
        p.start()
        c = p.client()
        same(keyspace.dump(c), want, "redis 7.0 appendonlydir loaded by plinth")
        c.close()
    return "%d keys from %s" % (len(want), ", ".join(kinds))


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--server", required=True)
    args = ap.parse_args()
    args.server = os.path.abspath(args.server)
    crash_support.require_redis_py()
    if not os.path.exists(REDIS) or not os.path.exists(CHECK_RDB):
        print("SKIP: redis-server 7.0 is missing (apt-get install redis-server)")
        return SKIP
    s = args.server
    return crash_support.run_checks([
        ("redis 7.0 dump.rdb -> plinth", lambda t: redis_rdb_into_plinth(s, t)),
        ("plinth dump.rdb -> redis 7.0 and redis-check-rdb", lambda t: plinth_rdb_into_redis(s, t)),
        ("redis 7.0 appendonlydir (RDB base) -> plinth",
         lambda t: redis_aof_into_plinth(s, t, "yes")),
        ("redis 7.0 appendonlydir (AOF base) -> plinth",
         lambda t: redis_aof_into_plinth(s, t, "no")),
    ])

if __name__ == "__main__":
    sys.exit(main())
