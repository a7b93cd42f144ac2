#!/usr/bin/env python3
"""A protocol plugin whose encoder fails mid-reply: the client gets every reply before that
one, complete, then the connection closes; no partial or later reply reaches it, and the
server goes on serving others. usage: encode_fails.py SERVER PLUGIN_DIR FIXTURE.so WORK_DIR"""
import os
import socket
import subprocess
import sys
import time


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def connect(port, deadline):
    while True:
        try:
            return socket.create_connection(("127.0.0.1", port), timeout=10)
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def read_all(sock):
    data = b""
    while True:
        chunk = sock.recv(65536)
        if not chunk:
            return data
        data += chunk


def main():
    server, plugin_dir, fixture, work = sys.argv[1:5]
    os.makedirs(work, exist_ok=True)
    port = free_port()
    log_path = os.path.join(work, "server.log")
    log = open(log_path, "w")
    args = [server, "--port", str(port), "--save", "", "--no-default-plugins",
            "--plugin", fixture, "--plugin", os.path.join(plugin_dir, "tcp.so"),
            "--plugin", os.path.join(plugin_dir, "strings.so")]
    proc = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT)
    try:
        sock = connect(port, time.monotonic() + 20)
        sock.sendall(b"SET a 1\r\nGET a\r\nSET k poison\r\nGET k\r\nGET a\r\n")
        got = read_all(sock)  # the server closes the connection
        want = b"+OK\r\n$1\r\n1\r\n+OK\r\n"
        if got != want:
            print(f"FAIL: got {got!r}, want {want!r} then the connection closed")
            return 1
        other = connect(port, time.monotonic() + 5)
        other.sendall(b"GET a\r\n")
        reply = other.recv(100)
        if reply != b"$1\r\n1\r\n":
            print(f"FAIL: another client got {reply!r} after the failure")
            return 1
        proc.terminate()
        proc.wait(timeout=20)
        text = open(log_path).read()
        if "failed to encode a reply" not in text:
            print("FAIL: no warning logged; server log:\n" + text)
            return 1
        print(f"ok: {got!r}, then closed; the server logged the failure and served another client")
        return 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


if __name__ == "__main__":
    sys.exit(main())
