"""The benchmark matrix and how each kind of case is measured: redis-benchmark throughput with
the server's CPU per 100k requests (all threads, the main thread, the other threads) and the
main thread's ceiling (requests per main-thread CPU second), RSS per key, the fixed-rate
generator, and instructions per request under callgrind. Each function returns rows: dicts with
case, metric, unit, better ("higher" or "lower") and value."""

import csv
import glob
import hashlib
import io
import json
import os
import subprocess
import time

import resp
from servers import pin


class Case:
    """One redis-benchmark run: test name, pipeline depth, clients, value size, key space and
    request count. probe is the command that must exist on the server; preload names the keys
    it reads (see PRELOADS)."""

    def __init__(self, name, test, probe, pipeline, clients, size, keyspace, n, preload,
                 script=None):
        self.name, self.test, self.probe = name, test, probe
        self.pipeline, self.clients, self.size = pipeline, clients, size
        self.keyspace, self.n, self.preload = keyspace, n, preload
        self.script = script  # loaded with SCRIPT LOAD first; test is then a command line


# Scripts of the EVALSHA cases: one read, and a write with its TTL (a rate limiter's shape).
SCRIPTS = {"GET": "return redis.call('GET', KEYS[1])",
           "INCR+EXPIRE": "local n = redis.call('INCR', KEYS[1]) "
                          "redis.call('EXPIRE', KEYS[1], 1000) return n"}


def evalsha_case(label, pipeline, scale, preload):
    """The GET script reads the preloaded keys; INCR+EXPIRE counts under keys of its own."""
    body = SCRIPTS[label]
    sha = hashlib.sha1(body.encode()).hexdigest()
    key = "key:__rand_int__" if preload else "ctr:__rand_int__"
    return Case("EVALSHA %s P%d" % (label, pipeline), ["EVALSHA", sha, "1", key],
                "EVALSHA", pipeline, 50, 512, 100000, 100000 * scale, preload, script=body)


# Keys read by the GET cases: (count, value bytes), named key:%012d as redis-benchmark -r does.
PRELOADS = {"512B": (100000, 512), "64KiB": (1000, 64 << 10), "1MiB": (100, 1 << 20)}

# The value-size sweep of the reply path (docs/performance.md, "Zero-copy replies"): GET of
# one size per case, about 1.5 GB of replies each (300..100k requests). Run only when --cases
# names them ("sweep").
SWEEP_SIZES = [("64B", 64), ("512B", 512), ("4KiB", 4 << 10), ("16KiB", 16 << 10),
               ("64KiB", 64 << 10), ("256KiB", 256 << 10), ("1MiB", 1 << 20),
               ("4MiB", 4 << 20), ("16MiB", 16 << 20)]
