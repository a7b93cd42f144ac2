#!/usr/bin/python3
"""Script-level differential fuzz: generates random but mostly valid Lua programs (expressions,
locals, if/for, pcall, table constructors, string/math/cjson/cmsgpack/bit/struct calls, error(),
redis.call and redis.pcall of random commands on a small pool of keys, RESP2 and RESP3 return
values) and random byte mutations of them (compile errors, wrong calls), and runs each with
EVAL (sometimes EVAL_RO, a shebang, or as a FUNCTION LOAD library then FCALL) on a fresh Debian
redis-server and a fresh plinth-server. After every script plinth-server must still answer
PING, and the two replies must be equal byte for byte after table/function addresses are
blanked (scripts whose reply is random by nature, marked as such, compare their reply's RESP
type only). Half the run is on RESP2 connections, half after HELLO 3. A fixed seed makes a run
repeatable.
Programs avoid what cannot be compared or cannot end: no while/repeat loops, numeric for loops
without a step, no math.random, no error() with a table lacking "err" (it crashes Redis 7.0.15),
and mutations never insert digits or 'e' (no loop bound grows past a few thousand).
Exit 0: all equal; 1: a mismatch, a crash or a hang (each printed with its script); 77:
redis-server is missing, or the scripting plugin is not built (without --require-all-plugins)."""

import argparse
import os
import random
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "clients"))

import support  # noqa: E402

# Keys by type, so that most calls meet a value of their own type (KEYS[n] may be any).
TYPED_KEYS = {"S": ["fs1", "fs2"], "L": ["fl1"], "H": ["fh1"], "T": ["ft1"], "Z": ["fz1"]}
KEYS = [k for ks in TYPED_KEYS.values() for k in ks]
NEEDED_PLUGINS = ["scripting"]
ADDRESS = re.compile(rb"(table|function|userdata|thread|cdata): (0x)?[0-9a-fA-F]+")

# ---- the generator ----

STRINGS = ['"abc"', '""', '"x y"', '"123"', '"1.5"', '"-7"', '"a\\0b"', '"\\n"', '"key"',
           '"ERR"', '"OK"', '"nan"', '"inf"', '"9223372036854775807"', "'q'", '"%d"',
           '"[1,2]"', '"{\\"a\\":1}"', '"\\255\\1"']
NUMBERS = ["0", "1", "2", "3", "7", "10", "-1", "-5", "100", "1.5", "0.25", "-2.75", "3.0",
           "1e3", "2^31", "2^53", "2^63", "-2^63", "(1/3)", "1e-5"]
JSON = ['"[1,2,3]"', '"{\\"k\\":\\"v\\"}"', '"[[1],[2,[3]]]"', '"\\"s\\""', '"12.5"',
        '"null"', '"true"', '"[1,null]"', '"{bad"', '""', '"[1,"']
# (command, argument kinds): S/L/H/T/Z a key of that type (string, list, hash, set, zset),
# K any key, V value, I small integer, F float, M member/field, A any expression.
COMMANDS = [
    ("SET", "SV"), ("GET", "S"), ("INCR", "S"), ("INCRBY", "SI"), ("INCRBYFLOAT", "SF"),
    ("DEL", "K"), ("EXISTS", "KK"), ("APPEND", "SV"), ("STRLEN", "S"), ("GETRANGE", "SII"),
    ("SETRANGE", "SIV"), ("MGET", "SS"), ("MSET", "SVSV"), ("GETDEL", "S"), ("SETNX", "SV"),
    ("TYPE", "K"), ("EXPIRE", "KI"), ("PERSIST", "K"), ("RENAME", "SS"),
    ("LPUSH", "LV"), ("RPUSH", "LVV"), ("LPOP", "L"), ("RPOP", "LI"), ("LRANGE", "LII"),
    ("LLEN", "L"), ("LINDEX", "LI"), ("LREM", "LIV"),
    ("HSET", "HMV"), ("HGET", "HM"), ("HDEL", "HM"), ("HLEN", "H"), ("HINCRBY", "HMI"),
    ("HGETALL", "H"), ("HEXISTS", "HM"), ("HMGET", "HMM"),
    ("SADD", "TM"), ("SREM", "TM"), ("SCARD", "T"), ("SISMEMBER", "TM"),
    ("ZADD", "ZFM"), ("ZSCORE", "ZM"), ("ZINCRBY", "ZFM"), ("ZRANGE", "ZII"),
    ("ZRANGE", "ZIIA"), ("ZCARD", "Z"), ("ZRANK", "ZM"), ("ZREM", "ZM"),
    ("PING", ""), ("ECHO", "V"), ("DBSIZE", ""), ("OBJECT", "AK"),
]
# Calls that fail: unknown, wrong arity, refused in scripts, wrong types.
BAD_COMMANDS = [("NOSUCHCMD", "A"), ("GET", ""), ("SET", "K"), ("MULTI", ""), ("EVAL", "VI"),
                ("BLPOP", "KI"), ("BLMPOP", "IIKA"), ("INCR", "KK"), ("LPUSH", "SV"),
                ("SELECT", "I"), ("HGET", "SM"), ("INCR", "L")]
