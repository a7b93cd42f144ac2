#!/usr/bin/env python3
"""The contract checker catches a broken contract: copies the ABI headers, breaks three known
comments (a THREAD word, a "since" marker, a "no struct_size" note) and expects the checker to
fail, naming each of them, on lines the untouched headers do not produce.

Usage: catches_test.py CHECKER INCLUDE_DIR WORK_DIR. Standard library only.
"""

import os
import shutil
import subprocess
import sys


def break_comment(path, anchor, word, replacement):
    """Replaces word in the comment block that ends right before anchor (or on its line)."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    at = text.find(anchor)
    if at < 0 or text.count(anchor) != 1:
        sys.exit("setup: %s not found once in %s" % (anchor, path))
    line_start = text.rfind("\n", 0, at) + 1
    line_end = text.find("\n", at)
    start = text.find("/*", at, line_end)  # a comment trailing the anchor's line
    if start < 0:  # else the block before that line
        start = text.rfind("/*", 0, line_start)
    end = text.find("*/", start) + 2
    block = text[start:end]
    if block.count(word) != 1:
        sys.exit("setup: %r not once in the comment of %s: %s" % (word, anchor, block))
    with open(path, "w", encoding="utf-8") as f:
        f.write(text[:start] + block.replace(word, replacement) + text[end:])


def run(checker, include):
    r = subprocess.run([sys.executable, checker, include], capture_output=True, text=True)
    return r.returncode, r.stdout + r.stderr


def main(argv):
    if len(argv) != 4:
        sys.stderr.write("usage: catches_test.py CHECKER INCLUDE_DIR WORK_DIR\n")
        return 2
    checker, include, work = argv[1:]
    copy = os.path.join(work, "include")
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(os.path.join(include, "plinth", "abi"), os.path.join(copy, "plinth", "abi"))
    abi = os.path.join(copy, "plinth", "abi")

    break_comment(os.path.join(abi, "host_api.h"), "(*timer_start)", "THREAD", "thread")
    break_comment(os.path.join(abi, "replies.h"), "double dbl;", "since 1.0", "added in 1.0")
    break_comment(os.path.join(abi, "transport.h"), "typedef struct plinth_iovec {",
                  "no struct_size", "no size field")
    expected = [
        ("plinth_host_api.timer_start", "lacks THREAD"),
        ("plinth_reply_item_t.dbl", "since"),
        ("plinth_iovec_t", "struct_size"),
    ]

    _, baseline = run(checker, include)
    rc, out = run(checker, copy)
    failures = []
    if rc != 1:
        failures.append("checker exited %d on the broken copy, want 1" % rc)
    for name, what in expected:
        hits = [l for l in out.splitlines() if name in l and what in l]
        if not hits:
            failures.append("no line names %s (%s)" % (name, what))
        elif any(h.replace(copy, include) in baseline for h in hits):
            failures.append("the untouched headers report %s too" % name)
    for f in failures:
        print("catches: " + f)
    if failures:
        print("checker output:\n" + out)
        return 1
    print("catches: the checker named all %d broken contracts" % len(expected))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
