#!/usr/bin/env python3
"""Persistence side by side: plinth-server, Debian's redis-server 7.0 and any --server
NAME=PATH (Valkey 9.1.2, Redis 8.0.6), each pinned to CPU 0 with redis-benchmark on CPU 1.

- SET throughput with appendonly no, appendfsync everysec and appendfsync always
  (redis-benchmark -t set, 50 clients, pipelines of 16 so the server is the bottleneck, random
  keys; medians of --reps runs);
- BGSAVE of --keys keys (100-byte values): wall time until the child is reaped, the server's
  RSS before, and the peak PSS of server plus child (sampled every 5 ms);
- GET latency (redis-benchmark's p50/p99) with no child running and while a BGSAVE of those
  keys runs.

Prints Markdown tables and writes persistence.csv into --out."""

import argparse
import csv
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import resp  # noqa: E402
from servers import RunningServer, ServerSpec  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def bench(rb, port, args):
    """One redis-benchmark run pinned to CPU 1. Returns {test: {field: float}} from --csv."""
    out = subprocess.run(["taskset", "-c", "1", rb, "-h", "127.0.0.1", "-p", str(port), "--csv"] +
                         args, capture_output=True, text=True, timeout=900)
    rows = list(csv.reader(out.stdout.splitlines()))
    if not rows:
        raise RuntimeError("redis-benchmark printed nothing: %s" % out.stderr[-500:])
    head = rows[0]
    return {r[0]: {h: float(v) for h, v in zip(head[1:], r[1:])} for r in rows[1:]}


def info(port, section):
    reply = resp.command(port, "INFO", section)
    text = reply.decode() if isinstance(reply, bytes) else str(reply)
    return dict(line.split(":", 1) for line in text.split("\r\n") if ":" in line)


def children(pid):
    try:
        with open("/proc/%d/task/%d/children" % (pid, pid)) as f:
            return [int(x) for x in f.read().split()]
    except OSError:
        return []


