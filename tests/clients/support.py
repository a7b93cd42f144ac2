"""Shared helpers for the client and differential tests: free loopback ports, starting
plinth-server and redis-server as child processes that die with the test, and a raw RESP client
that returns every reply as its exact bytes plus a parsed form. Python 3 standard library only."""

import ctypes
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

DEFAULT_PLUGINS = ["resp", "tcp", "connection", "server", "strings", "keys", "hash", "list", "set",
                   "zset", "stream", "pubsub", "scripting", "diagnostics", "acl"]
SKIP = 77  # CTest SKIP_RETURN_CODE


def free_port():
    """Returns a loopback TCP port that was free a moment ago."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _die_with_parent():
    """Runs in the child before exec: SIGTERM it when the test process dies, even by SIGKILL."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def plugin_dir(server_path):
    """The folder next to the plinth-server binary where its default plugins are built."""
    return os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(server_path))),
                        "lib", "plinth", "plugins")


def available_plugins(server_path):
    """The default plugins that are built beside server_path, in load order."""
    folder = plugin_dir(server_path)
    return [p for p in DEFAULT_PLUGINS if os.path.exists(os.path.join(folder, p + ".so"))]


def plugin_args(server_path):
    """Server arguments loading the default plugins, or the subset that is built so far."""
    have = available_plugins(server_path)
    if have == DEFAULT_PLUGINS:
        return []
    args = ["--no-default-plugins"]
    for p in have:
        args += ["--plugin", p]
    return args


class Server:
    """A server child process on a loopback port. stop() is idempotent; use it in finally."""

    def __init__(self, name, argv, port, workdir=None):
        self.name = name
        self.port = port
        self.argv = argv
        # Each server in a folder of its own: what it persists (dump.rdb on shutdown) never
        # reaches another server.
        self.workdir = workdir or tempfile.mkdtemp(prefix=name + "-")
        self._log = tempfile.NamedTemporaryFile(prefix=name + "-", suffix=".log", delete=False)
        self.proc = subprocess.Popen(argv, stdout=self._log, stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL, cwd=self.workdir,
                                     preexec_fn=_die_with_parent)

    def log(self):
        with open(self._log.name, "rb") as f:
            return f.read().decode("utf-8", "replace")

    def alive(self):
        return self.proc.poll() is None

    def wait_ready(self, timeout=10.0):
        """Waits until the server answers any reply to PING (an error reply counts)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not self.alive():
                raise RuntimeError("%s exited with %s:\n%s" % (self.name, self.proc.returncode,
                                                               self.log()))
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1.0) as s:
                    s.sendall(b"*1\r\n$4\r\nPING\r\n")
                    if s.recv(64):
                        return
            except OSError:
                pass
            time.sleep(0.05)
        raise RuntimeError("%s did not answer on port %d within %.0f s:\n%s" %
                           (self.name, self.port, timeout, self.log()))

    def stop(self):
        """SIGTERM, then SIGKILL after 20 s (sanitized builds exit slowly). Returns the exit
        status (negative: killed by that signal); the log stays readable."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if not self._log.closed:
            self._log.close()
        if self.workdir:
            shutil.rmtree(self.workdir, ignore_errors=True)
        return self.proc.returncode

    def stop_cleanly(self):
        """stop(), then an error text (with the log's tail) unless the server exited 0, as a
        SIGTERM must make it (a sanitizer report or a crash at shutdown fails here)."""
        status = self.stop()
        if status == 0:
            return None
        return "%s exited with status %s on SIGTERM; log tail:\n%s" % (
            self.name, status, self.log()[-4000:])

    def __del__(self):
        try:
            os.unlink(self._log.name)
        except (OSError, AttributeError):
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


def _start(name, make, tries=3):
    """Starts a server on a fresh free port, retrying when another process took the port.
    make(port) returns (argv, workdir or None)."""
    last = None
    for _ in range(tries):
        port = free_port()
        argv, workdir = make(port)
        srv = Server(name, argv, port, workdir)
        try:
            srv.wait_ready()
            return srv
        except RuntimeError as e:
            last = e
            srv.stop()
    raise last


