#!/usr/bin/python3
"""BullMQ 5 acceptance test: the scenario in bullmq/scenario.js (a Queue, Workers, delayed jobs,
retries with exponential and fixed backoff, a job failing for good, an unrecoverable one,
progress, removeOnComplete, a duplicate id, priorities, a parent/child flow, a job scheduler,
a manual retry, pause/resume, obliterate; every QueueEvents event per job) runs against a fresh
Debian redis-server and a fresh plinth-server. Their JSON summaries must be identical, and each
job must end as the scenario means it to (checked on both).
BullMQ runs entirely on Lua scripts (EVALSHA) and a stream (XADD, XREAD BLOCK), so plinth-server
needs its scripting and stream plugins.

The npm packages (package.json and package-lock.json in bullmq/, an exact BullMQ version) are
installed with `npm ci` into a cache folder in the build tree (--cache-dir), once per lockfile.
Exit 0: identical and as expected; 1: a difference or a failure; 77: node or npm is missing."""

import argparse
import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import support  # noqa: E402

APP = os.path.join(HERE, "bullmq")
NODE = shutil.which("node") or shutil.which("nodejs")
NPM = shutil.which("npm")
SCENARIO_TIMEOUT_MS = 60000
# Plugins BullMQ needs beyond the default set; loaded with --plugin when built but not default.
NEEDED_PLUGINS = ["scripting", "stream"]

# What every job must come to, on every server: (path in the summary, wanted value).
EXPECTED = [
    ("timedOut", False),
    ("errors", []),
    ("jobs.plain1.state", "completed"),
    ("jobs.plain1.attemptsMade", 1),
    ("jobs.plain1.returnvalue", {"doubled": 42, "echo": {"n": 21}}),
    ("jobs.plain1.progress", 100),
    ("jobs.delay1.state", "completed"),
    ("jobs.delay1.delayHonoured", "yes"),
    ("jobs.delay1.returnvalue", "late"),
    ("jobs.retryexp.state", "completed"),
    ("jobs.retryexp.attemptsMade", 3),
    ("jobs.retryexp.returnvalue", "ok after 3"),
    ("jobs.retryexp.backoffHonoured", "yes"),
    ("jobs.retryfixed.state", "completed"),
    ("jobs.retryfixed.attemptsMade", 3),
    ("jobs.retryfixed.returnvalue", "ok after 3"),
    ("jobs.retryfixed.backoffHonoured", "yes"),
    ("jobs.doomed.state", "failed"),
    ("jobs.doomed.attemptsMade", 2),
    ("jobs.doomed.failedReason", "permanent failure 2"),
    ("jobs.doomed.backoffHonoured", "yes"),
    ("jobs.doomed.afterManualRetry.state", "failed"),
    ("jobs.doomed.afterManualRetry.attemptsMade", 3),
    ("jobs.fatal.state", "failed"),
    ("jobs.fatal.attemptsMade", 1),
    ("jobs.fatal.failedReason", "unrecoverable"),
    ("jobs.ephemeral.state", "removed"),
    ("jobs.childa.returnvalue", 10),
    ("jobs.childb.returnvalue", 20),
    ("jobs.parent.state", "completed"),
    ("jobs.parent.returnvalue", 30),
    ("prioOrder", ["p0", "p1", "p1b", "p3", "p5"]),
    ("ticks", 3),
    ("completedIds", ["childa", "childb", "delay1", "parent", "plain1", "retryexp", "retryfixed",
                      "tick#1", "tick#2", "tick#3"]),
    ("failedIds", ["doomed", "fatal"]),
    ("pausedIsPaused", True),
    ("keysAfterObliterate", []),
]
MISSING = object()


def lookup(tree, path):
    for part in path.split("."):
        if not isinstance(tree, dict) or part not in tree:
            return MISSING
        tree = tree[part]
    return tree


def flatten(tree, prefix=""):
    """{path: leaf} of a JSON value; lists of scalars stay whole, so an event list is one leaf."""
    out = {}
    if isinstance(tree, dict):
        for k, v in tree.items():
            out.update(flatten(v, prefix + k + "."))
    else:
        out[prefix.rstrip(".")] = tree
    return out


def install(cache_dir):
    """npm ci of bullmq/package-lock.json into cache_dir, unless done for this lockfile already.
    Returns the node_modules folder or raises RuntimeError."""
    os.makedirs(cache_dir, exist_ok=True)
    with open(os.path.join(APP, "package-lock.json"), "rb") as f:
        lock = f.read()
    with open(os.path.join(APP, "package.json"), "rb") as f:
        pkg = f.read()
    digest = hashlib.sha256(pkg + b"\0" + lock).hexdigest()
    stamp = os.path.join(cache_dir, "installed.sha256")
    modules = os.path.join(cache_dir, "node_modules")
    with open(os.path.join(cache_dir, ".lock"), "w") as lockfile:
        fcntl.flock(lockfile, fcntl.LOCK_EX)  # the io1 and io3 variants may run at once
        if os.path.exists(stamp) and open(stamp).read().strip() == digest and \
                os.path.isdir(os.path.join(modules, "bullmq")):
            return modules
        for name, data in (("package.json", pkg), ("package-lock.json", lock)):
            with open(os.path.join(cache_dir, name), "wb") as f:
                f.write(data)
        print("npm ci --prefix %s" % cache_dir, flush=True)
        res = subprocess.run([NPM, "ci", "--prefix", cache_dir, "--ignore-scripts", "--no-audit",
                              "--no-fund", "--loglevel", "error"],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=240)
        if res.returncode != 0:
            raise RuntimeError("npm ci failed (status %d):\n%s" %
                               (res.returncode, res.stdout.decode("utf-8", "replace")[-3000:]))
        with open(stamp, "w") as f:
            f.write(digest + "\n")
    return modules


