"""The command fuzzer's generator: the server's own command table (COMMAND and COMMAND DOCS:
arity, flags, key positions, subcommands, argument trees), argument values at the edges
(extreme integers, floats, binary and empty strings, keys of every type from a small pool), and
the neutralizer that keeps a run alive (no SHUTDOWN, no plugin loading, CONFIG SET of a safe
list only, tiny timeouts on blocking commands). All randomness comes from the Random it is given,
so a seed replays a run."""

import fuzz_resp as resp

# The key pool: keys of each type, (re)created by populate().
POOL = {
    "string": [b"s:0", b"s:1", b"n:0"],
    "list": [b"l:0", b"l:1"],
    "hash": [b"h:0", b"h:1"],
    "set": [b"S:0", b"S:1"],
    "zset": [b"z:0", b"z:1"],
    "stream": [b"x:0", b"x:1"],
    "none": [b"missing", b"{s:0}", b""],
}
ALL_KEYS = [k for keys in POOL.values() for k in keys]
GROUP_TYPE = {"string": "string", "bitmap": "string", "list": "list", "hash": "hash",
              "set": "set", "sorted-set": "zset", "stream": "stream", "geo": "zset",
              "hyperloglog": "string"}

INTS = [0, 1, -1, 2, 3, 10, 100, -100, 255, 256, 65535, 2 ** 31 - 1, -2 ** 31, 2 ** 32,
        2 ** 32 - 1, 2 ** 53, 2 ** 62, 2 ** 63 - 1, -2 ** 63, -2 ** 63 + 1, 536870911,
        4294967295, 512 * 1024 * 1024]
INT_TEXTS = [b"9223372036854775808", b"-9223372036854775809", b"18446744073709551615",
             b"99999999999999999999999", b"+1", b"01", b" 1", b"1 ", b"0x10", b"1e3", b"-0", b""]
FLOATS = [b"inf", b"-inf", b"+inf", b"nan", b"-nan", b"1e308", b"-1e308", b"1e309", b"4.9e-324",
          b"0.0", b"-0.0", b"1.5", b"-2.5", b"3.0000000000000001", b"(1", b"(inf", b"[a", b"-",
          b"+", b"1e", b".5", b"0x1p3"]
STRINGS = [b"", b"a", b"x" * 64, b"\x00", b"\xff\xfe\x00\r\n", b"\r\n", b"*", b"?", b"[",
           b"\\", b"%s%n", b"\xc3\x28", b"*1\r\n$4\r\nPING\r\n", b"-1", b"0", b"ch:0",
           b"__redis__:invalidate", b"__keyspace@0__:*", b"a" * 3000]
PATTERNS = [b"*", b"s:*", b"[a-z]*", b"[", b"\\", b"*[", b"?*?*?*?*?*?*?*?*?*?*?*?*", b"[^a]", b"",
            b"*a" * 30 + b"*b", b"[" * 100, b"\\" * 101]
TOKENS = [b"NX", b"XX", b"GT", b"LT", b"CH", b"INCR", b"COUNT", b"LIMIT", b"WITHSCORES",
          b"MATCH", b"TYPE", b"BLOCK", b"STREAMS", b"MAXLEN", b"MINID", b"~", b"=", b"*",
          b"-", b"+", b"$", b">", b"0-0", b"LEFT", b"RIGHT", b"BEFORE", b"AFTER", b"REV",
          b"BYSCORE", b"BYLEX", b"ID", b"LEN", b"RANK", b"MAXLEN", b"KEEPTTL", b"GET", b"EX",
          b"PX", b"EXAT", b"PXAT", b"WEIGHTS", b"AGGREGATE", b"SUM", b"MIN", b"MAX", b"ANY"]

# Never sent: they stop the server, load code, turn a connection into a replica, or need DEBUG.
EXCLUDED = {"shutdown", "sync", "psync", "module|load", "module|loadex", "module|unload",
            "plugin", "failover", "script|debug", "debug", "migrate"}