for _label, _size in SWEEP_SIZES:
    PRELOADS["sweep " + _label] = (max(8, min(1000, (256 << 20) // _size)), _size)


def sweep_cases():
    cases = []
    for label, size in SWEEP_SIZES:
        count = PRELOADS["sweep " + label][0]
        n = max(300, min(100000, int(1.5e9 / size)))
        clients = 50 if size < (1 << 20) else 10
        cases.append(Case("sweep GET %s" % label, "get", "GET", 1, clients, size, count, n,
                          "sweep " + label))
    return cases


def throughput_cases():
    cases = []
    for p, scale in ((1, 1), (16, 4)):
        cases += [
            Case("PING P%d" % p, "ping_mbulk", "PING", p, 50, 3, None, 100000 * scale, None),
            Case("SET 512B P%d" % p, "set", "SET", p, 50, 512, 100000, 100000 * scale, None),
            Case("GET 512B P%d" % p, "get", "GET", p, 50, 512, 100000, 100000 * scale, "512B"),
            Case("INCR P%d" % p, "incr", "INCR", p, 50, 3, 100000, 100000 * scale, None),
            Case("MSET 10x512B P%d" % p, "mset", "MSET", p, 50, 512, 100000, 30000 * scale,
                 None),
            evalsha_case("GET", p, scale, "512B"),
            evalsha_case("INCR+EXPIRE", p, scale, None),
        ]
    cases.append(Case("GET 64KiB", "get", "GET", 1, 50, 512, 1000, 20000, "64KiB"))
    cases.append(Case("GET 1MiB", "get", "GET", 1, 10, 512, 100, 2000, "1MiB"))
    return cases


def supported_commands(port, names):
    """The subset of names the server knows (an unknown command gets an error naming it)."""
    probes = {"PING": ["PING"], "SET": ["SET", "bench:probe", "1"], "GET": ["GET", "bench:probe"],
              "INCR": ["INCR", "bench:probe:n"], "MSET": ["MSET", "bench:probe", "1"],
              "EVALSHA": ["EVALSHA", "0" * 40, "0"]}
    ok = set()
    for name in names:
        r = resp.command(port, *probes[name])
        if not (isinstance(r, resp.ReplyError) and "unknown command" in r):
            ok.add(name)
    return ok


def run_redis_benchmark(tools, server, case, n, log):
    """Runs one case against server; returns (rps, p50 ms, p99 ms, cpu seconds used, main-thread
    cpu seconds used)."""
    argv = [tools.redis_benchmark, "-h", "127.0.0.1", "-p", str(server.port), "-c",
            str(case.clients), "-n", str(n), "-P", str(case.pipeline), "-d", str(case.size),
            "--csv"]
    if case.keyspace:
        argv += ["-r", str(case.keyspace)]
    argv += case.test if isinstance(case.test, list) else ["-t", case.test]
    argv = pin(tools.client_cpu, argv)
    log.write("$ %s\n" % " ".join(argv))
    cpu0, main0 = server.cpu_seconds(), server.main_thread_cpu_seconds()
    out = subprocess.run(argv, capture_output=True, text=True, timeout=tools.case_timeout)
    cpu1, main1 = server.cpu_seconds(), server.main_thread_cpu_seconds()
    log.write(out.stdout + out.stderr)
    rows = [r for r in csv.reader(io.StringIO(out.stdout)) if len(r) >= 7 and r[0] != "test"]
    if out.returncode != 0 or not rows:
        raise RuntimeError("redis-benchmark failed for %s (exit %d)" % (case.name,
                                                                        out.returncode))
    r = rows[-1]
    return float(r[1]), float(r[4]), float(r[6]), cpu1 - cpu0, main1 - main0


def throughput(tools, server, scale, log, only=None):
    """Every throughput case (those whose name matches the regex only, when given) against one
    running server, preloading what the GETs read."""
    rows = []
    cases = [c for c in throughput_cases() if only is None or only.search(c.name)]
    if only is not None:  # the sweep only when asked for by name
        cases += [c for c in sweep_cases() if only.search(c.name)]
    known = supported_commands(server.port, sorted({c.probe for c in cases}))
    loaded = set()
    for case in cases:
        if case.probe not in known:
            log.write("skip %s: %s is an unknown command here\n" % (case.name, case.probe))
            continue
        if case.preload and case.preload not in loaded:
            count, size = PRELOADS[case.preload]
            resp.load_keys(server.port, 0, count, b"x" * size, batch=max(1, min(2000,
                           (8 << 20) // size)))
            loaded.add(case.preload)
        if case.script:
            resp.command(server.port, "SCRIPT", "LOAD", case.script)
        n = max(case.clients * case.pipeline * 2, int(case.n * scale))
        rps, p50, p99, cpu, main = run_redis_benchmark(tools, server, case, n, log)
        rows += [
            row(case.name, "throughput", "req/s", "higher", rps),
            row(case.name, "cpu per 100k", "CPU s / 100k req", "lower", cpu / n * 1e5),
            row(case.name, "main-thread cpu per 100k", "CPU s / 100k req", "lower",
                main / n * 1e5),
            row(case.name, "io-thread cpu per 100k", "CPU s / 100k req", "lower",
                max(0.0, cpu - main) / n * 1e5),
        ]
        if main > 0:  # under one 10 ms tick (tiny runs): no ceiling to report
            rows.append(row(case.name, "main-thread ceiling", "req/s", "higher", n / main))
        rows += [
            row(case.name, "p50 latency", "ms", "lower", p50),
            row(case.name, "p99 latency", "ms", "lower", p99),
        ]
    return rows


def default_suite(tools, server, scale, log, pipeline=16):
    """redis-benchmark's whole default suite (no -t: PING, SET, GET, INCR, the list, set, hash
    and sorted-set pushes and pops, LRANGE_100..600, MSET) at -P pipeline with 50 clients, as
    one run against a fresh server: each test's throughput, named "suite <TEST> P<pipeline>"."""
    n = max(50 * pipeline * 2, int(100000 * scale))
    argv = pin(tools.client_cpu, [tools.redis_benchmark, "-h", "127.0.0.1", "-p",
                                  str(server.port), "-n", str(n), "-P", str(pipeline), "--csv"])
    log.write("$ %s\n" % " ".join(argv))
    out = subprocess.run(argv, capture_output=True, text=True, timeout=tools.case_timeout * 4)
    log.write(out.stdout + out.stderr)
    got = [r for r in csv.reader(io.StringIO(out.stdout)) if len(r) >= 2 and r[0] != "test"]
    if out.returncode != 0 or len(got) < 15:
        raise RuntimeError("redis-benchmark default suite failed (exit %d, %d tests)" %
                           (out.returncode, len(got)))
    return [row("suite %s P%d" % (r[0], pipeline), "throughput", "req/s", "higher", float(r[1]))
            for r in got]


def memory(server, keys, value_bytes=16):
    """RSS growth after SETting keys keys with value_bytes-byte values into a fresh server."""
    time.sleep(0.2)
    before = server.rss_bytes()
    resp.load_keys(server.port, 0, keys, b"v" * value_bytes, key_format="mem:%012d")
    time.sleep(0.5)
    after = server.rss_bytes()
    name = "%s keys x %dB" % (human_count(keys), value_bytes)
    return [row(name, "RSS after load", "MiB", "lower", after / (1 << 20)),
            row(name, "RSS per key", "bytes", "lower", (after - before) / keys)]


def fixed_rate(tools, server, rates, conns, duration, log, notes):
    """The fixed-rate generator at each rate (0: idle connections) against one server. Why a
    rate was not held goes into notes."""
    rows = []
    for rate in rates:
        argv = pin(tools.client_cpu, [tools.loadgen, "--port", str(server.port), "--rate",
                                      str(rate), "--conns", str(conns), "--duration",
                                      str(duration), "--warmup", str(min(1.0, duration)),
                                      "--keys", "1000", "--preload", "16", "--server-pid",
                                      str(server.pid)])
        log.write("$ %s\n" % " ".join(argv))
        out = subprocess.run(argv, capture_output=True, text=True,
                             timeout=tools.case_timeout)
        log.write(out.stdout + out.stderr)
        if out.returncode != 0:
            raise RuntimeError("plinth-loadgen failed at rate %s: %s" % (rate,
                                                                         out.stderr.strip()))
        r = json.loads(out.stdout)
        name = "idle, %d conns" % conns if rate == 0 else "GET %s/s" % human_count(rate)
        if r["note"]:
            notes.append("%s, %s: %s" % (server.spec.name, name, r["note"]))
        rows.append(row(name, "server CPU", "% of a core", "lower", r["server_cpu_pct"]))
        if rate == 0:
            continue
        rows += [
            row(name, "p50 latency", "us", "lower", r["p50_us"]),
            row(name, "p99 latency", "us", "lower", r["p99_us"]),
            row(name, "p99.9 latency", "us", "lower", r["p999_us"]),
            row(name, "reply rate", "req/s", "higher", r["reply_rate"]),
            row(name, "rate held", "1 = within 2%", "higher", 1.0 if r["held"] else 0.0),
            row(name, "generator lag p99", "us", "lower", r["send_lag_p99_us"]),
        ]
    return rows


def callgrind(tools, server_factory, requests, log):
    """Instructions per SET and per GET (16-byte values, 50 clients) with the server under
    callgrind: counters are zeroed after a warm-up and dumped after each operation's run."""
    rows = []
    with server_factory() as server:
        warm = Case("warm-up", "set,get", "SET", 1, 10, 16, 1000, 0, None)
        run_redis_benchmark(tools, server, warm, 2000, log)
        for op in ("SET", "GET"):
            case = Case(op, op.lower(), op, 1, 50, 16, 1000, 0, None)
            subprocess.run(["callgrind_control", "-z", str(server.pid)], capture_output=True,
                           timeout=60)
            run_redis_benchmark(tools, server, case, requests, log)
            before = set(glob.glob(os.path.join(server.workdir, "callgrind.out.*")))
            subprocess.run(["callgrind_control", "-d", str(server.pid)], capture_output=True,
                           timeout=60)
            ir = newest_callgrind_total(server.workdir, before)
            rows.append(row("%s 16B (callgrind)" % op, "instructions per request", "Ir",
                            "lower", ir / requests))
    return rows


def newest_callgrind_total(workdir, before, timeout=30.0):
    """The event total of the dump callgrind writes after a dump request."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for path in set(glob.glob(os.path.join(workdir, "callgrind.out.*"))) - before:
            with open(path) as f:
                for line in f:
                    if line.startswith("summary:") or line.startswith("totals:"):
                        return float(line.split()[1])
        time.sleep(0.2)
    raise RuntimeError("callgrind wrote no dump in %s" % workdir)


def row(case, metric, unit, better, value):
    return {"case": case, "metric": metric, "unit": unit, "better": better, "value": value}


def human_count(n):
    n = int(n)
    if n >= 1000000 and n % 1000000 == 0:
        return "%dM" % (n // 1000000)
    if n >= 1000 and n % 1000 == 0:
        return "%dk" % (n // 1000)
    return str(n)
