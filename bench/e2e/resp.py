"""A minimal RESP client for the harness: readiness probes, single commands, and pipelined
bulk loading. Standard library only; blocking sockets."""

import socket
import time


def encode(*args):
    """Returns the multibulk encoding of args (str or bytes)."""
    out = [b"*%d\r\n" % len(args)]
    for a in args:
        b = a if isinstance(a, bytes) else str(a).encode()
        out.append(b"$%d\r\n%s\r\n" % (len(b), b))
    return b"".join(out)


class Reader:
    """Parses replies from a socket. Errors come back as ReplyError values, not exceptions."""

    def __init__(self, sock):
        self.sock = sock
        self.buf = b""
        self.pos = 0

    def _fill(self):
        data = self.sock.recv(1 << 20)
        if not data:
            raise ConnectionError("connection closed by the server")
        self.buf = self.buf[self.pos:] + data
        self.pos = 0

    def _line(self):
        while True:
            end = self.buf.find(b"\r\n", self.pos)
            if end >= 0:
                line = self.buf[self.pos:end]
                self.pos = end + 2
                return line
            self._fill()

    def _exact(self, n):
        while len(self.buf) - self.pos < n + 2:
            self._fill()
        data = self.buf[self.pos:self.pos + n]
        self.pos += n + 2
        return data

    def reply(self):
        line = self._line()
        kind, rest = line[:1], line[1:]
        if kind in (b"+", b":", b"_", b",", b"#"):
            return rest.decode(errors="replace")
        if kind == b"-":
            return ReplyError(rest.decode(errors="replace"))
        if kind in (b"$", b"="):
            n = int(rest)
            return None if n < 0 else self._exact(n)
        if kind in (b"*", b"~", b">", b"%"):
            n = int(rest) * (2 if kind == b"%" else 1)
            return None if n < 0 else [self.reply() for _ in range(n)]
        raise ValueError("malformed reply starting %r" % line[:20])


class ReplyError(str):
    """An error reply's text."""


def connect(port, host="127.0.0.1", timeout=10.0):
    s = socket.create_connection((host, port), timeout=timeout)
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return s


def command(port, *args, timeout=10.0):
    """Sends one command on a new connection and returns its reply."""
    with connect(port, timeout=timeout) as s:
        s.sendall(encode(*args))
        return Reader(s).reply()


def wait_ready(port, alive, timeout):
    """Waits until something on port answers a PING with any reply (an unknown-command error
    counts: the server is up). alive() says whether the process still runs. Returns True when
    ready, False when the process died or the time ran out."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not alive():
            return False
        try:
            with connect(port, timeout=2.0) as s:
                s.sendall(encode("PING"))
                Reader(s).reply()
                return True
        except (OSError, ValueError):
            time.sleep(0.05)
    return False


def load_keys(port, first, count, value, key_format="key:%012d", batch=2000):
    """SETs count keys (key_format % i for i from first) to value through one pipelined
    connection, batch by batch. Raises RuntimeError on the first error reply."""
    value = value if isinstance(value, bytes) else value.encode()
    vpart = b"$%d\r\n%s\r\n" % (len(value), value)
    with connect(port, timeout=120.0) as s:
        reader = Reader(s)
        i = first
        end = first + count
        while i < end:
            stop = min(end, i + batch)
            parts = []
            for k in range(i, stop):
                key = (key_format % k).encode()
                parts.append(b"*3\r\n$3\r\nSET\r\n$%d\r\n%s\r\n" % (len(key), key))
                parts.append(vpart)
            s.sendall(b"".join(parts))
            for _ in range(stop - i):
                r = reader.reply()
                if isinstance(r, ReplyError):
                    raise RuntimeError("SET refused: %s" % r)
            i = stop
