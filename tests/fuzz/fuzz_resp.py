"""The command fuzzer's RESP side: an encoder that can also cut a request short, a RESP2/RESP3
reply parser that refuses malformed replies, one blocking connection with a deadline per reply,
and the corpus line format (redis-cli-like quoting, \\xNN escapes, {c*N} repeats).
Python 3 standard library only; one thread per connection object."""

import re
import select
import socket
import time

HOST = "127.0.0.1"


class Incomplete(Exception):
    """The buffer holds only part of a reply."""


class Malformed(Exception):
    """The server sent bytes that are not a RESP reply (a finding)."""


class Closed(Exception):
    """The server closed the connection."""


class Timeout(Exception):
    """No byte arrived for the whole timeout."""


class TooBig(Closed):
    """A reply grew past MAX_REPLY bytes: the fuzzer drops the connection rather than hold it
    (a reply Redis would build too, such as ZRANDMEMBER of a huge member with a big count)."""


MAX_REPLY = 64 << 20


def _arg_bytes(a):
    if isinstance(a, bytes):
        return a
    if isinstance(a, int):
        return str(a).encode()
    return str(a).encode("utf-8", "surrogateescape")


def encode(args):
    """A RESP2 multibulk request from str/bytes/int arguments."""
    out = [b"*%d\r\n" % len(args)]
    for a in args:
        a = _arg_bytes(a)
        out.append(b"$%d\r\n%s\r\n" % (len(a), a))
    return b"".join(out)


_SIMPLE = b"+-:,#(_"


def parse(buf, pos=0, depth=0):
    """Parses one reply at buf[pos:]. Returns (kind, value, end) where kind is the type byte as
    a str and value is bytes, a list, or None. Raises Incomplete or Malformed."""
    if depth > 64:
        raise Malformed("nesting deeper than 64")
    if pos >= len(buf):
        raise Incomplete()
    kind = buf[pos:pos + 1]
    end = buf.find(b"\r\n", pos + 1)
    if end < 0:
        if len(buf) - pos > 1 << 20:
            raise Malformed("a header line over 1 MiB")
        raise Incomplete()
    line = buf[pos + 1:end]
    nxt = end + 2
    if kind in (b"+", b"-") and b"\n" in line:
        raise Malformed("a simple line holding a newline")
    if kind and kind in _SIMPLE:
        if kind == b":" and not re.fullmatch(rb"-?[0-9]+", line):
            raise Malformed("integer reply %r" % line[:40])
        return kind.decode(), (None if kind == b"_" else line), nxt
    try:
        n = int(line)
    except ValueError:
        raise Malformed("length %r after %r at %d" % (line[:40], kind, pos)) from None
    if kind in (b"$", b"=", b"!"):
        if n < 0:
            return kind.decode(), None, nxt
        if len(buf) < nxt + n + 2:
            raise Incomplete()
        if buf[nxt + n:nxt + n + 2] != b"\r\n":
            raise Malformed("bulk of %d not followed by CRLF at %d" % (n, nxt + n))
        return kind.decode(), buf[nxt:nxt + n], nxt + n + 2
    if kind in (b"*", b"~", b">", b"%", b"|"):
        if n < 0:
            return kind.decode(), None, nxt
        count = n * 2 if kind in (b"%", b"|") else n
        items = []
        for _ in range(count):
            k, v, nxt = parse(buf, nxt, depth + 1)
            items.append((k, v))
        if kind == b"|":  # an attribute comes before the reply it describes
            return parse(buf, nxt, depth)
        return kind.decode(), items, nxt
    raise Malformed("unknown type byte %r at %d" % (kind, pos))


def plain(kind, value):
    """A parsed reply as plain Python values (bytes, int-as-bytes, lists; maps flattened)."""
    if isinstance(value, list):
        return [plain(k, v) for k, v in value]
    return value


