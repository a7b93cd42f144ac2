"""A full sync the primary cannot produce, with real plinth-server processes on loopback: the
primary holds a key of the nopersist fixture's type (no persisted form), so its snapshot child
fails. The primary logs the reason and sends it to the replica instead of the payload; the
replica shows it in INFO replication (master_sync_last_error), stays in ROLE's connect/sync
states, and waits longer between tries (1 s doubling) instead of asking for a fork every second;
the primary too waits longer between snapshots and shows why in INFO (full_sync_last_error).
Once the key is gone the next try succeeds and clears it. Exits 77 when redis-py, the fixture or
the replication plugin is missing. Run with /usr/bin/python3."""

import argparse
import os
import sys
import time

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(_HERE, "..", "..", "replication"))
import repl_support as rs  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--server", required=True)
    ap.add_argument("--nopersist", required=True)
    args = ap.parse_args()
    args.server, args.nopersist = os.path.abspath(args.server), os.path.abspath(args.nopersist)
    rs.require(args.server)
    if not os.path.exists(args.nopersist):
        print("SKIP: the nopersist fixture is not built")
        return rs.SKIP
    fixture = ["--plugin", args.nopersist]
    primary = rs.start(args.server, fixture + ["--repl-diskless-sync", "no"], name="primary")
    replica = None
    try:
        p = rs.client(primary.port)
        p.set("a", "1")
        p.execute_command("NOPERSIST.SET", "bad")
        replica = rs.start(args.server, rs.replica_of(primary.port), name="replica")
        r = rs.client(replica.port)
        info = rs._until("the replica's sync error", lambda: (lambda i: i if
                         i.get("master_sync_consecutive_failures", 0) >= 1 else None)(
                             r.info("replication")), 30)
        first = time.monotonic()
        why = str(info.get("master_sync_last_error"))
        assert "MASTER aborted replication with an error" in why and "'bad'" in why, info
        assert info["master_link_status"] == "down", info
        role = r.execute_command("ROLE")
        assert role[0] == b"slave" and role[3] in (b"connect", b"connecting", b"sync"), role
        assert "Full sync of replica" in primary.log() and "'bad'" in primary.log()
        pinfo = p.info("replication")
        assert pinfo["full_sync_consecutive_failures"] >= 1, pinfo
        assert "'bad'" in str(pinfo["full_sync_last_error"]), pinfo
        assert "next try in" in primary.log()
        assert "MASTER <-> REPLICA sync failed" in replica.log()
        # Tries at 0, +1 s, +3 s: at most 3 failures in the first 2.5 s (the old replica asked
        # again every second, forever, without saying why).
        time.sleep(max(0.0, 2.5 - (time.monotonic() - first)))
        failures = r.info("replication")["master_sync_consecutive_failures"]
        assert 1 <= failures <= 3, (failures, replica.log()[-3000:])
        # Fixed on the primary: the next try syncs and clears the error.
        p.delete("bad")
        rs.wait_link_up(r, 60)
        info = r.info("replication")
        assert info["master_sync_consecutive_failures"] == 0, info
        assert info.get("master_sync_last_error") in ("", None), info
        assert r.get("a") == b"1"
        pinfo = p.info("replication")
        assert pinfo["full_sync_consecutive_failures"] == 0, pinfo
    finally:
        problems = [s.stop_cleanly() for s in (replica, primary) if s]
    problems = [x for x in problems if x]
    assert not problems, problems
    print("PASS sync_failure")
    return 0


if __name__ == "__main__":
    sys.exit(main())
