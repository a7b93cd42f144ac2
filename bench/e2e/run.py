#!/usr/bin/env python3
"""Plinth's end-to-end benchmark: builds a release build, runs plinth-server next to Debian's
redis-server (and any --server NAME=PATH), each pinned to CPU 0 with persistence off while the
load runs on CPU 1, and writes raw.csv, summary.csv, results.md and PNG plots into a results
folder. --io-threads 1,2,4 runs every server once per IO-thread count. See
docs/performance.md. Standard library only."""

import argparse
import datetime
import os
import platform
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import cases  # noqa: E402
import large  # noqa: E402
import micro  # noqa: E402
import report  # noqa: E402
import results  # noqa: E402
from servers import (RunningServer, ServerSpec, io_variants, plinth_plugin_args,  # noqa: E402
                     slug)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PHASES = ("throughput", "suite", "memory", "fixed", "large", "saturate", "callgrind")
# The peers of ../shared/anchors: (name in the tables, binary under the anchors folder).
ANCHORS = (("valkey9", "valkey-9.1.2/valkey-server"), ("redis8", "redis-8.0.6/redis-server"))


def cpu_list(text):
    """argparse type: a taskset CPU list ("0", "0,1", "0-3") or "none" (unpinned: None)."""
    if text.strip().lower() == "none":
        return None
    if not re.fullmatch(r"\d+(-\d+)?(,\d+(-\d+)?)*", text.strip()):
        raise argparse.ArgumentTypeError("want a CPU list like 0, 0,1 or 0-3, or none: %r" %
                                         text)
    return text.strip()


def cpus_in(cpu):
    """The CPU numbers of a taskset CPU list (empty for None)."""
    out = set()
    for part in (cpu or "").split(","):
        if part:
            lo, _, hi = part.partition("-")
            out.update(range(int(lo), int(hi or lo) + 1))
    return out


def io_counts(text):
    """argparse type: a comma-separated list of IO-thread counts, each at least 1."""
    try:
        counts = [int(n) for n in text.split(",") if n.strip()]
    except ValueError:
        counts = []
    if not counts or min(counts) < 1:
        raise argparse.ArgumentTypeError("want counts of 1 or more like 1,2,4: %r" % text)
    return list(dict.fromkeys(counts))


