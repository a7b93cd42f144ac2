#!/usr/bin/env python3
"""maxmemory and eviction side by side: plinth-server, Debian's redis-server 7.0 and any
--server NAME=PATH (Valkey 9.1.2, Redis 8.0.6), each pinned to CPU 0 with the load on CPU 1,
persistence off, started with --maxmemory and --maxmemory-policy.

- cache: allkeys-lru under --maxmemory (100mb). redis-benchmark SETs 1 KiB values at random
  keys covering 10x maxmemory (50 clients, pipelines of 16) for --duration seconds, in chunks of
  a few seconds; every second the server's RSS (VmRSS), INFO used_memory and evicted_keys are
  sampled. Reported: peak RSS / maxmemory (over the whole case, and over the SET load alone,
  before the GET clients join), final RSS / maxmemory, peak used_memory / maxmemory, evicted keys,
  error replies (redis-benchmark stops at the first one; the server's total_error_replies too),
  the median SET rate, and the GET rate (the same keyspace, 50 clients, pipelines of 16;
  median of --reps runs) while the SET load goes on, with its ratio to redis7.
- hitratio: a cache-aside replay of one Zipf trace (--keys, --ops, --alpha, drawn once from
  random.Random(--seed)): GET each key, SET a --value-size value on a miss, 256 GETs to a
  pipelined batch on one connection. maxmemory fits about --hit-fraction of the keys unless
  --hit-maxmemory says otherwise. Hit ratio (hits / GETs after the first --warmup of the
  trace) per server and --policies, and its difference in points from redis7.

Prints Markdown tables and writes eviction.csv (and the cache samples, eviction-samples.csv)
into --out."""

import argparse
import bisect
import csv
import itertools
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from array import array

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import resp  # noqa: E402
from servers import RunningServer, ServerSpec, pin, plinth_plugin_args, slug  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SERVER_CPU, CLIENT_CPU = "0", "1"
BASELINE = "redis7"
BATCH = 256  # GETs per pipelined batch of the hit-ratio replay
CHUNK_S = 5.0  # seconds of SETs per redis-benchmark run of the cache load
UNITS = {"": 1, "k": 1000, "kb": 1024, "m": 10**6, "mb": 2**20, "g": 10**9, "gb": 2**30}


def size(text):
    """A memory size as redis.conf writes it (100mb, 1g, 12345) in bytes."""
    m = re.fullmatch(r"(\d+)([kmg]?b?)", text.strip().lower())
    if not m or m.group(2) == "b":
        raise argparse.ArgumentTypeError("not a size: %r" % text)
    return int(m.group(1)) * UNITS[m.group(2)]


def bench(rb, port, args):
    """One redis-benchmark run on the client CPU. Returns {test: {field: float}} from --csv."""
    out = subprocess.run(pin(CLIENT_CPU, [rb, "-h", "127.0.0.1", "-p", str(port), "--csv"] +
                             args), capture_output=True, text=True, timeout=900)
    rows = list(csv.reader(out.stdout.splitlines()))
    if out.returncode or len(rows) < 2:
        raise RuntimeError("redis-benchmark failed: %s" % (out.stderr or out.stdout)[-500:])
    return {r[0]: {h: float(v) for h, v in zip(rows[0][1:], r[1:])} for r in rows[1:]}


def info(port, section):
    reply = resp.command(port, "INFO", section)
    text = reply.decode() if isinstance(reply, bytes) else str(reply)
    return dict(line.split(":", 1) for line in text.split("\r\n") if ":" in line)


def number(fields, name):
    """An INFO field as an int, None where the server does not report it."""
    v = fields.get(name)
    return int(v) if v is not None and v.strip().lstrip("-").isdigit() else None


