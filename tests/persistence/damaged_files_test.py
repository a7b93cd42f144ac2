"""What damaged persistence files get, with the real server and checkers: the AOF's last
record cut at every byte offset loads the intact prefix (and is cut back to it) with
aof-load-truncated yes and stops the server with the offset with no; a corrupt byte in the
middle of an AOF, a corrupt or truncated dump.rdb and a bad manifest stop the server with the
offset (or line), never loading part of the data silently. plinth-check-aof and
plinth-check-rdb report the same offsets, and plinth-check-aof --fix cuts the tail. Exits 77
without redis-py."""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import crash_support  # noqa: E402
from crash_support import CrashServer  # noqa: E402

AOF = ["--save", "", "--appendonly", "yes", "--aof-use-rdb-preamble", "yes"]
INCR = "appendonlydir/appendonly.aof.1.incr.aof"


def run_once(server, datadir, args, timeout=20.0):
    """Starts the server in datadir. Returns ("up", client) when it serves, or ("exit", code,
    log) when it stops by itself first."""
    port = crash_support.free_port()
    log = tempfile.NamedTemporaryFile(prefix="damaged-", suffix=".log", delete=False)
    proc = subprocess.Popen([server, "--port", str(port), "--bind", "127.0.0.1"] + args,
                            cwd=datadir, stdout=log, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL)
    deadline = time.monotonic() + timeout
    c = crash_support.redis.Redis(host="127.0.0.1", port=port, socket_timeout=10)
    try:
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                return "exit", proc.returncode, open(log.name, errors="replace").read()
            try:
                if c.ping():
                    return "up", proc, c
            except (crash_support.redis.exceptions.ConnectionError,
                    crash_support.redis.exceptions.BusyLoadingError):
                time.sleep(0.02)
        raise RuntimeError("the server neither served nor stopped")
    finally:
        os.unlink(log.name) if proc.poll() is not None else None


def stop(proc, client):
    client.close()
    proc.terminate()
    proc.wait(30)


def make_aof(server, top, keys):
    """A data folder with an AOF holding SET k1..k<keys> in its incr file. Returns the folder
    and the offset where the incr file's last record starts."""
    data = os.path.join(top, "aof-source")
    os.mkdir(data)
    kind, proc, c = run_once(server, data, AOF)
    for i in range(1, keys + 1):
        c.set("k%d" % i, "value-%d" % i)
    stop(proc, c)
    with open(os.path.join(data, INCR), "rb") as f:
        body = f.read()
    return data, body.rfind(b"*3\r\n"), len(body)


def fresh(src, top):
    dst = os.path.join(top, "run")
    shutil.rmtree(dst, ignore_errors=True)
    shutil.copytree(src, dst)
    return dst


def truncated_tail(server, top, check_aof):
    src, start, end = make_aof(server, top, 5)
    assert 0 < start < end
    for cut in range(start + 1, end):
        for load_truncated in ("yes", "no"):
            data = fresh(src, top)
            with open(os.path.join(data, INCR), "r+b") as f:
                f.truncate(cut)
            r = run_once(server, data, AOF + ["--aof-load-truncated", load_truncated])
            if load_truncated == "yes":
                assert r[0] == "up", "cut %d: the server stopped:\n%s" % (cut, r[2][-1500:])
                _, proc, c = r
                got = [c.get("k%d" % i) for i in range(1, 6)]
                stop(proc, c)
                assert got == [b"value-%d" % i for i in range(1, 5)] + [None], (cut, got)
                size = os.path.getsize(os.path.join(data, INCR))
                assert size == start, "cut %d: the file was cut to %d, not %d" % (cut, size, start)
            else:
                assert r[0] == "exit" and r[1] != 0, "cut %d: aof-load-truncated no served" % cut
                assert "offset %d" % start in r[2], "cut %d: no offset:\n%s" % (cut, r[2][-800:])
        data = fresh(src, top)
        with open(os.path.join(data, INCR), "r+b") as f:
            f.truncate(cut)
        out = subprocess.run([check_aof, os.path.join(data, "appendonlydir",
                                                      "appendonly.aof.manifest")],
                             capture_output=True, text=True, timeout=30)
        assert out.returncode == 1 and "offset %d" % start in out.stdout + out.stderr, out
    fixed = subprocess.run([check_aof, "--fix", os.path.join(data, "appendonlydir",
                                                             "appendonly.aof.manifest")],
                           capture_output=True, text=True, timeout=30)
    assert fixed.returncode == 0, fixed
    assert os.path.getsize(os.path.join(data, INCR)) == start
    return "%d cut points of a %d-byte record: prefix loaded / refused at offset %d; " \
           "checker agrees, --fix cuts it" % (end - start - 1, end - start, start)


