#!/usr/bin/env python3
"""The request path's cost gate: user-space instructions per request for ten commands, counted
by callgrind while redis-benchmark drives plinth-server, compared with baseline.json. Exits 1
when a command costs more than the tolerance above its baseline. Standard library only; needs
valgrind (callgrind_control) and redis-benchmark on PATH. See README.md beside it."""

import argparse
import glob
import hashlib
import json
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
BASELINE = os.path.join(HERE, "baseline.json")

# The method. Every figure in baseline.json was taken with these; a run that changes one is
# compared anyway, with a warning, since its figures may differ for that reason alone.
CLIENTS = 10
PIPELINE = 16
REQUESTS = 20000  # per command and run; see README.md for how it was chosen
WARMUP = 4000  # requests of the same command before the counters are zeroed
VALUE = b"v" * 16
# The server runs niced so that, on a busy machine, redis-benchmark is scheduled before it and
# every client's next pipeline is already queued when the server polls: the instructions per
# request include the event loop's cost per wakeup, shared among the clients found ready, so a
# load generator starved of CPU raises them (by up to 1.3% with both CPUs of a 2-CPU machine
# busy, 0.6% with the server niced).
NICE = 10
METHOD = {"clients": CLIENTS, "pipeline": PIPELINE, "warmup": WARMUP, "server_nice": NICE}

SCRIPT = "return redis.call('GET', KEYS[1])"
SCRIPT_SHA = hashlib.sha1(SCRIPT.encode()).hexdigest()


class Command:
    """One measured command: the redis-benchmark command line (fixed keys, no -r, so every
    request does the same work), the commands that prepare it once, the commands that put
    its key back before each run (so that every run starts from the same state), and the
    command that must be known to the server (an older server without it skips the row)."""

    def __init__(self, name, argv, setup=(), reset=(), probe=None):
        self.name = name
        self.argv = [a if isinstance(a, bytes) else a.encode() for a in argv]
        self.setup = [list(c) for c in setup]
        self.reset = [list(c) for c in reset]
        self.probe = probe or name


MGET_KEYS = ["mget:%d" % i for i in range(1, 11)]

COMMANDS = [
    Command("GET", ["GET", "key:get"], setup=[["SET", "key:get", VALUE]]),
    Command("SET", ["SET", "key:set", VALUE]),
    # Ten digits throughout: INCR's cost grows with the counter's digits (5 digits to 6 added
    # 1.7% between runs), so every run starts from the same value.
    Command("INCR", ["INCR", "counter"], reset=[["SET", "counter", "1000000000"]]),
    Command("MGET", ["MGET"] + MGET_KEYS, setup=[["SET", k, VALUE] for k in MGET_KEYS]),
    Command("HSET", ["HSET", "hash", "field", VALUE]),
    Command("LPUSH", ["LPUSH", "list", VALUE], reset=[["DEL", "list"]]),
    Command("ZADD", ["ZADD", "zset", "1", "member"]),
    Command("XADD", ["XADD", "stream", "*", "field", VALUE], reset=[["DEL", "stream"]]),
    Command("EVALSHA", ["EVALSHA", SCRIPT_SHA, "1", "key:get"],
            setup=[["SET", "key:get", VALUE], ["SCRIPT", "LOAD", SCRIPT]]),
    # No subscriber: the cost of a publish that reaches nobody (the common case of a cache
    # that announces invalidations), free of any subscriber's read pace.
    Command("PUBLISH", ["PUBLISH", "channel", VALUE]),
]


# ---- a minimal RESP client for the setup commands ----

def encode(args):
    out = [b"*%d\r\n" % len(args)]
    for a in args:
        b = a if isinstance(a, bytes) else str(a).encode()
        out.append(b"$%d\r\n%s\r\n" % (len(b), b))
    return b"".join(out)


def read_reply(f):
    """One reply from the file f; an error reply comes back as an Exception value."""
    line = f.readline()
    if not line:
        raise ConnectionError("connection closed by the server")
    kind, rest = line[:1], line[1:-2]
    if kind == b"-":
        return Exception(rest.decode(errors="replace"))
    if kind in (b"$", b"="):
        n = int(rest)
        return None if n < 0 else f.read(n + 2)[:-2]
    if kind in (b"*", b"~", b">", b"%"):
        n = int(rest) * (2 if kind == b"%" else 1)
        return None if n < 0 else [read_reply(f) for _ in range(n)]
    return rest


