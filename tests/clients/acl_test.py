#!/usr/bin/python3
"""ACL users and permissions with real clients (the acl plugin), side by side with Debian's
redis-server 7.0 given the same rules: a matrix of users with category, command, subcommand,
first-argument, key-pattern (~, %R~, %W~), channel-pattern and selector rules, and calls each
either runs or is refused. Every call's reply must be the reference's, byte for byte (the
-NOPERM texts included), through raw RESP, redis-py and redis-cli; ACL DRYRUN must agree too.
Then the ACL file: ACL SAVE, a restart with aclfile restores the same users, and a malformed
file refuses to start naming its line. --against-redis compares redis-server with itself."""

import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import support  # noqa: E402
from support import expect, expect_eq  # noqa: E402

try:
    import redis
except ImportError:
    print("SKIP: redis-py is missing (apt-get install python3-redis; use /usr/bin/python3)")
    sys.exit(support.SKIP)

checks = support.Checks(__doc__)
check = checks.check

# name -> (password, rules). Each user is created on both servers with these words.
USERS = {
    "cats": ("p1", ["on", ">p1", "~*", "&*", "+@all", "-@dangerous", "-@hash"]),
    "cmds": ("p2", ["on", ">p2", "~*", "&*", "-@all", "+get", "+set", "+hget", "+config|get",
                    "+select|0", "+multi", "+exec", "+eval"]),
    "keys": ("p3", ["on", ">p3", "-@all", "+@read", "+@write", "+@keyspace", "%R~r:*",
                    "%W~w:*", "~rw:*"]),
    "chans": ("p4", ["on", ">p4", "allkeys", "-@all", "+publish", "+subscribe", "+psubscribe",
                     "&news.*"]),
    "sel": ("p5", ["on", ">p5", "-@all", "+get", "~a:*", "(+set ~b:*)"]),
    "off": ("p6", ["off", ">p6", "+@all", "~*"]),
}

# user -> calls; each call's reply is compared with the reference's.
CALLS = {
    "cats": [["SET", "k", "v"], ["GET", "k"], ["HSET", "h", "f", "v"], ["HGET", "h", "f"],
             ["FLUSHALL"], ["KEYS", "*"], ["CLIENT", "ID"], ["CLIENT", "KILL", "ID", "999999"],
             ["CONFIG", "GET", "maxmemory"], ["INCR", "n"], ["LPUSH", "l", "a"]],
    "cmds": [["SET", "k", "v"], ["GET", "k"], ["DEL", "k"], ["HGET", "h", "f"],
             ["CONFIG", "GET", "maxmemory"], ["CONFIG", "SET", "maxmemory", "0"],
             ["SELECT", "0"], ["SELECT", "1"], ["PING"],
             ["EVAL", "return redis.call('get', KEYS[1])", "1", "k"],
             ["EVAL", "return redis.call('del', KEYS[1])", "1", "k"],
             ["MULTI"], ["GET", "k"], ["DEL", "k"], ["EXEC"],
             ["MULTI"], ["GET", "k"], ["SET", "k", "w"], ["EXEC"]],
    "keys": [["GET", "r:1"], ["SET", "r:1", "x"], ["SET", "w:1", "x"], ["GET", "w:1"],
             ["INCR", "rw:1"], ["INCR", "w:2"], ["DEL", "w:1"], ["EXISTS", "r:1"],
             ["EXISTS", "x"], ["MGET", "r:1", "w:1"], ["MGET", "r:1", "rw:1"],
             ["COPY", "r:1", "w:3"], ["LMOVE", "r:l", "w:l", "LEFT", "RIGHT"],
             ["LMOVE", "rw:l", "w:l", "LEFT", "RIGHT"], ["APPEND", "w:4", "x"],
             ["STRLEN", "w:1"], ["RENAME", "rw:1", "w:5"], ["SUNIONSTORE", "w:6", "r:s", "rw:s"],
             ["SUNIONSTORE", "r:6", "r:s"], ["TYPE", "x:1"], ["TTL", "r:1"]],
    "chans": [["PUBLISH", "news.a", "m"], ["PUBLISH", "sport", "m"], ["GET", "k"]],
    "sel": [["GET", "a:1"], ["GET", "b:1"], ["SET", "b:1", "x"], ["SET", "a:1", "x"],
            ["DEL", "b:1"], ["AUTH", "sel", "p5"], ["HELLO", "2"]],
}


