#!/usr/bin/python3
"""redis-benchmark against a real plinth-server: PING (inline and multibulk), SET, GET, INCR
and MSET, plain, pipelined (-P 16) and over RESP3 (-3), and its whole default suite (no -t:
lists, sets, hashes, sorted sets, LRANGE) plain and at -P 16. Every test must print its
"requests per second" line and nothing may mention an error. No timing is asserted."""

import os
import re
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import support  # noqa: E402
from support import expect  # noqa: E402

BENCH = shutil.which("redis-benchmark") or "/usr/bin/redis-benchmark"
if not os.path.exists(BENCH):
    print("SKIP: redis-benchmark is missing (apt-get install redis-tools)")
    sys.exit(support.SKIP)

TESTS = "ping,set,get,incr,mset"
EXPECTED = ["PING_INLINE", "PING_MBULK", "SET", "GET", "INCR", "MSET (10 keys)"]
# What the default suite (no -t) prints, in order.
DEFAULT_SUITE = EXPECTED[:5] + [
    "LPUSH", "RPUSH", "LPOP", "RPOP", "SADD", "HSET", "SPOP", "ZADD", "ZPOPMIN",
    "LPUSH (needed to benchmark LRANGE)", "LRANGE_100 (first 100 elements)",
    "LRANGE_300 (first 300 elements)", "LRANGE_500 (first 500 elements)",
    "LRANGE_600 (first 600 elements)", "MSET (10 keys)"]
ERROR_WORDS = re.compile(r"ERR|error", re.I)
# A sanitized server (PLINTH_TEST_SANITIZED=1, set by CMake) runs a fifth of the requests: the
# same commands, checked the same way, at a sanitizer's cost; the release suite runs them all.
SCALE = 5 if os.environ.get("PLINTH_TEST_SANITIZED") == "1" else 1
# Printed when CONFIG GET save / appendonly return nothing: worth seeing, not a failed request.
NOTICE_WORDS = re.compile(r"WARNING|Could not")

checks = support.Checks(__doc__)
check = checks.check


def bench(port, *extra, requests=100000, timeout=240, tests=TESTS, expected=EXPECTED):
    """Runs redis-benchmark -q for tests (None: its default suite) and checks every summary
    line named in expected. Returns its output."""
    argv = [BENCH, "-h", "127.0.0.1", "-p", str(port), "-q", "-n", str(requests // SCALE)]
    argv += (["-t", tests] if tests else []) + list(extra)
    start = time.monotonic()
    res = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         stdin=subprocess.DEVNULL, timeout=timeout)
    out = res.stdout.decode("utf-8", "replace")
    # -q redraws a progress line with CR; keep only the lines that were finished.
    lines = [ln.rsplit("\r", 1)[-1].strip() for ln in out.split("\n")]
    lines = [ln for ln in lines if ln]
    shown = " ".join(argv[5:]) or "(default suite)"
    print("  %s (%.1f s)\n    %s" % (shown, time.monotonic() - start,
                                     "\n    ".join(lines)), flush=True)
    expect(res.returncode == 0, "redis-benchmark exit status %d" % res.returncode, out[-2000:])
    bad = [ln for ln in out.replace("\r", "\n").split("\n") if ERROR_WORDS.search(ln)]
    expect(not bad, "redis-benchmark reported errors", bad[:5])
    for ln in sorted(set(ln for ln in out.replace("\r", "\n").split("\n")
                         if NOTICE_WORDS.search(ln))):
        print("  NOTE: redis-benchmark said: " + ln.strip())
    for name in expected:
        found = [ln for ln in lines if ln.startswith(name + ":") and
                 re.search(r"[0-9.]+ requests per second", ln)]
        expect(found, "no 'requests per second' line for " + name, lines)
    return out


@check("strings", "connection", "server")
def plain_100k(port):
    bench(port)


@check("strings", "connection", "server")
def pipelined_16(port):
    bench(port, "-P", "16")


@check("strings", "connection", "server")
def resp3_mode(port):
    bench(port, "-3", requests=20000)


@check("strings", "connection", "server")
def random_keys_and_larger_values(port):
    bench(port, "-r", "10000", "-d", "1024", "-c", "20", requests=20000)


@check("strings", "connection", "server", "list", "set", "hash", "zset")
def default_suite(port):
    bench(port, requests=10000, tests=None, expected=DEFAULT_SUITE)


@check("strings", "connection", "server", "list", "set", "hash", "zset")
def default_suite_pipelined_16(port):
    bench(port, "-P", "16", requests=20000, tests=None, expected=DEFAULT_SUITE)


if __name__ == "__main__":
    support.main_guard(checks.run)
