"""PNG plots of a run, drawn by gnuplot (Debian gnuplot-nox): throughput and CPU per request
per case, the fixed-rate CPU and latency by rate, and summary.png, the four-panel picture
shown in docs/performance.md."""

import os
import shutil
import subprocess

# Enough colours for a server at three IO-thread counts, its variants and the peers.
COLORS = ["#4e79a7", "#e15759", "#59a14f", "#f28e2b", "#b07aa1", "#76b7b2", "#edc948",
          "#ff9da7", "#9c755f", "#bab0ac", "#1b3a5c", "#8c1c13"]


def _table(path, summary, cases, metric, servers):
    """Writes one row per case: the label, then median, min and max per server (NaN if none).
    Returns the number of rows."""
    n = 0
    with open(path, "w") as f:
        for case in cases:
            e = summary.get((case, metric))
            if not e:
                continue
            cells = [case]
            for s in servers:
                st = e["stats"].get(s)
                cells += ["NaN"] * 3 if st is None else [repr(st.median), repr(st.min),
                                                         repr(st.max)]
            f.write("\t".join(cells) + "\n")
            n += 1
    return n


def _ratio_table(path, summary, cases, metric, servers, baseline):
    """One row per case: label, then each non-baseline server's median ratio to the baseline."""
    n = 0
    with open(path, "w") as f:
        for case in cases:
            e = summary.get((case, metric))
            if not e or baseline not in e["stats"]:
                continue
            base = e["stats"][baseline].median
            cells = [case]
            for s in servers:
                st = e["stats"].get(s)
                cells.append("NaN" if st is None or not base else repr(st.median / base))
            f.write("\t".join(cells) + "\n")
            n += 1
    return n


def _top(datafile, log):
    """An upper y limit that leaves room above the highest value in datafile."""
    top = 0.0
    with open(datafile) as f:
        for line in f:
            for cell in line.rstrip("\n").split("\t")[1:]:
                v = float(cell)
                if v == v:
                    top = max(top, v)
    if top <= 0:
        return "*"
    return repr(top * (3 if log else 1.15))


def _bars(datafile, servers, title, ylabel, log=False, errorbars=True, ref_line=None):
    """gnuplot commands for a clustered bar chart of datafile."""
    cmds = ["set title '%s'" % title, "set ylabel '%s'" % ylabel,
            "set style data histogram",
            "set style histogram %s gap 1" % ("errorbars lw 1" if errorbars else "clustered"),
            "set style fill solid 0.85 border -1", "set boxwidth 0.9",
            "set xtics rotate by -35 font ',8' nomirror", "set grid ytics",
            "set key top left horizontal font ',9'"]
    cmds.append("set logscale y" if log else "unset logscale y")
    top = _top(datafile, log) if os.path.exists(datafile) else "*"
    cmds.append("set yrange [*:%s]" % top if log else "set yrange [0:%s]" % top)
    plots = []
    for i, s in enumerate(servers):
        col = 2 + 3 * i if errorbars else 2 + i
        using = "%d:%d:%d" % (col, col + 1, col + 2) if errorbars else "%d" % col
        if i == 0:
            using += ":xtic(1)"
        plots.append("'%s' using %s title '%s' lc rgb '%s'" % (datafile, using, s,
                                                                COLORS[i % len(COLORS)]))
    if ref_line is not None:
        plots.append("%s with lines lc rgb 'black' dt 2 notitle" % ref_line)
    cmds.append("plot " + ", ".join(plots))
    return cmds


