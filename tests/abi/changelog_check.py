#!/usr/bin/env python3
"""Checks docs/abi.md's change log against the host table: every function of struct
plinth_host_api appears in the row of the minor its "since M.N" comment names, and in no
other row. usage: changelog_check.py HOST_API_H ABI_MD"""
import re
import sys


def table_functions(header):
    text = open(header).read()
    start = text.index("struct plinth_host_api {")
    body = text[start:text.index("\n};", start)]
    out, since = [], None
    for line in body.splitlines():
        m = re.search(r"since (\d+\.\d+)", line)
        if m:
            since = m.group(1)
        f = re.search(r"\(\*(\w+)\)\(", line)
        if f:
            if since is None:
                sys.exit(f"changelog: {f.group(1)} has no 'since M.N' comment")
            out.append((f.group(1), since))
            since = None
    return out


def changelog_rows(doc):
    text = open(doc).read()
    log = text[text.index("### Change log"):]
    rows = {}
    for m in re.finditer(r"^\| (\d+\.\d+) \| (.*) \|$", log, re.M):
        rows[m.group(1)] = set(re.findall(r"`(\w+)`", m.group(2)))
    return rows


def main():
    funcs = table_functions(sys.argv[1])
    rows = changelog_rows(sys.argv[2])
    problems = []
    for name, since in funcs:
        if name not in rows.get(since, set()):
            problems.append(f"{name} (since {since}) is missing from the {since} row")
        for minor, names in rows.items():
            if minor != since and name in names:
                problems.append(f"{name} (since {since}) is also listed under {minor}")
    for p in problems:
        print("changelog: " + p)
    if problems:
        return 1
    print(f"changelog: {len(funcs)} host functions, each in its minor's row")
    return 0


if __name__ == "__main__":
    sys.exit(main())
