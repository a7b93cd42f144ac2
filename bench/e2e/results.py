"""Writes a results folder from the rows of a run: raw.csv, summary.csv, results.md, the PNG
plots and run.json (environment, notes, errors, micro-benchmarks), and can redo all of it later
from raw.csv and run.json alone (run.py --report-only)."""

import json
import os
import shutil

import cases
import micro
import plots
import report
from servers import io_family


def servers_of(rows, preferred=()):
    """Server names in rows: those of preferred first, in that order, then the rest."""
    seen = list(dict.fromkeys(r["server"] for r in rows))
    return [s for s in preferred if s in seen] + [s for s in seen if s not in preferred]


def baseline_of(servers):
    """The server the ratios compare with: Debian's redis-server ("redis"), or its variant
    with the fewest IO threads ("redis io1"), else the first server."""
    redis = sorted((io_family(s)[1] or 0, s) for s in servers if io_family(s)[0] == "redis")
    return redis[0][1] if redis else (servers[0] if servers else "")


def write(out, rows, servers, meta, compare_dir=None, publish_png=None):
    """Writes everything into out. meta: {"env": {..}, "notes": [..], "errors": [..],
    "micro": [..], "servers": [names in run order]}. Returns the PNG paths written."""
    baseline = baseline_of(servers)
    report.write_raw(os.path.join(out, "raw.csv"), rows)
    with open(os.path.join(out, "run.json"), "w") as f:
        json.dump(meta, f, indent=1)
    tp_cases = [c.name for c in cases.throughput_cases() + cases.sweep_cases()]
    summary = report.summarize(rows, servers, tp_cases)
    report.write_summary(os.path.join(out, "summary.csv"), summary, servers, baseline)
    fixed = list(dict.fromkeys(r["case"] for r in rows if r["metric"] == "server CPU"))
    written = plots.draw(out, summary, servers, baseline, tp_cases, fixed)
    written += plots.sweep(out, summary, servers, tp_cases)
    env = dict(meta["env"])
    spread = report.noise(summary)
    if spread:
        env["noise"] = ("throughput spread (max-min)/median over the repetitions: median %.0f%%, "
                        "worst %.0f%%" % (100 * spread[0], 100 * spread[1]))
    md = ["# Plinth benchmark results", ""]
    md += ["- **%s**: %s" % (k, v) for k, v in env.items()]
    md += ["", "Each cell: median (min–max) of the repetitions; ratios compare medians and say "
           "\"within noise\" when the min–max ranges overlap.", ""]
    if meta["errors"]:
        md += ["**Errors:**", ""] + ["- " + e for e in meta["errors"]] + [""]
    if compare_dir:
        md += ["### Against the earlier run %s" % os.path.basename(compare_dir.rstrip("/")), "",
               "| metric | medians inside the earlier min–max | ranges overlapping | "
               "median change of the medians |", "|---|---|---|---|"]
        earlier = os.path.join(compare_dir, "summary.csv")
        for metric, inside, overlap, total, shift in report.compare(summary, earlier):
            md.append("| %s | %d of %d | %d of %d | %.1f%% |" % (metric, inside, total, overlap,
                                                               total, 100 * shift))
        md.append("")
    md.append(report.markdown(summary, servers, baseline, set(fixed)))
    if meta["notes"]:
        md += ["Fixed-rate runs that missed their rate:", ""]
        md += ["- " + n for n in meta["notes"]] + [""]
    if meta["micro"]:
        md += ["### Micro-benchmarks (medians)", "", micro.markdown(meta["micro"])]
    md += ["![%s](%s)" % (os.path.basename(p), os.path.basename(p)) for p in written]
    with open(os.path.join(out, "results.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    if publish_png and os.path.exists(os.path.join(out, "summary.png")):
        shutil.copy(os.path.join(out, "summary.png"), publish_png)
    return written


def rewrite(out, compare_dir=None, publish_png=None):
    """Redoes summary.csv, results.md and the plots of an earlier results folder."""
    rows = report.read_raw(os.path.join(out, "raw.csv"))
    for r in rows:
        r["rep"] = int(r["rep"])
    with open(os.path.join(out, "run.json")) as f:
        meta = json.load(f)
    preferred = meta.get("servers") or ("plinth", "redis")
    return write(out, rows, servers_of(rows, preferred), meta, compare_dir, publish_png)