def host_default_plugins(server_path):
    """The plugin names plinth-server loads by default, from its --help."""
    res = subprocess.run([server_path, "--help"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         timeout=30)
    lines = res.stdout.decode("utf-8", "replace").splitlines()
    for i, line in enumerate(lines):
        if line.startswith("Default plugins") and i + 1 < len(lines):
            return lines[i + 1].split()
    return []


def start_plinth(server_path):
    """plinth-server with the default plugins plus scripting and stream when built. Returns
    (server, list of the needed plugins that are not built)."""
    defaults = host_default_plugins(server_path)
    folder = support.plugin_dir(server_path)
    extra, missing = [], []
    for name in NEEDED_PLUGINS:
        if not os.path.exists(os.path.join(folder, name + ".so")):
            missing.append(name)
        elif name not in defaults or support.plugin_args(server_path):
            extra += ["--plugin", name]
    return support.start_plinth(server_path, list(support.PERSISTENCE_OFF) + extra), missing


def run_scenario(modules, port, label):
    """Runs scenario.js against 127.0.0.1:port. Returns (summary dict or None, output text)."""
    env = dict(os.environ, NODE_PATH=modules, BULLMQ_TIMEOUT_MS=str(SCENARIO_TIMEOUT_MS))
    try:
        res = subprocess.run([NODE, os.path.join(APP, "scenario.js"), "127.0.0.1", str(port)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                             cwd=os.path.dirname(modules), timeout=SCENARIO_TIMEOUT_MS / 1000 + 30)
    except subprocess.TimeoutExpired as e:
        return None, "node did not exit: %s" % e
    out = res.stdout.decode("utf-8", "replace")
    err = res.stderr.decode("utf-8", "replace")
    summary = None
    for line in out.splitlines():
        if line.startswith("SUMMARY "):
            summary = json.loads(line[len("SUMMARY "):])
    print("%s: scenario exit %d, %s" % (label, res.returncode,
                                        "summary read" if summary else "no summary"), flush=True)
    if res.returncode != 0 or summary is None:
        print("  " + (err[-3000:] + out[-3000:]).strip().replace("\n", "\n  "))
    return summary, out + err


def check_expected(summary, label):
    problems = []
    for path, wanted in EXPECTED:
        got = lookup(summary, path)
        if got != wanted:
            problems.append("%s: %s is %s, wanted %s" % (
                label, path, "missing" if got is MISSING else json.dumps(got), json.dumps(wanted)))
    return problems


def compare(ref, other, label):
    a, b = flatten(ref), flatten(other)
    problems = []
    for path in sorted(set(a) | set(b)):
        if path == "server":
            continue
        va, vb = a.get(path, MISSING), b.get(path, MISSING)
        if va != vb:
            show = lambda v: "missing" if v is MISSING else json.dumps(v)[:600]
            problems.append("%s differs at %s:\n    redis:  %s\n    %s: %s" %
                            (label, path, show(va), label, show(vb)))
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--server", help="path of plinth-server")
    ap.add_argument("--against-redis", action="store_true",
                    help="compare redis-server with a second redis-server (validates the test)")
    ap.add_argument("--cache-dir", help="where npm ci installs the packages "
                    "(default: bullmq-npm beside the server's bin folder, or a temporary folder)")
    ap.add_argument("--redis", default="/usr/bin/redis-server")
    args = ap.parse_args()
    if not args.server and not args.against_redis:
        ap.error("--server or --against-redis is required")
    if args.server:
        args.server = os.path.abspath(args.server)
    if not NODE or not NPM:
        print("SKIP: node or npm is missing (apt-get install nodejs npm)")
        return support.SKIP
    if not os.path.exists(args.redis):
        print("SKIP: %s is missing (apt-get install redis-server)" % args.redis)
        return support.SKIP
    cache = args.cache_dir
    if not cache:
        cache = (os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(args.server))),
                              "bullmq-npm") if args.server and not args.against_redis else
                 os.path.join(tempfile.gettempdir(), "plinth-bullmq-npm-%d" % os.getuid()))
    try:
        modules = install(cache)
    except (RuntimeError, OSError, subprocess.TimeoutExpired) as e:
        print("FAIL install: %s" % e)
        return 1

    problems = []
    redis = support.start_redis(args.redis)
    try:
        ref, _ = run_scenario(modules, redis.port, "redis")
    finally:
        redis.stop()
    if ref is None:
        print("FAIL: the scenario gave no summary against redis-server")
        return 1
    problems += check_expected(ref, "redis")

    label, missing = ("redis2", []) if args.against_redis else ("plinth", None)
    if args.against_redis:
        other_srv = support.start_redis(args.redis)
    else:
        other_srv, missing = start_plinth(args.server)
        if missing:
            print("NOTE: plugin %s not built; BullMQ cannot work without it" % ",".join(missing))
    try:
        other, output = run_scenario(modules, other_srv.port, label)
        if not other_srv.alive():
            problems.append("%s died:\n%s" % (label, other_srv.log()[-3000:]))
    finally:
        problem = other_srv.stop_cleanly() if not args.against_redis else other_srv.stop()
        if problem and not args.against_redis:
            problems.append(problem)
    if other is None:
        problems.append("%s: the scenario gave no summary" % label)
    else:
        problems += check_expected(other, label)
        problems += compare(ref, other, label)

    for p in problems[:25]:
        print("FAIL " + p)
    if len(problems) > 25:
        print("... and %d more" % (len(problems) - 25))
    jobs = len(ref.get("jobs", {}))
    print("bullmq: %d jobs, %d problems: %s" %
          (jobs, len(problems), "FAIL" if problems else "PASS"))
    return 1 if problems else 0


if __name__ == "__main__":
    support.main_guard(main)
