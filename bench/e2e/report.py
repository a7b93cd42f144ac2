"""Turns the rows of a run into raw.csv (every repetition), summary.csv (median, min, max and
the ratio to the baseline server per case and metric) and results.md (Markdown tables)."""

import csv
import os
import statistics

RAW_FIELDS = ["server", "rep", "case", "metric", "unit", "better", "value"]


class Stat:
    """The repetitions of one (case, metric, server)."""

    def __init__(self, values):
        self.values = sorted(values)
        self.median = statistics.median(self.values)
        self.min = self.values[0]
        self.max = self.values[-1]

    def spread(self):
        """(max - min) / median, or 0."""
        return (self.max - self.min) / abs(self.median) if self.median else 0.0


def write_raw(path, rows):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=RAW_FIELDS)
        w.writeheader()
        for r in rows:
            w.writerow({k: r[k] for k in RAW_FIELDS})


def read_raw(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    for r in rows:
        r["value"] = float(r["value"])
    return rows


def summarize(rows, servers, case_order=()):
    """{(case, metric): {"unit", "better", "order", "stats": {server: Stat}}}. Cases named in
    case_order come in that order, the others after them in first-seen order."""
    out = {}
    rank = {c: i for i, c in enumerate(case_order)}
    for i, r in enumerate(rows):
        key = (r["case"], r["metric"])
        order = (rank.get(r["case"], len(rank)), i)
        entry = out.setdefault(key, {"unit": r["unit"], "better": r["better"], "order": order,
                                     "values": {}})
        entry["order"] = min(entry["order"], order)
        entry["values"].setdefault(r["server"], []).append(r["value"])
    for entry in out.values():
        entry["stats"] = {s: Stat(entry["values"][s]) for s in servers if s in entry["values"]}
    return out


def ratio(stats, server, baseline):
    if server not in stats or baseline not in stats or not stats[baseline].median:
        return None
    return stats[server].median / stats[baseline].median


def verdict(stats, server, baseline, better):
    """"better", "worse" or "within noise" (the min-max ranges overlap)."""
    a, b = stats[server], stats[baseline]
    if len(a.values) < 2 or len(b.values) < 2:
        return "one run"
    if a.min <= b.max and b.min <= a.max:
        return "within noise"
    wins = a.median > b.median if better == "higher" else a.median < b.median
    return "better" if wins else "worse"


def write_summary(path, summary, servers, baseline):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["case", "metric", "unit", "better", "server", "median", "min", "max", "reps",
                    "ratio_to_" + baseline])
        for (case, metric), e in summary.items():
            for s, st in e["stats"].items():
                r = ratio(e["stats"], s, baseline)
                w.writerow([case, metric, e["unit"], e["better"], s, "%.6g" % st.median,
                            "%.6g" % st.min, "%.6g" % st.max, len(st.values),
                            "" if r is None else "%.4f" % r])


def fmt(v):
    if v != v:  # NaN
        return "n/a"
    a = abs(v)
    if a >= 999.5:
        return "{:,.0f}".format(v)
    if a >= 100:
        return "%.0f" % v
    if a >= 10:
        return "%.1f" % v
    if a >= 1:
        return "%.2f" % v
    return "%.3f" % v


# Markdown sections: (title, metrics shown, as rows "case" or "case - metric").
SECTIONS = [
    ("Throughput, redis-benchmark, 50 clients (req/s, higher is better)", ["throughput"]),
    ("Server CPU seconds per 100k requests (lower is better)", ["cpu per 100k"]),
    ("Main thread's CPU seconds per 100k requests (lower is better; its inverse is the ceiling "
     "IO threads can lift throughput to)", ["main-thread cpu per 100k"]),
    ("redis-benchmark p99 latency (ms, lower is better)", ["p99 latency"]),
    ("Memory (lower is better)", ["RSS after load", "RSS per key"]),
    ("Fixed rate: server CPU (% of one core, lower is better)", ["server CPU"]),
    ("Fixed rate: latency from write to reply (us, lower is better)",
     ["p50 latency", "p99 latency", "p99.9 latency"]),
    ("Fixed rate: did the generator hold the rate? (reply rate req/s; held = within 2%) and "
     "how late did it send (p99 lag behind its schedule, us)",
     ["reply rate", "generator lag p99"]),
    ("Instructions per request under callgrind (lower is better)",
     ["instructions per request"]),
]


