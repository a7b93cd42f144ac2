#!/usr/bin/python3
"""Differential test: runs the command scripts (commands.txt and the other *.txt beside this
file, one per plugin family) against a fresh Debian redis-server and a fresh plinth-server per
section and requires identical reply bytes, except where a mark in the script says how a field
that differs by nature is compared.
Exit 0: all equal; 1: a mismatch (each printed); 77: /usr/bin/redis-server is missing."""

import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "clients"))

import script  # noqa: E402
import support  # noqa: E402

HELLO_NATURAL = {b"server", b"version", b"id", b"modules"}
MAX_SCAN_CALLS = 10000


def canon(rep, sort=False):
    """A comparable form of a Reply; sort orders aggregate elements (maps by pair)."""
    if not isinstance(rep.data, list):
        return (rep.kind, rep.data)
    items = [canon(x) for x in rep.data]
    if sort:
        if rep.kind in "%|":
            items = [tuple(items[i:i + 2]) for i in range(0, len(items), 2)]
        items.sort(key=repr)
    return (rep.kind, tuple(items))


def hello_canon(rep):
    """HELLO's map/array with the fields that name the implementation blanked out."""
    if not isinstance(rep.data, list):
        return canon(rep)
    out, items = [], rep.data
    for i in range(0, len(items) - 1, 2):
        key = items[i].data
        value = ("natural",) if key in HELLO_NATURAL else canon(items[i + 1])
        out.append((canon(items[i]), value))
    return (rep.kind, tuple(out))


def full_scan(conn, args):
    """Iterates a SCAN-like command to cursor 0. Returns ("keys", sorted keys) or ("raw", raw
    reply) when a reply is not a well-formed cursor page."""
    args = list(args)
    keys = set()
    for _ in range(MAX_SCAN_CALLS):
        raw, rep = conn.call(*args)
        if rep.kind != "*" or len(rep.data) != 2 or rep.data[1].kind not in "*~":
            return ("raw", raw)
        keys.update(x.data for x in rep.data[1].data)
        cursor = rep.data[0].data
        if cursor == b"0":
            return ("keys", sorted(keys))
        args[1] = cursor
    return ("raw", b"cursor never returned to 0")


def compare(marks, r, p):
    """None when replies r and p (raw, Reply) agree under marks, else a reason."""
    (r_raw, r_rep), (p_raw, p_rep) = r, p
    if r_raw == p_raw or "ignore" in marks:
        return None
    if "range" in marks:
        lo, hi = marks["range"]
        for name, rep in (("redis", r_rep), ("plinth", p_rep)):
            if rep.kind != ":" or not lo <= int(rep.data) <= hi:
                return "%s reply is not an integer in [%d, %d]" % (name, lo, hi)
        return None
    if "type" in marks:
        if r_rep.kind == p_rep.kind and not r_rep.is_error():
            return None
        return "reply types differ"
    if "has" in marks:
        text = marks["has"].encode()
        if not p_rep.is_error() and text in p_raw and text in r_raw:
            return None
        return "a reply lacks %r" % marks["has"]
    if "sort" in marks:
        return None if canon(r_rep, True) == canon(p_rep, True) else "sorted replies differ"
    if "hello" in marks:
        return None if hello_canon(r_rep) == hello_canon(p_rep) else "HELLO fields differ"
    return "reply bytes differ"


class Pair:
    """The same named connection opened on both servers."""

    def __init__(self, redis, plinth):
        self.r = support.RespConn(redis.port)
        self.p = support.RespConn(plinth.port)

    def close(self):
        self.r.close()
        self.p.close()


