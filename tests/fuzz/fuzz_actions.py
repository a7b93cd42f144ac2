"""The command fuzzer's actions against one server: several client connections, each sending
single commands, pipelines, MULTI/EXEC blocks, scripts, blocking commands, pub/sub, HELLO 2/3
switches, and dropping the connection mid-pipeline or mid-command. Every step is written to an
event log in the corpus line format (tests/fuzz/README.md), which replay() can run again.

Reply accounting: a connection expects one reply per command, RESP3 pushes aside. Once it
subscribes or MONITORs it is "loose": its replies are drained, not counted. A reply that does
not come within the timeout raises NoReply; the caller decides between a blocked client and a
hung server."""

import collections
import time

import fuzz_dump
import fuzz_gen as gen
import fuzz_resp as resp


class NoReply(Exception):
    """A connection waited past the timeout; args: (conn index, the commands pending)."""


class Finding(Exception):
    """Something the server must never do (malformed reply); args: (kind, detail)."""


def name_of(args, table):
    """The command's table name: "get", or "client|kill" for a known subcommand."""
    name = args[0].lower().decode("latin-1") if args else ""
    if len(args) > 1:
        full = name + "|" + args[1].lower().decode("latin-1")
        if full in table:
            return full
    return name


class Client:
    def __init__(self):
        self.conn, self.loose, self.resp3, self.loose_uses = None, False, False, 0


