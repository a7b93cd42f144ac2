#!/usr/bin/env python3
"""RDMA over the software fabric: requests/s and server CPU per request for plinth-server
with the rdma plugin and for Valkey 9.1.2 with its RDMA module, side by side in one run,
driven by the same unmodified `valkey-benchmark --rdma`. The fabric (tests/rdma_fabric) moves
every byte through unix sockets and a progress thread per process, so these are software-
fabric figures: its cost is in both servers' numbers, and they say nothing about hardware.

    python3 bench/e2e/rdma.py --build-dir build-release --reps 3 --out bench/results/rdma1
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import resp  # noqa: E402
import servers  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
VALKEY = os.path.join("valkey-9.1.2", "valkey-server")
BENCH = os.path.join("valkey-9.1.2", "valkey-benchmark")
MODULE = os.path.join("valkey-9.1.2", "valkey-rdma.so")

# (name, valkey-benchmark arguments, arguments of an unmeasured run before it or None)
CASES = [
    ("PING c50", ["-c", "50", "-t", "ping_mbulk"], None),
    ("SET c50", ["-c", "50", "-t", "set"], None),
    ("GET c50", ["-c", "50", "-t", "get"], None),
    ("GET c50 P16", ["-c", "50", "-P", "16", "-t", "get"], None),
    ("GET 64KiB c10", ["-c", "10", "-t", "get"], ["-c", "10", "-d", "65536", "-t", "set"]),
]


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--build-dir", default=os.path.join(ROOT, "build"), type=os.path.abspath)
    p.add_argument("--fabric-dir", default=None, type=os.path.abspath,
                   help="the fabric's libraries (default <build-dir>/tests/rdma_fabric/lib)")
    p.add_argument("--anchors", default=os.path.join(os.path.dirname(ROOT), "shared", "anchors"))
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("-n", type=int, default=100000, help="requests per case")
    p.add_argument("--io-threads", type=int, default=1)
    p.add_argument("--server-cpu", default="0")
    p.add_argument("--client-cpu", default="1")
    p.add_argument("--out", default=None, help="folder for results.md and the logs")
    p.add_argument("--rate", type=float, default=20000,
                   help="fixed-rate GETs per second of plinth-loadgen --rdma (0: skip)")
    p.add_argument("--loadgen", default=None, type=os.path.abspath,
                   help="plinth-loadgen built with RDMA (default <build-dir>/bin/plinth-loadgen)")
    return p.parse_args()


def specs(a, rdma_port):
    plinth = servers.ServerSpec(
        "plinth", "plinth", os.path.join(a.build_dir, "bin", "plinth-server"),
        ["--plugin", "rdma", "--rdma-port", str(rdma_port), "--rdma-bind", "127.0.0.1",
         "--io-threads", str(a.io_threads)])
    valkey = servers.ServerSpec(
        "valkey9", "redis", os.path.join(a.anchors, VALKEY),
        ["--io-threads", str(a.io_threads), "--loadmodule", os.path.join(a.anchors, MODULE),
         "--rdma-port", str(rdma_port), "--rdma-bind", "127.0.0.1"])
    return [plinth, valkey]


def bench(a, rdma_port, args, log):
    argv = servers.pin(a.client_cpu, [os.path.join(a.anchors, BENCH), "--rdma", "-h",
                                      "127.0.0.1", "-p", str(rdma_port), "-n", str(a.n),
                                      "--csv"] + args)
    log.write("$ %s\n" % " ".join(argv))
    out = subprocess.run(argv, capture_output=True, text=True, timeout=600)
    log.write(out.stdout + out.stderr)
    rows = [line.split(",") for line in out.stdout.splitlines()]
    rows = [r for r in rows if len(r) >= 2 and r[0].strip('"') not in ("test", "")]
    if out.returncode != 0 or not rows or re.search(r"(?i)error", out.stderr):
        raise RuntimeError("valkey-benchmark --rdma failed (exit %d): %s" %
                           (out.returncode, out.stderr.strip()[-300:]))
    return float(rows[-1][1].strip('"'))


def fixed_rate(a, server, rdma_port, log):
    """(server CPU %, p99 us, held) of a fixed-rate GET run over RDMA; keys preloaded over TCP."""
    resp.load_keys(server.port, 0, 1000, "v" * 64)
    argv = servers.pin(a.client_cpu, [a.loadgen, "--rdma", "--port", str(rdma_port), "--rate",
                                      str(a.rate), "--conns", "50", "--duration", "5",
                                      "--warmup", "1", "--keys", "1000", "--server-pid",
                                      str(server.pid)])
    log.write("$ %s\n" % " ".join(argv))
    out = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    log.write(out.stdout + out.stderr)
    if out.returncode != 0:
        raise RuntimeError("plinth-loadgen --rdma failed: %s" % out.stderr.strip()[-300:])
    r = json.loads(out.stdout)
    return r["server_cpu_pct"], r["p99_us"], bool(r["held"])


def main():
    a = parse_args()
    fabric = a.fabric_dir or os.path.join(a.build_dir, "tests", "rdma_fabric", "lib")
    if not os.path.exists(os.path.join(fabric, "libibverbs.so.1")):
        sys.exit("no software fabric in %s (build the tests)" % fabric)
    if not os.path.exists(os.path.join(a.anchors, VALKEY)):
        sys.exit("no Valkey 9.1.2 under %s" % a.anchors)
    os.environ["LD_LIBRARY_PATH"] = fabric
    a.loadgen = a.loadgen or os.path.join(a.build_dir, "bin", "plinth-loadgen")
    out_dir = os.path.abspath(a.out or os.path.join(ROOT, "bench", "results", "rdma"))
    os.makedirs(out_dir, exist_ok=True)
    log = open(os.path.join(out_dir, "log.txt"), "w")
    results = {}  # (server, case) -> [(rps, cpu us per request)]
    for rep in range(a.reps):
        rdma_port = servers.free_port()
        for spec in specs(a, rdma_port):
            workdir = os.path.join(out_dir, "work", spec.name)
            with servers.RunningServer(spec, workdir, os.path.join(out_dir, spec.name + ".log"),
                                       a.server_cpu) as s:
                for name, args, setup in CASES:
                    if setup:
                        bench(a, rdma_port, setup, log)
                    cpu0 = s.cpu_seconds()
                    rps = bench(a, rdma_port, args, log)
                    cpu = s.cpu_seconds() - cpu0
                    results.setdefault((spec.name, name), []).append((rps, cpu / a.n * 1e6))
                    print("rep %d %-8s %-14s %10.0f req/s %7.2f us CPU/req" %
                          (rep + 1, spec.name, name, rps, cpu / a.n * 1e6), flush=True)
                if a.rate > 0:
                    fixed = fixed_rate(a, s, rdma_port, log)
                    results.setdefault((spec.name, "fixed"), []).append(fixed)
                    print("rep %d %-8s GET %d/s fixed: %.1f%% CPU, p99 %.0f us, held %s" %
                          (rep + 1, spec.name, a.rate, fixed[0], fixed[1], fixed[2]), flush=True)
    lines = ["# RDMA over the software fabric (valkey-benchmark --rdma, median of %d)" % a.reps,
             "", "io-threads %d; server on CPU %s, client on CPU %s; -n %d." %
             (a.io_threads, a.server_cpu, a.client_cpu, a.n), "",
             "| case | plinth req/s | valkey9 req/s | plinth / valkey9 | plinth CPU us/req |"
             " valkey9 CPU us/req |", "|---|---|---|---|---|---|"]
    for name, _, _ in CASES:
        p = [statistics.median(x) for x in zip(*results[("plinth", name)])]
        v = [statistics.median(x) for x in zip(*results[("valkey9", name)])]
        lines.append("| %s | %s | %s | %.2fx | %.2f | %.2f |" %
                     (name, "{:,.0f}".format(p[0]), "{:,.0f}".format(v[0]), p[0] / v[0], p[1],
                      v[1]))
    if a.rate > 0:
        lines += ["", "Fixed rate: plinth-loadgen --rdma, %d GET/s of 64-byte values over 50 "
                  "connections for 5 s (medians):" % a.rate, "",
                  "| server | server CPU (% of one core) | p99 us | held |", "|---|---|---|---|"]
        for server in ("plinth", "valkey9"):
            runs = results[(server, "fixed")]
            lines.append("| %s | %.1f | %.0f | %d of %d |" %
                         (server, statistics.median(r[0] for r in runs),
                          statistics.median(r[1] for r in runs), sum(r[2] for r in runs),
                          len(runs)))
    text = "\n".join(lines) + "\n"
    with open(os.path.join(out_dir, "results.md"), "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