LOOSE_COMMANDS = [("TIME", ""), ("RANDOMKEY", "")]  # replies that differ by nature


class Gen:
    def __init__(self, rng):
        self.rng = rng
        self.locals = []
        self.loose = False  # the program's reply is random by nature: compare its type only
        self.depth = 0

    def pick(self, seq):
        return self.rng.choice(seq)

    def one(self, makers):
        """Calls one of the functions: only the chosen alternative is generated."""
        return self.rng.choice(makers)()

    def chance(self, p):
        return self.rng.random() < p

    # -- expressions --
    def string(self):
        r = self.rng.random()
        if r < 0.5:
            return self.pick(STRINGS)
        if r < 0.7:
            return "ARGV[%d]" % self.rng.randrange(1, 4)
        if r < 0.8:
            return "KEYS[%d]" % self.rng.randrange(1, 3)
        if r < 0.9:
            return "string.rep(%s, %d)" % (self.pick(STRINGS), self.rng.randrange(0, 40))
        return "tostring(%s)" % self.number()

    def number(self):
        r = self.rng.random()
        if r < 0.6 or self.depth > 3:
            return self.pick(NUMBERS)
        self.depth += 1
        try:
            if r < 0.8:
                return "(%s %s %s)" % (self.number(), self.pick(["+", "-", "*", "/", "%", "^"]),
                                       self.number())
            return self.one([
                lambda: "#%s" % self.string(), lambda: "math.floor(%s)" % self.number(),
                lambda: "math.max(%s, %s)" % (self.number(), self.number()),
                lambda: "math.abs(%s)" % self.number(), lambda: "tonumber(%s)" % self.string(),
                lambda: "bit.band(%s, %s)" % (self.number(), self.number()),
                lambda: "bit.bxor(%s, %s)" % (self.number(), self.number()),
                lambda: "bit.lshift(1, %d)" % self.rng.randrange(0, 40),
                lambda: "select('#', %s, %s)" % (self.expr(), self.expr()),
                lambda: "-(%s)" % self.number()])
        finally:
            self.depth -= 1

    def table(self):
        r = self.rng.random()
        self.depth += 1
        try:
            if r < 0.5:
                n = self.rng.randrange(0, 5)
                return "{%s}" % ", ".join(self.expr() for _ in range(n))
            # a single string key: the order of a table's hash part never matters
            return self.one([
                lambda: "{ok = %s}" % self.string(), lambda: "{err = %s}" % self.string(),
                lambda: "{double = %s}" % self.number(), lambda: "{map = {f = %s}}" % self.expr(),
                lambda: "{set = {m = true}}", lambda: "{big_number = %s}" % self.string(),
                lambda: "{verbatim_string = {format = \"txt\", string = %s}}" % self.string(),
                lambda: "{%s, nil, %s}" % (self.expr(), self.expr()),
                lambda: "{%s, {%s, {%s}}}" % (self.expr(), self.expr(), self.expr()),
                lambda: "redis.status_reply(%s)" % self.string(),
                lambda: "redis.error_reply(%s)" % self.string(),
                lambda: "cjson.decode(%s)" % self.pick(JSON),
                lambda: "{cmsgpack.unpack(cmsgpack.pack(%s, %s))}" % (self.expr(), self.expr()),
                lambda: "{string.byte(%s, 1, 3)}" % self.string(),
                lambda: "{struct.unpack('>I2', %s)}" % self.string(),
            ])
        finally:
            self.depth -= 1

    def call(self, pcall=None):
        r = self.rng.random()
        cmd, kinds = self.pick(LOOSE_COMMANDS if r < 0.02 else BAD_COMMANDS if r < 0.12 else
                               COMMANDS)
        if (cmd, kinds) in LOOSE_COMMANDS:
            self.loose = True
        args = ['"%s"' % cmd if self.chance(0.9) else '"%s"' % cmd.lower()]
        for k in kinds:
            if k in TYPED_KEYS:
                args.append('"%s"' % self.pick(TYPED_KEYS[k]) if self.chance(0.8) else
                            self.pick(["KEYS[1]", "KEYS[2]"]))
            elif k == "K":
                args.append(self.pick(["KEYS[1]", "KEYS[2]", '"%s"' % self.pick(KEYS)]))
            elif k == "V":
                args.append(self.one([self.string, self.number]))
            elif k == "I":
                args.append(self.pick(["0", "1", "2", "-1", "3", "10", '"x"', "1.5"]))
            elif k == "F":
                args.append(self.pick(["1.5", "2", '"3.25"', '"-inf"', '"nan"', "0.1"]))
            elif k == "M":
                args.append(self.pick(['"m1"', '"m2"', '"f"', "ARGV[1]", "1"]))
            else:
                args.append(self.expr())
        if self.chance(0.05):
            args.append(self.pick(["{}", "nil", "true", "{1}"]))  # wrong argument types
        fn = pcall if pcall is not None else self.pick(["redis.call", "redis.pcall", "redis.pcall"])
        return "%s(%s)" % (fn, ", ".join(args))

    def expr(self):
        if self.depth > 4:
            return self.pick([self.pick(NUMBERS), self.pick(STRINGS), "true", "nil"])
        self.depth += 1
        try:
            r = self.rng.random()
            if r < 0.2:
                return self.number()
            if r < 0.4:
                return self.string()
            if r < 0.45:
                return self.pick(["true", "false", "nil"])
            if r < 0.55 and self.locals:
                return self.pick(self.locals)
            if r < 0.65:
                return self.table()
            if r < 0.75:
                return self.call()
            if r < 0.85:
                a, b = self.expr(), self.expr()
                return "(%s %s %s)" % (a, self.pick(["..", "==", "~=", "<", "<=", "and", "or",
                                                      "+", "*"]), b)
            return self.one([
                lambda: "type(%s)" % self.expr(), lambda: "not %s" % self.expr(),
                lambda: "string.upper(%s)" % self.string(),
                lambda: "string.sub(%s, %s, %s)" % (self.string(), self.pick(NUMBERS[:8]),
                                                    self.pick(NUMBERS[:8])),
                lambda: "string.format(%s, %s)" % (self.pick(['"%d"', '"%s"', '"%5.2f"', '"%x"',
                                                              '"%q"', '"[%s]"']), self.expr()),
                lambda: "redis.sha1hex(%s)" % self.string(),
                lambda: "cjson.encode(%s)" % self.expr(),
                lambda: "cmsgpack.pack(%s)" % self.expr(),
                lambda: "struct.pack('>i4', %s)" % self.number(),
                lambda: "bit.tohex(%s)" % self.number(),
                lambda: "tostring(%s)" % self.one([self.number, self.string, lambda: "true",
                                                   lambda: "nil"]),
                lambda: "table.concat({%s, %s}, %s)" % (self.string(), self.number(),
                                                        self.string()),
                # pcall(redis.call, "CMD", ...): the call's text without its parentheses
                lambda: "(select(2, pcall(%s)))" % self.call("redis.call")[:-1].replace(
                    "(", ", ", 1),
                lambda: "(pcall(function() %s end))" % self.block(1),
                lambda: "(select(2, pcall(function() %s end)))" % self.block(1),
            ])
        finally:
            self.depth -= 1

    # -- statements --
    def stmt(self, depth):
        r = self.rng.random()
        if r < 0.3 or not self.locals:
            name = "v%d" % len(self.locals)
            text = "local %s = %s" % (name, self.expr())
            self.locals.append(name)
            return text
        if r < 0.4:
            # the new value never reads a local: "v0 = v0 .. v0" in nested loops would grow
            # without bound
            name, saved, self.locals = self.pick(self.locals), self.locals, []
            try:
                return "%s = %s" % (name, self.expr())
            finally:
                self.locals = saved
        if r < 0.55:
            return self.call()
        if r < 0.65:
            return "acc[#acc + 1] = %s" % self.expr()
        if r < 0.75 and depth < 2:
            return "if %s then %s else %s end" % (self.expr(), self.block(depth + 1),
                                                  self.block(depth + 1))
        if r < 0.85 and depth < 2:
            return "for i%d = 1, %d do %s end" % (depth, self.rng.randrange(0, 12),
                                                   self.block(depth + 1))
        if r < 0.92:
            return "pcall(function() %s end)" % self.block(depth + 1)
        if r < 0.96:
            return "redis.setresp(%s)" % self.pick(["2", "3", "3", "4"])
        # error() only with a string, a number or an error_reply: never a table without "err"
        return "if %s then %s end" % (self.expr(), self.one([
            lambda: "error(%s)" % self.pick(STRINGS), lambda: "error(%s, 0)" % self.pick(STRINGS),
            lambda: "error(%s)" % self.pick(NUMBERS[:6]),
            lambda: "error(redis.error_reply(%s))" % self.pick(['"ERR fuzz"', '"MYERR x"',
                                                                '"no code"']),
            lambda: "assert(false, %s)" % self.pick(STRINGS),
            lambda: "assert(%s)" % self.pick(["false", "nil"])]))

    def block(self, depth):
        saved = len(self.locals)
        body = " ".join(self.stmt(depth) for _ in range(self.rng.randrange(1, 4)))
        del self.locals[saved:]  # a block's locals end with it
        return body

    def program(self):
        self.locals, self.loose = [], False
        lines = ["local acc = {}"]
        for _ in range(self.rng.randrange(1, 7)):
            lines.append(self.stmt(0))
        r = self.rng.random()
        if r < 0.3:
            lines.append("return acc")
        elif r < 0.9:
            lines.append("return %s" % self.expr())
        elif r < 0.95:
            lines.append("return %s, %s" % (self.expr(), self.expr()))
        # else: no return statement
        return "\n".join(lines)