# Sent rarely (a fraction of the usual weight).
RARE = {"flushall": 0.02, "flushdb": 0.05, "save": 0.05, "bgsave": 0.05, "bgrewriteaof": 0.05,
        "swapdb": 0.2, "client|kill": 0.2, "client|pause": 0.1, "replicaof": 0.1,
        "slaveof": 0.1, "quit": 0.2, "reset": 0.3, "function|flush": 0.2, "script|flush": 0.2,
        "monitor": 0.1, "acl|setuser": 0.5, "acl|deluser": 0.3, "config|set": 1.5,
        "eval": 3.0, "evalsha": 0.5, "fcall": 1.0}
# CONFIG SET targets that cannot lock the fuzzer out, move files, or stop the server.
SAFE_CONFIGS = {
    "proto-max-bulk-len": [b"1mb", b"512mb", b"1", b"0", b"-1", b"9223372036854775807"],
    "client-output-buffer-limit": [b"pubsub 1mb 0 0", b"normal 1kb 1kb 1", b"pubsub 32mb 8mb 60",
                                   b"normal 0 0 0", b"replica 1 1 1"],
    "hz": [b"1", b"10", b"500", b"0", b"-1"],
    "slowlog-log-slower-than": [b"0", b"-1", b"10000"],
    "slowlog-max-len": [b"0", b"1", b"128", b"-1"],
    "latency-monitor-threshold": [b"0", b"1", b"100"],
    "list-max-listpack-size": [b"-5", b"-1", b"1", b"128", b"0", b"-6"],
    "list-compress-depth": [b"0", b"1", b"3"],
    "hash-max-listpack-entries": [b"0", b"1", b"128"],
    "hash-max-listpack-value": [b"0", b"1", b"64"],
    "set-max-intset-entries": [b"0", b"1", b"512"],
    "set-max-listpack-entries": [b"0", b"1", b"128"],
    "zset-max-listpack-entries": [b"0", b"1", b"128"],
    "zset-max-listpack-value": [b"0", b"1", b"64"],
    "stream-node-max-entries": [b"0", b"1", b"100"],
    "stream-node-max-bytes": [b"0", b"1", b"4096"],
    "notify-keyspace-events": [b"KEA", b"", b"Kx", b"Exe", b"AKE$lshzxetdmn"],
    "maxmemory-policy": [b"noeviction", b"allkeys-lru", b"volatile-ttl", b"allkeys-random"],
    "lua-time-limit": [b"100", b"5000"],
    "busy-reply-threshold": [b"100", b"5000"],
    "tracking-table-max-keys": [b"0", b"1", b"100"],
    "active-expire-effort": [b"1", b"10"],
    "lazyfree-lazy-user-del": [b"yes", b"no"],
}
BLOCKING = {"blpop", "brpop", "brpoplpush", "blmove", "blmpop", "bzpopmin", "bzpopmax", "bzmpop",
            "xread", "xreadgroup", "wait"}
# Their replies are one per channel, or a stream: the connection stops counting replies.
SUBSCRIBING = {"subscribe", "psubscribe", "ssubscribe", "monitor", "unsubscribe", "punsubscribe",
               "sunsubscribe"}


class Command:
    """One command or subcommand: words (e.g. [b"CLIENT", b"KILL"]), arity, flags, key
    positions (first, last, step counted from the command name), docs' argument tree, group."""

    def __init__(self, name, arity, flags, first, last, step):
        self.name = name  # lower case, "client|kill" for a subcommand
        self.words = [w.upper().encode() for w in name.split("|")]
        self.arity, self.flags = arity, flags
        self.first, self.last, self.step = first, last, step
        self.args, self.group = None, ""
        excluded = name in EXCLUDED or name.split("|")[0] in EXCLUDED
        self.weight = 0.0 if excluded else RARE.get(name, 1.0)


def _map(value):
    """A flat key/value list (a plain RESP2 map) as a dict of str keys."""
    return {value[i].decode(): value[i + 1] for i in range(0, len(value) - 1, 2)}


