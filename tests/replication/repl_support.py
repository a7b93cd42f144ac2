"""Helpers for the replication tests: the server under test (plinth-server with its replication
plugin, or Debian's redis-server) started as a primary or a replica, waits on replication links
and offsets, redis-sentinel and nutcracker children that die with the test, whole-keyspace
snapshots with TTLs, and a logging TCP proxy that shows what a tool sends to a server.
/usr/bin/python3 with Debian's python3-redis. Test thread only, except TraceProxy's threads."""

import argparse
import os
import socket
import subprocess
import sys
import threading
import time

_TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(_TESTS, "clients"))
sys.path.insert(0, os.path.join(_TESTS, "persistence"))
import keyspace  # noqa: E402
import support  # noqa: E402
from support import SKIP, free_port  # noqa: E402,F401

try:
    import redis
    import redis.sentinel  # noqa: F401
except ImportError:  # require() says so and skips
    redis = None

REDIS_SERVER = "/usr/bin/redis-server"
REDIS_SENTINEL = "/usr/bin/redis-sentinel"
NUTCRACKER = "/usr/sbin/nutcracker"
HOST = "127.0.0.1"


def parse_args(description, add=None):
    """The scripts' command line: --server PATH (plinth-server or a redis-server), plus what
    add(parser) declares."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--server", required=True,
                    help="the server under test: plinth-server, or /usr/bin/redis-server")
    if add:
        add(ap)
    args = ap.parse_args()
    args.server = os.path.abspath(args.server)
    return args


def is_redis(server_path):
    """True for a Redis or Valkey binary (started with its own options), False for Plinth."""
    name = os.path.basename(server_path)
    return name.startswith("redis-server") or name.startswith("valkey-server")


def _plinth_loaded_plugins(server_path, args):
    """The plugin names `plinth-server ARGS --help` lists as loaded."""
    out = subprocess.run([server_path] + args + ["--help"], capture_output=True, text=True,
                         timeout=30, stdin=subprocess.DEVNULL)
    names, inside = set(), False
    for line in out.stdout.splitlines():
        if line.startswith("Plugins loaded"):
            inside = True
        elif inside and not line.strip():
            break
        elif inside:
            names.add(line.split()[0])
    return names


def plinth_args(server_path):
    """plinth-server arguments loading the built default plugins plus the replication plugin
    (when it is not a default one yet), persistence off. None when replication is not built."""
    args = support.plugin_args(server_path)
    if "replication" not in _plinth_loaded_plugins(server_path, args):
        if not os.path.exists(os.path.join(support.plugin_dir(server_path), "replication.so")):
            return None
        args += ["--plugin", "replication"]
    return args + list(support.PERSISTENCE_OFF)


def require(server_path, tools=()):
    """Exits SKIP (77) with a message when redis-py, one of tools, the server binary, or (for
    Plinth) its replication plugin is missing."""
    if redis is None:
        print("SKIP: redis-py is missing (apt-get install python3-redis; use /usr/bin/python3)")
        sys.exit(SKIP)
    for tool, package in tools:
        if not os.access(tool, os.X_OK):
            print("SKIP: %s is missing (apt-get install %s)" % (tool, package))
            sys.exit(SKIP)
    if not os.access(server_path, os.X_OK):
        print("SKIP: %s is not built" % server_path)
        sys.exit(SKIP)
    if not is_redis(server_path) and plinth_args(server_path) is None:
        print("SKIP: the replication plugin is not built beside %s" % server_path)
        sys.exit(SKIP)


def start(server_path, extra=(), name=None):
    """Starts the server under test (persistence off, 127.0.0.1, a free port, its own folder)
    with extra arguments; a support.Server that dies with the test. Replicas take
    extra=replica_of(port)."""
    if is_redis(server_path):
        srv = support.start_redis(server_path, extra)
    else:
        srv = support.start_plinth(server_path, plinth_args(server_path) + list(extra))
    if name:
        srv.name = name
    return srv


def start_reference(extra=()):
    """Starts Debian's redis-server 7.0 the same way."""
    return support.start_redis(REDIS_SERVER, extra)


def replica_of(port):
    """Start-up arguments making a server a replica of 127.0.0.1:port. One value "host port",
    the form a config file line has: redis-server takes it, and so must Plinth."""
    return ["--replicaof", "%s %d" % (HOST, port)]


def client(port, **kw):
    """A redis-py client of 127.0.0.1:port with a 10 s socket timeout."""
    kw.setdefault("socket_timeout", 10)
    return redis.Redis(host=HOST, port=port, **kw)


def _until(what, fn, timeout, step=0.05):
    """Polls fn() until it returns a true value, which it returns; AssertionError after
    timeout seconds naming what and the last value."""
    deadline = time.monotonic() + timeout
    last = None
    while True:
        try:
            last = fn()
            if last:
                return last
        except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError,
                redis.exceptions.BusyLoadingError) as e:
            last = e
        if time.monotonic() > deadline:
            raise AssertionError("%s: not within %.0f s (last: %r)" % (what, timeout, last))
        time.sleep(step)


