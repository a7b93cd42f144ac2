#!/usr/bin/python3
"""redis-py (Debian's python3-redis) against a real plinth-server: the string, key and
connection commands through the library's own API, pipelines, MULTI/EXEC pipelines and WATCH
retry loops, binary values, several databases, INFO/CONFIG/COMMAND. redis-py 4.x speaks RESP2 only (protocol=3 arrived in 5.0): RESP3 is
checked where the version supports it, and skipped otherwise."""

import datetime
import os
import sys
import time

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


def as_text(value):
    """redis-py decodes some replies (CLIENT GETNAME) itself and not others."""
    return value.decode() if isinstance(value, bytes) else value


def client(port, **kw):
    return redis.Redis(host="127.0.0.1", port=port, socket_timeout=20, **kw)


@check("strings")
def set_get_and_options(port):
    r = client(port)
    expect_eq(r.set("py:a", "1"), True, "set")
    expect_eq(r.get("py:a"), b"1", "get")
    expect_eq(r.get("py:missing"), None, "get missing")
    expect_eq(r.set("py:a", "2", nx=True), None, "set nx on existing")
    expect_eq(r.set("py:b", "2", xx=True), None, "set xx on missing")
    expect_eq(r.set("py:a", "3", xx=True), True, "set xx")
    expect_eq(r.set("py:a", "4", get=True), b"3", "set get")
    expect_eq(r.getset("py:a", "5"), b"4", "getset")
    expect_eq(r.setnx("py:a", "x"), False, "setnx existing")
    expect_eq(r.setnx("py:c", "x"), True, "setnx new")
    expect_eq(r.getdel("py:c"), b"x", "getdel")
    expect_eq(r.get("py:c"), None, "get after getdel")
    expect_eq(r.append("py:a", "67"), 3, "append")
    expect_eq(r.strlen("py:a"), 3, "strlen")
    expect_eq(r.getrange("py:a", 1, -1), b"67", "getrange")
    expect_eq(r.setrange("py:a", 5, "z"), 6, "setrange")
    expect_eq(r.get("py:a"), b"567\0\0z", "value after setrange")
    d = client(port, decode_responses=True)
    expect_eq(d.set("py:u", "h\u00e9llo"), True, "set utf-8")
    expect_eq(d.get("py:u"), "h\u00e9llo", "get decoded")
    expect_eq(d.strlen("py:u"), 6, "strlen counts bytes")


@check("strings", "keys")
def set_with_expiry(port):
    r = client(port)
    r.set("py:e", "v", ex=100)
    expect(99 <= r.ttl("py:e") <= 100, "ttl after set ex", r.ttl("py:e"))
    r.set("py:e", "v", px=50000)
    expect(49000 <= r.pttl("py:e") <= 50000, "pttl after set px", r.pttl("py:e"))
    r.set("py:e", "w", keepttl=True)
    expect(49000 <= r.pttl("py:e") <= 50000, "keepttl keeps it", r.pttl("py:e"))
    r.set("py:e", "w")
    expect_eq(r.ttl("py:e"), -1, "plain set clears the ttl")
    r.set("py:e", "v", ex=datetime.timedelta(seconds=30))
    expect(29 <= r.ttl("py:e") <= 30, "ex as timedelta", r.ttl("py:e"))
    r.set("py:e", "v", exat=4102444800)
    expect_eq(r.expiretime("py:e"), 4102444800, "exat")
    r.setex("py:e2", 60, "v")
    expect(59 <= r.ttl("py:e2") <= 60, "setex", r.ttl("py:e2"))
    r.psetex("py:e3", 60000, "v")
    expect(59000 <= r.pttl("py:e3") <= 60000, "psetex", r.pttl("py:e3"))
    expect_eq(r.getex("py:e3", persist=True), b"v", "getex persist")
    expect_eq(r.ttl("py:e3"), -1, "ttl after persist")
    expect_eq(r.getex("py:e3", ex=10), b"v", "getex ex")
    expect(9 <= r.ttl("py:e3") <= 10, "ttl after getex ex", r.ttl("py:e3"))
    r.set("py:short", "v", px=100)
    time.sleep(0.3)
    expect_eq(r.get("py:short"), None, "expired key reads as missing")
    expect_eq(r.exists("py:short"), 0, "expired key does not exist")
    try:
        r.set("py:e", "v", ex=0)
        raise AssertionError("set ex=0 was accepted")
    except redis.ResponseError as e:
        expect_eq(str(e), "invalid expire time in 'set' command", "set ex=0 error")