def call(port, *args, timeout=60.0):
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(encode(args))
        return read_reply(s.makefile("rb"))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# ---- the server under callgrind ----

class Server:
    """plinth-server under callgrind in a scratch folder, persistence off, on a free loopback
    port. Use as a context manager."""

    def __init__(self, server, plugin_dir, workdir, extra, log_path, timeout=300.0):
        self.workdir = workdir
        self.port = free_port()
        argv = ["nice", "-n", str(NICE), "valgrind", "--tool=callgrind",
                "--callgrind-out-file=%s" % os.path.join(workdir, "callgrind.out.%p"),
                server, "--port", str(self.port), "--bind", "127.0.0.1"]
        # Persistence off, with whichever of these options this build has (older ones lack
        # some).
        known = server_options(server, plugin_dir, extra)
        for name, value in (("dir", workdir), ("save", ""), ("appendonly", "no")):
            if name in known:
                argv += ["--" + name, value]
        if plugin_dir:
            argv += ["--plugin-dir", plugin_dir]
        argv += extra
        self.log = open(log_path, "ab")
        self.log.write(("$ %s\n" % " ".join(argv)).encode())
        self.log.flush()
        self.proc = subprocess.Popen(argv, stdout=self.log, stderr=subprocess.STDOUT,
                                     cwd=workdir, start_new_session=True)
        deadline = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError("plinth-server exited at start (see %s)" % log_path)
            try:
                call(self.port, "PING", timeout=5.0)
                break
            except OSError:
                if time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError("plinth-server did not answer (see %s)" % log_path)
                time.sleep(0.2)

    def knows(self, command):
        reply = call(self.port, "COMMAND", "INFO", command)
        return isinstance(reply, list) and bool(reply) and reply[0] is not None

    def control(self, flag):
        subprocess.run(["callgrind_control", flag, str(self.proc.pid)], capture_output=True,
                       timeout=120, check=True)

    def dump(self):
        """Dumps the counters since the last zero (or dump) and returns the dump's path."""
        before = set(glob.glob(os.path.join(self.workdir, "callgrind.out.*")))
        self.control("-d")
        start = time.monotonic()
        while time.monotonic() < start + 60:
            for path in set(glob.glob(os.path.join(self.workdir, "callgrind.out.*"))) - before:
                # "totals:" ends a complete dump; a valgrind that writes only "summary:" (at
                # the head) is given a few seconds to finish the file.
                if dump_total(path, "totals:") is not None or (
                        time.monotonic() > start + 5 and dump_total(path) is not None):
                    return path
            time.sleep(0.1)
        raise RuntimeError("callgrind wrote no dump in %s" % self.workdir)

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        self.log.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


def server_options(server, plugin_dir, extra):
    """The option names plinth-server --help lists with these plugins."""
    argv = [server] + (["--plugin-dir", plugin_dir] if plugin_dir else []) + extra
    out = subprocess.run(argv + ["--help"], capture_output=True, text=True, timeout=60)
    return set(re.findall(r"^  --([a-z0-9_.-]+)", out.stdout + out.stderr, re.M))


def dump_total(path, keys=("summary:", "totals:")):
    """The Ir total of a callgrind dump from its first line that starts with one of keys, or
    None when there is none (yet)."""
    try:
        with open(path) as f:
            for line in f:
                if line.startswith(keys):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def prepare(port, commands, name):
    for args in commands:
        reply = call(port, *args)
        if isinstance(reply, Exception):
            raise RuntimeError("%s: %s refused: %s" % (name, args[0], reply))


def benchmark(port, command, n, log):
    argv = ["redis-benchmark", "-p", str(port), "-c", str(METHOD["clients"]),
            "-P", str(METHOD["pipeline"]),
            "-n", str(n), "-q"] + [a.decode() for a in command.argv]
    log.write(("$ %s\n" % " ".join(argv)).encode())
    log.flush()
    subprocess.run(argv, stdout=log, stderr=subprocess.STDOUT, timeout=1200, check=True)


