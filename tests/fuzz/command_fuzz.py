#!/usr/bin/env python3
"""Command fuzzer: drives a real plinth-server (build it with ASan+UBSan to catch memory errors)
with random commands built from its own COMMAND table, over several connections, for --seconds.

A finding is a crash, a sanitizer report, a hang (a fresh connection gets no PONG within
--timeout), a command that never answers while the server still does, RSS past --rss-limit-mb,
a malformed reply, or a SIGTERM that does not end the server with status 0. Each finding's
event log (and the shortest tail of it that reproduces on a fresh server) is saved into
--crash-dir; the exit status is 1 when anything was found. --replay FILE runs a saved log.

  tests/fuzz/command_fuzz.py --server build/bin/plinth-server \\
      --plugin-dir build/lib/plinth/plugins --seconds 60 --seed 1 \\
      --corpus tests/fuzz/corpus/commands

Python 3 standard library only. tests/fuzz/README.md describes the corpus format."""

import argparse
import os
import random
import shutil
import signal
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fuzz_actions as act  # noqa: E402
import fuzz_gen as gen  # noqa: E402
import fuzz_resp as resp  # noqa: E402
import fuzz_server as srv  # noqa: E402

POPULATE = [
    [b"SET", b"s:0", b"hello"], [b"SET", b"s:1", b"x" * 300], [b"SET", b"n:0", b"42"],
    [b"RPUSH", b"l:0", b"a", b"b", b"c", b"1", b"2"], [b"RPUSH", b"l:1"] + [b"%d" % i for i in
                                                                            range(200)],
    [b"HSET", b"h:0", b"f", b"v", b"n", b"1"], [b"HSET", b"h:1"] + [b"f%d" % (i // 2) for i in
                                                                    range(300)],
    [b"SADD", b"S:0", b"1", b"2", b"3"], [b"SADD", b"S:1", b"a", b"b", b"m1", b"m2", b"m3"],
    [b"ZADD", b"z:0", b"1", b"a", b"2", b"b", b"-inf", b"m1"],
    [b"ZADD", b"z:1"] + [x for i in range(150) for x in (b"%d" % i, b"m%d" % i)],
    [b"XADD", b"x:0", b"*", b"f", b"v"], [b"XADD", b"x:1", b"1-1", b"a", b"1"],
    [b"XADD", b"x:1", b"2-1", b"b", b"2"], [b"XGROUP", b"CREATE", b"x:1", b"g", b"0"],
]

ACTIONS = [("single", 40), ("pipeline", 12), ("multi", 8), ("script", 8), ("blocking", 5),
           ("pubsub", 3), ("hello", 4), ("disconnect", 3), ("function", 1), ("restore", 3),
           ("corpus", 2)]


def load_corpus(folder):
    """{file name: its lines} for the files directly in folder (none when it is missing)."""
    files = {}
    if folder and os.path.isdir(folder):
        for name in sorted(os.listdir(folder)):
            path = os.path.join(folder, name)
            if os.path.isfile(path):
                with open(path, encoding="utf-8") as f:
                    files[name] = f.read().splitlines()
    return files


def command_lines(files):
    return [resp.split_line(l) for lines in files.values() for l in lines
            if l.strip() and not l.lstrip().startswith(("#", "@"))]


class Fuzzer:
    def __init__(self, opts):
        self.opts = opts
        self.rng = random.Random(opts.seed)
        self.corpus = {name: lines for name, lines in load_corpus(opts.corpus).items()
                       if name not in opts.exclude}
        self.findings = []
        self.totals = {"executed": 0, "closes": 0, "stuck": 0, "huge": 0, "steps": 0}
        self.sent, self.ok = set(), set()
        self.server = self.session = None

    def start(self):
        self.server = srv.Server(self.opts.server, self.opts.plugin_dir, self.opts.timeout)
        c = resp.Conn(self.server.port, self.opts.timeout)
        try:
            table = gen.load_table(c)
        finally:
            c.close()
        self.gen = gen.Generator(table, self.rng, command_lines(self.corpus))
        self.session = act.Session(self.server.port, table, self.opts.timeout)
        self.populate()

    def populate(self):
        """(Re)creates the key pool, and lifts a normal-client output limit that would close
        most connections."""
        self.session.send(0, [[b"SELECT", b"0"], [b"DEL"] + gen.ALL_KEYS] + POPULATE + [
            [b"CONFIG", b"SET", b"client-output-buffer-limit", b"normal 0 0 0"]])

    def fold(self):
        """Adds the session's counters to the totals."""
        s = self.session
        if s is None:
            return
        self.totals["executed"] += s.executed
        self.totals["closes"] += s.closes
        self.totals["stuck"] += s.stuck
        self.totals["huge"] += s.huge
        self.sent |= set(s.sent_names)
        self.ok |= s.ok_names
        self.session = None

    # ---- one step ----

    def step(self):
        s, rng, g = self.session, self.rng, self.gen
        i = rng.randrange(len(s.clients))
        what = rng.choices([a for a, _ in ACTIONS], [w for _, w in ACTIONS])[0]
        if what == "single":
            s.single(i, g.command())
        elif what == "pipeline":
            s.pipeline(i, [g.command() for _ in range(rng.randint(2, 20))])
        elif what == "multi":
            s.multi(i, [g.command() for _ in range(rng.randint(0, 6))], rng.random() < 0.1)
        elif what == "script":
            s.script(i, g.command(), rng)
        elif what == "blocking":
            names = sorted(n for n in gen.BLOCKING if n in g.table)
            s.single(i, g.build(g.table[rng.choice(names)]))
        elif what == "pubsub":
            s.pubsub(i, (i + 1) % len(s.clients), rng)
        elif what == "hello":
            s.hello(i, rng)
        elif what == "disconnect":
            s.disconnect(i, [g.command() for _ in range(rng.randint(1, 4))], rng)
        elif what == "function":
            s.function(i, rng)
        elif what == "restore":
            s.restore(i, rng)
        elif what == "corpus" and self.corpus:
            name = rng.choice(sorted(self.corpus))
            act.replay(s, self.corpus[name])
            for k in range(len(s.clients)):
                s.drop(k)

    # ---- findings ----

    def finding(self, kind, detail):
        """Records a finding, saves its event log and the shortest reproducing tail."""
        events = list(self.session.events) if self.session else []
        self.server.abort()
        self.fold()
        n = len(self.findings) + 1
        os.makedirs(self.opts.crash_dir, exist_ok=True)
        base = os.path.join(self.opts.crash_dir, "%s-seed%d-%d" % (kind, self.opts.seed, n))
        header = ["# %s: %s" % (kind, line) for line in detail.strip().splitlines()[:40]]
        header.append("# server log and sanitizer files: " + self.server.workdir)
        with open(base + ".log.txt", "w", encoding="utf-8") as f:
            f.write("\n".join(header + events) + "\n")
        short = self.shortest(events, kind)
        if short is not None:
            with open(base + ".txt", "w", encoding="utf-8") as f:
                f.write("\n".join(header[:3] + short) + "\n")
        self.findings.append((kind, detail.strip().splitlines()[0] if detail.strip() else "",
                              base, short))
        print("FINDING %s: %s\n  events: %s.log.txt%s" % (
            kind, detail.strip()[:2000], base, "\n  shortest: %s.txt" % base if short else ""),
            flush=True)

    def shortest(self, events, kind):
        """The shortest tail of events (1, 3, 10, 30, ... lines, then all) that reproduces a
        finding of kind on a fresh server, or None."""
        sizes = [n for n in (1, 3, 10, 30, 100, 300, 1000) if n < len(events)] + [len(events)]
        for n in sizes if events else []:
            tail = events[-n:]
            if not tail[0].startswith("@conn"):
                tail = [e for e in events[:-n] if e.startswith("@conn")][-1:] + tail
            if self.reproduce(tail) == kind:
                return self.one_line(tail, kind) or tail
        return None

    def one_line(self, tail, kind):
        """One command line of tail (with its @conn) that reproduces kind alone, or None."""
        conn = "@conn 0"
        lines = []
        for e in tail:
            if e.startswith("@conn"):
                conn = e
            elif not e.startswith("@"):
                lines.append([conn, e])
        for pair in reversed(lines[-30:]):
            if self.reproduce(pair) == kind:
                return pair
        return None

    def reproduce(self, lines):
        """Runs lines on a fresh server; the kind of finding they cause, or None."""
        server = srv.Server(self.opts.server, self.opts.plugin_dir, self.opts.timeout)
        try:
            c = resp.Conn(server.port, self.opts.timeout)
            table = gen.load_table(c)
            c.close()
            session = act.Session(server.port, table, self.opts.timeout)
            session.send(0, [[b"DEL"] + gen.ALL_KEYS] + POPULATE)
            try:
                act.replay(session, lines)
            except act.NoReply:
                got = server.health(self.opts.rss_limit_mb)
                return got[0] if got else "no-reply"
            except act.Finding as e:
                return e.args[0]
            except resp.Malformed:
                return "malformed-reply"
            except (resp.Closed, OSError):
                pass
            got = server.health(self.opts.rss_limit_mb)
            if got:
                return got[0]
            problem = server.stop(check=True)
            return "shutdown" if problem else None
        except (RuntimeError, OSError, resp.Timeout, resp.Closed):
            return None
        finally:
            if server.proc.poll() is None:
                server.abort()
            shutil.rmtree(server.workdir, ignore_errors=True)

    # ---- the run ----

    def run(self):
        deadline = time.monotonic() + self.opts.seconds
        self.start()
        next_check, steps = time.monotonic() + 1.0, 0
        while time.monotonic() < deadline and not (self.opts.steps and
                                                    steps >= self.opts.steps):
            problem = None
            try:
                self.step()
                steps += 1
                self.totals["steps"] = steps
                if steps % 300 == 0:
                    self.populate()
            except act.NoReply as e:
                i, pending = e.args
                health = self.server.health(self.opts.rss_limit_mb)
                if health:
                    problem = health
                elif any(act.name_of(a, self.session.table) in gen.BLOCKING or
                         act.name_of(a, self.session.table) == "client|pause" for a in pending):
                    self.session.stuck += 1
                    self.session.drop(i)
                else:
                    problem = ("no-reply", "no reply within %.0f s to %s" % (
                        self.opts.timeout, resp.quote_line(pending[0])[:300]))
            except act.Finding as e:
                problem = e.args
            except resp.Malformed as e:
                problem = ("malformed-reply", str(e))
            except (resp.Closed, OSError):
                problem = self.server.health(self.opts.rss_limit_mb)
            if problem is None and time.monotonic() >= next_check:
                problem = self.server.health(self.opts.rss_limit_mb)
                next_check = time.monotonic() + 1.0
            if problem:
                self.finding(*problem)
                if not self.opts.keep_going or time.monotonic() >= deadline:
                    return
                self.start()
        final = self.server.health(self.opts.rss_limit_mb)
        if final:
            self.finding(*final)
            return
        self.fold()
        problem = self.server.stop(check=True)
        if problem:
            self.server.keep = True
            self.findings.append(("shutdown", problem.splitlines()[0], "", None))
            print("FINDING shutdown: " + problem[:3000], flush=True)

    def figures(self):
        t = self.totals
        print("command fuzz: seed %d, %d steps, %d commands executed, %d distinct commands "
              "sent, %d reached (a reply other than an error), %d connections closed by the "
              "server, %d blocked clients and %d replies over 64 MiB dropped, %d findings" % (
                  self.opts.seed, t["steps"], t["executed"], len(self.sent), len(self.ok),
                  t["closes"], t["stuck"], t["huge"], len(self.findings)), flush=True)
        for kind, first, base, short in self.findings:
            print("  %s: %s (%s)" % (kind, first[:200], base or "-"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--server", required=True, help="plinth-server (or a redis-server)")
    ap.add_argument("--plugin-dir", help="the folder of the server's plugins")
    ap.add_argument("--seconds", type=float, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--corpus", help="folder of seed files (tests/fuzz/corpus/commands)")
    ap.add_argument("--crash-dir", help="where findings go (default: CORPUS/../commands-crashes,"
                    " or ./command-fuzz-crashes)")
    ap.add_argument("--timeout", type=float, default=10.0,
                    help="seconds a reply or a PONG may take before it is a finding")
    ap.add_argument("--rss-limit-mb", type=int, default=3072)
    ap.add_argument("--keep-going", action="store_true",
                    help="restart the server after a finding and go on until --seconds")
    ap.add_argument("--steps", type=int, default=0,
                    help="stop after this many steps (0: only --seconds bounds the run)")
    ap.add_argument("--exclude", action="append", default=[],
                    help="a command (zrandmember, client|kill) never to send, or a corpus file "
                    "(name.txt) never to use; may repeat, or list names with commas")
    ap.add_argument("--exclude-file", help="a file of names to exclude, one a line (# comments)")
    ap.add_argument("--replay", help="run one saved event log or corpus file, then check")
    opts = ap.parse_args()
    opts.server = os.path.abspath(opts.server)
    if opts.exclude_file:
        with open(opts.exclude_file, encoding="utf-8") as f:
            opts.exclude += [l.split("#")[0] for l in f]
    opts.exclude = [n.strip() for e in opts.exclude for n in e.split(",") if n.strip()]
    gen.EXCLUDED.update(n.lower() for n in opts.exclude if not n.endswith(".txt"))
    if opts.plugin_dir:
        opts.plugin_dir = os.path.abspath(opts.plugin_dir)
    if not opts.crash_dir:
        opts.crash_dir = (os.path.join(os.path.dirname(os.path.abspath(opts.corpus)),
                                       "commands-crashes") if opts.corpus
                          else "command-fuzz-crashes")
    fz = Fuzzer(opts)
    if opts.replay:
        with open(opts.replay, encoding="utf-8") as f:
            lines = f.read().splitlines()
        kind = fz.reproduce(lines)
        print("replay: " + ("reproduces " + kind if kind else "nothing found"))
        return 1 if kind else 0
    # SIGTERM (or ^C) ends the run early with its figures, the server stopped.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        fz.run()
    finally:
        if fz.server and fz.server.proc.poll() is None:
            fz.server.stop()
        fz.fold()
        fz.figures()
    return 1 if fz.findings else 0


if __name__ == "__main__":
    sys.exit(main())
