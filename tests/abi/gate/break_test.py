#!/usr/bin/env python3
"""One deliberate ABI break (or allowed change) per case: copies sdk/include and sdk/abi into a
work directory, edits the copy, runs the gate (sdk/abi/abi.py check) on it and checks its verdict
and that its output names the field. Registered by CMakeLists.txt here as abi_gate_<case>.

  break_test.py CASE --source-dir REPO --work-dir DIR     exit 0 pass, 1 fail, 77 skip
"""

import argparse
import re
import shutil
import struct
import subprocess
import sys
from pathlib import Path

COMMANDS = "sdk/include/plinth/abi/commands.h"
BASE = "sdk/include/plinth/abi/base.h"
HOST_API = "sdk/include/plinth/abi/host_api.h"
SPEC_END = r"(\n\} plinth_command_spec_t;)"
API_END = r"(\n\};\s*\n\s*/\* PLINTH_HAS)"


def current_minor(source):
    text = (Path(source) / BASE).read_text()
    return int(re.search(r"#define PLINTH_ABI_MINOR (\d+)", text).group(1))


# The tree's minor (N): each case bumps to N + 1 (and the padding case on to N + 2).
N = current_minor(Path(__file__).resolve().parents[3])


def append_to_spec(decl, minor=N + 1):
    return ("edit", COMMANDS, SPEC_END, f"\n  {decl} /* since 1.{minor} */\\1")


def bump(to):
    return ("edit", BASE, r"(#define PLINTH_ABI_MINOR) \d+\b", rf"\g<1> {to}")


BUMP = bump(N + 1)
BUMPED_APPEND = [BUMP, append_to_spec("uint64_t extra_id;")]

# case: steps. ("edit", file, regex, replacement) must match exactly once; ("check", exit
# status, [texts the output must contain]); ("freeze",); ("exists", path).
CASES = {
    "reorder_fields": [
        ("edit", COMMANDS, r"(\n\s*int32_t first_key;[^\n]*)(\n\s*int32_t last_key;[^\n]*)",
         r"\2\1"),
        ("check", 1, ["plinth_command_spec_t.first_key: offset changed",
                      "plinth_command_spec_t.last_key: offset changed"])],
    "retype_field": [
        ("edit", COMMANDS, r"\bint32_t arity;(?=[^}]*\} plinth_command_spec_t;)", "int64_t arity;"),
        ("check", 1, ["plinth_command_spec_t.arity: type changed"])],
    "change_signature": [
        ("edit", HOST_API, r"void \(\*reply_null\)\(plinth_call_t\* call\);",
         "void (*reply_null)(plinth_call_t* call, int32_t resp);"),
        ("check", 1, ["plinth_host_api_t.reply_null: signature changed"])],
    "change_typedef": [
        ("edit", COMMANDS, r"typedef void \(\*plinth_command_fn\)\(plinth_call_t\* call, void\* ctx\);",
         "typedef void (*plinth_command_fn)(plinth_call_t* call, const void* ctx);"),
        ("check", 1, ["typedef plinth_command_fn: changed",
                      "plinth_command_spec_t.handler: type changed"])],
    "remove_field": [
        ("edit", COMMANDS, r"\n\s*int32_t key_step;[^\n]*", ""),
        ("check", 1, ["plinth_command_spec_t.key_step: removed"])],
    "change_constant": [
        ("edit", COMMANDS, r"(#define PLINTH_CMD_WRITE) 0x0001u", r"\1 0x80000000u"),
        ("check", 1, ["constant PLINTH_CMD_WRITE: value changed"])],
    "append_without_bump": [
        append_to_spec("uint64_t extra_id;"),
        ("check", 1, ["plinth_command_spec_t.extra_id: added",
                      f"PLINTH_ABI_MINOR is still {N}"])],
    "append_function_without_bump": [
        ("edit", HOST_API, API_END, "\n  int32_t (*extra_fn)(plinth_plugin_t* self);\\1"),
        ("check", 1, ["plinth_host_api_t.extra_fn: added"])],
    "append_with_bump": BUMPED_APPEND + [("check", 0, [f"1.{N + 1} extends baseline 1.{N}"])],
    "bump_without_change": [
        BUMP, ("check", 1, [f"bumped to 1.{N + 1} but the ABI did not change"])],
    # On LP64, a uint64_t then a uint32_t appended in 1.N+1 leave 4 bytes of tail padding in
    # the 1.N+1 struct, where a uint32_t appended in 1.N+2 would fit without changing sizeof.
    "append_into_tail_padding": BUMPED_APPEND + [
        append_to_spec("uint32_t extra_flags;"), ("check", 0, []), ("freeze",),
        bump(N + 2), append_to_spec("uint32_t extra_more;", N + 2),
        ("check", 1, [f"plinth_command_spec_t.extra_more: added after 1.{N + 1} but starts "
                      "inside"])],
    "freeze_round_trip": BUMPED_APPEND + [
        ("check", 0, []), ("freeze",), ("exists", f"sdk/abi/1.{N + 1}/plugin.h"),
        ("check", 0, [f"no change against baseline 1.{N + 1}"]),
        append_to_spec("uint64_t extra_id2;"),
        ("check", 1, ["plinth_command_spec_t.extra_id2: added"])],
}


def edit(work, rel, pattern, replacement):
    path = work / rel
    text, count = re.subn(pattern, replacement, path.read_text())
    if count != 1:
        raise SystemExit(f"test setup: /{pattern}/ matched {count} times in {rel}, not once: "
                         "update break_test.py to the header")
    path.write_text(text)
    print(f"edited {rel}: /{pattern}/ -> {replacement!r}")


def gate(source, work, command):
    cmd = [sys.executable, str(source / "sdk/abi/abi.py"), command,
           "--include", str(work / "sdk/include"), "--baselines", str(work / "sdk/abi")]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    output = proc.stdout + proc.stderr
    print(f"$ abi.py {command}  (exit {proc.returncode})\n{output}")
    return proc.returncode, output


def run(case, source, work):
    if case == "append_into_tail_padding" and struct.calcsize("P") != 8:
        print("skipped: the tail padding this case uses exists on LP64 targets only")
        return 77
    shutil.rmtree(work, ignore_errors=True)
    for part in ("sdk/include", "sdk/abi"):
        shutil.copytree(source / part, work / part,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    for step in CASES[case]:
        if step[0] == "edit":
            edit(work, *step[1:])
        elif step[0] == "freeze":
            if gate(source, work, "freeze")[0] != 0:
                return fail("freeze failed")
        elif step[0] == "exists":
            if not (work / step[1]).is_file():
                return fail(f"{step[1]} was not created")
        else:
            status, output = gate(source, work, "check")
            if status != step[1]:
                return fail(f"the gate exited {status}, expected {step[1]}")
            missing = [t for t in step[2] if t not in output]
            if missing:
                return fail(f"the gate's output lacks: {missing}")
    print(f"PASS: {case}")
    return 0


def fail(why):
    print(f"FAIL: {why}")
    return 1


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("case", choices=sorted(CASES))
    parser.add_argument("--source-dir", required=True, type=Path)
    parser.add_argument("--work-dir", required=True, type=Path)
    args = parser.parse_args()
    return run(args.case, args.source_dir.resolve(), args.work_dir.resolve())


if __name__ == "__main__":
    sys.exit(main())