def create_users(port):
    r = redis.Redis(host="127.0.0.1", port=port, socket_timeout=20)
    for name, (_, rules) in USERS.items():
        expect_eq(r.execute_command("ACL", "SETUSER", name, *rules), b"OK", "SETUSER " + name)
    r.set("r:1", "1")
    r.rpush("r:l", "a")
    r.sadd("r:s", "a")


def raw_replies(port, user, calls):
    """Each call's raw RESP reply, run as user over one connection."""
    out = []
    with support.RespConn(port) as c:
        expect_eq(c.call("AUTH", user, USERS[user][0])[1].data, b"OK", "AUTH " + user)
        for call in calls:
            raw, rep = c.call(*call)
            if call[0] == "EVAL" and rep.is_error():  # the script's digest and line follow
                raw = raw.split(b" script:")[0]
            out.append(raw)
    return out


@check("acl", "strings", "hash", "list", "set", "keys", "server", "connection", "scripting")
def matrix_matches_the_reference(port):
    ref = support.start_redis()
    try:
        create_users(port)
        create_users(ref.port)
        denied = allowed = 0
        for user, calls in CALLS.items():
            mine, theirs = raw_replies(port, user, calls), raw_replies(ref.port, user, calls)
            for call, m, t in zip(calls, mine, theirs):
                if call[0] in ("CLIENT", "HELLO"):  # client ids differ: compare the kind
                    m, t = m[:1], t[:1]
                expect_eq(m, t, "%s: %s" % (user, " ".join(call)))
                if t.startswith(b"-NOPERM") or b"can't" in t:
                    denied += 1
                else:
                    allowed += 1
                dry = ["ACL", "DRYRUN", user] + call
                with support.RespConn(port) as a, support.RespConn(ref.port) as b:
                    expect_eq(a.call(*dry)[0], b.call(*dry)[0], " ".join(dry))
        expect(denied >= 20 and allowed >= 20, "the matrix both allows and refuses",
               denied, allowed)
        for user in ("off", "nobody"):
            with support.RespConn(port) as a, support.RespConn(ref.port) as b:
                expect_eq(a.call("AUTH", user, "p6")[0], b.call("AUTH", user, "p6")[0],
                          "AUTH " + user)
    finally:
        ref.stop()


@check("acl", "strings", "hash", "connection")
def redis_py_and_redis_cli_see_the_same_refusals(port):
    ref = support.start_redis()
    try:
        create_users(port)
        create_users(ref.port)
        for user, call in [("cmds", ["DEL", "k"]), ("keys", ["GET", "w:1"]),
                           ("chans", ["PUBLISH", "sport", "m"]), ("cats", ["HSET", "h", "f", "v"]),
                           ("cmds", ["CONFIG", "SET", "maxmemory", "0"])]:
            got = []
            for p in (port, ref.port):
                r = redis.Redis(host="127.0.0.1", port=p, username=user,
                                password=USERS[user][0], socket_timeout=20)
                try:
                    r.execute_command(*call)
                    got.append("ok")
                except redis.exceptions.NoPermissionError as e:
                    got.append("NOPERM " + str(e))
                cli = subprocess.run(["redis-cli", "-p", str(p), "--user", user, "--pass",
                                      USERS[user][0], "--no-auth-warning"] + call,
                                     capture_output=True, text=True, timeout=20)
                got.append(cli.stdout.strip())
            expect(got[0].startswith("NOPERM this user has no permissions"), "refused", got)
            expect_eq(got[:2], got[2:], "redis-py and redis-cli: " + " ".join(call))
        r = redis.Redis(host="127.0.0.1", port=port, username="cmds", password="p2")
        expect_eq(r.execute_command("GET", "never:set"), None, "an allowed call runs")
        r = redis.Redis(host="127.0.0.1", port=port, username="cats", password="p1")
        expect_eq(r.acl_whoami(), "cats", "ACL WHOAMI")
    finally:
        ref.stop()