def pss(pid):
    """Proportional set size: pages a parent and its copy-on-write child share count half to
    each, so the sum over both is the memory they really use."""
    try:
        with open("/proc/%d/smaps_rollup" % pid) as f:
            for line in f:
                if line.startswith("Pss:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def fill(port, keys):
    """keys SETs of 100-byte values, through redis-cli --pipe."""
    value = "v" * 100
    cmds = "".join("*3\r\n$3\r\nSET\r\n$%d\r\nkey:%d\r\n$100\r\n%s\r\n" % (len("key:%d" % i), i,
                                                                         value)
                   for i in range(keys))
    subprocess.run(["redis-cli", "-p", str(port), "--pipe"], input=cmds.encode(),
                   capture_output=True, check=True, timeout=600)


def bgsave(port, pid):
    """Starts a BGSAVE and waits for it. Returns (seconds, peak PSS of server + child, the
    save's status)."""
    before = info(port, "persistence").get("rdb_saves")
    t0 = time.monotonic()
    resp.command(port, "BGSAVE")
    peak = 0
    while True:
        peak = max(peak, pss(pid) + sum(pss(c) for c in children(pid)))
        p = info(port, "persistence")
        if p.get("rdb_bgsave_in_progress") == "0" and p.get("rdb_saves") != before:
            return time.monotonic() - t0, peak, p.get("rdb_last_bgsave_status")
        if time.monotonic() - t0 > 600:
            raise RuntimeError("BGSAVE did not finish")
        time.sleep(0.005)


def get_latency(rb, port, keys, requests):
    r = bench(rb, port, ["-t", "get", "-n", str(requests), "-c", "10", "-r", str(keys)])
    row = next(iter(r.values()))
    return row["rps"], row["p50_latency_ms"], row["p99_latency_ms"]


def run_server(spec, a, out, rows):
    name = spec.name
    work = tempfile.mkdtemp(prefix="pbench-", dir=out)
    log = os.path.join(out, "%s.log" % name.replace(" ", "-"))
    # SET throughput per policy
    for policy in ("off", "everysec", "always"):
        extra = ["--appendonly", "no"] if policy == "off" else \
            ["--appendonly", "yes", "--appendfsync", policy]
        rates = []
        for rep in range(a.reps):
            shutil.rmtree(work, ignore_errors=True)
            with RunningServer(spec.variant(name, extra), work, log, "0") as srv:
                r = bench(a.redis_benchmark, srv.port, ["-t", "set", "-n", str(a.requests),
                                                        "-c", "50", "-P", "16", "-r", "1000000"])
                rates.append(next(iter(r.values()))["rps"])
        rows.append({"server": name, "case": "SET appendonly %s" % policy,
                     "value": statistics.median(rates), "unit": "req/s",
                     "runs": " ".join("%.0f" % x for x in rates)})
        print("%s SET %s: %s" % (name, policy, rows[-1]["runs"]), flush=True)
    if a.skip_bgsave:
        return
    # BGSAVE and GET latency with and without a child
    shutil.rmtree(work, ignore_errors=True)
    with RunningServer(spec, work, log, "0") as srv:
        fill(srv.port, a.keys)
        base = srv.rss_bytes()
        quiet = get_latency(a.redis_benchmark, srv.port, a.keys, a.get_requests)
        times, peaks = [], []
        for rep in range(a.reps):
            secs, peak, status = bgsave(srv.port, srv.pid)
            assert status == "ok", status
            times.append(secs)
            peaks.append(peak)
        # GETs while a BGSAVE runs: start it, then measure at once (the child takes ~1 s).
        during = []
        for rep in range(a.reps):
            resp.command(srv.port, "BGSAVE")
            during.append(get_latency(a.redis_benchmark, srv.port, a.keys, a.get_requests))
            while info(srv.port, "persistence").get("rdb_bgsave_in_progress") != "0":
                time.sleep(0.01)
        size = os.path.getsize(os.path.join(work, "dump.rdb"))
    rows += [
        {"server": name, "case": "BGSAVE %d keys" % a.keys, "value": statistics.median(times),
         "unit": "s", "runs": " ".join("%.2f" % x for x in times)},
        {"server": name, "case": "RSS with %d keys" % a.keys, "value": base / 2**20,
         "unit": "MiB", "runs": ""},
        {"server": name, "case": "peak PSS server+child during BGSAVE",
         "value": statistics.median(peaks) / 2**20, "unit": "MiB",
         "runs": " ".join("%.0f" % (x / 2**20) for x in peaks)},
        {"server": name, "case": "dump.rdb size", "value": size / 2**20, "unit": "MiB",
         "runs": ""},
        {"server": name, "case": "GET p99, no child", "value": quiet[2], "unit": "ms",
         "runs": "p50 %.3f, %.0f req/s" % (quiet[1], quiet[0])},
        {"server": name, "case": "GET p99 during BGSAVE",
         "value": statistics.median(x[2] for x in during), "unit": "ms",
         "runs": " ".join("%.3f" % x[2] for x in during)},
    ]
    for r in rows[-6:]:
        print("%s %s: %.3f %s (%s)" % (name, r["case"], r["value"], r["unit"], r["runs"]),
              flush=True)
    shutil.rmtree(work, ignore_errors=True)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--plinth-server", default=os.path.join(ROOT, "build", "bin", "plinth-server"))
    p.add_argument("--redis-server", default=shutil.which("redis-server") or "")
    p.add_argument("--server", action="append", default=[], metavar="NAME=PATH")
    p.add_argument("--redis-benchmark", default=shutil.which("redis-benchmark") or "")
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--requests", type=int, default=200000, help="SETs per throughput run")
    p.add_argument("--keys", type=int, default=1000000)
    p.add_argument("--get-requests", type=int, default=200000)
    p.add_argument("--skip-bgsave", action="store_true", help="only the SET throughput runs")
    p.add_argument("--out", default=os.path.join(ROOT, "bench", "results",
                                                 time.strftime("persistence-%Y%m%d-%H%M%S")))
    a = p.parse_args()
    os.makedirs(a.out, exist_ok=True)
    specs = [ServerSpec("plinth", "plinth", os.path.abspath(a.plinth_server))]
    if a.redis_server:
        specs.append(ServerSpec("redis7", "redis", a.redis_server))
    for s in a.server:
        n, _, path = s.partition("=")
        specs.append(ServerSpec(n, "redis", os.path.abspath(path)))
    rows = []
    for spec in specs:
        run_server(spec, a, a.out, rows)
    with open(os.path.join(a.out, "persistence.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, ["server", "case", "value", "unit", "runs"])
        w.writeheader()
        w.writerows(rows)
    cases = list(dict.fromkeys(r["case"] for r in rows))
    names = [s.name for s in specs]
    print("\n| case | " + " | ".join(names) + " |")
    print("|---|" + "---|" * len(names))
    for c in cases:
        vals = {r["server"]: r for r in rows if r["case"] == c}
        print("| %s | %s |" % (c, " | ".join("%.3g %s" % (vals[n]["value"], vals[n]["unit"])
                                             if n in vals else "" for n in names)))


if __name__ == "__main__":
    main()