def measure(server, command, n, keep, tag, log):
    """Instructions per request of one run of command (n requests), after a warm-up."""
    prepare(server.port, command.reset, command.name)
    benchmark(server.port, command, METHOD["warmup"], log)
    server.control("-z")
    benchmark(server.port, command, n, log)
    path = server.dump()
    total = dump_total(path)
    if keep:
        shutil.copy(path, os.path.join(keep, "callgrind.out.%s" % tag))
    return total / n


# ---- figures and comparison ----

def git_commit(server):
    """The commit of the checkout the server was built in (its build folder lies inside it),
    with "+dirty" when host/, plugins/ or sdk/ differ from it there."""
    where = os.path.dirname(os.path.abspath(server))
    try:
        out = subprocess.run(["git", "-C", where, "rev-parse", "HEAD"], capture_output=True,
                             text=True, timeout=10)
        head = out.stdout.strip()
        if out.returncode != 0 or not head:
            return "unknown"
        top = subprocess.run(["git", "-C", where, "rev-parse", "--show-toplevel"],
                             capture_output=True, text=True, timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "-C", top, "status", "--porcelain", "--", "host",
                                "plugins", "sdk"], capture_output=True, text=True, timeout=30)
        return head + ("+dirty" if dirty.stdout.strip() else "")
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def tool_version(argv):
    try:
        out = subprocess.run(argv, capture_output=True, text=True, timeout=10)
        return (out.stdout or out.stderr).strip().splitlines()[0]
    except (OSError, subprocess.SubprocessError, IndexError):
        return "unknown"


def method(n, runs, extra):
    return dict(METHOD, requests=n, value_bytes=len(VALUE), runs=runs,
                figure="least of runs", server_args=extra,
                valgrind=tool_version(["valgrind", "--version"]),
                redis_benchmark=tool_version(["redis-benchmark", "--version"]))


def spread(values):
    mid = statistics.median(values)
    return 100.0 * (max(values) - min(values)) / mid if mid else 0.0


def compare(figures, baseline, tolerance):
    """Prints the table; returns the names of the commands over the tolerance."""
    over = []
    print("%-8s %10s %10s %8s" % ("command", "baseline", "now", "change"))
    for name, now in figures.items():
        base = baseline.get(name)
        if base is None:
            print("%-8s %10s %10.1f %8s" % (name, "-", now, "new"))
            continue
        change = 100.0 * (now - base) / base
        mark = ""
        if change > tolerance:
            over.append(name)
            mark = "  over +%.1f%%" % tolerance
        print("%-8s %10.1f %10.1f %+7.2f%%%s" % (name, base, now, change, mark))
    for name in baseline:
        if name not in figures:
            print("%-8s %10.1f %10s %8s" % (name, baseline[name], "-", "absent"))
    return over


def run_all(a, commands, n, plugin_dir, work, log_path):
    """Starts the server, prepares the commands it serves and measures each a.runs times.
    Returns {command: [Ir per request, one per run]}."""
    results = {}
    with Server(os.path.abspath(a.server), plugin_dir, work, a.server_arg,
                log_path) as server:
        runnable = []
        for c in commands:
            if server.knows(c.probe):
                runnable.append(c)
            else:
                print("%-8s not served by this build: skipped" % c.name)
        for c in runnable:
            prepare(server.port, c.setup, c.name)
        for run in range(a.runs):
            for c in runnable:
                t0 = time.monotonic()
                ir = measure(server, c, n, a.keep, "%s.%d" % (c.name, run + 1), server.log)
                results.setdefault(c.name, []).append(ir)
                print("%-8s run %d: %9.1f Ir/request  (%.1f s)"
                      % (c.name, run + 1, ir, time.monotonic() - t0), flush=True)
    return results