class SetLoad:
    """redis-benchmark SETs of 1 KiB values at random keys of the keyspace, run after run of
    about CHUNK_S seconds each, until stop(). rates: req/s of each completed run; errors: the
    'Error from server' lines (redis-benchmark exits at the first error reply)."""

    def __init__(self, rb, port, keyspace):
        self.rb, self.port, self.keyspace = rb, port, keyspace
        self.rates, self.errors, self.failure = [], [], None
        self.n, self.proc = 20000, None
        self.halt, self.lock = threading.Event(), threading.Lock()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        while not self.halt.is_set():
            argv = pin(CLIENT_CPU, [self.rb, "-h", "127.0.0.1", "-p", str(self.port), "--csv",
                                    "-t", "set", "-d", "1024", "-r", str(self.keyspace),
                                    "-n", str(self.n), "-c", "50", "-P", "16"])
            with self.lock:
                if self.halt.is_set():
                    return
                self.proc = subprocess.Popen(argv, stdout=subprocess.PIPE,
                                             stderr=subprocess.PIPE, text=True)
            out, err = self.proc.communicate()
            if self.halt.is_set():
                return  # cut short by stop(): neither a rate nor an error
            errors = [x for x in (out + err).splitlines() if x.startswith("Error from server")]
            self.errors += errors
            rows = list(csv.reader(out.splitlines()))
            if self.proc.returncode == 0 and len(rows) > 1:
                rps = float(rows[1][1])
                self.rates.append(rps)
                self.n = max(10000, int(rps * CHUNK_S))
            elif errors:
                time.sleep(0.1)  # an error reply ends the run at once: do not spin
            else:
                self.failure = "redis-benchmark failed: %s" % (err or out)[-500:]
                return

    def stop(self):
        with self.lock:
            self.halt.set()
            if self.proc is not None and self.proc.poll() is None:
                self.proc.terminate()
        self.thread.join()


class Sampler:
    """Every interval seconds: (seconds since start, VmRSS, used_memory, evicted_keys,
    total_error_replies) of a running server."""

    def __init__(self, srv, interval=1.0):
        self.srv, self.interval, self.t0 = srv, interval, time.monotonic()
        self.samples, self.halt = [], threading.Event()
        self.sample()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def sample(self):
        mem, stats = info(self.srv.port, "memory"), info(self.srv.port, "stats")
        self.samples.append((time.monotonic() - self.t0, self.srv.rss_bytes(),
                             number(mem, "used_memory"), number(stats, "evicted_keys"),
                             number(stats, "total_error_replies")))

    def run(self):
        while not self.halt.wait(self.interval):
            self.sample()

    def stop(self):
        self.halt.set()
        self.thread.join()
        self.sample()


def row(name, case, value, unit, runs=""):
    return {"server": name, "case": case, "value": value, "unit": unit, "runs": runs}


def cache_case(spec, a, work, log, rows, samples):
    mm, name = a.maxmemory, spec.name
    keyspace = 10 * mm // 1024
    v = spec.variant(name, ["--maxmemory", str(mm), "--maxmemory-policy", "allkeys-lru"])
    shutil.rmtree(work, ignore_errors=True)
    with RunningServer(v, work, log, SERVER_CPU) as srv:
        sampler = Sampler(srv)
        load = SetLoad(a.redis_benchmark, srv.port, keyspace)
        try:
            end = time.monotonic() + a.duration
            while time.monotonic() < end and load.failure is None:
                time.sleep(0.2)
            gets = []
            for _ in range(a.reps if load.failure is None else 0):
                r = bench(a.redis_benchmark, srv.port, ["-t", "get", "-d", "1024", "-r",
                                                        str(keyspace), "-n", str(a.get_requests),
                                                        "-c", "50", "-P", "16"])
                gets.append(next(iter(r.values()))["rps"])
        finally:
            load.stop()
            sampler.stop()
    if load.failure:
        raise RuntimeError(load.failure)
    s = sampler.samples
    samples += [[name] + list(x) for x in s]
    used = [x[2] for x in s if x[2] is not None]
    errs = [x[4] for x in s if x[4] is not None]
    set_only = [x[1] for x in s if x[0] <= a.duration] or [s[0][1]]
    rows += [
        row(name, "cache max RSS / maxmemory", max(x[1] for x in s) / mm, "x"),
        row(name, "cache max RSS during the SETs alone / maxmemory", max(set_only) / mm, "x"),
        row(name, "cache final RSS / maxmemory", s[-1][1] / mm, "x"),
        row(name, "cache max used_memory / maxmemory", max(used) / mm if used else None, "x"),
        row(name, "cache evicted keys", s[-1][3], "keys"),
        row(name, "cache error replies", errs[-1] - errs[0] if errs else len(load.errors),
            "replies", "%d redis-benchmark runs stopped by one%s" % (
                len(load.errors), "" if errs else "; no total_error_replies in INFO")),
        row(name, "cache SET req/s", statistics.median(load.rates) if load.rates else None,
            "req/s", "%d runs" % len(load.rates)),
        row(name, "cache GET req/s during eviction", statistics.median(gets), "req/s",
            " ".join("%.0f" % x for x in gets)),
    ]
    for r in rows[-8:]:
        print("%s %s: %s %s %s" % (name, r["case"], fmt(r["value"]), r["unit"], r["runs"]),
              flush=True)


