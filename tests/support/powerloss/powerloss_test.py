#!/usr/bin/python3
"""Self-test of the power-loss simulation: a victim process (Python, and a tiny C program linked
with tcmalloc when it builds) runs under the powerloss.c shim, writes and fsyncs, and SIGKILLs
itself; cut.py must then leave exactly what fsync made durable. Exit 0: all passed, 1: a failure,
77: no C compiler to build the shim with.

    powerloss_test.py [--shim path/to/libplinth_powerloss.so] [--cc cc]"""

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import cut  # noqa: E402

SKIP = 77

PRELUDE = textwrap.dedent("""\
    import os, signal, sys, threading
    def put(name, data, flags=os.O_WRONLY | os.O_CREAT | os.O_APPEND, sync=False):
        fd = os.open(name, flags, 0o644)
        os.write(fd, data)
        if sync:
            os.fsync(fd)
        os.close(fd)
    def dirsync(name="."):
        fd = os.open(name, os.O_RDONLY)
        os.fsync(fd)
        os.close(fd)
    """)


_made = []  # every Case, so main() removes their folders whatever happened


class Case:
    """One victim run in a fresh data folder whose files are given up front."""

    def __init__(self, shim, files=None):
        self.top = tempfile.mkdtemp(prefix="powerloss-test-")
        _made.append(self)
        self.data = os.path.join(self.top, "data")
        self.journal = os.path.join(self.top, "journal")
        os.mkdir(self.data)
        for name, content in (files or {}).items():
            path = os.path.join(self.data, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as f:
                f.write(content)
        self.env = dict(os.environ, LD_PRELOAD=shim, PLINTH_POWERLOSS_LOG=self.journal,
                        PLINTH_POWERLOSS_DIR=self.data)

    def run(self, argv):
        """Runs argv in the data folder; it must die by SIGKILL. Then applies cut.py."""
        proc = subprocess.run(argv, cwd=self.data, env=self.env, timeout=60,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if proc.returncode != -signal.SIGKILL:
            raise AssertionError("victim exited with %s, not SIGKILL:\n%s" %
                                 (proc.returncode, proc.stdout.decode(errors="replace")))
        cut.apply(self.journal, self.data)

    def python(self, body):
        self.run([sys.executable, "-c", PRELUDE + textwrap.dedent(body) +
                  "\nos.kill(os.getpid(), signal.SIGKILL)\n"])

    def tree(self):
        """{relative path: bytes} of every file left, folders as relative paths ending in /."""
        out = {}
        for dirpath, dirnames, filenames in os.walk(self.data):
            rel = os.path.relpath(dirpath, self.data)
            for d in dirnames:
                out[os.path.normpath(os.path.join(rel, d)) + "/"] = None
            for name in filenames:
                with open(os.path.join(dirpath, name), "rb") as f:
                    out[os.path.normpath(os.path.join(rel, name))] = f.read()
        return out

    def journal_lines(self):
        with open(self.journal, "rb") as f:
            return f.read().decode().splitlines()

    def close(self):
        shutil.rmtree(self.top, ignore_errors=True)


def expect_tree(case, wanted, what):
    got = case.tree()
    if got != wanted:
        raise AssertionError("%s: left %r, wanted %r\njournal:\n%s" %
                             (what, got, wanted, "\n".join(case.journal_lines()[-60:])))


CASES = []


def case(fn):
    CASES.append(fn)
    return fn


@case
def unsynced_bytes_and_rename_are_lost(shim, cc):
    c = Case(shim, {"aof": b"", "target": b"old"})
    c.python("""
        fd = os.open("aof", os.O_WRONLY | os.O_APPEND)
        os.write(fd, b"A" * 100)
        os.fsync(fd)
        os.write(fd, b"B" * 50)
        put("tmp", b"new", sync=True)
        os.rename("tmp", "target")
        """)
    expect_tree(c, {"aof": b"A" * 100, "target": b"old"}, "no folder fsync after the rename")
    return c


@case
def rename_survives_a_folder_fsync(shim, cc):
    c = Case(shim, {"aof": b"", "target": b"old"})
    c.python("""
        put("aof", b"A" * 10, sync=True)
        put("tmp", b"new", sync=True)
        os.rename("tmp", "target")
        dirsync()
        put("aof", b"B" * 10)
        """)
    expect_tree(c, {"aof": b"A" * 10, "target": b"new"}, "folder fsynced after the rename")
    return c


@case
def new_files_need_a_folder_fsync(shim, cc):
    c = Case(shim)
    c.python("""
        put("in-dir-unsynced", b"y")
        dirsync()
        put("synced-no-dir", b"x", sync=True)
        """)
    expect_tree(c, {"in-dir-unsynced": b""}, "creations")
    return c


@case
def unlink_without_folder_fsync_comes_back(shim, cc):
    c = Case(shim, {"gone": b"", "kept": b"k"})
    c.python("""
        put("gone", b"data", sync=True)
        os.unlink("gone")
        os.unlink("kept")
        put("kept", b"second life", sync=True)
        """)
    expect_tree(c, {"gone": b"data", "kept": b"k"}, "unlinks without a folder fsync")
    return c


@case
def dsync_writes_and_sync_are_durable(shim, cc):
    c = Case(shim, {"dsync": b"", "later": b""})
    c.python("""
        put("dsync", b"D" * 7, flags=os.O_WRONLY | os.O_APPEND | os.O_DSYNC)
        put("later", b"L" * 5)
        put("fresh", b"F" * 3)
        os.sync()
        put("later", b"M" * 5)
        """)
    expect_tree(c, {"dsync": b"D" * 7, "later": b"L" * 5, "fresh": b"F" * 3}, "O_DSYNC, sync()")
    return c


@case
def forked_child_rename_with_subfolder(shim, cc):
    c = Case(shim)
    c.python("""
        os.mkdir("appendonlydir")
        dirsync()
        pid = os.fork()
        if pid == 0:
            put("appendonlydir/base.rdb.tmp", b"R" * 64, sync=True)
            os.rename("appendonlydir/base.rdb.tmp", "appendonlydir/base.rdb")
            dirsync("appendonlydir")
            os._exit(0)
        os.waitpid(pid, 0)
        put("appendonlydir/incr.aof", b"I" * 9, sync=True)
        """)
    expect_tree(c, {"appendonlydir/": None, "appendonlydir/base.rdb": b"R" * 64},
                "subfolder written by a forked child")
    return c


@case
def threads_keep_journal_lines_whole(shim, cc):
    c = Case(shim, {"t%d" % i: b"" for i in range(8)})
    c.python("""
        def work(i):
            fd = os.open("t%d" % i, os.O_WRONLY | os.O_APPEND)
            for n in range(200):
                os.write(fd, b"%d\\n" % n)
                os.fsync(fd)
                if n % 50 == 0:
                    dirsync()
        threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
        for t in threads: t.start()
        for t in threads: t.join()
        """)
    want = b"".join(b"%d\n" % n for n in range(200))
    expect_tree(c, {"t%d" % i: want for i in range(8)}, "8 threads fsyncing")
    for line in c.journal_lines():
        word = line.split(" ")[0]
        if word not in ("start", "dir", "entry", "end", "dirsync", "sync", "open"):
            raise AssertionError("mangled journal line %r" % line)
    return c


TCMALLOC_VICTIM = r"""
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
int main(void) {
  char* heap = malloc(1 << 20);
  memset(heap, 'H', 1 << 20);
  int fd = open("aof", O_WRONLY | O_CREAT | O_APPEND, 0644);
  int dir = open(".", O_RDONLY | O_DIRECTORY);
  if (fd < 0 || dir < 0 || fsync(dir) != 0) return 2;
  if (write(fd, heap, 4096) != 4096 || fdatasync(fd) != 0) return 3;
  if (write(fd, heap, 100) != 100) return 4;
  if (fsync(-1) != -1 || errno_is_ebadf() != 1) return 5;
  kill(getpid(), SIGKILL);
  return 6;
}
"""


@case
def c_victim_linked_with_tcmalloc(shim, cc):
    if not cc:
        return "skipped (no C compiler)"
    c = Case(shim)
    src = os.path.join(c.top, "victim.c")
    exe = os.path.join(c.top, "victim")
    with open(src, "w") as f:
        f.write("#include <errno.h>\nstatic int errno_is_ebadf(void) { return errno == EBADF; }\n"
                + TCMALLOC_VICTIM)
    built = subprocess.run([cc, "-O1", "-o", exe, src, "-ltcmalloc"], capture_output=True)
    if built.returncode != 0:
        return "skipped (no libtcmalloc to link with)"
    c.run([exe])
    expect_tree(c, {"aof": b"H" * 4096}, "C victim with tcmalloc")
    return c


def build_shim(cc, out_dir):
    out = os.path.join(out_dir, "libplinth_powerloss.so")
    subprocess.run([cc, "-O2", "-Wall", "-Wextra", "-fPIC", "-shared", "-o", out,
                    os.path.join(HERE, "powerloss.c")], check=True)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--shim", help="the built shim (default: build one with --cc)")
    ap.add_argument("--cc", default=os.environ.get("CC", "cc"))
    args = ap.parse_args()
    cc = shutil.which(args.cc)
    if not args.shim and not cc:
        print("SKIP: no C compiler (%s) to build the shim with" % args.cc)
        return SKIP
    scratch = tempfile.mkdtemp(prefix="powerloss-shim-")
    failed = 0
    try:
        shim = os.path.abspath(args.shim) if args.shim else build_shim(cc, scratch)
        for fn in CASES:
            try:
                result = fn(shim, cc)
                if isinstance(result, str):
                    print("SKIP %s: %s" % (fn.__name__, result))
                else:
                    print("PASS %s" % fn.__name__, flush=True)
            except Exception as e:  # report each case, keep going
                failed += 1
                print("FAIL %s: %s" % (fn.__name__, e), flush=True)
            while _made:
                _made.pop().close()
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print("%d cases, %d failed" % (len(CASES), failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
