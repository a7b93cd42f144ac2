"""Helpers for the crash and power-loss tests of the persistence plugins: a plinth-server child
on a free loopback port running in its own data folder (optionally under the powerloss.c shim),
a writer thread that records every acknowledged write with its ack time, a SIGKILL at a random
moment (followed by cut.py when the shim is on), a restart on the same folder, and the check
acknowledged ⊆ recovered. Run with /usr/bin/python3 (Debian's python3-redis). Test thread only,
except Writer, which is its own thread."""

import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

_TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(_TESTS, "clients"))
sys.path.insert(0, os.path.join(_TESTS, "support", "powerloss"))
import cut  # noqa: E402
import support  # noqa: E402
from support import SKIP, free_port  # noqa: E402,F401

try:
    import redis
except ImportError:  # the caller decides: see require_redis_py()
    redis = None


def require_redis_py():
    """Exits SKIP (77) with a message when redis-py is missing."""
    if redis is None:
        print("SKIP: redis-py is missing (apt-get install python3-redis; use /usr/bin/python3)")
        sys.exit(SKIP)


def shim_path(server_path):
    """The built libplinth_powerloss.so beside server_path's build tree (or the one
    PLINTH_TEST_POWERLOSS_SHIM names), or None."""
    path = os.environ.get("PLINTH_TEST_POWERLOSS_SHIM") or os.path.join(
        os.path.dirname(os.path.dirname(os.path.abspath(server_path))), "tests",
        "libplinth_powerloss.so")
    return path if os.path.exists(path) else None


def powerloss_unusable(server_path):
    """None when the shim can be preloaded into server_path, else the reason (no shim built,
    or a sanitized server: the ASan/TSan runtime must be the first library loaded)."""
    if not shim_path(server_path):
        return "libplinth_powerloss.so is not built"
    with open(server_path, "rb") as f:
        image = f.read()
    for runtime in (b"__asan_init", b"__tsan_init"):
        if runtime in image:
            return "the server is built with sanitizers"
    return None