def zipf_trace(keys, ops, alpha, seed):
    """ops key ids drawn from a Zipf(alpha) popularity over keys ids, by inverse CDF. The
    popularity ranks are shuffled over the ids, all from random.Random(seed)."""
    rng = random.Random(seed)
    cdf = list(itertools.accumulate(1.0 / (i + 1) ** alpha for i in range(keys)))
    ids = list(range(keys))
    rng.shuffle(ids)
    total, last = cdf[-1], keys - 1
    return array("l", (ids[min(bisect.bisect_left(cdf, rng.random() * total), last)]
                       for _ in range(ops)))


def replay(port, trace, a):
    """The cache-aside replay of trace. Returns (hits, GETs) counted after the warm-up."""
    keys = [b"zipf:%d" % k for k in range(a.keys)]
    get = [resp.encode("GET", k) for k in keys]
    setp = [b"*3\r\n$3\r\nSET\r\n$%d\r\n%s\r\n" % (len(k), k) for k in keys]
    value = b"$%d\r\n%s\r\n" % (a.value_size, b"v" * a.value_size)
    warm = int(len(trace) * a.warmup)
    hits = gets = 0
    with resp.connect(port, timeout=120.0) as s:
        reader = resp.Reader(s)
        for start in range(0, len(trace), BATCH):
            batch = trace[start:start + BATCH]
            s.sendall(b"".join([get[k] for k in batch]))
            missed = []
            for i, k in enumerate(batch):
                r = reader.reply()
                if isinstance(r, resp.ReplyError):
                    raise RuntimeError("GET refused: %s" % r)
                if r is None:
                    missed.append(k)
                if start + i >= warm:
                    gets += 1
                    hits += r is not None
            missed = list(dict.fromkeys(missed))
            if missed:
                s.sendall(b"".join([setp[k] + value for k in missed]))
                for _ in missed:
                    r = reader.reply()
                    if isinstance(r, resp.ReplyError):
                        raise RuntimeError("SET refused: %s" % r)
    return hits, gets


def hitratio_case(spec, a, trace, work, log, rows):
    for policy in a.policies:
        extra = ["--maxmemory", str(a.hit_maxmemory), "--maxmemory-policy", policy]
        if spec.knows_option("maxmemory-samples"):
            extra += ["--maxmemory-samples", str(a.maxmemory_samples)]
        shutil.rmtree(work, ignore_errors=True)
        with RunningServer(spec.variant(spec.name, extra), work, log, SERVER_CPU) as srv:
            t0 = time.monotonic()
            hits, gets = replay(srv.port, trace, a)
            secs = time.monotonic() - t0
            evicted = number(info(srv.port, "stats"), "evicted_keys")
            held = resp.command(srv.port, "DBSIZE")
        rows.append(row(spec.name, "hit ratio %s" % policy, 100.0 * hits / max(gets, 1), "%",
                        "evicted %s, %s keys held, %.0f ops/s" % (
                            "n/a" if evicted is None else evicted, held, len(trace) / secs)))
        print("%s hit ratio %s: %.2f %% (%s)" % (spec.name, policy, rows[-1]["value"],
                                                 rows[-1]["runs"]), flush=True)