@check("strings")
def counters(port):
    r = client(port)
    expect_eq(r.incr("py:n"), 1, "incr")
    expect_eq(r.incr("py:n", 10), 11, "incr by")
    expect_eq(r.incrby("py:n", 5), 16, "incrby")
    expect_eq(r.decr("py:n"), 15, "decr")
    expect_eq(r.decrby("py:n", 5), 10, "decrby")
    expect_eq(r.incrbyfloat("py:n", 0.5), 10.5, "incrbyfloat")
    expect_eq(r.get("py:n"), b"10.5", "float stored as text")
    r.set("py:n", "abc")
    try:
        r.incr("py:n")
        raise AssertionError("incr of a non-number was accepted")
    except redis.ResponseError as e:
        expect_eq(str(e), "value is not an integer or out of range", "incr error")
    r.set("py:max", 9223372036854775807)
    try:
        r.incr("py:max")
        raise AssertionError("overflow was accepted")
    except redis.ResponseError as e:
        expect_eq(str(e), "increment or decrement would overflow", "overflow error")


@check("strings")
def mget_mset(port):
    r = client(port)
    expect_eq(r.mset({"py:m1": "a", "py:m2": "b", "py:m3": "c"}), True, "mset")
    expect_eq(r.mget("py:m1", "py:nope", "py:m3"), [b"a", None, b"c"], "mget")
    expect_eq(r.mget(["py:m1", "py:m2"]), [b"a", b"b"], "mget list")
    expect_eq(r.msetnx({"py:m1": "x", "py:m4": "y"}), False, "msetnx with one existing")
    expect_eq(r.get("py:m4"), None, "msetnx wrote nothing")
    expect_eq(r.msetnx({"py:m4": "x", "py:m5": "y"}), True, "msetnx new")


@check("strings")
def pipelines(port):
    r = client(port)
    with r.pipeline(transaction=False) as p:
        for i in range(2000):
            p.set("py:p:%d" % i, i)
        for i in range(2000):
            p.get("py:p:%d" % i)
        p.incr("py:p:counter")
        p.get("py:p:missing")
        p.incr("py:p:1999")
        replies = p.execute()
    expect_eq(replies[:2000], [True] * 2000, "pipelined sets")
    expect_eq(replies[2000:4000], [str(i).encode() for i in range(2000)], "pipelined gets")
    expect_eq(replies[4000:], [1, None, 2000], "pipeline tail")
    with r.pipeline(transaction=False) as p:
        p.set("py:p:s", "abc")
        p.incr("py:p:s")
        p.get("py:p:s")
        replies = p.execute(raise_on_error=False)
    expect_eq(replies[0], True, "pipeline set")
    expect(isinstance(replies[1], redis.ResponseError), "pipeline keeps the error", replies[1])
    expect_eq(replies[2], b"abc", "pipeline goes on after an error")


@check("strings")
def transactions(port):
    r = client(port)
    with r.pipeline() as p:  # transaction=True: MULTI ... EXEC
        p.set("py:t:a", 1)
        p.incr("py:t:a")
        p.get("py:t:a")
        p.incrby("py:t:b", 5)
        expect_eq(p.execute(), [True, 2, b"2", 5], "MULTI/EXEC pipeline")
    with r.pipeline() as p:
        p.set("py:t:s", "abc")
        p.incr("py:t:s")
        p.get("py:t:s")
        replies = p.execute(raise_on_error=False)
    expect(isinstance(replies[1], redis.ResponseError), "EXEC keeps a runtime error", replies)
    expect_eq((replies[0], replies[2]), (True, b"abc"), "the rest of EXEC ran")
    with r.pipeline() as p:
        p.set("py:t:never", 1)
        p.execute_command("NOSUCHCOMMAND")
        try:
            p.execute()
            expect(False, "EXECABORT raised", None)
        except redis.ResponseError as e:
            expect("EXECABORT" in str(e) or "unknown command" in str(e), "queueing error", e)
    expect_eq(r.get("py:t:never"), None, "an aborted transaction ran nothing")