def parse_args():
    build = os.path.join(REPO, "build")
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--server", default=os.path.join(build, "bin", "plinth-server"))
    p.add_argument("--plugin-dir", default=None,
                   help="default: lib/plinth/plugins beside the server's bin folder")
    p.add_argument("--baseline", default=BASELINE)
    p.add_argument("--write-baseline", action="store_true",
                   help="measure and write the baseline instead of comparing")
    p.add_argument("--tolerance", type=float, default=2.0,
                   help="percent a command may rise above its baseline (default 2)")
    p.add_argument("--inflate", type=float, default=0.0,
                   help="raise every measured figure by this percent (checks the gate itself)")
    p.add_argument("--requests", type=int, default=None,
                   help="requests per command and run (default: the baseline's, else %d)"
                   % REQUESTS)
    p.add_argument("--runs", type=int, default=3,
                   help="runs per command; the figure is the least of them (default 3)")
    p.add_argument("--commands", default=",".join(c.name for c in COMMANDS),
                   help="comma-separated subset of the commands")
    p.add_argument("--server-arg", action="append", default=[],
                   help="an extra server argument, one word each: --server-arg=--hz "
                   "--server-arg=100")
    p.add_argument("--clients", type=int, default=CLIENTS)
    p.add_argument("--pipeline", type=int, default=PIPELINE)
    p.add_argument("--keep", default=None, help="copy every dump into this folder")
    p.add_argument("--json", default=None, help="write the figures here as well")
    return p.parse_args()


def main():
    a = parse_args()
    for tool in ("valgrind", "callgrind_control", "redis-benchmark"):
        if not shutil.which(tool):
            print("%s is not on PATH" % tool, file=sys.stderr)
            return 2
    if a.write_baseline and a.inflate:
        print("--inflate is for comparing; it never goes into a baseline", file=sys.stderr)
        return 2
    baseline = None
    if not a.write_baseline:
        with open(a.baseline) as f:
            baseline = json.load(f)
    METHOD.update(clients=a.clients, pipeline=a.pipeline)
    n = a.requests or (baseline["method"]["requests"] if baseline else REQUESTS)
    plugin_dir = a.plugin_dir or os.path.join(os.path.dirname(os.path.dirname(
        os.path.abspath(a.server))), "lib", "plinth", "plugins")
    wanted = [c for c in a.commands.split(",") if c]
    commands = [c for c in COMMANDS if c.name in wanted]
    if len(commands) != len(wanted):
        print("unknown command in --commands %s" % a.commands, file=sys.stderr)
        return 2
    if a.keep:
        os.makedirs(a.keep, exist_ok=True)

    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="plinth-callgrind-") as work:
        log_path = os.path.join(a.keep or work, "gate.log")
        try:
            results = run_all(a, commands, n, plugin_dir, work, log_path)
        except (RuntimeError, OSError, subprocess.SubprocessError) as e:
            print("error: %s" % e, file=sys.stderr)
            with open(log_path, "rb") as f:
                sys.stderr.write(f.read()[-4000:].decode(errors="replace"))
            return 2

    print("measured in %.0f s" % (time.monotonic() - started))

    # A busy machine only adds instructions (fewer requests per wakeup, more timer ticks),
    # never removes any: the least of the runs is the figure.
    figures = {k: min(v) for k, v in results.items()}
    if a.runs > 1:
        for k, v in results.items():
            print("%-8s spread over %d runs: %.2f%%" % (k, a.runs, spread(v)))
    if a.inflate:
        figures = {k: v * (1 + a.inflate / 100.0) for k, v in figures.items()}
        print("figures raised by %.1f%% (--inflate)" % a.inflate)
    doc = {"commit": git_commit(a.server), "method": method(n, a.runs, a.server_arg),
           "instructions_per_request": {k: round(v, 1) for k, v in figures.items()}}
    if a.runs > 1:
        doc["runs"] = {k: [round(x, 1) for x in v] for k, v in results.items()}
    if a.json:
        with open(a.json, "w") as f:
            json.dump(doc, f, indent=2)
            f.write("\n")
    if a.write_baseline:
        with open(a.baseline, "w") as f:
            json.dump(doc, f, indent=2)
            f.write("\n")
        print("wrote %s" % a.baseline)
        return 0

    bm = baseline["method"]
    for key in ("clients", "pipeline", "requests", "warmup", "value_bytes", "server_nice",
                "server_args"):
        if bm.get(key) != doc["method"][key]:
            print("warning: %s is %r here, %r in the baseline" % (key, doc["method"][key],
                                                                 bm.get(key)))
    print("baseline: %s" % baseline.get("commit", "?"))
    over = compare(figures, baseline["instructions_per_request"], a.tolerance)
    if over:
        print("FAIL: %s above the baseline by more than %.1f%%" % (", ".join(over),
                                                                   a.tolerance))
        return 1
    print("ok: every command within %.1f%% of the baseline" % a.tolerance)
    return 0


if __name__ == "__main__":
    sys.exit(main())