def variant_arg(text):
    """argparse type: NAME=EXTRA_ARGS, the arguments shell-split."""
    name, eq, args = text.partition("=")
    if not eq or not name.strip():
        raise argparse.ArgumentTypeError("want NAME=EXTRA_ARGS, got %r" % text)
    return name.strip(), shlex.split(args)


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", help="results folder (default bench/results/<date>)")
    p.add_argument("--reps", type=int, default=5, help="repetitions of each case (default 5)")
    p.add_argument("--smoke", action="store_true",
                   help="tiny counts, 1 repetition, temp folder: checks that the harness works")
    p.add_argument("--build-dir", default=os.path.join(ROOT, "build-release"),
                   help="the release build folder (default build-release)")
    p.add_argument("--no-build", action="store_true", help="use the build folder as it is")
    p.add_argument("--plinth-server", help="plinth-server binary (skips the build)")
    p.add_argument("--loadgen", help="plinth-loadgen binary (default: from the build)")
    p.add_argument("--plugin-dir", help="plugin folder for plinth-server")
    p.add_argument("--plinth-plugins", default="default",
                   help="'default' (the server's default set), 'available' (those of the "
                        "default set that were built) or a comma-separated list")
    p.add_argument("--redis-server", default=shutil.which("redis-server") or "",
                   help="the baseline (default: redis-server on PATH)")
    p.add_argument("--no-redis", action="store_true", help="do not run redis-server")
    p.add_argument("--server", action="append", default=[], metavar="NAME=PATH",
                   help="another server taking redis-server's command line (repeatable)")
    p.add_argument("--anchors", default=os.path.join(os.path.dirname(ROOT), "shared", "anchors"),
                   help="folder of the peer servers (Valkey 9.1.2, Redis 8.0.6) run beside "
                   "Plinth when present (default ../shared/anchors)")
    p.add_argument("--no-anchors", action="store_true", help="do not run the peer servers")
    p.add_argument("--redis-benchmark", default=shutil.which("redis-benchmark") or "")
    p.add_argument("--skip", default="", help="phases to skip: " + ",".join(PHASES))
    p.add_argument("--scale", type=float, default=1.0,
                   help="multiplies the request count of every redis-benchmark case")
    p.add_argument("--rates", default="0,1000,10000,50000",
                   help="fixed-rate GET rates in req/s; 0 measures idle connections")
    p.add_argument("--fixed-conns", type=int, default=50)
    p.add_argument("--fixed-duration", type=float, default=5.0, help="seconds per rate")
    p.add_argument("--memory-keys", type=int, default=1000000)
    p.add_argument("--callgrind-requests", type=int, default=20000)
    p.add_argument("--micro", action="store_true",
                   help="also run the micro-benchmarks of the build (bench/micro)")
    p.add_argument("--server-cpu", type=cpu_list, default="0",
                   help="CPUs of every server: a taskset list (0, 0,1, 0-3) or none (default 0)")
    p.add_argument("--client-cpu", type=cpu_list, default="1",
                   help="CPUs of the load generators, as --server-cpu (default 1)")
    p.add_argument("--io-threads", type=io_counts, default=[1], metavar="LIST",
                   help="run every server once per count, e.g. 1,2,4: variants '<name> io<N>' "
                        "with --io-threads N (default 1: no flag, plain names)")
    p.add_argument("--plinth-args", default="", metavar="ARGS",
                   help="extra arguments for every plinth variant (shell-split), e.g. "
                        "'--io-threads-adaptive no'")
    p.add_argument("--variant", action="append", default=[], type=variant_arg,
                   metavar="NAME=EXTRA_ARGS",
                   help="one more plinth variant with these extra arguments (repeatable), e.g. "
                        "'plinth-spin=--io-threads-park no'")
    p.add_argument("--cases", metavar="REGEX",
                   help="only the throughput cases whose name matches, e.g. '^(GET|SET) 512B'")
    p.add_argument("--compare", metavar="RESULTS_DIR",
                   help="count how many medians fall inside that earlier run's min-max")
    p.add_argument("--publish", action="store_true",
                   help="copy summary.png to docs/performance.png")
    p.add_argument("--report-only", metavar="RESULTS_DIR",
                   help="measure nothing: redo the report of an earlier results folder")
    a = p.parse_args(argv)
    if a.smoke:
        a.reps, a.scale, a.memory_keys = 1, 0.01, 20000
        a.rates, a.fixed_duration, a.callgrind_requests = "0,1000", 0.5, 300
    for name in ("out", "build_dir", "plinth_server", "loadgen", "plugin_dir", "redis_server",
                 "redis_benchmark", "compare", "report_only"):
        if getattr(a, name):  # servers run in their own folders: no relative paths
            setattr(a, name, os.path.abspath(getattr(a, name)))
    a.server = [s.partition("=")[0] + "=" + os.path.abspath(s.partition("=")[2])
                if "=" in s else s for s in a.server]
    a.skip = {s for s in a.skip.split(",") if s}
    bad = a.skip - set(PHASES)
    if bad:
        p.error("unknown phase(s) in --skip: %s" % ",".join(sorted(bad)))
    cpus = os.sched_getaffinity(0)
    for flag, cpu in (("--server-cpu", a.server_cpu), ("--client-cpu", a.client_cpu)):
        missing = cpus_in(cpu) - cpus
        if missing and len(cpus) >= 2:  # with fewer, nothing is pinned anyway
            p.error("%s %s: CPU %s not available here (this process may use %s)" % (
                flag, cpu, ",".join(map(str, sorted(missing))), ",".join(map(str, sorted(cpus)))))
    a.plinth_args = shlex.split(a.plinth_args)
    a.cases_re = None
    if a.cases:
        try:
            a.cases_re = re.compile(a.cases)
        except re.error as e:
            p.error("--cases: %s" % e)
        known = cases.throughput_cases() + cases.sweep_cases()
        if not any(a.cases_re.search(c.name) for c in known):
            p.error("--cases %r matches none of: %s" % (a.cases, ", ".join(
                c.name for c in known)))
    names = [v[0] for v in a.variant]
    if len(set(names)) != len(names) or "plinth" in names:
        p.error("--variant names must differ from each other and from 'plinth'")
    return a