@check("acl", "connection")
def acl_log_records_denials_and_failed_auth(port):
    r = redis.Redis(host="127.0.0.1", port=port, socket_timeout=20)
    create_users(port)
    r.execute_command("ACL", "LOG", "RESET")
    with support.RespConn(port) as c:
        c.call("AUTH", "cmds", "p2")
        c.call("DEL", "k")
        c.call("DEL", "k")
        c.call("AUTH", "cmds", "wrong")
    log = r.execute_command("ACL", "LOG")
    expect_eq(len(log), 2, "two entries (the repeated DEL counts on one)")
    auth = dict(zip(log[0][::2], log[0][1::2]))
    deny = dict(zip(log[1][::2], log[1][1::2]))
    expect_eq((auth[b"reason"], auth[b"object"], auth[b"username"]), (b"auth", b"AUTH", b"cmds"),
              "failed AUTH")
    expect_eq((deny[b"reason"], deny[b"object"], deny[b"count"], deny[b"context"]),
              (b"command", b"del", 2, b"toplevel"), "refused DEL")
    expect(b"user=cmds" in deny[b"client-info"], "client-info", deny[b"client-info"])


def start_with_aclfile(aclfile):
    return support.start_plinth(checks.args.server, extra=["--aclfile", aclfile])


@check("acl", "connection")
def acl_save_then_restart_restores_the_users(port):
    if checks.args.against_redis:
        raise support.Skipped("starts plinth-server with an ACL file")
    folder = tempfile.mkdtemp(prefix="plinth-acl-")
    path = os.path.join(folder, "users.acl")
    open(path, "w").close()
    srv = start_with_aclfile(path)
    try:
        create_users(srv.port)
        r = redis.Redis(host="127.0.0.1", port=srv.port, socket_timeout=20)
        expect_eq(r.execute_command("ACL", "SAVE"), b"OK", "ACL SAVE")
        before = r.execute_command("ACL", "LIST")
    finally:
        srv.stop()
    srv = start_with_aclfile(path)
    try:
        r = redis.Redis(host="127.0.0.1", port=srv.port, socket_timeout=20)
        expect_eq(r.execute_command("ACL", "LIST"), before, "the same users after a restart")
        with support.RespConn(srv.port) as c:
            expect_eq(c.call("AUTH", "keys", "p3")[1].data, b"OK", "a saved password works")
            expect_eq(c.call("GET", "w:1")[0], b"-NOPERM this user has no permissions to access "
                      b"one of the keys used as arguments\r\n", "and its key rules")
        with open(path, "a") as f:
            f.write("user extra on nopass +@all ~*\n")
        expect_eq(r.execute_command("ACL", "LOAD"), b"OK", "ACL LOAD")
        expect(b"extra" in r.execute_command("ACL", "USERS"), "ACL LOAD adds the new user")
    finally:
        srv.stop()
    with open(path, "a") as f:
        f.write("user broken on +nosuchcommand\n")
    lines = open(path).read().count("\n")
    proc = subprocess.run([checks.args.server] + support.plugin_args(checks.args.server) +
                          ["--port", str(support.free_port()), "--bind", "127.0.0.1",
                           "--aclfile", path], capture_output=True, text=True, timeout=30)
    expect(proc.returncode != 0, "a malformed ACL file refuses to start")
    expect("%s:%d:" % (path, lines) in proc.stdout + proc.stderr, "the error names the line",
           (proc.stdout + proc.stderr)[-2000:])


if __name__ == "__main__":
    support.main_guard(checks.run)