class Session:
    """The connections to one server plus the event log and the counters."""

    def __init__(self, port, table, timeout, n_clients=4, log_len=4000):
        self.port, self.table, self.timeout = port, table, timeout
        self.clients = [Client() for _ in range(n_clients)]
        self.events = collections.deque(maxlen=log_len)
        self.current = None  # the connection the last logged event went to
        self.executed = 0
        self.sent_names, self.ok_names = collections.Counter(), set()
        self.closes = self.stuck = self.huge = 0

    # ---- the event log ----

    def log(self, i, line):
        if self.current != i:
            self.events.append("@conn %d" % i)
            self.current = i
        self.events.append(line)

    # ---- connections ----

    def conn(self, i):
        """Client i's connection, a new one when it has none. A loose connection goes after
        a few commands, so that most replies are counted."""
        c = self.clients[i]
        if c.loose:
            c.loose_uses += 1
            if c.loose_uses > 3:
                self.log(i, "@close")
                self.drop(i)
        if c.conn is None or c.conn.closed:
            c.conn = resp.Conn(self.port, self.timeout)
            c.loose = c.resp3 = False
            c.loose_uses = 0
        return c.conn

    def drop(self, i):
        c = self.clients[i]
        if c.conn is not None:
            c.conn.close()
        c.conn, c.loose, c.resp3 = None, False, False

    # ---- sending and reading ----

    def send(self, i, commands, extra=b""):
        """Sends commands (lists of byte args) in one write and reads their replies. Returns
        the replies (None for a loose connection or one the server closed)."""
        c = self.clients[i]
        conn = self.conn(i)
        for args in commands:
            self.log(i, resp.quote_line(args))
            self.sent_names[name_of(args, self.table)] += 1
        try:
            conn.send(b"".join(resp.encode(a) for a in commands) + extra)
            if c.loose:
                conn.drain(0.005)
                return None
            replies = []
            for n, args in enumerate(commands):
                name = name_of(args, self.table)
                if name in gen.SUBSCRIBING:
                    c.loose = True
                    conn.drain(0.01)
                    return None
                kind, value = self._read(i, commands[n:])
                self.executed += 1
                if kind != "-":
                    self.ok_names.add(name)
                self._after(i, name, args, kind, value)
                replies.append((kind, value))
            return replies
        except resp.TooBig:
            self.huge += 1
            self.log(i, "@close")
            self.drop(i)
            return None
        except resp.Closed:
            self.closes += 1
            self.drop(i)
            return None
        except resp.Malformed as e:
            raise Finding("malformed-reply", "%s (after %s)" % (e, resp.quote_line(
                commands[-1])[:200])) from None

    def _read(self, i, pending):
        c = self.clients[i]
        while True:
            try:
                kind, value = c.conn.read()
            except resp.Timeout:
                raise NoReply(i, pending) from None
            if kind != ">" or not c.resp3:
                return kind, value

    def _after(self, i, name, args, kind, value):
        """Keeps the connection's state in step with what the command did."""
        c = self.clients[i]
        if kind == "-":
            return
        if name == "hello" and len(args) > 1:
            c.resp3 = args[1] == b"3"
        elif name == "reset":
            c.resp3 = False

    # ---- actions ----

    def single(self, i, args):
        self.send(i, [args])

    def pipeline(self, i, commands):
        self.send(i, commands)

    def multi(self, i, commands, discard=False):
        self.send(i, [[b"MULTI"]] + commands + [[b"DISCARD" if discard else b"EXEC"]])

    def script(self, i, args, rng):
        """EVAL of a script calling args through redis.call or redis.pcall (or EVAL_RO/FCALL
        of a tiny library); the command's words are literal, the rest are ARGV."""
        words = [w.decode("latin-1") for w in args[:1]]
        fn = rng.choice(["call", "pcall"])
        body = "return redis.%s('%s'%s)" % (fn, words[0].replace("'", ""), "".join(
            ", ARGV[%d]" % (n + 1) for n in range(len(args) - 1)))
        if rng.random() < 0.1:
            body = "local r = {} for i = 1, %d do r[i] = redis.%s('%s'%s) end return r" % (
                rng.randint(1, 50), fn, words[0].replace("'", ""), "".join(
                    ", ARGV[%d]" % (n + 1) for n in range(len(args) - 1)))
        verb = b"EVAL_RO" if rng.random() < 0.1 else b"EVAL"
        self.send(i, [[verb, body.encode(), b"0"] + list(args[1:])])

    def function(self, i, rng):
        lib = (b"#!lua name=fz\nredis.register_function('fz', function(keys, args) "
               b"return redis.call(args[1], unpack(keys)) end)\n"
               b"redis.register_function{function_name='fzro', callback=function(k, a) "
               b"return #k end, flags={'no-writes'}}")
        key = rng.choice(gen.ALL_KEYS)
        self.send(i, [[b"FUNCTION", b"LOAD", b"REPLACE", lib],
                      [b"FCALL", b"fz", b"1", key, rng.choice([b"TYPE", b"GET", b"DEL",
                                                               b"EXISTS", b"SCARD"])],
                      [b"FCALL_RO", b"fzro", b"2", key, key]])

    def pubsub(self, i, j, rng):
        """Client i subscribes (becomes loose); client j publishes to it."""
        ch = rng.choice([b"ch:0", b"ch:1", b"__redis__:invalidate"])
        verb = rng.choice([b"SUBSCRIBE", b"PSUBSCRIBE", b"SSUBSCRIBE"])
        target = ch if verb != b"PSUBSCRIBE" else b"ch:*"
        self.send(i, [[verb, target]])
        size = rng.choice([0, 10, 1000, 70000])
        self.send(j, [[rng.choice([b"PUBLISH", b"SPUBLISH"]), ch, b"p" * size]])
        if rng.random() < 0.3:
            self.send(i, [[rng.choice([b"UNSUBSCRIBE", b"PUNSUBSCRIBE", b"PING", b"RESET"])]])

    def restore(self, i, rng):
        """DUMP of a pool key, mutated (fuzz_dump), RESTOREd under another name or over the
        key itself, then read whole by every type's reader, dumped again and deleted."""
        typ = rng.choice(["string", "list", "hash", "set", "zset", "stream"])
        key = rng.choice(gen.POOL[typ])
        replies = self.send(i, [[b"DUMP", key]])
        if not replies or replies[0][0] != "$" or replies[0][1] is None:
            return
        target = key if rng.random() < 0.3 else b"r:" + key
        payload = fuzz_dump.mutate(replies[0][1], rng)
        self.send(i, [[b"RESTORE", target, b"0", payload, b"REPLACE"], [b"TYPE", target],
                      [b"OBJECT", b"ENCODING", target], [b"MEMORY", b"USAGE", target],
                      [b"GET", target], [b"LRANGE", target, b"0", b"-1"],
                      [b"HGETALL", target], [b"SMEMBERS", target],
                      [b"ZRANGE", target, b"0", b"-1", b"WITHSCORES"],
                      [b"XINFO", b"STREAM", target, b"FULL"], [b"XRANGE", target, b"-", b"+"],
                      [b"DUMP", target]] + ([[b"DEL", target]] if target != key else []))

    def hello(self, i, rng):
        ver = rng.choice([b"2", b"3", b"3", b"1", b"4", b"-1"])
        args = [b"HELLO", ver]
        if rng.random() < 0.3:
            args += [b"SETNAME", rng.choice([b"fz", b"a b", b""])]
        self.send(i, [args])

    def disconnect(self, i, commands, rng):
        """Closes client i: plainly, after an unread pipeline, or in the middle of a command
        (its first bytes sent, the rest never)."""
        self.conn(i)
        how = rng.choice(["plain", "pipeline", "half", "split"])
        data = b"".join(resp.encode(a) for a in commands)
        try:
            if how == "pipeline":
                for args in commands:
                    self.log(i, resp.quote_line(args))
                self.clients[i].conn.send(data)
            elif how == "half":
                cut = rng.randint(1, max(1, len(data) - 1))
                self.log(i, "@half %d %s" % (cut, resp.quote_line(commands[0])) if
                         len(commands) == 1 else "@raw " + resp.quote_arg(data[:cut]))
                self.clients[i].conn.send(data[:cut])
            elif how == "split":  # the rest follows later: a command in two reads
                cut = rng.randint(1, max(1, len(data) - 1))
                self.log(i, "@raw " + resp.quote_arg(data[:cut]))
                self.log(i, "@raw " + resp.quote_arg(data[cut:]))
                self.clients[i].conn.send(data[:cut])
                time.sleep(0.002)
                self.clients[i].conn.send(data[cut:])
                self.clients[i].loose = True  # its replies are not counted
                self.clients[i].conn.drain(0.01)
                return
        except resp.Closed:
            pass
        self.log(i, "@close")
        self.drop(i)

    def raw(self, i, data):
        """Sends bytes as they are, then drains; the connection is loose from then on."""
        self.log(i, "@raw " + resp.quote_arg(data))
        try:
            self.conn(i).send(data)
            self.clients[i].loose = True
            self.clients[i].conn.drain(0.01)
        except resp.Closed:
            self.drop(i)


def replay(session, lines):
    """Runs corpus/event lines on session, one command at a time. Directives: @conn N,
    @close, @half N <command>, @raw <bytes>, @sleep MS; # starts a comment. Commands are sent
    as written (not neutralized), except the EXCLUDED ones, which become PING."""
    i = 0
    for line in lines:
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("@conn "):
            i = int(line.split()[1]) % len(session.clients)
        elif line == "@close":
            session.log(i, "@close")
            session.drop(i)
        elif line.startswith("@half "):
            _, cut, rest = line.split(" ", 2)
            data = resp.encode(resp.split_line(rest))[:int(cut)]
            session.raw(i, data)
            session.drop(i)
        elif line.startswith("@raw "):
            session.raw(i, resp.split_line(line[5:])[0])
        elif line.startswith("@sleep "):
            time.sleep(int(line.split()[1]) / 1000.0)
        else:
            args = resp.split_line(line)
            name = name_of(args, session.table)
            if name in gen.EXCLUDED or name.split("|")[0] in gen.EXCLUDED:
                args = [b"PING", b"excluded " + name.encode()]
            session.send(i, [args])
