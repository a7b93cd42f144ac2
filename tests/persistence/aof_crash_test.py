"""What the AOF promises, with real processes, real files and real fsync: under a write load,
SIGKILL at random moments (50 times) with appendfsync always never loses an acknowledged
write; SIGTERM flushes and exits 0 with every policy, keeping every acknowledged write;
rewrites and BGSAVE under a write load leave files that load to the same keyspace; and
under the power-loss simulation (tests/support/powerloss: every byte not fsynced is dropped at
the cut) always loses nothing and everysec only writes acknowledged in the last ~2 s.
Exits 77 without redis-py. The power-loss part is skipped on a sanitized server."""

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import crash_support  # noqa: E402
import keyspace  # noqa: E402
from crash_support import CrashServer, Writer, crash_once  # noqa: E402

AOF = ["--save", "", "--appendonly", "yes"]


def sigkill_always(server, rng, cycles):
    worst = 0
    acked = 0
    with CrashServer(server, args=AOF + ["--appendfsync", "always"]) as srv:
        srv.start()
        for n in range(cycles):
            outcomes = crash_once(srv, kinds=("set:s%d:" % n, "incr:i%d:" % n), min_s=0.05,
                                  max_s=0.4, rng=rng)
            for o in outcomes:
                o.assert_none_lost()
                acked += len(o.acked)
                worst = max(worst, len(o.lost))
        srv.stop()
    return "%d kills, %d acknowledged writes, none lost" % (cycles, acked)


def sigterm_every_policy(server, rng, _):
    notes = []
    for policy in ("always", "everysec", "no"):
        with CrashServer(server, args=AOF + ["--appendfsync", policy]) as srv:
            srv.start()
            w = Writer(srv.port, "set", "t:")
            w.start()
            time.sleep(0.5)
            status = srv.stop()  # SIGTERM while the writer still writes
            w.stop()
            assert status == 0, "%s: exit status %r\n%s" % (policy, status, srv.log()[-2000:])
            srv.start()
            c = srv.client()
            recovered = w.recovered(c)
            lost = [i for i, _ in w.acked if i not in recovered]
            c.close()
            assert not lost, "%s: %d acknowledged writes lost after SIGTERM" % (policy, len(lost))
            notes.append("%s %d" % (policy, len(w.acked)))
            srv.stop()
    return "exit 0 and nothing lost: " + ", ".join(notes)


def rewrite_under_load(server, rng, _):
    """BGREWRITEAOF (three times) and BGSAVE while writers write; the files then load to the
    keyspace the server held, and DEBUG RELOAD (the RDB) gives it back too."""
    debug = ["--enable-debug-command", "yes"]  # DEBUG RELOAD, as Redis refuses it by default
    with CrashServer(server, args=AOF + ["--appendfsync", "everysec"] + debug) as srv:
        srv.start()
        writers = [Writer(srv.port, kind, kind + ":") for kind in ("set", "rpush", "incr")]
        for w in writers:
            w.start()
        c = srv.client()
        for cmd in ("BGREWRITEAOF", "BGSAVE", "BGREWRITEAOF", "BGREWRITEAOF"):
            time.sleep(0.3)
            deadline = time.monotonic() + 60
            while True:
                try:
                    c.execute_command(cmd)
                    break
                except crash_support.redis.exceptions.ResponseError:  # a child still runs
                    assert time.monotonic() < deadline, "%s never started" % cmd
                    time.sleep(0.05)
        deadline = time.monotonic() + 60
        while c.info("persistence")["aof_rewrite_in_progress"] or \
                c.info("persistence")["rdb_bgsave_in_progress"] or \
                c.info("persistence")["aof_rewrite_scheduled"]:
            assert time.monotonic() < deadline, "the children did not finish"
            time.sleep(0.05)
        for w in writers:
            w.stop()
            assert w.error is None, w.error
        info = c.info("persistence")
        assert info["aof_rewrites"] >= 3 and info["aof_last_bgrewrite_status"] == "ok", info
        want = keyspace.dump(c)
        c.close()
        assert srv.stop() == 0
        srv.start()
        c = srv.client()
        got = keyspace.dump(c)
        assert got == want, "after the rewrites:\n" + keyspace.diff(want, got)
        assert c.execute_command("DEBUG", "RELOAD") in (True, b"OK")
        got = keyspace.dump(c)
        assert got == want, "after DEBUG RELOAD:\n" + keyspace.diff(want, got)
        c.close()
        acked = sum(len(w.acked) for w in writers)
    return "%d writes during 3 rewrites and a BGSAVE; %d keys back after a restart and after " \
           "DEBUG RELOAD" % (acked, len(want))


def power_cut(server, rng, cycles):
    why = crash_support.powerloss_unusable(server)
    if why:
        return "SKIP: " + why
    notes = []
    for policy in ("always", "everysec"):
        worst = 0.0
        lost = acked = 0
        with CrashServer(server, args=AOF + ["--appendfsync", policy], powerloss=True) as srv:
            srv.start()
            for n in range(cycles):
                for o in crash_once(srv, kinds=("set:p%d:" % n,), min_s=1.5, max_s=3.0, rng=rng):
                    if policy == "always":
                        o.assert_none_lost()
                    else:
                        o.assert_lost_within(2.0)
                    worst = max(worst, o.oldest_loss_age())
                    lost += len(o.lost)
                    acked += len(o.acked)
            srv.stop()
        notes.append("%s: %d cuts, %d acked, %d lost, oldest loss %.2f s before the cut" %
                     (policy, cycles, acked, lost, worst))
    return "; ".join(notes)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--server", required=True)
    ap.add_argument("--kills", type=int, default=50)
    ap.add_argument("--cuts", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    args.server = os.path.abspath(args.server)
    crash_support.require_redis_py()
    rng = random.Random(args.seed)
    s = args.server
    return crash_support.run_checks([
        ("SIGKILL x%d, appendfsync always" % args.kills,
         lambda _: sigkill_always(s, rng, args.kills)),
        ("SIGTERM with every policy", lambda _: sigterm_every_policy(s, rng, 0)),
        ("rewrites and BGSAVE under a write load", lambda _: rewrite_under_load(s, rng, 0)),
        ("power cut x%d, always and everysec" % args.cuts,
         lambda _: power_cut(s, rng, args.cuts))])

if __name__ == "__main__":
    sys.exit(main())