def build(a, log):
    """Configures and builds a release build into a.build_dir (unless --no-build)."""
    if a.no_build or a.plinth_server:
        return
    gen = ["-G", "Ninja"] if shutil.which("ninja") else []
    steps = [["cmake", "-S", ROOT, "-B", a.build_dir] + gen +
             ["-DCMAKE_BUILD_TYPE=Release", "-DPLINTH_BUILD_TESTS=OFF",
              "-DPLINTH_BUILD_BENCH=ON"],
             ["cmake", "--build", a.build_dir, "-j", str(os.cpu_count() or 2)]]
    for cmd in steps:
        print("$ " + " ".join(cmd), flush=True)
        log.write("$ %s\n" % " ".join(cmd))
        log.flush()
        if subprocess.run(cmd, stdout=log, stderr=subprocess.STDOUT).returncode != 0:
            raise SystemExit("build failed; see %s" % log.name)


class Tools:
    """Binaries and pinning shared by every case."""

    def __init__(self, a, cpus):
        """cpus: the CPUs this process may use; with fewer than 2 nothing is pinned."""
        self.redis_benchmark = a.redis_benchmark
        self.loadgen = a.loadgen or os.path.join(a.build_dir, "bin", "plinth-loadgen")
        self.pinned = len(cpus) >= 2
        self.server_cpu = a.server_cpu if self.pinned else None
        self.client_cpu = a.client_cpu if self.pinned else None
        self.case_timeout = 120 if a.smoke else 900

    def pinning(self, max_threads):
        """The environment table's line about pinning; max_threads: the most IO threads of a
        variant."""
        if not self.pinned:
            return "none (fewer than 2 CPUs)"
        where = lambda cpu: "unpinned" if cpu is None else "on CPU %s" % cpu
        text = "server %s, load generators %s" % (where(self.server_cpu),
                                                  where(self.client_cpu))
        warn = []
        n = len(cpus_in(self.server_cpu))
        if self.server_cpu is not None and max_threads > n:
            warn.append("up to %d IO threads share the server's %d CPU%s" % (
                max_threads, n, "" if n == 1 else "s"))
        if cpus_in(self.server_cpu) & cpus_in(self.client_cpu):
            warn.append("server and load generators share CPUs")
        return text + ("" if not warn else " (%s)" % "; ".join(warn))


def server_specs(a):
    """The servers to run, each once per --io-threads count (see servers.io_variants): plinth,
    the --variant plinth variants, Debian's redis-server, the anchors and every --server."""
    plinth = a.plinth_server or os.path.join(a.build_dir, "bin", "plinth-server")
    args, note = plinth_plugin_args(a.plinth_plugins, plinth, a.plugin_dir)
    base = ServerSpec("plinth", "plinth", plinth, args, note).variant("plinth", a.plinth_args)
    specs = [base] + [base.variant(name, extra) for name, extra in a.variant]
    if not a.no_redis:
        if a.redis_server and os.path.exists(a.redis_server):
            specs.append(ServerSpec("redis", "redis", a.redis_server))
        else:
            print("warning: no redis-server found; running without the baseline")
    if not a.no_anchors:
        for name, rel in ANCHORS:
            path = os.path.join(a.anchors, rel)
            if os.access(path, os.X_OK):
                specs.append(ServerSpec(name, "redis", path))
    for s in a.server:
        name, _, path = s.partition("=")
        if not name or not path:
            raise SystemExit("--server wants NAME=PATH, got %r" % s)
        spec = ServerSpec(name, "redis", path)
        if spec.version().startswith("plinth-server"):  # another Plinth build, for before/after
            spec = ServerSpec(name, "plinth", path).variant(name, a.plinth_args)
        specs.append(spec)
    names = [s.name for s in specs]
    if len(set(names)) != len(names):
        raise SystemExit("two servers are named alike: %s" % ", ".join(names))
    variants = io_variants(specs, a.io_threads)
    if a.io_threads != [1]:
        for s in {s.path: s for s in specs}.values():
            if not s.knows_option("io-threads"):
                print("warning: %s does not list --io-threads in --help; its io variants "
                      "will fail to start" % s.path)
    return variants