# Mutations never insert digits or 'e'/'E'/'x' (numbers stay small, no "while"/"repeat") and
# never touch a for loop's header or a string.rep call (their bounds stay literal and small).
INSERT = [c for c in b" \t\n()[]{}.,;:=+-*/%^#<>~\"'\\abcdfghijklmnopqrstuvwyzABCDFGHIJKLMNOPQRST_"]
INSERT += [0, 0xff, 0x80]
PROTECTED = re.compile(r"for \w+ = [^d]* do|string\.rep\([^()]*\)")


def mutate(src, rng):
    data = bytearray(src.encode())
    guard = [(m.start(), m.end()) for m in PROTECTED.finditer(src)]  # ASCII: same offsets

    def free_until(i):
        """The end of the unprotected run at i (None when i is protected)."""
        for a, b in guard:
            if a <= i < b:
                return None
            if i < a:
                return a
        return len(data)

    # positions chosen in the original, applied from the end so earlier ones stay valid
    spots = sorted({rng.randrange(len(data)) for _ in range(rng.randrange(1, 4))} if data else (),
                   reverse=True)
    limit = len(data)  # a span never reaches the spot mutated before (after it in the text)
    for i in spots:
        end = free_until(i)
        if end is None:
            continue
        n = min(rng.randrange(1, 9), end - i, limit - i)
        limit = i
        op = rng.randrange(5)
        if op == 0:
            del data[i]
        elif op == 1:
            del data[i:i + n]
        elif op == 2:
            span = data[i:i + n]
            if not any(48 <= c <= 57 for c in span):
                data[i:i] = span
        elif op == 3:
            data.insert(i, rng.choice(INSERT))
        elif not 48 <= data[i] <= 57:
            data[i] = rng.choice(INSERT)
    return bytes(data)


