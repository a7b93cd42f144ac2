#!/usr/bin/python3
"""Turns a data folder into what a power cut would have left of it, from the journal that the
powerloss.c shim wrote while the server ran. Run it after SIGKILLing the server (every process
that had the shim loaded must be dead) and before restarting it:

    cut.py JOURNAL DATADIR [--stash DIR] [-v]        or    cut.apply(journal, datadir)

The model (strict POSIX: only what fsync promised survives):
- A folder's entries are those of its last completed fsync of that folder (a "dirsync" group),
  or of a completed sync()/syncfs() ("syncall"); never synced: those it had when the first shim
  process started ("start"). A folder that no durable listing of its parent names is gone; one
  that is named but was never listed itself comes back empty. So a file created, or renamed
  over another, after its folder's last fsync vanishes or reverts to the inode that was there.
- A file's content is the current bytes of the inode its durable entry names, cut to that
  inode's durable size: the size of its last "sync" line (fsync/fdatasync/O_DSYNC write/syncall),
  else its size at start if it existed then, else 0. The bytes of an inode that lost every name
  come from the stash (the shim hard-links files before unlinking or renaming over them); an
  inode found nowhere comes back empty.
Simplifications: files are modelled as append-only. Bytes overwritten in place after they became
durable, and truncations (O_TRUNC, ftruncate) that were never fsynced, are not reverted; AOF and
RDB never do either to a durable file. A rename that was never made durable does not revert a
renamed folder (folders are matched by path). Symlinks and special files are dropped.
Two names of one inode come back as two copies. Python 3 standard library only."""

import argparse
import os
import shutil
import sys
import tempfile
import urllib.parse


def _path(text):
    return os.fsdecode(urllib.parse.unquote_to_bytes(text))


class Journal:
    """What the journal says is durable: listings (folder -> [(path, inode, type)]), durable
    sizes (inode -> bytes) and the start sizes. Parsing tolerates a torn last line."""

    def __init__(self, text):
        self.root = None
        self.listing = {}
        self.durable = {}
        self.start_size = {}
        self.started = False
        groups = {}
        for line in text.splitlines():
            f = line.split(" ")
            kind = f[0]
            try:
                if kind in ("start", "dirsync", "syncall"):
                    groups[f[1]] = {"kind": kind, "dirs": [], "entries": []}
                    if kind == "start" and self.root is None:
                        self.root = _path(f[3])
                elif kind == "dir" and f[1] in groups:
                    groups[f[1]]["dirs"].append(_path(f[2]))
                elif kind == "entry" and f[1] in groups:
                    groups[f[1]]["entries"].append((_path(f[2]), f[3], int(f[4]), f[5]))
                elif kind == "end" and f[1] in groups:
                    self._apply(groups.pop(f[1]))
                elif kind == "sync":
                    self.durable[f[1]] = int(f[2])
            except (IndexError, ValueError):
                continue  # a line torn by the kill

    def _apply(self, g):
        if g["kind"] == "start":
            if self.started:
                return  # a later exec of a shimmed program: the first start is the truth
            self.started = True
        for d in g["dirs"]:
            self.listing[d] = [(p, ino, t) for p, ino, _, t in g["entries"]
                               if os.path.dirname(p) == d]
        for _, ino, size, t in g["entries"]:
            if t != "f":
                continue
            if g["kind"] == "start":
                self.start_size.setdefault(ino, size)
            elif g["kind"] == "syncall":
                self.durable[ino] = size

    def durable_size(self, ino):
        if ino in self.durable:
            return self.durable[ino]
        return self.start_size.get(ino, 0)


def _inodes(folder, skip):
    """dev:ino -> a current path, for the regular files under folder."""
    found = {}
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames[:] = [d for d in dirnames if os.path.join(dirpath, d) not in skip]
        for name in filenames:
            p = os.path.join(dirpath, name)
            if p in skip:
                continue
            st = os.lstat(p)
            if os.path.isfile(p) and not os.path.islink(p):
                found.setdefault("%d:%d" % (st.st_dev, st.st_ino), p)
    return found


def _stashed(stash):
    found = {}
    if stash and os.path.isdir(stash):
        for name in os.listdir(stash):
            found[name.replace("_", ":", 1)] = os.path.join(stash, name)
    return found


def _copy_prefix(src, dst, size):
    """Writes the first size bytes of src (fewer if it is shorter; none if src is None)."""
    with open(dst, "wb") as out:
        if src is None:
            return 0
        done = 0
        with open(src, "rb") as f:
            while done < size:
                chunk = f.read(min(1 << 20, size - done))
                if not chunk:
                    break
                out.write(chunk)
                done += len(chunk)
        shutil.copymode(src, dst)
        return done


def _build(journal, sources, folder, staged, report):
    for path, ino, kind in journal.listing.get(folder, []):
        out = os.path.join(staged, os.path.basename(path))
        if kind == "d":
            os.mkdir(out)
            _build(journal, sources, path, out, report)
        elif kind == "f":
            src = sources.get(ino)
            kept = _copy_prefix(src, out, journal.durable_size(ino))
            report[path] = (kept, ino, src)


def _clear(folder, skip):
    for name in os.listdir(folder):
        p = os.path.join(folder, name)
        if p in skip:
            continue
        if os.path.isdir(p) and not os.path.islink(p):
            shutil.rmtree(p)
        else:
            os.unlink(p)


def apply(journal_path, datadir, stash=None, verbose=False):
    """Rewrites datadir in place into its post-power-cut state. Returns {path: (bytes kept,
    inode, source path or None)} for each file that survives. Raises RuntimeError when the
    journal has no completed start record for datadir."""
    with open(journal_path, "rb") as f:
        journal = Journal(f.read().decode("ascii", "replace"))
    root = os.path.realpath(datadir)
    if journal.root is None or journal.root not in journal.listing:
        raise RuntimeError("%s has no completed start record (was the shim loaded, with "
                           "PLINTH_POWERLOSS_DIR set?)" % journal_path)
    if os.path.realpath(journal.root) != root:
        raise RuntimeError("journal tracks %s, not %s" % (journal.root, root))
    stash = stash or journal_path + ".stash"
    skip = {os.path.realpath(journal_path), os.path.realpath(stash)}
    sources = _stashed(stash)
    sources.update(_inodes(root, skip))  # a live name is as good as the stash, and fresher
    staged = tempfile.mkdtemp(prefix=".powerloss-cut-", dir=os.path.dirname(root))
    try:
        report = {}
        _build(journal, sources, journal.root, staged, report)
        _clear(root, skip)
        for name in os.listdir(staged):
            os.rename(os.path.join(staged, name), os.path.join(root, name))
    finally:
        shutil.rmtree(staged, ignore_errors=True)
    if verbose:
        for path, (kept, ino, src) in sorted(report.items()):
            print("%s: %d bytes of inode %s from %s" % (path, kept, ino, src))
    return report


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("journal")
    ap.add_argument("datadir")
    ap.add_argument("--stash", help="stash folder (default: JOURNAL.stash)")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)
    apply(args.journal, args.datadir, args.stash, args.verbose)
    return 0


if __name__ == "__main__":
    sys.exit(main())