def load_table(conn):
    """Reads COMMAND and COMMAND DOCS over conn (RESP2). Returns {name: Command}."""
    conn.send(resp.encode(["COMMAND"]))
    entries = resp.plain(*conn.read())
    table = {}

    def add(e):
        name = e[0].decode().lower()
        flags = {f.decode().lower() for f in (e[2] or [])}
        table[name] = Command(name, int(e[1]), flags, int(e[3]), int(e[4]), int(e[5]))
        if len(e) > 9 and e[9]:
            for sub in e[9]:
                add(sub)

    for e in entries:
        add(e)
    conn.send(resp.encode(["COMMAND", "DOCS"]))
    docs = _map(resp.plain(*conn.read()))

    def attach(name, doc):
        doc = _map(doc)
        cmd = table.get(name)
        if cmd is not None:
            cmd.args = doc.get("arguments")
            cmd.group = (doc.get("group") or b"").decode()
        for sub, sdoc in _map(doc.get("subcommands") or []).items():
            attach(sub.lower(), sdoc)

    for name, doc in docs.items():
        attach(name.lower(), doc)
    # a container with subcommands is reached through them
    for name in list(table):
        if "|" in name:
            table[name.split("|")[0]].weight = min(table[name.split("|")[0]].weight, 0.05)
    return table


class Generator:
    """Random commands from the table; rng is a random.Random."""

    def __init__(self, table, rng, corpus_lines=()):
        self.table, self.rng = table, rng
        self.names = sorted(n for n, c in table.items() if c.weight > 0)
        self.weights = [table[n].weight for n in self.names]
        self.corpus = list(corpus_lines)

    # ---- values ----

    def integer(self):
        r = self.rng.random()
        if r < 0.45:
            return str(self.rng.randint(-3, 20)).encode()
        if r < 0.85:
            v = self.rng.choice(INTS)
            return str(-v if self.rng.random() < 0.3 else v).encode()
        return self.rng.choice(INT_TEXTS)

    def double(self):
        r = self.rng.random()
        if r < 0.5:
            return repr(round(self.rng.uniform(-100, 100), self.rng.randint(0, 3))).encode()
        if r < 0.8:
            return self.rng.choice(FLOATS)
        return self.integer()

    def string(self):
        r = self.rng.random()
        if r < 0.5:
            return self.rng.choice(STRINGS)
        if r < 0.7:
            return bytes(self.rng.randrange(256) for _ in range(self.rng.randint(0, 24)))
        if r < 0.8:
            return self.integer()
        if r < 0.9:
            return self.rng.choice(TOKENS)
        if r < 0.97:
            return b"m" + str(self.rng.randint(0, 20)).encode()
        return self.rng.choice([b"y" * 4096, b"z" * 70000])

    def key(self, group=""):
        t = GROUP_TYPE.get(group)
        if t and self.rng.random() < 0.75:
            return self.rng.choice(POOL[t])
        return self.rng.choice(ALL_KEYS)

    def any_value(self, group=""):
        r = self.rng.random()
        if r < 0.3:
            return self.key(group)
        if r < 0.55:
            return self.integer()
        if r < 0.65:
            return self.double()
        if r < 0.8:
            return self.rng.choice(TOKENS)
        return self.string()

    # ---- from the docs' argument tree ----

    def _arg(self, a, group, out, depth):
        a = _map(a)
        flags = {f.decode() for f in (a.get("flags") or [])}
        if "optional" in flags and self.rng.random() < 0.5:
            return
        times = 1
        if "multiple" in flags:
            times = self.rng.choice([1, 1, 2, 3, 5, 0 if self.rng.random() < 0.1 else 1])
        token = a.get("token")
        for i in range(times):
            if token and (i == 0 or "multiple_token" in flags):
                out.append(token if self.rng.random() < 0.97 else token.lower())
            self._value(a, group, out, depth)

    def _value(self, a, group, out, depth):
        typ = (a.get("type") or b"string").decode()
        if typ == "pure-token":
            return
        if typ in ("block", "oneof"):
            subs = a.get("arguments") or []
            if depth > 6 or not subs:
                return
            if typ == "oneof":
                self._arg(self.rng.choice(subs), group, out, depth + 1)
            else:
                for s in subs:
                    self._arg(s, group, out, depth + 1)
            return
        if self.rng.random() < 0.08:  # any type in any place
            out.append(self.any_value(group))
            return
        if typ == "key":
            out.append(self.key(group))
        elif typ == "integer":
            out.append(self.integer())
        elif typ == "double":
            out.append(self.double())
        elif typ == "pattern":
            out.append(self.rng.choice(PATTERNS))
        elif typ in ("unix-time", "posix-time"):
            out.append(self.rng.choice([b"0", b"1", b"4102444800", b"-1",
                                        b"9223372036854775807", b"1700000000000"]))
        else:
            out.append(self.string())

    def random_args(self, cmd):
        """Arguments ignoring the docs: a count near the arity, keys at the key positions."""
        base = len(cmd.words)
        n = abs(cmd.arity) if cmd.arity else base
        if cmd.arity < 0 or self.rng.random() < 0.1:
            n = max(base, n + self.rng.choice([-1, 0, 0, 1, 2, 3, 6]))
        out = []
        for pos in range(base, n):
            in_keys = cmd.first and cmd.first <= pos and (cmd.last < 0 or pos <= cmd.last)
            out.append(self.key(cmd.group) if in_keys else self.any_value(cmd.group))
        return out

    def command(self):
        """A random command as a list of byte arguments (neutralized)."""
        if self.corpus and self.rng.random() < 0.03:
            return self.mutate(list(self.rng.choice(self.corpus)))
        name = self.rng.choices(self.names, self.weights)[0]
        return self.build(self.table[name])

    def build(self, cmd):
        args = list(cmd.words)
        if cmd.args is not None and self.rng.random() < 0.8:
            for a in cmd.args:
                self._arg(a, cmd.group, args, 0)
        else:
            args += self.random_args(cmd)
        if self.rng.random() < 0.05:
            args = self.mutate(args)
        return neutralize(args, self.rng)

    def mutate(self, args):
        """One change: an argument replaced, dropped, duplicated, or a value appended."""
        r = self.rng.random()
        i = self.rng.randrange(1, len(args)) if len(args) > 1 else None
        if i is None or r < 0.3:
            args.append(self.any_value())
        elif r < 0.6:
            args[i] = self.any_value()
        elif r < 0.8:
            del args[i]
        else:
            args.insert(i, args[i])
        return neutralize(args, self.rng)