def environment(a, specs, tools):
    def cmd(argv):
        try:
            return subprocess.run(argv, capture_output=True, text=True, timeout=10,
                                  cwd=ROOT).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            return ""
    model = ""
    if os.path.exists("/proc/cpuinfo"):
        with open("/proc/cpuinfo") as f:
            model = next((l.split(":", 1)[1].strip() for l in f if l.startswith("model name")),
                         "")
    dirty = " (with uncommitted changes)" if cmd(["git", "status", "--porcelain"]) else ""
    env = {
        "date": datetime.datetime.now().strftime("%Y-%m-%d %H:%M"),
        "machine": "%s, %d CPUs, %s" % (model, os.cpu_count() or 0, platform.release()),
        "commit": (cmd(["git", "rev-parse", "--short", "HEAD"]) or "?") + dirty,
        "servers": "; ".join(dict.fromkeys(
            "%s%s" % (s.version(), " (%s)" % s.note if s.note else "") for s in specs)),
        "pinning": tools.pinning(max_io_threads(specs)),
        "repetitions": str(a.reps),
        "command": shlex.join([os.path.relpath(sys.argv[0], ROOT)] + sys.argv[1:]),
        "load average at start": " ".join("%.2f" % x for x in os.getloadavg()),
    }
    if any(s.added for s in specs):
        env["variants"] = "; ".join("%s: %s" % (s.name, shlex.join(s.added) or "as is")
                                    for s in specs)
    if a.cases:
        env["throughput cases"] = "matching %s" % a.cases
    return env


def max_io_threads(specs):
    """The largest --io-threads count on any spec's command line (1 when none names one)."""
    top = 1
    for s in specs:
        for i, arg in enumerate(s.extra_args[:-1]):
            if arg == "--io-threads" and s.extra_args[i + 1].isdigit():
                top = max(top, int(s.extra_args[i + 1]))
    return top


def run_matrix(a, specs, tools, out, log, errors, notes):
    rows = []
    rates = [float(r) for r in a.rates.split(",") if r != ""]
    for rep in range(a.reps):
        order = specs if rep % 2 == 0 else list(reversed(specs))
        for spec in order:
            def start(tag):
                return RunningServer(spec, os.path.join(out, "work", "%s-%d-%s" % (
                    slug(spec.name), rep, tag)), os.path.join(out, "logs", "%s.log" %
                                                              slug(spec.name)),
                    tools.server_cpu)
            phases = []
            if "throughput" not in a.skip:
                phases.append(("throughput", lambda s: cases.throughput(tools, s, a.scale, log,
                                                                        a.cases_re)))
            if "suite" not in a.skip:  # a fresh server: the suite's keys start empty
                phases.append(("suite", lambda s: cases.default_suite(tools, s, a.scale, log)))
            if "memory" not in a.skip or "fixed" not in a.skip:
                def mem_fixed(s):
                    r = [] if "memory" in a.skip else cases.memory(s, a.memory_keys)
                    if "fixed" not in a.skip:
                        r += cases.fixed_rate(tools, s, rates, a.fixed_conns,
                                              a.fixed_duration, log, notes)
                    return r
                phases.append(("memory+fixed", mem_fixed))
            if "memory" not in a.skip:  # a fresh server: the 16-byte keys would be counted
                phases.append(("memory 512B", lambda s: cases.memory(s, a.memory_keys, 512)))
            if "large" not in a.skip:  # fresh servers: nothing else in their buffers
                phases.append(("mixed load", lambda s: large.mixed_load(
                    tools, s, log, duration=a.fixed_duration)))
                phases.append(("unread replies", lambda s: large.pending_memory(s)))
            if "saturate" not in a.skip:
                phases.append(("saturate", lambda s: large.saturate(
                    tools, s, log, duration=a.fixed_duration)))
            for tag, fn in phases:
                print("rep %d/%d: %s: %s" % (rep + 1, a.reps, spec.name, tag), flush=True)
                try:
                    with start(tag) as server:
                        got = fn(server)
                    rows += [dict(r, server=spec.name, rep=rep) for r in got]
                except Exception as e:  # one failing phase must not lose the others
                    errors.append("%s %s rep %d: %s" % (spec.name, tag, rep, e))
                    traceback.print_exc(file=log)
                finally:
                    shutil.rmtree(os.path.join(out, "work"), ignore_errors=True)
    return rows