# Metrics about the harness itself, where comparing servers means nothing.
NO_VERDICT = {"reply rate", "generator lag p99"}


def markdown(summary, servers, baseline, fixed_cases):
    """The tables of every section that has data, as one Markdown string."""
    others = [s for s in servers if s != baseline]
    lines = []
    used = set()
    for title, metrics in SECTIONS:
        keys = [k for k in summary if k[1] in metrics and k not in used
                and (k[0] in fixed_cases) == title.startswith("Fixed rate")]
        if not keys:
            continue
        used.update(keys)
        keys.sort(key=lambda k: summary[k]["order"])
        head = ["case"] + [s for s in servers]
        head += ["%s / %s" % (s, baseline) for s in others if baseline in servers]
        lines += ["### " + title, "", "| " + " | ".join(head) + " |",
                  "|" + "---|" * len(head)]
        for k in keys:
            e = summary[k]
            label = k[0] if len(metrics) == 1 else "%s, %s" % (k[0], k[1])
            cells = [label]
            for s in servers:
                st = e["stats"].get(s)
                if st is None:
                    cells.append("n/a")
                    continue
                cell = fmt(st.median)
                if len(st.values) > 1:
                    cell += " (%s–%s)" % (fmt(st.min), fmt(st.max))
                if k[1] == "reply rate":
                    held = summary.get((k[0], "rate held"), {}).get("stats", {}).get(s)
                    if held is not None:
                        cell += ", held" if held.min >= 1 else ", NOT held in %d of %d" % (
                            sum(1 for v in held.values if v < 1), len(held.values))
                cells.append(cell)
            for s in others:
                if baseline not in servers:
                    continue
                r = ratio(e["stats"], s, baseline)
                if k[1] in NO_VERDICT:
                    cells.append("")
                elif r is None:
                    cells.append("n/a")
                else:
                    cells.append("%.2f× (%s)" % (r, verdict(e["stats"], s, baseline,
                                                            e["better"])))
            lines.append("| " + " | ".join(cells) + " |")
        lines.append("")
    return "\n".join(lines)


def noise(summary, metric="throughput"):
    """Median and largest relative spread ((max-min)/median) of metric over cases/servers."""
    spreads = [st.spread() for (c, m), e in summary.items() if m == metric
               for st in e["stats"].values() if len(st.values) > 1]
    if not spreads:
        return None
    return statistics.median(spreads), max(spreads)


def compare(summary, previous_summary_csv):
    """Per metric: how many medians of this run fall inside the previous run's min-max range,
    how many min-max ranges overlap, and the median relative change of the medians: returns
    [(metric, inside, overlapping, total, change)]."""
    prev = {}
    with open(previous_summary_csv, newline="") as f:
        for r in csv.DictReader(f):
            prev[(r["case"], r["metric"], r["server"])] = (float(r["min"]), float(r["max"]),
                                                           float(r["median"]))
    counts = {}
    for (case, metric), e in summary.items():
        for s, st in e["stats"].items():
            rng = prev.get((case, metric, s))
            if rng is None:
                continue
            c = counts.setdefault(metric, [0, 0, 0, []])
            c[0] += 1 if rng[0] <= st.median <= rng[1] else 0
            c[1] += 1 if st.min <= rng[1] and rng[0] <= st.max else 0
            c[2] += 1
            if rng[2]:
                c[3].append(abs(st.median - rng[2]) / abs(rng[2]))
    return [(m, c[0], c[1], c[2], statistics.median(c[3]) if c[3] else 0.0)
            for m, c in counts.items()]


def ensure_dir(path):
    os.makedirs(path, exist_ok=True)
    return path
