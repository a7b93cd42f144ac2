"""Runs the Google Benchmark binaries (bench/micro) of a build and returns their medians, so the
end-to-end report can carry the micro-benchmark numbers of the same build."""

import glob
import json
import os
import subprocess


def run(bench_dir, reps, min_time, cpu, log):
    """[(binary, benchmark, items/s, bytes/s, cpu ns)] for every *_bench in bench_dir; medians
    of reps repetitions. cpu pins the benchmarks (None: unpinned)."""
    results = []
    for exe in sorted(glob.glob(os.path.join(bench_dir, "*_bench"))):
        argv = [exe, "--benchmark_format=json", "--benchmark_min_time=%g" % min_time,
                "--benchmark_repetitions=%d" % reps]
        if reps > 1:
            argv.append("--benchmark_report_aggregates_only=true")
        if cpu is not None:
            argv = ["taskset", "-c", str(cpu)] + argv
        log.write("$ %s\n" % " ".join(argv))
        out = subprocess.run(argv, capture_output=True, text=True, timeout=1800)
        log.write(out.stderr)
        if out.returncode != 0:
            raise RuntimeError("%s failed (exit %d)" % (exe, out.returncode))
        for b in json.loads(out.stdout)["benchmarks"]:
            if reps > 1 and b.get("aggregate_name") != "median":
                continue
            name = b.get("run_name", b["name"])
            results.append((os.path.basename(exe), name, b.get("items_per_second"),
                            b.get("bytes_per_second"), b.get("cpu_time")))
    return results


def si(v, unit):
    if v is None:
        return ""
    for scale, prefix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if v >= scale:
            return "%.2f %s%s" % (v / scale, prefix, unit)
    return "%.0f %s" % (v, unit)


def markdown(results):
    lines = ["| benchmark | items/s | bytes/s | CPU ns per iteration |", "|---|---|---|---|"]
    for exe, name, items, nbytes, cpu_ns in results:
        lines.append("| %s | %s | %s | %.1f |" % (name, si(items, "/s"), si(nbytes, "B/s"),
                                                  cpu_ns or 0))
    return "\n".join(lines) + "\n"
