"""The checks of compat_test.py, one function per fixture kind: each gets the Env, starts the
servers it needs and raises AssertionError on a wrong behaviour."""

import os
import socket
import subprocess

import redis

import support
from support import expect, expect_eq


def redis_cli(port, *args):
    """Runs redis-cli against port; returns its stdout and stderr as text."""
    out = subprocess.run(["redis-cli", "-p", str(port)] + list(args), capture_output=True,
                         timeout=30)
    return (out.stdout + out.stderr).decode("utf-8", "replace")


def client(port):
    return redis.Redis(host="127.0.0.1", port=port, socket_timeout=30)


def wait_loaded(r, timeout=30.0):
    """Waits until the server has loaded its dump (-LOADING until then)."""
    import time
    deadline = time.monotonic() + timeout
    while True:
        try:
            return r.ping()
        except redis.exceptions.BusyLoadingError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.02)


def info_section(r, name):
    """INFO name as a dict; redis-py turns numbers into ints."""
    return r.info(name)


def check_command(env):
    # The counter persists in the plain list form (the rdb plugin saves only types with a Redis
    # form, and type_register refuses a form another type holds): no bundled list plugin.
    fx = env.fixture("command")
    srv = env.start(["--plugin", fx], without=("list",))
    r = client(srv.port)
    expect(r.execute_command("COMPAT.CTR.NEW", "c1", "5") in (b"OK", True), "NEW replies OK")
    expect_eq(r.execute_command("COMPAT.CTR.INCR", "c1"), 6, "INCR by the default step")
    expect_eq(r.type("c1"), b"compatctr", "TYPE names the plugin type")
    enc = r.object("encoding", "c1")
    expect_eq(enc.decode() if isinstance(enc, bytes) else enc, "compatctr", "OBJECT ENCODING")
    expect_eq(r.config_get("compat_command.step"), {"compat_command.step": "1"}, "CONFIG GET")
    r.config_set("compat_command.step", 10)
    expect_eq(r.execute_command("COMPAT.CTR.INCR", "c1"), 16, "INCR after CONFIG SET step 10")
    try:
        r.config_set("compat_command.step", 0)
        raise AssertionError("CONFIG SET step 0 must be refused by the apply callback")
    except redis.ResponseError as e:
        expect("step must not be 0" in str(e), "the apply callback's reason", str(e))
    try:
        r.config_set("compat_command.step", 5000)
        raise AssertionError("CONFIG SET step 5000 must be refused (max 1000)")
    except redis.ResponseError:
        pass
    expect_eq(r.config_get("compat_command.step")["compat_command.step"], "10", "step kept")
    expect_eq(r.execute_command("COMPAT.CTR.GET", "nothing"), None, "GET of a missing key")
    # Its 1.0 command spec ends before 1.1's complexity: the host read it as NULL.
    docs = r.execute_command("COMMAND DOCS", "compat.ctr.get", "get")
    docs = dict(zip(docs[::2], docs[1::2]))
    expect(b"complexity" not in docs[b"compat.ctr.get"], "no complexity from a 1.0 spec",
           docs[b"compat.ctr.get"])
    expect(b"complexity" in docs[b"get"], "GET's 1.1 spec gives its complexity", docs[b"get"])
    r.set("s", "text")
    for cmd in ("COMPAT.CTR.GET", "COMPAT.CTR.INCR"):
        try:
            r.execute_command(cmd, "s")
            raise AssertionError(cmd + " of a string must fail")
        except redis.ResponseError as e:
            expect(str(e).startswith("WRONGTYPE"), cmd + " WRONGTYPE", str(e))
    try:
        r.execute_command("COMPAT.CTR.GET")
        raise AssertionError("arity must be checked")
    except redis.ResponseError as e:
        expect("wrong number of arguments" in str(e), "arity error", str(e))
    # copy-on-write: COPY shares the value, INCR of the copy goes through the type's copy
    expect_eq(r.copy("c1", "c2"), True, "COPY of a plugin-typed key")
    expect_eq(r.execute_command("COMPAT.CTR.INCR", "c2"), 26, "INCR of the copy")
    expect_eq(r.execute_command("COMPAT.CTR.GET", "c1"), 16, "the original is untouched")
    info = info_section(r, "compat_command")
    expect_eq(info.get("created"), 1, "INFO created")
    expect_eq(info.get("incrs"), 3, "INFO incrs")
    expect_eq(info.get("step"), 10, "INFO step")
    expect(info.get("step_applies", 0) >= 2, "apply ran at start and on CONFIG SET", info)
    expect_eq(info.get("type_name"), "compatctr", "INFO type_name")
    text = redis_cli(srv.port, "INFO", "compat_command")
    expect("# compat_command" in text.lower() and "created:1" in text, "redis-cli INFO", text)
    # The type survives SAVE and a restart (rdb_save / rdb_load); the option from the command
    # line is applied at load.
    expect(r.save(), "SAVE")
    r.close()
    env.stop(srv)
    expect(os.path.exists(os.path.join(srv.data_dir, "dump.rdb")), "dump.rdb written")
    srv = env.start(["--plugin", fx, "--compat_command.step", "3"], without=("list",),
                    data_dir=srv.data_dir)
    r = client(srv.port)
    wait_loaded(r)
    expect_eq(r.type("c1"), b"compatctr", "TYPE after restart")
    expect_eq(r.execute_command("COMPAT.CTR.GET", "c1"), 16, "c1 after restart")
    expect_eq(r.execute_command("COMPAT.CTR.GET", "c2"), 26, "c2 after restart")
    expect_eq(r.execute_command("COMPAT.CTR.INCR", "c1"), 19, "step 3 from the command line")
    expect_eq(r.get("s"), b"text", "a plain string next to it")
    r.close()
    env.stop(srv)