def make_case(gen, rng, n):
    """One test case: (list of commands to send, loose). The last command's reply is compared;
    earlier ones are setup whose replies are compared too."""
    body = gen.program()
    loose = gen.loose
    keys = [rng.choice(KEYS).encode() for _ in range(2)]
    argv = [rng.choice([b"1", b"abc", b"", b"2.5", b"-3", b"\x00\xff", b"m1", b"10"])
            for _ in range(3)]
    mutated = rng.random() < 0.3
    form = rng.random()
    if form < 0.12:  # a library: body in a registered function
        fbody = body.replace("KEYS[", "keys[").replace("ARGV[", "args[")
        lib = "#!lua name=fz%d\nredis.register_function('fzf%d', function(keys, args)\n%s\nend)" % (
            n, n, fbody)
        code = mutate(lib, rng) if mutated else lib.encode()
        return [[b"FUNCTION", b"LOAD", code], [b"FCALL", b"fzf%d" % n, b"2"] + keys + argv,
                [b"FUNCTION", b"DELETE", b"fz%d" % n]], loose, code
    if form < 0.2:
        body = "#!lua flags=%s\n%s" % (rng.choice(["no-writes", "", "allow-oom"]), body)
    code = mutate(body, rng) if mutated else body.encode()
    cmd = b"EVAL_RO" if rng.random() < 0.08 else b"EVAL"
    numkeys = b"2" if rng.random() < 0.97 else rng.choice([b"-1", b"9", b"x"])
    return [[cmd, code, numkeys] + keys + argv], loose, code