def io_thread_args():
    """PLINTH_TEST_IO_THREADS=N in the environment: run N IO threads, all always active."""
    n = os.environ.get("PLINTH_TEST_IO_THREADS")
    return ["--io-threads", n, "--io-threads-adaptive", "no"] if n else []


def start_plinth(server_path, extra=()):
    """Starts plinth-server with the default plugins (or the built subset) on a free port,
    with the IO threads PLINTH_TEST_IO_THREADS asks for."""
    base = [server_path] + plugin_args(server_path) + io_thread_args()
    return _start("plinth", lambda port: (base + ["--port", str(port), "--bind", "127.0.0.1"] +
                                          list(extra), None))


# The persistence settings start_redis gives the reference server, for a plinth-server that
# should match it (the differential tests).
PERSISTENCE_OFF = ("--save", "", "--appendonly", "no")


def start_redis(redis_path="/usr/bin/redis-server", extra=()):
    """Starts a throwaway redis-server (no persistence, own temporary folder) on a free port."""
    def make(port):
        workdir = tempfile.mkdtemp(prefix="redis-ref-")
        return ([redis_path, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                 "--appendonly", "no", "--daemonize", "no", "--dir", workdir] + list(extra),
                workdir)
    return _start("redis", make)


# ---- RESP ----


class Incomplete(Exception):
    pass


class Reply:
    """One parsed reply: kind is the RESP type byte ('+', '-', ':', '$', '*', '%', '~', '>',
    '_', ',', '#', '(', '=', '!'); data is bytes for scalars, a list for aggregates (maps flat:
    k1, v1, k2, v2...), None for nulls."""

    __slots__ = ("kind", "data")

    def __init__(self, kind, data):
        self.kind = kind
        self.data = data

    def is_error(self):
        return self.kind in "-!"

    def __repr__(self):
        return "Reply(%r, %r)" % (self.kind, self.data)


def _line(buf, pos):
    end = buf.find(b"\r\n", pos)
    if end < 0:
        raise Incomplete()
    return buf[pos:end], end + 2


def parse(buf, pos=0):
    """Parses one reply at buf[pos:]. Returns (Reply, end). Raises Incomplete or ValueError."""
    if pos >= len(buf):
        raise Incomplete()
    kind = chr(buf[pos])
    line, nxt = _line(buf, pos + 1)
    if kind in "+-:,#(_":
        return Reply(kind, None if kind == "_" else line), nxt
    if kind in "$=!":
        n = int(line)
        if n < 0:
            return Reply(kind, None), nxt
        if len(buf) < nxt + n + 2:
            raise Incomplete()
        if buf[nxt + n:nxt + n + 2] != b"\r\n":
            raise ValueError("bulk not followed by CRLF at %d" % (nxt + n))
        return Reply(kind, buf[nxt:nxt + n]), nxt + n + 2
    if kind in "*~>%|":
        n = int(line)
        if n < 0:
            return Reply(kind, None), nxt
        if kind in "%|":
            n *= 2
        items = []
        for _ in range(n):
            item, nxt = parse(buf, nxt)
            items.append(item)
        if kind == "|":  # an attribute precedes the real reply
            return parse(buf, nxt)
        return Reply(kind, items), nxt
    raise ValueError("unknown RESP type byte %r at %d" % (kind, pos))


def encode(args):
    """A RESP multibulk request from str/bytes/int arguments."""
    out = [b"*%d\r\n" % len(args)]
    for a in args:
        if isinstance(a, int):
            a = str(a)
        if isinstance(a, str):
            a = a.encode()
        out.append(b"$%d\r\n%s\r\n" % (len(a), a))
    return b"".join(out)


class RespConn:
    """A blocking RESP connection. call() sends one command and returns (raw_bytes, Reply)."""

    def __init__(self, port, timeout=15.0):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buf = b""

    def close(self):
        self.sock.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def send_raw(self, data):
        self.sock.sendall(data)

    def read(self):
        """Reads exactly one reply. Raises ConnectionError when the server closes first."""
        while True:
            if self.buf:
                try:
                    reply, end = parse(self.buf)
                    raw, self.buf = self.buf[:end], self.buf[end:]
                    return raw, reply
                except Incomplete:
                    pass
            chunk = self.sock.recv(1 << 20)
            if not chunk:
                raise ConnectionError("server closed the connection")
            self.buf += chunk

    def call(self, *args):
        self.send_raw(encode(args))
        return self.read()