@check("strings")
def watch_retry_loop(port):
    """The optimistic-locking pattern: WATCH, read, MULTI, write, EXEC, and a retry when another
    client changed the key in between (WatchError), here forced on the first two attempts."""
    r, other = client(port), client(port)
    r.set("py:w:balance", 100)
    attempts = []

    def withdraw(pipe):
        attempts.append(1)
        balance = int(pipe.get("py:w:balance"))
        if len(attempts) <= 2:
            other.incrby("py:w:balance", 10)  # a concurrent deposit between read and write
        pipe.multi()
        pipe.set("py:w:balance", balance - 30)

    r.transaction(withdraw, "py:w:balance")
    expect_eq(len(attempts), 3, "retried after each concurrent change")
    expect_eq(r.get("py:w:balance"), b"90", "the last attempt saw both deposits")
    with r.pipeline() as p:
        p.watch("py:w:k")
        p.multi()
        p.set("py:w:k", "mine")
        other.set("py:w:k", "theirs")
        try:
            p.execute()
            expect(False, "WatchError raised", None)
        except redis.WatchError:
            pass
    expect_eq(r.get("py:w:k"), b"theirs", "the watched write did not run")
    with r.pipeline() as p:
        p.watch("py:w:k")
        p.unwatch()
        other.set("py:w:k", "again")
        p.multi()
        p.set("py:w:k", "mine")
        expect_eq(p.execute(), [True], "UNWATCH forgets the key")


@check("strings")
def binary_values(port):
    r = client(port)
    value = bytes(range(256)) * 4 + b"\r\n\0\r\n"
    key = b"py:bin\0\r\nkey"
    r.set(key, value)
    expect_eq(r.get(key), value, "binary round trip")
    expect_eq(r.strlen(key), len(value), "binary strlen")
    big = os.urandom(1 << 20)
    r.set("py:big", big)
    expect_eq(r.get("py:big"), big, "1 MiB random value")
    r.append("py:big", b"\0tail")
    expect_eq(r.getrange("py:big", -5, -1), b"\0tail", "append to a large value")
    expect_eq(r.mget("py:big", key), [big + b"\0tail", value], "mget of large and binary")


@check("strings")
def bitmaps(port):
    r = client(port)
    r.set("py:bits", "foobar")
    expect_eq(r.bitcount("py:bits"), 26, "bitcount")
    expect_eq(r.bitcount("py:bits", 1, 1), 6, "bitcount range")
    expect_eq(r.bitcount("py:bits", 5, 30, "BIT"), 17, "bitcount bit range")
    r.set("py:bp", b"\x00\xff\xf0")
    expect_eq(r.bitpos("py:bp", 1), 8, "bitpos")
    expect_eq(r.bitpos("py:bp", 1, 2), 16, "bitpos from byte 2")
    expect_eq(r.bitpos("py:bp", 0, 7, 15, "BIT"), 7, "bitpos bit range")
    expect_eq(r.setbit("py:sb", 7, 1), 0, "setbit")
    expect_eq(r.getbit("py:sb", 7), 1, "getbit")
    expect_eq(r.get("py:sb"), b"\x01", "value after setbit")
    r.set("py:op1", "foobar")
    r.set("py:op2", "abcdef")
    expect_eq(r.bitop("AND", "py:dest", "py:op1", "py:op2"), 6, "bitop and")
    expect_eq(r.get("py:dest"), b"`bc`ab", "bitop and value")
    r.mset({"py:l3": "abc", "py:l4": "xyz"})
    expect_eq(r.lcs("py:l3", "py:l4"), b"", "lcs with nothing common")
    r.mset({"py:l1": "ohmytext", "py:l2": "mynewtext"})
    expect_eq(r.lcs("py:l1", "py:l2"), b"mytext", "lcs")
    expect_eq(r.lcs("py:l1", "py:l2", len=True), 6, "lcs len")