def run_callgrind(a, specs, tools, out, log, errors):
    if "callgrind" in a.skip:
        return []
    if not (shutil.which("valgrind") and shutil.which("callgrind_control")):
        print("valgrind not installed: skipping the instruction counts")
        return []
    rows = []
    for spec in specs:
        print("callgrind: %s" % spec.name, flush=True)
        work = os.path.join(out, "work", "%s-callgrind" % slug(spec.name))
        wrapper = ["valgrind", "--tool=callgrind", "--callgrind-out-file=%s" %
                   os.path.join(work, "callgrind.out.%p")]
        factory = lambda: RunningServer(spec, work, os.path.join(out, "logs", "%s.log" %
                                                                 slug(spec.name)),
                                        tools.server_cpu, wrapper=wrapper, ready_timeout=120)
        try:
            got = cases.callgrind(tools, factory, a.callgrind_requests, log)
            rows += [dict(r, server=spec.name, rep=0) for r in got]
        except Exception as e:
            errors.append("%s callgrind: %s" % (spec.name, e))
            traceback.print_exc(file=log)
        finally:
            shutil.rmtree(os.path.join(out, "work"), ignore_errors=True)
    return rows


PUBLISHED_PNG = os.path.join(ROOT, "docs", "performance.png")


def main(argv):
    a = parse_args(argv)
    if a.report_only:
        results.rewrite(a.report_only, a.compare, PUBLISHED_PNG if a.publish else None)
        print("rewrote %s" % os.path.join(a.report_only, "results.md"))
        return 0
    temp = None
    out = a.out
    if not out:
        if a.smoke:
            out = temp = tempfile.mkdtemp(prefix="plinth-bench-smoke-")
        else:
            out = os.path.join(ROOT, "bench", "results",
                               datetime.datetime.now().strftime("%Y-%m-%d_%H%M%S"))
    report.ensure_dir(os.path.join(out, "logs"))
    log = open(os.path.join(out, "logs", "harness.log"), "a")
    build(a, log)
    if not a.redis_benchmark:
        raise SystemExit("redis-benchmark not found (Debian package redis-tools)")
    tools = Tools(a, os.sched_getaffinity(0))
    specs = server_specs(a)
    for s in specs:
        if not os.path.exists(s.path):
            raise SystemExit("%s: %s does not exist" % (s.name, s.path))
    env = environment(a, specs, tools)
    errors = []
    started = time.monotonic()
    micro_rows = []
    if a.micro:
        try:
            micro_rows = micro.run(os.path.join(a.build_dir, "bench"), a.reps,
                                   0.01 if a.smoke else 0.5, tools.server_cpu, log)
        except Exception as e:
            errors.append("micro-benchmarks: %s" % e)
    notes = []
    rows = run_matrix(a, specs, tools, out, log, errors, notes)
    rows += run_callgrind(a, specs, tools, out, log, errors)
    env["duration"] = "%.0f s" % (time.monotonic() - started)
    env["load average at end"] = " ".join("%.2f" % x for x in os.getloadavg())
    meta = {"env": env, "notes": notes, "errors": errors, "micro": micro_rows,
            "servers": [s.name for s in specs]}
    servers = results.servers_of(rows, [s.name for s in specs])
    written = results.write(out, rows, servers, meta, a.compare,
                            PUBLISHED_PNG if a.publish else None)
    log.close()
    print("results: %s (results.md, summary.csv, raw.csv%s)" % (
        out, "".join(", " + os.path.basename(p) for p in written)))
    for e in errors:
        print("error: " + e, file=sys.stderr)
    if temp and not errors:
        shutil.rmtree(temp, ignore_errors=True)
    return 1 if errors or not rows else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