def _lower(a):
    return a.lower() if isinstance(a, bytes) else str(a).lower().encode()


def neutralize(args, rng):
    """Makes args safe for the run: excluded commands become PING, CONFIG SET only touches
    SAFE_CONFIGS, blocking timeouts are tiny, CLIENT REPLY stays on, REPLICAOF points at a
    closed loopback port, ACL changes never touch the default user."""
    if not args:
        return [b"PING"]
    name = _lower(args[0]).decode("latin-1")
    sub = _lower(args[1]).decode("latin-1") if len(args) > 1 else ""
    full = name + "|" + sub
    if name in EXCLUDED or full in EXCLUDED:
        return [b"PING", b"excluded " + name.encode()]
    if full == "config|set":
        param = rng.choice(sorted(SAFE_CONFIGS))
        return [b"CONFIG", b"SET", param.encode(), rng.choice(SAFE_CONFIGS[param])]
    if full == "client|reply":
        return [b"CLIENT", b"REPLY", b"ON"]
    if full == "client|pause":
        return [b"CLIENT", b"PAUSE", str(rng.randint(0, 30)).encode()] + args[3:4]
    if name in ("replicaof", "slaveof"):
        return [args[0], b"NO", b"ONE"] if rng.random() < 0.7 else [args[0], b"127.0.0.1", b"1"]
    if name == "acl" and sub in ("setuser", "deluser") and len(args) > 2:
        args[2] = b"fuzz-user"
    if name in ("auth",) and len(args) > 2:
        args[1] = b"fuzz-user"
    if name in BLOCKING:
        args = _tiny_timeouts(name, args)
    return args


def _tiny_timeouts(name, args):
    """Blocking commands wait at most about 20 ms."""
    out = list(args)
    if name == "wait" and len(out) >= 3:
        out[2] = b"10"
    elif name in ("xread", "xreadgroup"):
        for i, a in enumerate(out[:-1]):
            if _lower(a) == b"block":
                out[i + 1] = b"10"
    elif name in ("blpop", "brpop", "bzpopmin", "bzpopmax", "brpoplpush", "blmove"):
        if len(out) > 2:
            out[-1] = b"0.01"
    elif name in ("blmpop", "bzmpop") and len(out) > 1:
        out[1] = b"0.01"
    return out