def run_section(section, args, report):
    """Runs one section on fresh servers. Returns the number of commands compared."""
    redis = support.start_redis(args.redis)
    plinth = None
    conns = {}
    try:
        plinth = (support.start_redis(args.redis) if args.reference_only else
                  support.start_plinth(args.server, support.PERSISTENCE_OFF))
        conns["main"] = cur = Pair(redis, plinth)
        count = 0
        for step in section.steps:
            if step.kind == "sleep":
                time.sleep(step.args[0])
                continue
            if step.kind == "conn":
                name = step.args[0]
                if name not in conns:
                    conns[name] = Pair(redis, plinth)
                cur = conns[name]
                continue
            count += 1
            if step.kind == "inline":
                cur.r.send_raw(step.raw + b"\r\n")
                cur.p.send_raw(step.raw + b"\r\n")
                r, p = read_or_closed(cur.r), read_or_closed(cur.p)
            elif "scan" in step.marks:
                r, p = full_scan(cur.r, step.args), full_scan(cur.p, step.args)
                if r != p:
                    report(section, step, repr(r[1])[:600].encode(), repr(p[1])[:600].encode(),
                           "full scans differ")
                continue
            else:
                r = cur.r.call(*step.args)
                cur.p.send_raw(support.encode(step.args))
                p = read_or_closed(cur.p)
            why = compare(step.marks, r, p)
            if args.dump or args.reference_only:
                print("%4d %-50s %s" % (step.lineno, step.text()[:50], support.show(r[0], 120)))
            if why:
                report(section, step, r[0], p[0], why)
                if p[0] == b"<closed>":
                    break
        if not plinth.alive():
            report(section, None, b"", plinth.log().encode()[-2000:], "plinth-server died")
        return count
    finally:
        for c in conns.values():
            c.close()
        redis.stop()
        if plinth:
            problem = plinth.stop_cleanly()
            if problem:
                print(problem)
                report(section, None, b"", b"(see the log above)", "unclean shutdown")


def read_or_closed(conn):
    try:
        return conn.read()
    except (ConnectionError, OSError) as e:
        return (b"<closed>", support.Reply("-", str(e).encode()))


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--server", required=True, help="path of plinth-server")
    ap.add_argument("--redis", default="/usr/bin/redis-server")
    ap.add_argument("--script", action="append",
                    help="a command script (repeatable; default: every *.txt beside run.py)")
    ap.add_argument("--section", action="append", help="run only these sections")
    ap.add_argument("--require-all-plugins", action="store_true",
                    help="fail instead of skipping sections whose plugins are not built")
    ap.add_argument("--dump", action="store_true", help="print every command and Redis's reply")
    ap.add_argument("--reference-only", action="store_true",
                    help="compare Redis with a second Redis and print its replies")
    args = ap.parse_args()
    if not os.path.exists(args.redis):
        print("SKIP: %s is missing (apt-get install redis-server)" % args.redis)
        return support.SKIP
    scripts = args.script or sorted(
        os.path.join(HERE, f) for f in os.listdir(HERE)
        if f.endswith(".txt") and f != "CMakeLists.txt")
    sections = [s for path in scripts for s in script.load(path)]
    have = set(support.available_plugins(args.server))
    mismatches = []

    def report(section, step, r_raw, p_raw, why):
        where = "line %d: %s" % (step.lineno, step.text()) if step else "after the section"
        mismatches.append(where)
        print("MISMATCH [%s] %s\n  why:    %s\n  redis:  %s\n  plinth: %s" %
              (section.name, where, why, support.show(r_raw), support.show(p_raw)))

    compared, skipped = 0, []
    for section in sections:
        if args.section and section.name not in args.section:
            continue
        missing = [] if args.reference_only else [p for p in section.requires if p not in have]
        if missing:
            skipped.append("%s (needs %s)" % (section.name, ",".join(missing)))
            continue
        before = len(mismatches)
        n = run_section(section, args, report)
        compared += n
        print("section %-28s %4d commands, %d mismatches" %
              (section.name, n, len(mismatches) - before))
    for s in skipped:
        print("SKIPPED section %s: plugin not built" % s)
    ok = not mismatches and not (skipped and args.require_all_plugins)
    print("differential: %d commands compared, %d mismatches, %d sections skipped: %s" %
          (compared, len(mismatches), len(skipped), "PASS" if ok else "FAIL"))
    return 0 if ok else 1


if __name__ == "__main__":
    support.main_guard(main)