def corrupt_middle(server, top, check_aof):
    src, start, end = make_aof(server, top, 5)
    with open(os.path.join(src, INCR), "rb") as f:
        body = f.read()
    second = body.find(b"*3\r\n", body.find(b"*3\r\n") + 1)
    bad_at = second + 4  # the '$' of the record's first argument
    for load_truncated in ("yes", "no"):
        data = fresh(src, top)
        with open(os.path.join(data, INCR), "r+b") as f:
            f.seek(bad_at)
            f.write(b"#")
        r = run_once(server, data, AOF + ["--aof-load-truncated", load_truncated])
        assert r[0] == "exit" and r[1] != 0, "a corrupt AOF was served (%s)" % load_truncated
        assert "offset %d" % bad_at in r[2], r[2][-800:]
    out = subprocess.run([check_aof, os.path.join(data, "appendonlydir",
                                                  "appendonly.aof.manifest")],
                         capture_output=True, text=True, timeout=30)
    assert out.returncode == 1 and "offset %d" % bad_at in out.stdout + out.stderr, out
    # A manifest line that is not one refuses with its line.
    data = fresh(src, top)
    with open(os.path.join(data, "appendonlydir", "appendonly.aof.manifest"), "a") as f:
        f.write("file x seq\n")
    r = run_once(server, data, AOF)
    assert r[0] == "exit" and r[1] != 0 and re.search(r"line 3", r[2]), r[2][-800:]
    return "refused at offset %d with aof-load-truncated yes and no; bad manifest line 3" % bad_at


def damaged_rdb(server, top, check_rdb):
    with CrashServer(server, args=["--save", ""]) as p:
        p.start()
        c = p.client()
        for i in range(200):
            c.set("s%d" % i, "v" * (i % 50))
            c.rpush("l%d" % (i % 10), i)
        assert c.execute_command("SAVE") in (True, b"OK")
        c.close()
        p.stop()
        with open(os.path.join(p.datadir, "dump.rdb"), "rb") as f:
            good = f.read()
    notes = []
    cases = [("flipped byte", good[:len(good) // 2] + bytes([good[len(good) // 2] ^ 0x5A]) +
              good[len(good) // 2 + 1:]),
             ("truncated", good[:len(good) * 2 // 3])]
    for name, body in cases:
        data = os.path.join(top, "rdb-" + name.replace(" ", "-"))
        os.mkdir(data)
        with open(os.path.join(data, "dump.rdb"), "wb") as f:
            f.write(body)
        r = run_once(server, data, ["--save", ""])
        assert r[0] == "exit" and r[1] != 0, "%s dump.rdb was served" % name
        m = re.search(r"at offset (\d+)", r[2])
        assert m, r[2][-800:]
        out = subprocess.run([check_rdb, os.path.join(data, "dump.rdb")], capture_output=True,
                             text=True, timeout=30)
        assert out.returncode == 1 and "at offset %s" % m.group(1) in out.stdout, out.stdout
        notes.append("%s refused at offset %s" % (name, m.group(1)))
    return "; ".join(notes) + "; plinth-check-rdb agrees"


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--server", required=True)
    ap.add_argument("--check-aof", required=True)
    ap.add_argument("--check-rdb", required=True)
    args = ap.parse_args()
    server = os.path.abspath(args.server)
    crash_support.require_redis_py()
    return crash_support.run_checks([
        ("AOF tail cut at every offset", lambda t: truncated_tail(server, t, args.check_aof)),
        ("AOF corrupt in the middle", lambda t: corrupt_middle(server, t, args.check_aof)),
        ("dump.rdb corrupt or truncated", lambda t: damaged_rdb(server, t, args.check_rdb))])

if __name__ == "__main__":
    sys.exit(main())
