#!/usr/bin/python3
"""Bounded work per command, against a real plinth-server over loopback: ZRANDMEMBER (and
SRANDMEMBER, HRANDFIELD, which share its bound) with a huge negative count answers an error at
once instead of looping -count times (Redis 7.0 and Valkey never answer
`ZRANDMEMBER z -9223372036854775807`), and the other extreme counts, ranges and limits of the
sorted-set commands answer promptly what Redis 7.0 answers. Each connection has a socket
timeout, so a server that loops fails the check instead of hanging the suite. No timing is
asserted beyond that timeout. --against-redis runs the same checks against redis-server (the
ZRANDMEMBER row fails there: it is the hang this test guards against)."""

import os
import socket
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "clients"))
import support  # noqa: E402
from support import expect, expect_eq  # noqa: E402

checks = support.Checks(__doc__)
check = checks.check

LLONG_MIN = "-9223372036854775808"
LLONG_MAX = "9223372036854775807"
NEAR_MIN = "-9223372036854775807"
TOO_MANY = b"-ERR value is out of range, a negative count may repeat at most 16777216 elements"
TIMEOUT_S = 10  # a looping server fails the check after this long instead of hanging


def call(port, *args):
    """One command on a fresh connection with a socket timeout; returns the raw reply bytes,
    or raises AssertionError naming the command when none came in time."""
    with support.RespConn(port, timeout=TIMEOUT_S) as c:
        try:
            return c.call(*args)[0]
        except socket.timeout:
            raise AssertionError("no reply within %d s to %r" % (TIMEOUT_S, args))


@check("zset")
def zrandmember_huge_negative_count_answers_at_once(port):
    call(port, "ZADD", "bw:z", "1", "a", "2", "b", "3", "c")
    expect_eq(call(port, "ZRANDMEMBER", "bw:z", NEAR_MIN).rstrip(), TOO_MANY, "-(2^63-1)")
    expect_eq(call(port, "ZRANDMEMBER", "bw:z", "-4294967296", "WITHSCORES").rstrip(), TOO_MANY,
              "-2^32 WITHSCORES")
    expect_eq(call(port, "ZRANDMEMBER", "bw:z", LLONG_MIN),
              b"-ERR value is out of range, value must between -9223372036854775807 and "
              b"9223372036854775807\r\n", "LLONG_MIN")
    expect_eq(call(port, "ZRANDMEMBER", "bw:z", LLONG_MAX),
              b"*3\r\n$1\r\nc\r\n$1\r\nb\r\n$1\r\na\r\n", "LLONG_MAX: the whole set")
    expect_eq(call(port, "ZRANDMEMBER", "bw:z", "0"), b"*0\r\n", "0")
    expect(call(port, "ZRANDMEMBER", "bw:z", "-1").startswith(b"*1\r\n"), "-1: one pick")
    expect_eq(call(port, "PING"), b"+PONG\r\n", "the server still serves")


@check("set", "hash")
def srandmember_and_hrandfield_share_the_bound(port):
    call(port, "SADD", "bw:s", "a", "b")
    call(port, "HSET", "bw:h", "a", "1")
    expect_eq(call(port, "SRANDMEMBER", "bw:s", NEAR_MIN).rstrip(), TOO_MANY, "SRANDMEMBER")
    expect_eq(call(port, "HRANDFIELD", "bw:h", NEAR_MIN).rstrip(), TOO_MANY, "HRANDFIELD")


@check("zset")
def zset_ranges_and_limits_at_the_extremes_answer_as_redis(port):
    call(port, "ZADD", "bw:r", "1", "a", "2", "b", "3", "c")
    empty = b"*0\r\n"
    every = b"*3\r\n$1\r\na\r\n$1\r\nb\r\n$1\r\nc\r\n"
    cases = [
        (("ZRANGE", "bw:r", LLONG_MIN, LLONG_MAX), every),
        (("ZRANGE", "bw:r", LLONG_MAX, LLONG_MIN), empty),
        (("ZRANGE", "bw:r", "-inf", "+inf", "BYSCORE", "LIMIT", LLONG_MAX, "1"), empty),
        (("ZRANGE", "bw:r", "-inf", "+inf", "BYSCORE", "LIMIT", "0", LLONG_MIN), every),
        (("ZRANGE", "bw:r", "-inf", "+inf", "BYSCORE", "LIMIT", LLONG_MIN, "-1"), empty),
        (("ZRANGEBYLEX", "bw:r", "-", "+", "LIMIT", "1", LLONG_MAX),
         b"*2\r\n$1\r\nb\r\n$1\r\nc\r\n"),
        (("ZREMRANGEBYRANK", "bw:none", LLONG_MIN, LLONG_MAX), b":0\r\n"),
        (("ZRANGESTORE", "bw:d", "bw:r", "0", "-1", "BYSCORE", "LIMIT", LLONG_MAX, LLONG_MAX),
         b":0\r\n"),
        (("ZPOPMIN", "bw:none", LLONG_MAX), empty),
        (("ZMPOP", "1", "bw:none", "MIN", "COUNT", LLONG_MAX), b"*-1\r\n"),
        (("ZMPOP", "1", "bw:none", "MIN", "COUNT", "0"), b"-ERR count should be greater than 0\r\n"),
        (("ZINTERCARD", "1", "bw:r", "LIMIT", LLONG_MAX), b":3\r\n"),
        (("ZINTERCARD", "1", "bw:r", "LIMIT", "-1"), b"-ERR LIMIT can't be negative\r\n"),
        (("ZUNIONSTORE", "bw:d", LLONG_MAX, "bw:r"), b"-ERR syntax error\r\n"),
        (("ZUNIONSTORE", "bw:d", LLONG_MIN, "bw:r"),
         b"-ERR at least 1 input key is needed for 'zunionstore' command\r\n"),
        (("ZUNION", "2147483647", "bw:r"), b"-ERR syntax error\r\n"),
        (("ZSCAN", "bw:r", "0", "COUNT", LLONG_MAX), None),
        (("ZSCAN", "bw:r", "0", "COUNT", "0"), b"-ERR syntax error\r\n"),
    ]
    wrong = []
    for args, want in cases:
        got = call(port, *args)
        if want is not None and got != want:
            wrong.append("%s: got %r, wanted %r" % (" ".join(args), got, want))
    expect(not wrong, "\n".join(wrong))


if __name__ == "__main__":
    support.main_guard(checks.run)