def draw(out_dir, summary, servers, baseline, throughput_cases, fixed_cases):
    """Writes the PNGs into out_dir. Returns the list written, or [] when gnuplot is missing."""
    gnuplot = shutil.which("gnuplot")
    if not gnuplot:
        return []
    data = os.path.join(out_dir, "plot-data")
    os.makedirs(data, exist_ok=True)
    d = lambda name: os.path.join(data, name)
    head = ["set terminal pngcairo size %s font 'sans,10'", "set datafile separator '\\t'",
            "set datafile missing 'NaN'"]
    written = []
    script = []

    def page(name, size, cmds):
        script.extend([head[0] % size, head[1], head[2],
                       "set output '%s'" % os.path.join(out_dir, name)] + cmds +
                      ["unset multiplot", "set output"])
        written.append(os.path.join(out_dir, name))

    have_tp = _table(d("throughput.dat"), summary, throughput_cases, "throughput", servers)
    have_cpu = _table(d("cpu.dat"), summary, throughput_cases, "cpu per 100k", servers)
    have_fcpu = _table(d("fixed_cpu.dat"), summary, fixed_cases, "server CPU", servers)
    lat_cases = [c for c in fixed_cases if not c.startswith("idle")]
    have_p99 = _table(d("fixed_p99.dat"), summary, lat_cases, "p99 latency", servers)
    tp = _bars(d("throughput.dat"), servers, "redis-benchmark throughput", "requests/s", log=True)
    cpu = _bars(d("cpu.dat"), servers, "server CPU per 100k requests", "CPU seconds")
    fcpu = _bars(d("fixed_cpu.dat"), servers, "fixed rate: server CPU", "% of one core")
    fp99 = _bars(d("fixed_p99.dat"), servers, "fixed rate: p99 latency", "microseconds",
                 log=True)
    if have_tp:
        page("throughput.png", "1100,500", tp)
    if have_cpu:
        page("cpu.png", "1100,500", cpu)
    if have_fcpu or have_p99:
        page("fixed_rate.png", "1100,450",
             ["set multiplot layout 1,2"] + (fcpu if have_fcpu else []) +
             (fp99 if have_p99 else []))

    # summary.png: ratios to the baseline when there is one, else absolute values.
    others = [s for s in servers if s != baseline]
    panels = []
    if baseline in servers and others:
        ratio_servers = others
        if _ratio_table(d("tp_ratio.dat"), summary, throughput_cases, "throughput",
                        ratio_servers, baseline):
            panels += _bars(d("tp_ratio.dat"), ratio_servers,
                            "throughput relative to %s (higher is better)" % baseline,
                            "x %s" % baseline, errorbars=False, ref_line="1")
        if _ratio_table(d("cpu_ratio.dat"), summary, throughput_cases, "cpu per 100k",
                        ratio_servers, baseline):
            panels += _bars(d("cpu_ratio.dat"), ratio_servers,
                            "CPU per request relative to %s (lower is better)" % baseline,
                            "x %s" % baseline, errorbars=False, ref_line="1")
    else:
        panels += (tp if have_tp else []) + (cpu if have_cpu else [])
    panels += (fcpu if have_fcpu else []) + (fp99 if have_p99 else [])
    if panels:
        page("summary.png", "1400,900", ["set multiplot layout 2,2"] + panels)

    gp = os.path.join(data, "plots.gp")
    with open(gp, "w") as f:
        f.write("\n".join(script) + "\n")
    res = subprocess.run([gnuplot, gp], capture_output=True, text=True, timeout=120)
    if res.returncode != 0:
        raise RuntimeError("gnuplot failed: %s" % res.stderr.strip()[-2000:])
    return [p for p in written if os.path.exists(p)]


def sweep(out_dir, summary, servers, cases):
    """sweep.png: for each IO-thread count, the by-reference ('ref') and default ('plinth')
    servers' throughput and CPU per request relative to the copy path ('copy'), by value size.
    Returns [path] or [] (no gnuplot, or no sweep in this run)."""
    gnuplot = shutil.which("gnuplot")
    cases = [c for c in cases if c.startswith("sweep ")]
    if not gnuplot or not cases:
        return []
    suffixes = sorted({s[len("copy"):] for s in servers if s.startswith("copy")})
    lines = [(name + sfx, "copy" + sfx) for sfx in suffixes for name in ("ref", "plinth")
             if name + sfx in servers]
    if not lines:
        return []
    data = os.path.join(out_dir, "plot-data", "sweep.dat")
    with open(data, "w") as f:
        for case in cases:
            cells = [case[len("sweep GET "):]]
            for metric in ("throughput", "cpu per 100k"):
                e = summary.get((case, metric), {"stats": {}})["stats"]
                for s, base in lines:
                    ok = s in e and base in e and e[base].median
                    cells.append(repr(e[s].median / e[base].median) if ok else "NaN")
            f.write("\t".join(cells) + "\n")
    out = os.path.join(out_dir, "sweep.png")
    cmds = ["set terminal pngcairo size 1100,450 font 'sans,10'", "set datafile separator '\\t'",
            "set datafile missing 'NaN'", "set output '%s'" % out, "set multiplot layout 1,2",
            "set grid", "set key top left font ',8'", "set xlabel 'value size'"]
    for k, (title, ylabel) in enumerate((("GET throughput vs the copy path", "x copy"),
                                         ("server CPU per GET vs the copy path", "x copy"))):
        plots = []
        for i, (s, base) in enumerate(lines):
            col = 2 + k * len(lines) + i
            plots.append("'%s' using 0:%d:xtic(1) with linespoints title '%s / %s' lc rgb '%s'"
                         % (data, col, s, base, COLORS[i % len(COLORS)]))
        cmds += ["set title '%s'" % title, "set ylabel '%s'" % ylabel,
                 "plot " + ", ".join(plots) + ", 1 with lines lc rgb 'black' dt 2 notitle"]
    cmds += ["unset multiplot", "set output"]
    subprocess.run([gnuplot], input="\n".join(cmds), text=True, capture_output=True,
                   timeout=60)
    return [out] if os.path.exists(out) else []