@check("strings", "keys")
def keys_and_scan(port):
    r = client(port)
    names = ["py:scan:%d" % i for i in range(300)]
    r.mset({n: "v" for n in names})
    r.set("py:other", "v")
    found = sorted(k.decode() for k in r.scan_iter(match="py:scan:*", count=17))
    expect_eq(found, sorted(names), "scan_iter finds every key once")
    found = set(k.decode() for k in r.scan_iter(match="py:scan:1?", _type="string"))
    expect_eq(found, {"py:scan:%d" % i for i in range(10, 20)}, "scan_iter with type")
    expect_eq(sorted(r.keys("py:scan:29?")), sorted(b"py:scan:29%d" % i for i in range(10)),
              "keys")
    expect_eq(r.exists("py:scan:1", "py:scan:2", "py:nope"), 2, "exists")
    expect_eq(r.type("py:other"), b"string", "type")
    expect_eq(r.type("py:nope"), b"none", "type of a missing key")
    expect_eq(r.delete("py:scan:1", "py:nope"), 1, "delete")
    expect_eq(r.unlink("py:scan:2"), 1, "unlink")
    expect_eq(r.touch("py:scan:3", "py:nope"), 1, "touch")
    expect_eq(r.object("encoding", "py:other"), b"embstr", "object encoding")
    expect(r.randomkey() is not None, "randomkey on a non-empty db")
    expect(r.dbsize() >= 299, "dbsize", r.dbsize())


@check("strings", "keys")
def expire_and_ttl(port):
    r = client(port)
    r.set("py:x", "v")
    expect_eq(r.ttl("py:x"), -1, "ttl without expiry")
    expect_eq(r.ttl("py:nope"), -2, "ttl of a missing key")
    expect_eq(r.expire("py:x", 100), True, "expire")
    expect(99 <= r.ttl("py:x") <= 100, "ttl", r.ttl("py:x"))
    expect_eq(r.pexpire("py:x", 5000), True, "pexpire")
    expect(4000 <= r.pttl("py:x") <= 5000, "pttl", r.pttl("py:x"))
    expect_eq(r.expire("py:x", 1, gt=True), False, "expire gt with a smaller value")
    expect_eq(r.expireat("py:x", 4102444800), True, "expireat")
    expect_eq(r.expiretime("py:x"), 4102444800, "expiretime")
    expect_eq(r.persist("py:x"), True, "persist")
    expect_eq(r.ttl("py:x"), -1, "ttl after persist")
    expect_eq(r.expire("py:nope", 10), False, "expire of a missing key")
    r.expire("py:x", datetime.timedelta(seconds=0))
    expect_eq(r.exists("py:x"), 0, "expire 0 deletes")


@check("strings", "keys", "connection")
def rename_copy_move_and_databases(port):
    r0 = client(port)
    r1 = client(port, db=1)
    r0.set("py:r", "v")
    expect_eq(r0.rename("py:r", "py:r2"), True, "rename")
    expect_eq(r0.get("py:r2"), b"v", "renamed value")
    r0.set("py:r3", "w")
    expect_eq(r0.renamenx("py:r2", "py:r3"), False, "renamenx onto an existing key")
    try:
        r0.rename("py:nope", "py:x")
        raise AssertionError("rename of a missing key was accepted")
    except redis.ResponseError as e:
        expect_eq(str(e), "no such key", "rename error")
    expect_eq(r0.copy("py:r2", "py:c"), True, "copy")
    expect_eq(r0.copy("py:r2", "py:c"), False, "copy onto an existing key")
    expect_eq(r0.copy("py:r2", "py:c", replace=True), True, "copy replace")
    expect_eq(r0.copy("py:r2", "py:c1", destination_db=1), True, "copy to db 1")
    expect_eq(r1.get("py:c1"), b"v", "copied into db 1")
    expect_eq(r0.get("py:c1"), None, "not in db 0")
    expect_eq(r0.move("py:r3", 1), True, "move")
    expect_eq(r1.get("py:r3"), b"w", "moved into db 1")
    expect_eq(r0.exists("py:r3"), 0, "gone from db 0")
    r1.set("py:only1", "1")
    expect_eq(r0.swapdb(0, 1), True, "swapdb")
    expect_eq(r0.get("py:only1"), b"1", "db 0 sees db 1's key after swapdb")
    expect_eq(r0.swapdb(0, 1), True, "swapdb back")
    r1.flushdb()
    expect_eq(r1.dbsize(), 0, "flushdb empties db 1")
    expect(r0.dbsize() > 0, "flushdb leaves db 0")


