"""compat_protocol: the fixture RESP2 protocol in place of the bundled resp, served to
redis-py, redis-cli and a raw socket (exact bytes)."""

import os
import socket

import redis

import support
from compat_checks import client, redis_cli
from support import expect, expect_eq

TYPES_REPLY = (b"*13\r\n+OK\r\n-ERR inner\r\n:-42\r\n$11\r\nbulk\r\nbytes\r\n$-1\r\n*-1\r\n"
               b"*2\r\n$1\r\nk\r\n:1\r\n*1\r\n$1\r\nm\r\n$3\r\n1.5\r\n:1\r\n$8\r\nverbatim\r\n"
               b"$20\r\n12345678901234567890\r\n*1\r\n$1\r\np\r\n")


def raw_exchange(port, data, want_len):
    """Sends data on a fresh connection; returns the first want_len bytes of the answer (or
    less when the server closes first)."""
    with socket.create_connection(("127.0.0.1", port), timeout=15) as s:
        s.sendall(data)
        got = b""
        while len(got) < want_len:
            chunk = s.recv(65536)
            if not chunk:
                break
            got += chunk
        return got


def run(env):
    for io in ([], ["--io-threads", "3", "--io-threads-adaptive", "no"]):
        srv = env.start(["--plugin", env.fixture("protocol"), "--enable-debug-command", "yes"] + io,
                        without=("resp",))
        check_server(srv)
        env.stop(srv)


def check_server(srv):
    port = srv.port
    expect_eq(raw_exchange(port, b"*1\r\n$18\r\ncompat.proto.types\r\n", len(TYPES_REPLY)),
              TYPES_REPLY, "every reply type in RESP2")
    # Split requests, inline commands, pipelining, an empty request, exact bytes.
    with socket.create_connection(("127.0.0.1", port), timeout=15) as s:
        for piece in (b"*3\r\n$3\r\nSET\r\n$1", b"\r\na\r\n$", b"5\r\nhello\r", b"\n"):
            s.sendall(piece)
        expect_eq(s.recv(64), b"+OK\r\n", "a request split in four sends")
        s.sendall(b"PING\r\nGET a\r\n*0\r\n*2\r\n$3\r\nGET\r\n$4\r\nnone\r\n")
        want = b"+PONG\r\n$5\r\nhello\r\n$-1\r\n"
        got = b""
        while len(got) < len(want):
            got += s.recv(64)
        expect_eq(got, want, "inline commands and a pipeline")
    got = raw_exchange(port, b"*1\r\nfoo\r\n", 200)
    expect(got.startswith(b"-") and b"Protocol error" in got, "protocol error reply", got)
    r = client(port)
    expect(r.ping(), "redis-py PING")
    r.set("k", "v")
    expect_eq(r.get("k"), b"v", "redis-py SET/GET")
    expect_eq(r.get("nothing"), None, "null bulk")
    expect_eq(r.incr("n"), 1, "integer")
    r.hset("h", mapping={"a": "1", "b": "2"})
    expect_eq(r.hgetall("h"), {b"a": b"1", b"b": b"2"}, "map as a flat array")
    r.zadd("z", {"m": 2.5})
    expect_eq(r.zscore("z", "m"), 2.5, "double as a bulk")
    expect_eq(r.scan(0, match="k", count=1000), (0, [b"k"]), "nested array")
    try:
        r.lpush("k", "x")
        raise AssertionError("LPUSH on a string must fail")
    except redis.ResponseError as e:
        expect(str(e).startswith("WRONGTYPE"), "error reply", str(e))
    big = os.urandom(5 << 20)  # large enough for reply_offload to send it by reference
    r.set("big", big)
    for i in range(3):
        expect_eq(r.get("big"), big, "5 MB bulk %d (frame_bulk)" % i)
    with r.pipeline(transaction=True) as p:
        got = p.set("t", "1").incr("t").get("big").get("t").execute()
    expect_eq(got[1:], [2, big, b"2"], "MULTI/EXEC through the fixture")
    with r.pipeline(transaction=False) as p:
        for i in range(1000):
            p.set("p%d" % i, i)
        expect(all(p.execute()), "1000 pipelined SETs")
    expect_eq(r.dbsize(), 1000 + 7, "every key there")
    r.close()
    expect_eq(redis_cli(port, "GET", "k").strip(), "v", "redis-cli GET")
    expect_eq(redis_cli(port, "HGET", "h", "b").strip(), "2", "redis-cli HGET")
    out = redis_cli(port, "COMPAT.PROTO.TYPES")
    expect("12345678901234567890" in out and "verbatim" in out, "redis-cli renders it", out)
    with support.RespConn(port) as c:
        raw, rep = c.call("DEBUG", "SLEEP", "0")
        expect_eq(raw, b"+OK\r\n", "DEBUG SLEEP 0")