class Conn:
    """A blocking connection to the server. read() returns the next (kind, value); RESP3 pushes
    are returned like replies and the caller tells them apart by kind '>'."""

    def __init__(self, port, timeout):
        self.sock = socket.create_connection((HOST, port), timeout=timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.timeout = timeout
        self.buf = b""
        self.closed = False

    def close(self):
        if not self.closed:
            self.closed = True
            try:
                self.sock.close()
            except OSError:
                pass

    def send(self, data):
        """Sends bytes; raises Closed when the server has gone away."""
        try:
            self.sock.sendall(data)
        except OSError as e:
            raise Closed(str(e)) from None

    def read(self, timeout=None):
        """The next reply; Timeout when no byte came for timeout seconds (default: the
        connection's). A large reply is parsed again only when the stream pauses or the
        buffer has doubled, so reading it stays near linear."""
        wait = self.timeout if timeout is None else timeout
        deadline = time.monotonic() + wait
        tried = 0
        while True:
            if self.buf and (len(self.buf) >= 2 * tried or not self._pending()):
                try:
                    kind, value, end = parse(self.buf)
                    self.buf = self.buf[end:]
                    return kind, value
                except Incomplete:
                    tried = len(self.buf)
            if len(self.buf) > MAX_REPLY:
                raise TooBig("a reply over %d bytes" % MAX_REPLY)
            left = deadline - time.monotonic()
            if left <= 0:
                raise Timeout()
            self.sock.settimeout(left)
            try:
                chunk = self.sock.recv(1 << 20)
            except socket.timeout:
                raise Timeout() from None
            except OSError as e:
                raise Closed(str(e)) from None
            if not chunk:
                raise Closed("end of stream")
            self.buf += chunk
            deadline = time.monotonic() + wait  # bytes came: the server is not stuck

    def _pending(self):
        """True when more bytes are ready to read at once."""
        try:
            return bool(select.select([self.sock], [], [], 0)[0])
        except (OSError, ValueError):
            return False

    def drain(self, quiet):
        """Reads and drops whatever arrives until quiet seconds pass without a whole reply.
        Returns the number of replies dropped; raises Closed or Malformed."""
        n = 0
        while True:
            try:
                self.read(quiet)
                n += 1
            except Timeout:
                return n


def ping(port, timeout):
    """True when a fresh connection gets +PONG within timeout seconds."""
    try:
        c = Conn(port, timeout)
        try:
            c.send(encode(["PING"]))
            return c.read() == ("+", b"PONG")
        finally:
            c.close()
    except (OSError, Closed, Timeout, Malformed):
        return False


# ---- corpus lines ----

_REPEAT = re.compile(r"^\{(.)\*([0-9]+)\}$")


def split_line(line):
    """Splits a corpus command line into byte arguments: whitespace separates, "..." and '...'
    quote, \\xNN, \\n, \\r, \\t, \\\\ and \\" escape inside double quotes, and a whole argument
    {c*N} stands for the character c repeated N times."""
    args, i, n = [], 0, len(line)
    while i < n:
        while i < n and line[i].isspace():
            i += 1
        if i >= n:
            break
        cur = bytearray()
        quoted = False
        while i < n and not line[i].isspace():
            ch = line[i]
            if ch in "\"'":
                quoted = True
                q, i = ch, i + 1
                while i < n and line[i] != q:
                    if q == '"' and line[i] == "\\" and i + 1 < n:
                        esc = line[i + 1]
                        if esc == "x" and i + 3 < n:
                            cur.append(int(line[i + 2:i + 4], 16))
                            i += 4
                            continue
                        cur += {"n": b"\n", "r": b"\r", "t": b"\t"}.get(esc, esc.encode())
                        i += 2
                        continue
                    cur += line[i].encode()
                    i += 1
                i += 1
            else:
                cur += ch.encode()
                i += 1
        m = None if quoted else _REPEAT.match(cur.decode("latin-1"))
        args.append(m.group(1).encode() * int(m.group(2)) if m else bytes(cur))
    return args


def quote_arg(a):
    """One argument in the corpus line format; split_line(quote_arg(a)) == [a]."""
    a = _arg_bytes(a)
    if len(a) > 64 and a == a[:1] * len(a) and 32 < a[0] < 127 and a[:1] not in b"\"'{}\\":
        return "{%s*%d}" % (a[:1].decode(), len(a))
    if a and re.fullmatch(rb"[A-Za-z0-9_.:|*+\-@$/=,<>()!?^%&~]+", a) and not a.startswith(b"{"):
        return a.decode()
    out = []
    for b in a:
        c = chr(b)
        if c in "\"\\":
            out.append("\\" + c)
        elif 32 <= b < 127:
            out.append(c)
        else:
            out.append("\\x%02x" % b)
    return '"%s"' % "".join(out)


def quote_line(args):
    return " ".join(quote_arg(a) for a in args)
