"""The abidiff half of the gate: builds the probe library (probe.c) against a header with -g, dumps
its ABI with abidw, and compares two dumps with abidiff. abi.py calls it for freeze and check.

The dump is made reproducible: no corpus path, no compilation directory, no source locations, no
DT_NEEDED, and the probe is compiled in its work directory under a relative name, so the same
header gives a byte-identical probe.<arch>.abi wherever the tree is checked out.
"""

import shutil
import subprocess
from pathlib import Path

import headers

PROBE_SOURCE = Path(__file__).resolve().parent / "probe.c"
ABIDW_FLAGS = ["--no-corpus-path", "--no-comp-dir-path", "--no-show-locs", "--no-elf-needed"]
# Strict: no default suppressions, and "harmless" changes (a renamed field) count too. The report
# lists each changed type once (leaf changes), not every path from a probe function to it.
ABIDIFF_FLAGS = ["--no-default-suppression", "--harmless", "--leaf-changes-only"]


def arch():
    """The target architecture of the C compiler ("x86_64", "aarch64"): the first part of
    -dumpmachine, so gcc's and clang's triples name the same file."""
    cc = headers.compilers()[0]
    proc = subprocess.run(cc + ["-dumpmachine"], capture_output=True, text=True)
    if proc.returncode != 0 or not proc.stdout.strip():
        raise headers.AbiError(f"{' '.join(cc)} -dumpmachine failed: {proc.stderr.strip()}")
    return proc.stdout.strip().split("-")[0]


def require_tools():
    """Raises when abidw or abidiff is missing: the gate must not pass without them."""
    missing = [tool for tool in ("abidw", "abidiff") if shutil.which(tool) is None]
    if missing:
        raise headers.AbiError(
            f"{' and '.join(missing)} not found: install libabigail's tools "
            "(Debian/Ubuntu: apt-get install abigail-tools); the ABI gate cannot run without them")


def type_lines(abi):
    """probe_types.inc: one PLINTH_ABI_PROBE* line per public type and function of abi."""
    named = set(abi.struct_typedefs.values())
    lines = [f"PLINTH_ABI_PROBE({name})" for name in sorted(abi.typedefs)]
    lines += [f"PLINTH_ABI_PROBE_STRUCT({tag})" for tag in sorted(abi.structs) if tag not in named]
    lines += [f"PLINTH_ABI_PROBE_FUNCTION({name})" for name in sorted(abi.functions)]
    return "\n".join(lines) + "\n"


def dump(abi, include_dir, header_name, work_dir):
    """Builds the probe for abi (whose header is include_dir/header_name) in work_dir and returns
    the abidw text."""
    require_tools()
    work = Path(work_dir)
    work.mkdir(parents=True, exist_ok=True)
    (work / "probe_types.inc").write_text(type_lines(abi))
    shutil.copyfile(PROBE_SOURCE, work / "probe.c")
    cc = headers.compilers()[0]
    cmd = cc + ["-std=c99", "-g", "-O0", "-fPIC", "-shared", "-fvisibility=hidden",
                f"-DPLINTH_ABI_PROBE_HEADER=\"{header_name}\"", f"-I{Path(include_dir).resolve()}",
                "-I.", "probe.c", "-o", "libplinth_abi_probe.so"]
    _run(cmd, work, "building the ABI probe")
    _run(["abidw", *ABIDW_FLAGS, "--out-file", "probe.abi", "libplinth_abi_probe.so"], work,
         "abidw")
    return (work / "probe.abi").read_text()


def diff(baseline_file, current_file):
    """Compares two abidw dumps. Returns (changed, abidiff's report); raises when abidiff
    itself fails (its exit status has bit 1 or 2 set)."""
    require_tools()
    proc = subprocess.run(["abidiff", *ABIDIFF_FLAGS, str(baseline_file), str(current_file)],
                          capture_output=True, text=True)
    if proc.returncode & 3:
        raise headers.AbiError(f"abidiff failed (exit {proc.returncode}):\n"
                               f"{proc.stdout}{proc.stderr}")
    return bool(proc.returncode & 12), proc.stdout + proc.stderr


def _run(cmd, cwd, what):
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise headers.AbiError(f"{what} failed ({' '.join(cmd)}):\n{proc.stdout}{proc.stderr}")
