#!/usr/bin/env python3
"""A protocol plugin whose encoder fails mid-reply: the client gets every reply before that
one, complete, then the connection closes; no partial or later reply reaches it, and the
server goes on serving others. usage: encode_fails.py SERVER PLUGIN_DIR FIXTURE.so"""
import os
import socket
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "clients"))
import support  # noqa: E402


def read_all(sock):
    data = b""
    while True:
        chunk = sock.recv(65536)
        if not chunk:
            return data
        data += chunk


def main():
    server, plugin_dir, fixture = sys.argv[1:4]
    # The fixture speaks inline requests: wait_ready's RESP PING gets error replies, enough.
    srv = support._start("plinth", lambda port: (
        [server, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
         "--no-default-plugins", "--plugin", fixture,
         "--plugin", os.path.join(plugin_dir, "tcp.so"),
         "--plugin", os.path.join(plugin_dir, "strings.so")], None))
    try:
        with socket.create_connection(("127.0.0.1", srv.port), timeout=10) as sock:
            sock.sendall(b"SET a 1\r\nGET a\r\nSET k poison\r\nGET k\r\nGET a\r\n")
            got = read_all(sock)  # the server closes the connection
        want = b"+OK\r\n$1\r\n1\r\n+OK\r\n"
        if got != want:
            print(f"FAIL: got {got!r}, want {want!r} then the connection closed")
            return 1
        with socket.create_connection(("127.0.0.1", srv.port), timeout=10) as other:
            other.sendall(b"GET a\r\n")
            reply = other.recv(100)
        if reply != b"$1\r\n1\r\n":
            print(f"FAIL: another client got {reply!r} after the failure")
            return 1
    finally:
        error = srv.stop_cleanly()
    if error:
        print("FAIL: " + error)
        return 1
    if "failed to encode a reply" not in srv.log():
        print("FAIL: no warning logged; server log:\n" + srv.log())
        return 1
    print(f"ok: {got!r}, then closed; the server logged the failure and served another client")
    return 0


if __name__ == "__main__":
    sys.exit(main())