def wait_link_up(replica, timeout=30):
    """Waits until replica's INFO replication says master_link_status:up."""
    _until("replication link up", lambda: replica.info("replication").get(
        "master_link_status") == "up", timeout)


def wait_caught_up(primary, replica, timeout=60):
    """Waits until replica has processed the primary's stream up to the primary's
    master_repl_offset as read now. Returns that offset."""
    want = primary.info("replication")["master_repl_offset"]

    def done():
        info = replica.info("replication")
        return info.get("master_link_status") == "up" and \
            info.get("slave_repl_offset", -1) >= want
    _until("replica offset reaching %d" % want, done, timeout)
    return want


def snapshot(client_, db_count=16):
    """The whole keyspace with TTLs: (keyspace.dump(client_), {(db, key): expiry}), where
    expiry is -1 (no TTL), -2 (gone meanwhile) or the expiry time in ms since the epoch (what
    PTTL said, read in one pipeline, plus the clock then): snapshots taken seconds apart
    compare."""
    values = keyspace.dump(client_, db_count)
    expiries = {}
    by_db = {}
    for db, key in values:
        by_db.setdefault(db, []).append(key)
    for db, keys in by_db.items():
        client_.execute_command("SELECT", db)
        pipe = client_.pipeline(transaction=False)
        for key in keys:
            pipe.pttl(key)
        ttls = pipe.execute()
        now_ms = time.time() * 1000
        for key, ttl in zip(keys, ttls):
            expiries[(db, key)] = ttl if ttl < 0 else int(now_ms + ttl)
    client_.execute_command("SELECT", 0)
    return values, expiries


def compare(want, got, what, ttl_slack_ms=2000):
    """Raises AssertionError unless two snapshots hold the same keys with the same types and
    values, the same keys without a TTL (PTTL -1 exactly), and expiry times within
    ttl_slack_ms."""
    (wv, wt), (gv, gt) = want, got
    if wv != gv:
        raise AssertionError("%s: keyspaces differ (%d vs %d keys)\n%s" %
                             (what, len(wv), len(gv), keyspace.diff(wv, gv)))
    bad = []
    for k, a in wt.items():
        b = gt.get(k)
        if (a == -1) != (b == -1) or abs(a - b) > ttl_slack_ms:
            bad.append("%r: expiry %r vs %r" % (k, a, b))
    if bad:
        raise AssertionError("%s: %d TTLs differ, first: %s" % (what, len(bad), bad[:5]))


class TraceProxy:
    """A TCP proxy 127.0.0.1:port -> 127.0.0.1:backend that records each connection's
    commands (client to server) as parsed RESP. backend may be set after construction, before
    the first connection. Connections end when either side closes. stop() closes the
    listener."""

    def __init__(self, backend=None):
        self.backend = backend
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind((HOST, 0))
        self.sock.listen(64)
        self.port = self.sock.getsockname()[1]
        self.lock = threading.Lock()
        self.conns = []  # one list of commands (tuples of bytes) per accepted connection
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                c, _ = self.sock.accept()
            except OSError:
                return
            try:
                s = socket.create_connection((HOST, self.backend), timeout=5)
                s.settimeout(None)
            except OSError:
                c.close()
                continue
            log = []
            with self.lock:
                self.conns.append(log)
            threading.Thread(target=self._pump, args=(c, s, log), daemon=True).start()
            threading.Thread(target=self._pump, args=(s, c, None), daemon=True).start()

    def _pump(self, src, dst, log):
        buf = b""
        try:
            while True:
                data = src.recv(65536)
                if not data:
                    break
                dst.sendall(data)
                if log is not None:
                    buf += data
                    buf = self._commands(buf, log)
        except OSError:
            pass
        for s in (src, dst):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            s.close()

    def _commands(self, buf, log):
        pos = 0
        while pos < len(buf):
            if buf[pos:pos + 1] != b"*":  # an inline command, or a replica's RDB payload
                end = buf.find(b"\r\n", pos)
                if end < 0 or end - pos > 1024:
                    return b"" if end < 0 and len(buf) > 1 << 20 else buf[pos:]
                with self.lock:
                    log.append(tuple(buf[pos:end].split()))
                pos = end + 2
                continue
            try:
                reply, end = support.parse(buf, pos)
            except (support.Incomplete, ValueError):
                return buf[pos:]
            with self.lock:
                log.append(tuple(item.data for item in reply.data or ()))
            pos = end
        return b""

    def commands(self):
        """A copy of every connection's commands so far."""
        with self.lock:
            return [list(c) for c in self.conns]

    def stop(self):
        self.sock.close()


def command_name(cmd):
    """'CLIENT SETNAME', 'INFO', 'CONFIG REWRITE'...: the name, with the subcommand for the
    container commands."""
    if not cmd:
        return "(empty)"
    name = cmd[0].decode("latin-1").upper()
    if name in ("CLIENT", "CONFIG", "SENTINEL", "SCRIPT", "COMMAND", "CLUSTER", "OBJECT",
                "REPLCONF", "PUBSUB") and len(cmd) > 1:
        name += " " + cmd[1].decode("latin-1").upper()
    return name
