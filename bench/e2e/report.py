"""Turns the rows of a run into raw.csv (every repetition), summary.csv (median, min, max, the
ratio to the baseline server and to the same server at one IO thread, per case and metric) and
results.md (Markdown tables)."""

import csv
import os
import statistics

from servers import io_family

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


def io1_of(server, servers):
    """The io1 variant of the same server for "<name> io<N>" with N > 1, when servers has it."""
    name, n = io_family(server)
    ref = "%s io1" % name
    return ref if n is not None and n > 1 and ref in servers else None


def io_pairs(servers):
    """[(column title, server, its io1 variant)] for every variant with more than one IO
    thread whose io1 variant ran too."""
    return [("%s / io1" % s, s, io1_of(s, servers)) for s in servers if io1_of(s, servers)]


def write_summary(path, summary, servers, baseline):
    """One line per case, metric and server; ratio_to_io1 compares "<name> io<N>" with
    "<name> io1" (empty for other servers)."""
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["case", "metric", "unit", "better", "server", "median", "min", "max", "reps",
                    "ratio_to_" + baseline, "ratio_to_io1"])
        for (case, metric), e in summary.items():
            for s, st in e["stats"].items():
                r = ratio(e["stats"], s, baseline)
                ref = io1_of(s, servers)
                r1 = ratio(e["stats"], s, ref) if ref else None
                w.writerow([case, metric, e["unit"], e["better"], s, "%.6g" % st.median,
                            "%.6g" % st.min, "%.6g" % st.max, len(st.values),
                            "" if r is None else "%.4f" % r,
                            "" if r1 is None else "%.4f" % r1])


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
    ("Other threads' CPU seconds per 100k requests (all threads minus the main thread: the IO "
     "threads' share)", ["io-thread cpu per 100k"]),
    ("Main-thread ceiling (req/s per main-thread CPU second: the throughput if the main thread "
     "were the bottleneck on a machine with enough cores; higher is better)",
     ["main-thread ceiling"]),
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
# Metrics shown without ratios: the other threads' CPU is about nothing for one thread.
NO_RATIO = {"io-thread cpu per 100k"}
# Metrics also compared between a server's IO-thread variants (ioN / io1).
IO_COMPARED = {"throughput", "cpu per 100k", "main-thread cpu per 100k", "main-thread ceiling",
               "p99 latency", "server CPU", "p50 latency", "p99.9 latency"}
# Up to this many servers the ratios to the baseline share the table of the values; with more
# they get a table of their own.
WIDE = 4


def _cell(e, s, k, summary):
    """median (min–max) of server s, and whether the fixed rate was held."""
    st = e["stats"].get(s)
    if st is None:
        return "n/a"
    cell = fmt(st.median)
    if len(st.values) > 1:
        cell += " (%s–%s)" % (fmt(st.min), fmt(st.max))
    if k[1] == "reply rate":
        held = summary.get((k[0], "rate held"), {}).get("stats", {}).get(s)
        if held is not None:
            cell += ", held" if held.min >= 1 else ", NOT held in %d of %d" % (
                sum(1 for v in held.values if v < 1), len(held.values))
    return cell


def _ratio_cell(e, k, server, reference):
    if k[1] in NO_VERDICT:
        return ""
    r = ratio(e["stats"], server, reference)
    if r is None:
        return "n/a"
    return "%.2f× (%s)" % (r, verdict(e["stats"], server, reference, e["better"]))


def _table(title, summary, keys, metrics, servers, pairs):
    """One Markdown table: a row per (case, metric) key, a column per server (median (min–max)),
    then one per pair (column title, server, reference): the ratio of medians and a verdict."""
    head = ["case"] + list(servers) + [p[0] for p in pairs]
    lines = ["### " + title, "", "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for k in keys:
        e = summary[k]
        cells = [k[0] if len(metrics) == 1 else "%s, %s" % (k[0], k[1])]
        cells += [_cell(e, s, k, summary) for s in servers]
        cells += [_ratio_cell(e, k, s, ref) for _, s, ref in pairs]
        lines.append("| " + " | ".join(cells) + " |")
    return lines + [""]


def markdown(summary, servers, baseline, fixed_cases):
    """The tables of every section that has data, as one Markdown string. With more than WIDE
    servers the ratios to the baseline follow in a table of their own; when servers ran at
    several IO-thread counts, a table compares each "<name> io<N>" with "<name> io1"."""
    base_pairs = [("%s / %s" % (s, baseline), s, baseline) for s in servers
                  if s != baseline] if baseline in servers else []
    io = io_pairs(servers)
    lines = []
    used = set()
    for title, metrics in SECTIONS:
        keys = [k for k in summary if k[1] in metrics and k not in used
                and (k[0] in fixed_cases) == title.startswith("Fixed rate")]
        if not keys:
            continue
        used.update(keys)
        keys.sort(key=lambda k: summary[k]["order"])
        pairs = [] if set(metrics) <= NO_RATIO else base_pairs
        if len(servers) <= WIDE:
            lines += _table(title, summary, keys, metrics, servers, pairs)
        else:
            lines += _table(title, summary, keys, metrics, servers, [])
            if pairs and not set(metrics) <= NO_VERDICT:
                lines += _table("%s: relative to %s" % (title.split(" (")[0], baseline), summary,
                                keys, metrics, [], pairs)
        io_keys = [k for k in keys if k[1] in IO_COMPARED]
        if io and io_keys:
            lines += _table("%s: each server's IO threads relative to its io1" %
                            title.split(" (")[0], summary, io_keys, metrics, [], io)
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
