#!/usr/bin/env python3
"""Checks docs/abi.md's change log against the ABI itself: the 1.0 row names every function of
the host table of 1.0, and the row of each later minor names everything that minor added (each
new host function by its name, each new field of another struct as `type.field`), found by
comparing each frozen baseline (sdk/abi/1.N/plugin.h) and the current headers with the minor
before. Uses the gate's header parser (sdk/abi/headers.py).
usage: changelog_check.py REPO_ROOT"""
import re
import sys
from pathlib import Path

ROOT = Path(sys.argv[1]).resolve()
sys.path.insert(0, str(ROOT / "sdk" / "abi"))
sys.dont_write_bytecode = True
import headers  # noqa: E402

HOST_API = "plinth_host_api"


def members(abi):
    """{name as the change log writes it}: host functions bare, other fields as type.field."""
    out = set()
    for tag, struct in abi.structs.items():
        for f in struct.fields or []:
            out.add(f.name if tag == HOST_API else f"{abi.display(tag)}.{f.name}")
    return out


def versions():
    """[(minor, Abi)] for every baseline of major 1, then the current headers when newer."""
    found = []
    for d in sorted((ROOT / "sdk" / "abi").glob("1.*"), key=lambda p: int(p.name.split(".")[1])):
        found.append((int(d.name.split(".")[1]), headers.read_abi(d / "plugin.h")))
    include = ROOT / "sdk" / "include"
    current = headers.read_abi(include / "plinth" / "plugin.h", [include])
    minor = current.version()[1]
    if not found or found[-1][0] < minor:
        found.append((minor, current))
    return found


def changelog_rows():
    text = (ROOT / "docs" / "abi.md").read_text()
    log = text[text.index("### Change log"):]
    return {int(m.group(1)): set(re.findall(r"`([\w.]+)`", m.group(2)))
            for m in re.finditer(r"^\| 1\.(\d+) \| (.*) \|$", log, re.M)}


def main():
    rows = changelog_rows()
    problems, checked, before = [], 0, None
    for minor, abi in versions():
        now = members(abi)
        if before is None:  # 1.0: the host table function by function
            added = {f.name for f in abi.structs[HOST_API].fields if "(*" in f.decl}
        else:
            added = now - before
        for name in sorted(added):
            checked += 1
            if name not in rows.get(minor, set()):
                problems.append(f"1.{minor} added {name}, missing from the 1.{minor} row")
        for other, names in rows.items():
            if other != minor:
                problems += [f"{n} is listed under 1.{other} but was added in 1.{minor}"
                             for n in sorted(added & names)]
        before = now
    for p in problems:
        print("changelog: " + p)
    if problems:
        return 1
    print(f"changelog: {checked} additions, each in its minor's row")
    return 0


if __name__ == "__main__":
    sys.exit(main())