class CrashServer:
    """plinth-server in a data folder of its own (its working directory) that survives its
    restarts. With powerloss=True every start preloads the shim with a fresh journal, and
    power_cut() rewrites the folder into what a power cut leaves. close() removes everything."""

    def __init__(self, server_path, args=(), plugins=(), powerloss=False):
        self.server_path = server_path
        self.args = list(args)
        self.plugins = list(plugins)
        self.top = tempfile.mkdtemp(prefix="plinth-crash-")
        self.datadir = os.path.join(self.top, "data")
        self.journal = os.path.join(self.top, "powerloss.journal")
        os.mkdir(self.datadir)
        self.powerloss = powerloss
        self.server = None
        self.starts = 0
        if powerloss:
            why = powerloss_unusable(server_path)
            if why:
                raise RuntimeError("power-loss simulation unavailable: " + why)

    @property
    def port(self):
        return self.server.port

    def _env(self):
        env = dict(os.environ)
        if self.powerloss:
            # One journal per power cycle: cut.py trusts the first start record it finds.
            shutil.rmtree(self.journal + ".stash", ignore_errors=True)
            if os.path.exists(self.journal):
                os.unlink(self.journal)
            env.update(LD_PRELOAD=shim_path(self.server_path), PLINTH_POWERLOSS_LOG=self.journal,
                       PLINTH_POWERLOSS_DIR=self.datadir)
        return env

    def start(self, timeout=20.0, tries=3):
        """Starts the server on a free port and waits until it answers PING. Raises
        RuntimeError (with the log) when it exits or stays silent."""
        last = None
        for _ in range(tries):
            port = free_port()
            argv = ([self.server_path] + support.plugin_args(self.server_path) +
                    [a for p in self.plugins for a in ("--plugin", p)] +
                    ["--port", str(port), "--bind", "127.0.0.1"] + self.args)
            self.server = _Child("plinth", argv, port, self.datadir, self._env())
            self.starts += 1
            try:
                self.server.wait_ready(timeout)
                self._wait_loaded(timeout)
                return self
            except RuntimeError as e:
                last = e
                self.server.stop()
        raise last

    def _wait_loaded(self, timeout):
        """Waits until PING gets +PONG: a server still loading its data answers -LOADING."""
        deadline = time.monotonic() + timeout
        c = self.client()
        try:
            while True:
                try:
                    if c.ping():
                        return
                except redis.exceptions.BusyLoadingError:
                    pass
                except redis.exceptions.ConnectionError as e:
                    if not self.server.alive():
                        raise RuntimeError("server exited while loading: %s\n%s" %
                                           (e, self.log()[-3000:]))
                if time.monotonic() > deadline:
                    raise RuntimeError("server still loading after %.0f s" % timeout)
                time.sleep(0.05)
        finally:
            c.close()

    def client(self, **kw):
        """A redis-py client on the running server (RESP2, 10 s socket timeout)."""
        return redis.Redis(host="127.0.0.1", port=self.port, socket_timeout=10,
                           socket_connect_timeout=5, **kw)

    def kill(self):
        """SIGKILLs the server and reaps it. Returns the monotonic time of the kill."""
        when = time.monotonic()
        if self.server and self.server.alive():
            self.server.proc.send_signal(signal.SIGKILL)
        if self.server:
            self.server.proc.wait(30)
        return when

    def power_cut(self):
        """kill(), then (powerloss=True) cut.apply() on the data folder. Returns the kill time."""
        when = self.kill()
        if self.powerloss:
            cut.apply(self.journal, self.datadir)
        return when

    def stop(self):
        """SIGTERM (SIGKILL after 20 s); returns the exit status (0 for a clean shutdown)."""
        return self.server.stop() if self.server else None

    def log(self):
        return self.server.log() if self.server else ""

    def close(self):
        if self.server:
            self.server.stop()
        shutil.rmtree(self.top, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class _Child(support.Server):
    """support.Server with a working directory and an environment; stop() removes nothing."""

    def __init__(self, name, argv, port, cwd, env):
        self.name, self.port, self.argv, self.workdir = name, port, argv, None
        self._log = tempfile.NamedTemporaryFile(prefix=name + "-", suffix=".log", delete=False)
        self.proc = subprocess.Popen(argv, stdout=self._log, stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL, cwd=cwd, env=env,
                                     preexec_fn=support._die_with_parent)


class Writer(threading.Thread):
    """Sends one write at a time until stopped, the connection fails, or max_ops/max_s pass:
    kind "set" (SET <prefix><i> <i>), "incr" (INCR <prefix>counter, which returns i) or "rpush"
    (RPUSH <prefix>list <i>), i = 1, 2, ... acked holds (i, ack time) for each reply that
    arrived; in_flight is the i sent whose reply never came (its fate is unknown), or None."""

    def __init__(self, port, kind="set", prefix="k", max_ops=10_000_000, max_s=120.0, pause=0.0):
        super().__init__(daemon=True)
        assert kind in ("set", "incr", "rpush")
        self.port, self.kind, self.prefix = port, kind, prefix
        self.max_ops, self.max_s, self.pause = max_ops, max_s, pause
        self.acked = []
        self.in_flight = None
        self.error = None
        self._stop_flag = threading.Event()

    def run(self):
        r = redis.Redis(host="127.0.0.1", port=self.port, socket_timeout=10,
                        socket_connect_timeout=5, retry_on_timeout=False)
        deadline = time.monotonic() + self.max_s
        try:
            for i in range(1, self.max_ops + 1):
                if self._stop_flag.is_set() or time.monotonic() > deadline:
                    return
                self.in_flight = i
                reply = self._send(r, i)
                self.acked.append((i, time.monotonic()))
                self.in_flight = None
                if self.kind == "incr" and reply != i:
                    raise AssertionError("INCR returned %r, wanted %d" % (reply, i))
                if self.pause:
                    time.sleep(self.pause)
        except Exception as e:  # the kill ends every writer this way
            self.error = e
        finally:
            r.close()

    def _send(self, r, i):
        if self.kind == "set":
            return r.execute_command("SET", "%s%d" % (self.prefix, i), str(i))
        if self.kind == "incr":
            return r.execute_command("INCR", self.prefix + "counter")
        return r.execute_command("RPUSH", self.prefix + "list", str(i))

    def stop(self, timeout=30.0):
        self._stop_flag.set()
        self.join(timeout)
        if self.is_alive():
            raise RuntimeError("writer did not stop within %.0f s" % timeout)

    def recovered(self, client):
        """The set of i the restarted server holds. Raises AssertionError on a value this
        writer never sent (a corrupt or invented record)."""
        sent = self.in_flight or len(self.acked)  # the highest i ever sent
        if self.kind == "incr":
            value = client.get(self.prefix + "counter")
            n = int(value) if value is not None else 0
            if n > sent:
                raise AssertionError("counter is %d, only %d INCRs were sent" % (n, sent))
            return set(range(1, n + 1))
        if self.kind == "rpush":
            items = [int(v) for v in client.lrange(self.prefix + "list", 0, -1)]
            if items != sorted(set(items)) or (items and items[-1] > sent):
                raise AssertionError("list is not an increasing run of sent values: %r..." %
                                     items[:20])
            return set(items)
        found = set()
        for start in range(1, sent + 1, 1000):
            ids = list(range(start, min(start + 1000, sent + 1)))
            for i, v in zip(ids, client.mget(["%s%d" % (self.prefix, i) for i in ids])):
                if v is not None:
                    if v != str(i).encode():
                        raise AssertionError("%s%d holds %r" % (self.prefix, i, v))
                    found.add(i)
        return found


class Outcome:
    """What one crash did to one writer. lost: [(i, ack time)] acknowledged but not recovered;
    cut_time: monotonic time of the SIGKILL."""

    def __init__(self, writer, recovered, cut_time):
        self.acked = writer.acked
        self.in_flight = writer.in_flight
        self.cut_time = cut_time
        self.recovered = recovered
        self.lost = [(i, t) for i, t in writer.acked if i not in recovered]

    def oldest_loss_age(self):
        """Seconds between the earliest lost ack and the cut (0.0 when nothing was lost)."""
        return max((self.cut_time - t for _, t in self.lost), default=0.0)

    def describe(self):
        return ("%d acknowledged, %d recovered, %d lost (oldest %.3f s before the cut), "
                "in flight: %s" % (len(self.acked), len(self.recovered), len(self.lost),
                                   self.oldest_loss_age(), self.in_flight))

    def assert_none_lost(self):
        if self.lost:
            raise AssertionError("acknowledged writes lost: %s; first: %r" %
                                 (self.describe(), self.lost[:5]))

    def assert_lost_within(self, seconds):
        """Every lost write was acknowledged less than "seconds" before the cut."""
        if self.oldest_loss_age() > seconds:
            raise AssertionError("lost writes older than %.1f s: %s" % (seconds, self.describe()))


def run_checks(checks):
    """Runs each (name, fn) of checks with a scratch folder: fn(folder) returns a note (one that
    starts with "SKIP" skips). Prints PASS/FAIL/SKIP per check and the closing count line.
    Returns the exit status: 1 when a check failed, else 0."""
    import traceback
    passed = failed = skipped = 0
    for name, fn in checks:
        top = tempfile.mkdtemp(prefix="plinth-persistence-")
        try:
            note = fn(top)
            skip = note.startswith("SKIP")
            skipped += skip
            passed += not skip
            print("%s %s: %s" % ("SKIP" if skip else "PASS", name, note), flush=True)
        except Exception:  # report every check, then fail
            print("FAIL %s:\n%s" % (name, traceback.format_exc()), flush=True)
            failed += 1
        finally:
            shutil.rmtree(top, ignore_errors=True)
    print("%d passed, %d failed, %d skipped" % (passed, failed, skipped))
    return 1 if failed else 0


def crash_once(srv, kinds=("set",), min_s=0.5, max_s=3.0, rng=random, pause=0.0):
    """One crash cycle on a started CrashServer: a Writer per kind (prefix "<kind>:"), a
    SIGKILL after a random uniform(min_s, max_s) seconds (power_cut: cut.py too under the shim),
    a restart on the same folder, then the recovered sets. Returns [Outcome] in kinds' order.
    Keys of earlier cycles stay; give each cycle other prefixes via kinds entries "kind:prefix"."""
    writers = []
    for spec in kinds:
        kind, _, prefix = spec.partition(":")
        writers.append(Writer(srv.port, kind, prefix or kind + ":", pause=pause))
    for w in writers:
        w.start()
    time.sleep(rng.uniform(min_s, max_s))
    for w in writers:
        if not w.is_alive() and w.error:
            raise RuntimeError("a writer failed before the cut: %r\n%s" % (w.error,
                                                                           srv.log()[-3000:]))
    cut_time = srv.power_cut()
    for w in writers:
        w.stop()
    srv.start()
    client = srv.client()
    try:
        return [Outcome(w, w.recovered(client), cut_time) for w in writers]
    finally:
        client.close()