def fmt(v, digits=3):
    """Counts and rates as integers, ratios with digits decimals."""
    if v is None:
        return "n/a"
    if isinstance(v, int) or v >= 1000:
        return "%.0f" % v
    return "%.*f" % (digits, v)


def report(rows, names, a):
    val = {(r["server"], r["case"]): r["value"] for r in rows}
    if "cache" in a.cases:
        cols = ["max RSS / maxmemory", "max RSS during the SETs alone / maxmemory",
                "final RSS / maxmemory", "max used_memory / maxmemory",
                "evicted keys", "error replies", "SET req/s", "GET req/s during eviction"]
        base = val.get((BASELINE, "cache GET req/s during eviction"))
        print("\ncache: allkeys-lru, maxmemory %d bytes, SETs of 1 KiB over %d keys for %g s"
              % (a.maxmemory, 10 * a.maxmemory // 1024, a.duration))
        print("\n| server | " + " | ".join(cols) + " | GET vs %s |" % BASELINE)
        print("|---|" + "---|" * (len(cols) + 1))
        for n in names:
            if (n, "cache SET req/s") not in val:
                continue
            get = val[(n, "cache GET req/s during eviction")]
            print("| %s | %s | %s |" % (n, " | ".join(fmt(val[(n, "cache " + c)]) for c in cols),
                                        "%.2f" % (get / base) if base and get else ""))
    if "hitratio" in a.cases:
        print("\nhitratio: %d ops over %d keys, Zipf %g, seed %d, %d-byte values, maxmemory %d "
              "bytes, maxmemory-samples %d, first %g of the ops not counted"
              % (a.ops, a.keys, a.alpha, a.seed, a.value_size, a.hit_maxmemory,
                 a.maxmemory_samples, a.warmup))
        head = "".join(" %s hit %% | vs %s |" % (p, BASELINE) for p in a.policies)
        print("\n| server |" + head)
        print("|---|" + "---|---|" * len(a.policies))
        for n in names:
            cells = []
            for p in a.policies:
                h, b = val.get((n, "hit ratio " + p)), val.get((BASELINE, "hit ratio " + p))
                cells += ["" if h is None else "%.2f" % h,
                          "" if h is None or b is None else "%+.2f" % (h - b)]
            print("| %s | %s |" % (n, " | ".join(cells)))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--plinth-server", default=os.path.join(ROOT, "build", "bin", "plinth-server"))
    p.add_argument("--plugin-dir", help="plugin folder for plinth-server")
    p.add_argument("--plinth-plugins", default="default",
                   help="'default', 'available' or a comma-separated list (as run.py)")
    p.add_argument("--no-plinth", action="store_true", help="do not run plinth-server")
    p.add_argument("--redis-server", default=shutil.which("redis-server") or "",
                   help="the baseline, run as redis7 ('' for none)")
    p.add_argument("--server", action="append", default=[], metavar="NAME=PATH")
    p.add_argument("--redis-benchmark", default=shutil.which("redis-benchmark") or "")
    p.add_argument("--cases", default="cache,hitratio", help="cache, hitratio or both")
    p.add_argument("--reps", type=int, default=3, help="GET runs during eviction")
    p.add_argument("--maxmemory", type=size, default="100mb", help="of the cache case")
    p.add_argument("--duration", type=float, default=600, help="seconds of SETs before the GETs")
    p.add_argument("--get-requests", type=int, default=1000000, help="GETs per run")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--keys", type=int, default=200000, help="keys of the Zipf trace")
    p.add_argument("--ops", type=int, default=2000000, help="GETs of the Zipf trace")
    p.add_argument("--alpha", type=float, default=0.99, help="Zipf exponent")
    p.add_argument("--value-size", type=int, default=1000)
    p.add_argument("--hit-fraction", type=float, default=0.15,
                   help="share of the keys that maxmemory should hold (default 0.15)")
    p.add_argument("--hit-maxmemory", type=size,
                   help="maxmemory of the hitratio case (default from --hit-fraction)")
    p.add_argument("--maxmemory-samples", type=int, default=5)
    p.add_argument("--policies", default="allkeys-lru,allkeys-lfu")
    p.add_argument("--warmup", type=float, default=0.1, help="share of the ops not counted")
    p.add_argument("--smoke", action="store_true",
                   help="tiny sizes (8mb, 5 s, 20k ops): checks that the script works")
    p.add_argument("--out", default=os.path.join(ROOT, "bench", "results",
                                                 time.strftime("eviction-%Y%m%d-%H%M%S")))
    a = p.parse_args()
    if a.smoke:
        a.reps, a.maxmemory, a.duration, a.get_requests = 1, 8 * 2**20, 5.0, 20000
        a.ops, a.keys = 20000, 10000
    a.cases = [c for c in a.cases.split(",") if c]
    a.policies = [x for x in a.policies.split(",") if x]
    if set(a.cases) - {"cache", "hitratio"}:
        p.error("unknown case in --cases")
    # About 100 bytes of keyspace overhead per key, and 1 MiB for the idle server.
    a.hit_maxmemory = a.hit_maxmemory or int(a.keys * a.hit_fraction * (a.value_size + 100)
                                             + 2**20)
    a.out = os.path.abspath(a.out)
    os.makedirs(a.out, exist_ok=True)
    specs = []
    if not a.no_plinth:
        path = os.path.abspath(a.plinth_server)
        args, note = plinth_plugin_args(a.plinth_plugins, path, a.plugin_dir and
                                        os.path.abspath(a.plugin_dir))
        specs.append(ServerSpec("plinth", "plinth", path, args, note))
    if a.redis_server:
        specs.append(ServerSpec(BASELINE, "redis", a.redis_server))
    for s in a.server:
        n, _, path = s.partition("=")
        specs.append(ServerSpec(n, "redis", os.path.abspath(path)))
    try:
        os.sched_setaffinity(0, {int(CLIENT_CPU)})  # the replay and the samplers
    except (AttributeError, OSError):
        pass
    trace = None
    if "hitratio" in a.cases:
        t0 = time.monotonic()
        trace = zipf_trace(a.keys, a.ops, a.alpha, a.seed)
        print("Zipf trace: %d ops over %d keys in %.1f s" % (a.ops, a.keys,
                                                             time.monotonic() - t0), flush=True)
    rows, samples, failed = [], [], []
    for spec in specs:
        work = tempfile.mkdtemp(prefix="ebench-", dir=a.out)
        log = os.path.join(a.out, "%s.log" % slug(spec.name))
        for case in a.cases:
            try:
                if case == "cache":
                    cache_case(spec, a, work, log, rows, samples)
                else:
                    hitratio_case(spec, a, trace, work, log, rows)
            except (RuntimeError, OSError) as e:
                failed.append("%s %s: %s" % (spec.name, case, e))
                print("FAILED " + failed[-1], flush=True)
        shutil.rmtree(work, ignore_errors=True)
    with open(os.path.join(a.out, "eviction.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, ["server", "case", "value", "unit", "runs"])
        w.writeheader()
        w.writerows(rows)
    if samples:
        with open(os.path.join(a.out, "eviction-samples.csv"), "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["server", "seconds", "rss", "used_memory", "evicted_keys",
                        "total_error_replies"])
            w.writerows(samples)
    report(rows, [s.name for s in specs], a)
    print("\nresults in %s" % a.out)
    if failed:
        sys.exit("failed:\n  " + "\n  ".join(failed))


if __name__ == "__main__":
    main()