def check_call(env):
    srv = env.start(["--plugin", env.fixture("call")])
    r = client(srv.port)
    expect_eq(r.execute_command("COMPAT.CALL.SETGET", "k", "hello"), b"hello", "SETGET")
    expect_eq(r.get("k"), b"hello", "the nested SET changed the keyspace")
    big = os.urandom(200000)
    expect_eq(r.execute_command("COMPAT.CALL.SETGET", "big", big), big, "SETGET of 200 kB")
    run = lambda *a: r.execute_command("COMPAT.CALL.RUN", *a)  # noqa: E731
    expect_eq(run("GET", "k"), b"hello", "RUN GET")
    expect_eq(run("INCR", "n"), 1, "RUN INCR")
    expect_eq(run("GET", "missing"), None, "RUN relays a null")
    expect_eq(run("HSET", "h", "a", "1", "b", "2"), 2, "RUN HSET")
    expect_eq(sorted(run("HGETALL", "h")), [b"1", b"2", b"a", b"b"], "RUN relays an array")
    expect_eq(run("RPUSH", "l", "x", "y"), 2, "RUN RPUSH")
    expect_eq(run("LRANGE", "l", "0", "-1"), [b"x", b"y"], "RUN LRANGE")
    expect_eq(run("SCAN", "0", "MATCH", "h", "COUNT", "1000"), [b"0", [b"h"]], "nested array")
    for argv, text in ((("NOSUCHCMD", "x"), "unknown command"),
                       (("INCR", "k"), "not an integer"),
                       (("GET",), "wrong number of arguments")):
        try:
            run(*argv)
            raise AssertionError("RUN %r must relay an error" % (argv,))
        except redis.ResponseError as e:
            expect(text in str(e), "relayed error", argv, str(e))
    expect_eq(r.dbsize(), 5, "k, big, n, h, l")
    raw = redis_cli(srv.port, "COMPAT.CALL.RUN", "PING")
    expect_eq(raw.strip(), "PONG", "redis-cli RUN PING")
    r.close()
    env.stop(srv)


def check_stream(env):
    srv = env.start(["--plugin", env.fixture("stream")])
    r = client(srv.port)
    stats = lambda: r.execute_command("COMPAT.STREAM.STATS")  # noqa: E731
    b0, bytes0, gaps0, end0 = stats()
    r.set("alpha", "one")
    b1, bytes1, gaps1, end1 = stats()
    # Batches are delivered before the reply is written: the SET is there already.
    expect(b1 > b0 and bytes1 > bytes0, "the write reached the consumer", (b0, bytes0), (b1, bytes1))
    expect_eq(end1 - end0, bytes1 - bytes0, "offsets follow the bytes")
    tail = r.execute_command("COMPAT.STREAM.TAIL")
    expect(b"$5\r\nalpha\r\n$3\r\none\r\n" in tail, "SET alpha one in the stream", tail[-200:])
    r.get("alpha")  # a read propagates nothing
    expect_eq(stats()[1], bytes1, "a read adds no bytes")
    with r.pipeline(transaction=True) as p:
        p.set("x", "1").incr("x").execute()
    tail = r.execute_command("COMPAT.STREAM.TAIL")
    at = tail.rfind(b"$5\r\nMULTI\r\n")
    end = tail.find(b"$4\r\nEXEC\r\n", at)
    expect(at >= 0 and end > at and tail[at:end].count(b"$1\r\nx\r\n") == 2,
           "both writes of the transaction between MULTI and EXEC", tail[-300:])
    for i in range(200):
        r.set("k%d" % i, "v" * i)
    b2, bytes2, gaps2, end2 = stats()
    expect_eq(gaps2, 0, "no batch left a gap")
    expect_eq(end2 - end0, bytes2 - bytes0, "the offsets cover every byte delivered")
    info = r.info("compat_stream")
    expect_eq((info.get("batches"), info.get("bytes")), (b2, bytes2), "INFO compat_stream")
    r.close()
    env.stop(srv)