def same(r, p, loose):
    (r_raw, r_rep), (p_raw, p_rep) = r, p
    if loose:
        return r_rep.kind == p_rep.kind
    return ADDRESS.sub(b"ADDR", r_raw) == ADDRESS.sub(b"ADDR", p_raw)


# ---- servers ----


def host_default_plugins(server_path):
    res = subprocess.run([server_path, "--help"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         timeout=30)
    lines = res.stdout.decode("utf-8", "replace").splitlines()
    for i, line in enumerate(lines):
        if line.startswith("Default plugins") and i + 1 < len(lines):
            return lines[i + 1].split()
    return []


def start_plinth(server_path):
    extra = []
    defaults = host_default_plugins(server_path)
    for name in NEEDED_PLUGINS:
        if name not in defaults or support.plugin_args(server_path):
            extra += ["--plugin", name]
    return support.start_plinth(server_path, list(support.PERSISTENCE_OFF) + extra)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--server", help="path of plinth-server")
    ap.add_argument("--redis", default="/usr/bin/redis-server")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=2000, help="scripts to run")
    ap.add_argument("--require-all-plugins", action="store_true",
                    help="fail instead of skipping when the scripting plugin is not built")
    ap.add_argument("--reference-only", action="store_true",
                    help="compare redis-server with a second redis-server (validates the fuzzer)")
    ap.add_argument("--show", type=int, default=0, help="print the first N scripts and replies")
    args = ap.parse_args()
    if not args.server and not args.reference_only:
        ap.error("--server or --reference-only is required")
    if not os.path.exists(args.redis):
        print("SKIP: %s is missing (apt-get install redis-server)" % args.redis)
        return support.SKIP
    if not args.reference_only:
        args.server = os.path.abspath(args.server)
        folder = support.plugin_dir(args.server)
        missing = [p for p in NEEDED_PLUGINS if not os.path.exists(os.path.join(folder, p + ".so"))]
        if missing:
            print("%s: plugin %s not built" % ("FAIL" if args.require_all_plugins else "SKIP",
                                               ",".join(missing)))
            return 1 if args.require_all_plugins else support.SKIP

    rng = random.Random(args.seed)
    gen = Gen(rng)
    redis = support.start_redis(args.redis)
    other = support.start_redis(args.redis) if args.reference_only else start_plinth(args.server)
    label = "redis2" if args.reference_only else "plinth"
    bad, crashes, ref_crashes, compared = 0, 0, 0, 0
    kinds = {}  # what the reference answered: a picture of what the run exercised
    try:
        r, p = support.RespConn(redis.port, 30.0), support.RespConn(other.port, 30.0)
        for n in range(args.count):
            if n == args.count // 2:  # the second half on RESP3 connections
                r.call("HELLO", "3")
                p.call("HELLO", "3")
            if n % 250 == 0:
                for c in (r, p):
                    c.call("FLUSHALL")
                    c.call("SCRIPT", "FLUSH")
                    c.call("FUNCTION", "FLUSH")
            cmds, loose, code = make_case(gen, rng, n)
            for cmd in cmds:
                try:
                    rr = r.call(*cmd)
                except (ConnectionError, OSError):
                    # the reference itself crashed (Redis 7.0 has crash bugs): not compared
                    ref_crashes += 1
                    print("NOTE: redis-server died on script #%d (not compared): %r" %
                          (n, code[:300]))
                    redis.stop()
                    redis = support.start_redis(args.redis)
                    r = support.RespConn(redis.port, 30.0)
                    p.call("FLUSHALL")
                    p.call("FUNCTION", "FLUSH")
                    if n >= args.count // 2:
                        r.call("HELLO", "3")
                    break
                try:
                    pr = p.call(*cmd)
                    pong = p.call("PING")
                except (ConnectionError, OSError) as e:
                    crashes += 1
                    print("FAIL [#%d] %s did not answer (%s) to: %r\n%s" % (
                        n, label, e, cmd[:2] + [b"..."], code.decode("latin-1")))
                    if other.alive():
                        print("  (the server is alive but unresponsive)")
                    else:
                        print(other.log()[-3000:])
                    return 1
                compared += 1
                what = rr[1].kind
                if rr[1].is_error():
                    what = "compile error" if b"Error compiling" in rr[0] else "error"
                kinds[what] = kinds.get(what, 0) + 1
                if n < args.show:
                    print("#%d %s\n  -> %s" % (n, code.decode("latin-1")[:400],
                                               support.show(rr[0], 200)))
                if pong[0] not in (b"+PONG\r\n",):
                    bad += 1
                    print("FAIL [#%d] PING after the script answered %s" %
                          (n, support.show(pong[0])))
                if not same(rr, pr, loose):
                    bad += 1
                    if bad <= 30:
                        print("MISMATCH [#%d] %s\n  script: %r\n  redis:  %s\n  %s: %s" % (
                            n, b" ".join(cmd[:1] + cmd[2:]).decode("latin-1")[:120], code[:600],
                            support.show(rr[0], 300), label, support.show(pr[0], 300)))
                    # resynchronise the data: the states may have diverged
                    for c in (r, p):
                        c.call("FLUSHALL")
                        c.call("FUNCTION", "FLUSH")
            if not other.alive():
                print("FAIL %s died after script #%d:\n%r\n%s" % (label, n, code[:600],
                                                                  other.log()[-3000:]))
                return 1
        r.close()
        p.close()
    finally:
        redis.stop()
        problem = other.stop_cleanly() if not args.reference_only else other.stop()
        if problem and not args.reference_only:
            print(problem)
            bad += 1
    print("reference replies: " + ", ".join("%s %d" % kv for kv in sorted(kinds.items())))
    verdict = "PASS" if bad + crashes == 0 else "FAIL"
    print("script fuzz: seed %d, %d scripts, %d replies compared, %d mismatches, %d crashes "
          "(%d reference crashes skipped): %s" % (args.seed, args.count, compared, bad, crashes,
                                                  ref_crashes, verdict))
    return 0 if bad + crashes == 0 else 1


if __name__ == "__main__":
    support.main_guard(main)
