"""The ABI 1.0 compatibility matrix against the real plinth-server: loads one fixture plugin
(built against the frozen sdk/abi/1.0/plugin.h) with the default plugins, or in place of the
bundled plugin it replaces, and drives it with real clients (redis-py, redis-cli, raw RESP).

usage: compat_test.py KIND --server PATH --fixtures DIR
Exit 0 pass, 1 fail, 77 skipped (a plugin or client it needs is missing)."""

import argparse
import os
import shutil
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "clients"))
import support  # noqa: E402
from support import expect  # noqa: E402
import compat_checks  # noqa: E402

# plugins/default_set.txt, in load order.
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "plugins",
                       "default_set.txt")) as _f:
    DEFAULTS = [w.strip() for w in _f if w.strip() and not w.startswith("#")]


class Env:
    """The server binary, the fixture folder and a scratch folder; starts servers."""

    def __init__(self, args):
        self.server = args.server
        self.fixtures = args.fixtures
        self.plugins = support.plugin_dir(args.server)
        self.scratch = tempfile.mkdtemp(prefix="compat-")
        self.servers = []

    def fixture(self, kind):
        return os.path.join(self.fixtures, "compat_%s.so" % kind)

    def start(self, extra=(), without=(), data_dir=None, ports=1):
        """Starts plinth-server with DEFAULTS minus without plus extra on a free port (extra
        may hold "{port2}": replaced by a second free port, returned as server.port2).
        Persists into data_dir (a fresh folder when None). Waits until it answers."""
        data_dir = data_dir or tempfile.mkdtemp(dir=self.scratch)
        base = [self.server, "--no-default-plugins", "--bind", "127.0.0.1", "--save", "",
                "--appendonly", "no", "--dir", data_dir]
        for p in DEFAULTS:
            if p not in without:
                base += ["--plugin", p]
        holder = {}

        def make(port):
            holder["port2"] = support.free_port()
            argv = base + ["--port", str(port)]
            argv += [a.replace("{port2}", str(holder["port2"])) for a in extra]
            return argv, tempfile.mkdtemp(dir=self.scratch)

        srv = support._start("plinth", make)
        srv.port2 = holder["port2"]
        srv.data_dir = data_dir
        self.servers.append(srv)
        return srv

    def stop(self, srv):
        """Stops srv; raises when it did not exit cleanly on SIGTERM."""
        problem = srv.stop_cleanly()
        self.servers.remove(srv)
        expect(problem is None, "clean shutdown", problem)

    def cleanup(self):
        for srv in self.servers:
            srv.stop()
        shutil.rmtree(self.scratch, ignore_errors=True)


def missing_requirements(env, kind):
    """What this machine lacks for the case, or None."""
    try:
        import redis  # noqa: F401
    except ImportError:
        return "python3-redis not installed"
    if not shutil.which("redis-cli"):
        return "redis-cli not installed"
    if not os.access(env.server, os.X_OK):
        return "no server at " + env.server
    for p in DEFAULTS:
        if not os.path.exists(os.path.join(env.plugins, p + ".so")):
            return "default plugin %s not built" % p
    if not os.path.exists(env.fixture(kind)):
        return "fixture %s not built" % env.fixture(kind)
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("kind", choices=sorted(compat_checks.CASES))
    ap.add_argument("--server", required=True)
    ap.add_argument("--fixtures", required=True)
    args = ap.parse_args()
    env = Env(args)
    try:
        why = missing_requirements(env, args.kind)
        if why:
            print("SKIP abi_compat_%s: %s" % (args.kind, why))
            return support.SKIP
        compat_checks.CASES[args.kind](env)
        print("PASS abi_compat_%s" % args.kind)
        return 0
    except Exception:
        import traceback
        traceback.print_exc()
        for srv in env.servers:
            print("---- server log (port %d) ----\n%s" % (srv.port, srv.log()[-4000:]))
        print("FAIL abi_compat_%s" % args.kind)
        return 1
    finally:
        env.cleanup()


if __name__ == "__main__":
    support.main_guard(main)
