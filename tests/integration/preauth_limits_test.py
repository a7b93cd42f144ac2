"""ROBUSTNESS.md item 31, the request limits before authentication, checked byte for byte
against Redis 7.0 (run with --server /usr/bin/redis-server to check the test itself): where a
password is required, a client that has not authenticated may send a multibulk of at most 10
elements and bulks of at most 16384 bytes. One more is refused with Redis's protocol error as
soon as its header arrives, and the connection is closed; at the limit the request is served
(-NOAUTH); after AUTH, and on a server without a password, the limits do not apply.

Python 3 standard library only (tests/clients/support.py)."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "clients"))
import support  # noqa: E402

NOAUTH = b"-NOAUTH Authentication required.\r\n"
MULTIBULK = b"-ERR Protocol error: unauthenticated multibulk length\r\n"
BULK = b"-ERR Protocol error: unauthenticated bulk length\r\n"
PASSWORD = "pre-auth-secret"


def start(path, extra):
    if os.path.basename(path).startswith("redis-server"):
        return support.start_redis(path, extra)
    return support.start_plinth(path, list(support.PERSISTENCE_OFF) + extra)


def closed(conn):
    """True when the server closes conn (reads to the end within the connection's timeout)."""
    try:
        while conn.sock.recv(4096):
            pass
        return True
    except ConnectionResetError:
        return True
    except OSError:  # a timeout: still open
        return False


def refused(port, data, reply, what):
    with support.RespConn(port, timeout=10) as c:
        c.send_raw(data)
        support.expect_eq(c.read()[0], reply, what)
        support.expect(closed(c), what + ": the connection is closed")


def served(port, args, what, reply=NOAUTH):
    """An unauthenticated client sends args, gets reply, and may go on (PING: -NOAUTH)."""
    with support.RespConn(port, timeout=10) as c:
        support.expect_eq(c.call(*args)[0], reply, what)
        support.expect_eq(c.call("PING")[0], NOAUTH, what + ": the connection stays open")


def with_password(path):
    srv = start(path, ["--requirepass", PASSWORD])
    try:
        p = srv.port
        served(p, ["RPUSH", "l"] + ["x"] * 8, "a multibulk of 10 elements")
        refused(p, support.encode(["RPUSH", "l"] + ["x"] * 9), MULTIBULK, "11 elements")
        refused(p, b"*11\r\n", MULTIBULK, "the header of 11 elements alone")
        refused(p, b"*1000000000\r\n", MULTIBULK, "a header of a billion elements")
        served(p, ["ECHO", "b" * 16384], "a bulk of 16384 bytes")
        refused(p, support.encode(["ECHO", "b" * 16385]), BULK, "a bulk of 16385 bytes")
        refused(p, b"*2\r\n$4\r\nECHO\r\n$16385\r\n", BULK, "the header of 16385 bytes alone")
        refused(p, b"*2\r\n$4\r\nECHO\r\n$9223372036854775807\r\n",  # past proto-max-bulk-len
                b"-ERR Protocol error: invalid bulk length\r\n", "a header of 2^63-1")
        served(p, ["AUTH", "p" * 16384], "AUTH with a 16384-byte wrong password",
               b"-WRONGPASS invalid username-password pair or user is disabled.\r\n")
        with support.RespConn(p, timeout=10) as c:
            support.expect_eq(c.call("AUTH", PASSWORD)[0], b"+OK\r\n", "AUTH")
            big = ["RPUSH", "list"] + ["e"] * 100
            support.expect_eq(c.call(*big)[0], b":100\r\n", "100 elements after AUTH")
            support.expect_eq(c.call("SET", "k", "v" * 100000)[0], b"+OK\r\n",
                              "a bulk of 100000 bytes after AUTH")
        with support.RespConn(p, timeout=10) as c:  # HELLO ... AUTH authenticates too
            c.send_raw(support.encode(["HELLO", "2", "AUTH", "default", PASSWORD]))
            support.expect(c.read()[1].kind == "*", "HELLO 2 AUTH")
            support.expect_eq(c.call("STRLEN", "k")[0], b":100000\r\n", "after HELLO AUTH")
        print("PASS requirepass: 10 elements and 16384 bytes served, one more refused and "
              "closed; no limit after AUTH")
        problem = srv.stop_cleanly()
        support.expect(problem is None, "clean exit", problem)
    finally:
        srv.stop()


def without_password(path):
    srv = start(path, [])
    try:
        with support.RespConn(srv.port, timeout=10) as c:
            support.expect_eq(c.call(*(["RPUSH", "l"] + ["e"] * 20))[0], b":20\r\n",
                              "20 elements without a password")
            support.expect_eq(c.call("SET", "k", "v" * 20000)[0], b"+OK\r\n",
                              "20000 bytes without a password")
        print("PASS no requirepass: no pre-auth limits")
    finally:
        srv.stop()


def main():
    if len(sys.argv) != 3 or sys.argv[1] != "--server":
        print("usage: preauth_limits_test.py --server PATH")
        return 2
    path = os.path.abspath(sys.argv[2])
    with_password(path)
    without_password(path)
    return 0


if __name__ == "__main__":
    support.main_guard(main)