@check("connection")
def connection_commands(port):
    r = client(port)
    expect_eq(r.ping(), True, "ping")
    expect_eq(r.echo("hi\0there"), b"hi\0there", "echo")
    expect_eq(r.client_getname(), None, "no name yet")
    expect_eq(r.client_setname("pyclient"), True, "client setname")
    expect_eq(as_text(r.client_getname()), "pyclient", "client getname")
    expect(isinstance(r.client_id(), int), "client id is an integer", r.client_id())
    clients = r.client_list()
    expect(any(c.get("name") == "pyclient" for c in clients), "client list has our name",
           clients)
    expect(all("id" in c and "addr" in c for c in clients), "client list fields", clients)
    info = r.client_info()
    expect_eq(info.get("name"), "pyclient", "client info name")
    named = client(port, client_name="fromctor")
    expect_eq(as_text(named.client_getname()), "fromctor", "client_name sends CLIENT SETNAME")
    try:
        r.client_setname("bad name")
        raise AssertionError("a name with a space was accepted")
    except redis.ResponseError as e:
        expect("cannot contain spaces" in str(e), "setname error text", str(e))
    try:
        r.execute_command("NOSUCHCOMMAND", "x")
        raise AssertionError("an unknown command was accepted")
    except redis.ResponseError as e:
        expect(str(e).startswith("unknown command 'NOSUCHCOMMAND'"), "unknown command", str(e))


@check("strings", "keys", "server")
def info_config_command(port):
    r = client(port)
    r.set("py:i", "v")
    info = r.info()
    for field in ("connected_clients", "used_memory"):
        expect(field in info, "INFO has " + field, sorted(info)[:40])
    keyspace = r.info("keyspace")
    expect("db0" in keyspace and keyspace["db0"].get("keys", 0) >= 1, "INFO keyspace", keyspace)
    expect_eq(r.config_get("maxclients"), {"maxclients": "10000"}, "config get")
    expect_eq(r.config_set("maxclients", 5000), True, "config set")
    expect_eq(r.config_get("maxclients"), {"maxclients": "5000"}, "config get after set")
    r.config_set("maxclients", 10000)
    expect_eq(r.config_get("no-such-option"), {}, "config get of an unknown option")
    count = r.command_count()
    expect(isinstance(count, int) and count >= 40, "command count", count)
    expect_eq(r.flushall(), True, "flushall")
    expect_eq(r.dbsize(), 0, "dbsize after flushall")
    t = r.time()
    expect(abs(t[0] - time.time()) < 60, "time", t)


@check("strings", "connection")
def resp3(port):
    version = tuple(int(x) for x in redis.__version__.split(".")[:2])
    if version < (5, 0):
        raise support.Skipped("redis-py %s has no protocol=3" % redis.__version__)
    r = redis.Redis(host="127.0.0.1", port=port, protocol=3)
    r.set("py:r3", "v")
    expect_eq(r.get("py:r3"), b"v", "get over RESP3")
    expect_eq(r.get("py:nope"), None, "null over RESP3")
    expect_eq(r.mget("py:r3", "py:nope"), [b"v", None], "mget over RESP3")


if __name__ == "__main__":
    support.main_guard(checks.run)