def show(raw, limit=400):
    """Printable form of reply bytes, cut to limit characters."""
    text = repr(bytes(raw))
    if len(text) > limit:
        text = text[:limit] + "...(%d bytes)" % len(raw)
    return text


class Skipped(Exception):
    """Raised by a check that cannot run here (a client too old for a feature)."""


class Checks:
    """A tiny runner for client tests: named checks, each needing some plugins, run against one
    server. A check whose plugins are not built is skipped and said so."""

    def __init__(self, description):
        import argparse
        ap = argparse.ArgumentParser(description=description)
        ap.add_argument("--server", help="path of plinth-server")
        ap.add_argument("--against-redis", action="store_true",
                        help="run the checks against /usr/bin/redis-server (validates the test)")
        ap.add_argument("--require-all-plugins", action="store_true",
                        help="fail instead of skipping checks whose plugins are not built")
        ap.add_argument("--only", action="append", help="run only these checks")
        self.args = ap.parse_args()
        if not self.args.server and not self.args.against_redis:
            ap.error("--server or --against-redis is required")
        self.checks = []

    def check(self, *requires):
        """Decorator: registers fn(port) as a check needing the named plugins."""
        def wrap(fn):
            self.checks.append((fn.__name__, requires, fn))
            return fn
        return wrap

    def run(self):
        """Starts the server, runs the checks, prints one line each and a closing count line.
        Returns 0 (all ran checks passed), 1 (a failure) or SKIP (nothing could run)."""
        import traceback
        if self.args.against_redis:
            have = set(DEFAULT_PLUGINS)
            server = start_redis()
        else:
            have = set(available_plugins(self.args.server))
            server = start_plinth(self.args.server)
        passed, failed, skipped, missing_plugins = 0, 0, 0, 0
        try:
            for name, requires, fn in self.checks:
                if self.args.only and name not in self.args.only:
                    continue
                missing = [p for p in requires if p not in have]
                if missing:
                    skipped += 1
                    missing_plugins += 1
                    print("SKIP %s: plugin %s not built" % (name, ",".join(missing)), flush=True)
                    continue
                start = time.monotonic()
                try:
                    fn(server.port)
                    passed += 1
                    print("PASS %s (%.1f s)" % (name, time.monotonic() - start), flush=True)
                except Skipped as e:
                    skipped += 1
                    print("SKIP %s: %s" % (name, e), flush=True)
                except Exception:  # a failed check is reported, the others still run
                    failed += 1
                    print("FAIL %s\n%s" % (name, traceback.format_exc()), flush=True)
                if not server.alive():
                    failed += 1
                    print("FAIL server died after %s:\n%s" % (name, server.log()[-3000:]))
                    break
        finally:
            problem = server.stop_cleanly()
        if problem:
            failed += 1
            print("FAIL shutdown: " + problem)
        if missing_plugins and self.args.require_all_plugins:
            failed += missing_plugins
        print("%d passed, %d failed, %d skipped" % (passed, failed, skipped))
        if failed:
            return 1
        return 0 if passed else SKIP


def expect(cond, what, *values):
    """Raises AssertionError with what and the values when cond is false."""
    if not cond:
        raise AssertionError(what + ("" if not values else ": " + " | ".join(map(repr, values))))


def expect_eq(actual, wanted, what=""):
    """Raises AssertionError showing both values when actual != wanted."""
    if actual != wanted:
        raise AssertionError("%s: got %r, wanted %r" % (what or "values differ", actual, wanted))


def until(what, fn, timeout=30):
    """Calls fn every 50 ms until it returns something true, and returns that; raises
    AssertionError naming what and fn's last value after timeout seconds."""
    deadline = time.monotonic() + timeout
    while True:
        last = fn()
        if last:
            return last
        if time.monotonic() > deadline:
            raise AssertionError("%s: not within %d s (last: %r)" % (what, timeout, last))
        time.sleep(0.05)


def main_guard(fn):
    """Runs fn() and exits with its status; a KeyboardInterrupt or SIGTERM still runs finally."""
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    sys.exit(fn())