def check_reply_path(env):
    # One reply path per server: the fixture takes reply_offload's place.
    for io in ([], ["--io-threads", "3", "--io-threads-adaptive", "no"]):
        srv = env.start(["--plugin", env.fixture("reply_path"),
                         "--compat_reply_path.min-bytes", "4096"] + io,
                        without=("reply_offload",))
        r = client(srv.port)
        st = lambda: r.execute_command("COMPAT.RP.STATS")  # noqa: E731
        r.set("small", "s" * 100)
        expect_eq(r.get("small"), b"s" * 100, "small GET")
        by_ref, copied, last_len, transport = st()
        expect_eq((by_ref, copied, last_len, transport), (0, 1, 100, b"tcp"), "small: copied")
        big = os.urandom(3 << 20)
        r.set("big", big)
        for i in range(5):
            expect_eq(r.get("big"), big, "big GET %d intact" % i)
        by_ref, copied, last_len, _ = st()
        expect_eq((by_ref, copied, last_len), (5, 1, 3 << 20), "big: by reference")
        # Pipelined big replies and an overwrite racing them: each reply has the bytes the
        # command saw.
        other = os.urandom(3 << 20)
        with r.pipeline(transaction=False) as p:
            p.get("big").set("big", other).get("big").get("small")
            got = p.execute()
        expect(got[0] == big and got[2] == other and got[3] == b"s" * 100, "pipelined bytes")
        r.config_set("compat_reply_path.min-bytes", str(8 << 20))
        expect_eq(r.get("big"), other, "GET after raising the threshold")
        by_ref2, copied2, _, _ = st()
        expect_eq((by_ref2, copied2), (7, 3), "the option changed the decision")
        info = r.info("compat_reply_path")
        expect_eq((info.get("by_reference"), info.get("copied")), (7, 3), "INFO")
        r.close()
        env.stop(srv)


def check_transport(env):
    srv = env.start(["--plugin", env.fixture("transport"), "--compat_transport.port", "{port2}"])
    r = client(srv.port2)
    expect(r.ping(), "PING over the fixture transport")
    r.set("k", "v")
    expect_eq(r.get("k"), b"v", "SET/GET")
    big = os.urandom(4 << 20)
    r.set("big", big)
    expect_eq(r.get("big"), big, "4 MB each way, partial reads and writes")
    with r.pipeline(transaction=False) as p:
        for i in range(2000):
            p.incr("n")
        expect_eq(p.execute()[-1], 2000, "2000 pipelined commands")
    me = r.client_info()
    expect_eq(me.get("laddr"), "127.0.0.1:%d" % srv.port2, "CLIENT INFO laddr")
    expect(me.get("addr", "").startswith("127.0.0.1:"), "CLIENT INFO addr", me)
    expect_eq(support.RespConn(srv.port).call("GET", "n")[1].data, b"2000", "tcp sees it too")
    expect_eq(redis_cli(srv.port2, "GET", "k").strip(), "v", "redis-cli over the fixture")
    info = r.info("compat_transport")
    expect(info.get("accepted", 0) >= 2, "INFO accepted", info)
    # A client that goes away is closed by the transport.
    s = socket.create_connection(("127.0.0.1", srv.port2))
    s.sendall(b"*1\r\n$4\r\nPING\r\n")
    expect_eq(s.recv(64), b"+PONG\r\n", "raw PING")
    s.close()
    r.close()
    env.stop(srv)


def check_protocol(env):
    import compat_protocol_checks
    compat_protocol_checks.run(env)


CASES = {
    "command": check_command,
    "call": check_call,
    "stream": check_stream,
    "reply_path": check_reply_path,
    "transport": check_transport,
    "protocol": check_protocol,
}
