#!/usr/bin/python3
"""Hostile scripts against a real plinth-server (issue 31 items 1 and 7): precompiled bytecode
at every entry point of script text, and the published triggers of Redis's Lua CVEs. Each case
must get its expected reply (an error for all but bit.tohex, which Redis's fix answers) and the
server must answer PING after it. Cases that Debian's redis-server 7.0.15 answers (it crashes or
hangs on the others) also run against it when it is installed, and must give the same bytes.
Exit 0 pass, 1 fail."""

import argparse
import hashlib
import os
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "clients"))

import support  # noqa: E402

# string.dump(function() return 'x' end) as Debian's redis-server 7.0.15 returns it: the issue's
# attack sends these bytes back as a script. Lua 5.1 bytecode for x86-64, as the sandbox's Lua
# would undump it.
BYTECODE = bytes.fromhex(
    "1b4c756151000104080408000d0000000000000040757365725f7363726970740001000000010000000000"
    "000203000000010000001e0000011e00800001000000040200000000000000780000000000030000000100"
    "000001000000010000000000000000000000")
NEAR_ESC = b"unexpected symbol near 'char(27)'"
COMPILE = b"-ERR Error compiling script (new function): user_script:1: " + NEAR_ESC + b"\r\n"

# CVE-2022-24834: lua-cjson reserves len * 6 + 2 bytes in int; from this length on it wraps.
CJSON_WRAP = (2**31 - 2) // 6 + 1


def bulk(b):
    return b"$%d\r\n%s\r\n" % (len(b), b)


def script_error(script, what):
    """Redis's reply to a script that raised what on its line 1."""
    sha = hashlib.sha1(script.encode()).hexdigest().encode()
    return b"-ERR user_script:1: %s script: %s, on @user_script:1.\r\n" % (what, sha)


def run_error(script, what):
    sha = hashlib.sha1(script.encode()).hexdigest().encode()
    return b"-ERR Error running script %s, %s\r\n" % (sha, what)


def case(name, argv, want, redis=True):
    """argv: the command; want: the exact reply bytes; redis: redis-server gives it too."""
    return (name, argv, want, redis)


def evalc(name, script, want, redis=True, args=()):
    return case(name, ["EVAL", script, "0"] + list(args), want, redis)


def deep_nest(n):
    t = "local t = {} local c = t for i = 1, %d do c[1] = {} c = c[1] end " % n
    return t


VARARG = ("local p = {} for i = 1, 150 do p[i] = 'a' .. i end "
          "local f = loadstring('return function(' .. table.concat(p, ',') .. ', ...) "
          "return select(\"#\", ...) end')() return f()")

CASES = [
    # ---- item 1: bytecode, wherever script text enters ----
    evalc("issue 31: string.dump is gone",
          "return string.dump(function() return 'x' end)",
          script_error("return string.dump(function() return 'x' end)",
                       b"attempt to call field 'dump' (a nil value)"), redis=False),
    case("EVAL of bytecode", ["EVAL", BYTECODE, "0"], COMPILE),
    case("EVAL_RO of bytecode", ["EVAL_RO", BYTECODE, "0"], COMPILE),
    case("SCRIPT LOAD of bytecode", ["SCRIPT", "LOAD", BYTECODE], COMPILE),
    case("EVALSHA of the bytecode's sha", ["EVALSHA", hashlib.sha1(BYTECODE).hexdigest(), "0"],
         b"-NOSCRIPT No matching script. Please use EVAL.\r\n"),
    case("FUNCTION LOAD of bytecode", ["FUNCTION", "LOAD", b"#!lua name=x\n" + BYTECODE],
         b"-ERR Error compiling function: user_function:2: " + NEAR_ESC + b"\r\n"),
    evalc("loadstring of bytecode", "local f, e = loadstring(ARGV[1]) return {type(f), e}",
          b"*2\r\n" + bulk(b"nil") + bulk(b'[string "\x1bLuaQ"]:1: ' + NEAR_ESC),
          args=[BYTECODE]),
    evalc("load of bytecode",
          "local i = 0 local f, e = load(function() i = i + 1 if i == 1 then return ARGV[1] "
          "end end) return {type(f), e}",
          b"*2\r\n" + bulk(b"nil") + bulk(b"(load):1: " + NEAR_ESC), args=[BYTECODE]),
    # ---- item 7: the libraries' and Lua's published triggers ----
    evalc("CVE-2024-31449 bit.tohex", "return bit.tohex(65535, -2147483648)", bulk(b"0000FFFF")),
    evalc("CVE-2025-46817 unpack", "return unpack({1, 2, 3}, -2, 2147483647)",
          script_error("return unpack({1, 2, 3}, -2, 2147483647)",
                       b"too many results to unpack")),
    evalc("CVE-2025-46817 unpack INT_MIN..INT_MAX", "return unpack({}, -2147483648, 2147483647)",
          script_error("return unpack({}, -2147483648, 2147483647)",
                       b"too many results to unpack")),
    evalc("CVE-2021-32626 unpack 1e8", "return unpack({}, 1, 1e8)",
          script_error("return unpack({}, 1, 1e8)", b"too many results to unpack")),
    evalc("CVE-2021-32626 redis.call argument count",
          "local t = {} for i = 1, 1000000 do t[i] = 'x' end return redis.call('del', unpack(t))",
          script_error("local t = {} for i = 1, 1000000 do t[i] = 'x' end return "
                       "redis.call('del', unpack(t))", b"too many results to unpack")),
    evalc("CVE-2021-32626 cmsgpack.unpack values",
          "return #{cmsgpack.unpack(string.rep(string.char(1), 1000000))}",
          script_error("return #{cmsgpack.unpack(string.rep(string.char(1), 1000000))}",
                       b"stack overflow (too many return values at once; use unpack_one or "
                       b"unpack_limit instead.)")),
    evalc("CVE-2021-32626 cmsgpack.unpack nesting",
          "return cmsgpack.unpack(string.rep(string.char(0x91), 100000) .. string.char(1))",
          script_error("return cmsgpack.unpack(string.rep(string.char(0x91), 100000) .. "
                       "string.char(1))",
                       b"stack overflow (in function mp_decode_to_lua_array)")),
    evalc("CVE-2021-32626 struct.unpack values",
          "return #{struct.unpack(string.rep('b', 8000), string.rep('x', 8000))}",
          script_error("return #{struct.unpack(string.rep('b', 8000), string.rep('x', 8000))}",
                       b"stack overflow (too many results)")),
    evalc("CVE-2018-11218 cmsgpack.pack arguments", "return cmsgpack.pack(unpack({}, 1, 7000))",
          script_error("return cmsgpack.pack(unpack({}, 1, 7000))",
                       b"bad argument #0 to 'pack' (Too many arguments for MessagePack pack.)")),
    evalc("CVE-2018-11219 struct.pack size", "return struct.pack('i2147483647', 1)",
          script_error("return struct.pack('i2147483647', 1)",
                       b"integral size 2147483647 is larger than limit of 32")),
    evalc("CVE-2020-14147 struct size overflow", "return struct.pack('c4294967296', 'x')",
          script_error("return struct.pack('c4294967296', 'x')", b"integral size overflow")),
    evalc("CVE-2020-14147 struct.size overflow", "return struct.size('c99999999999999999999')",
          script_error("return struct.size('c99999999999999999999')", b"integral size overflow")),
    evalc("cjson.decode nesting", "return cjson.decode(string.rep('[', 100000))",
          script_error("return cjson.decode(string.rep('[', 100000))",
                       b"Found too many nested data structures (1001) at character 1001")),
    evalc("cjson.encode nesting", deep_nest(10000) + "return cjson.encode(t)",
          script_error(deep_nest(10000) + "return cjson.encode(t)",
                       b"Cannot serialise, excessive nesting (1001)")),
    evalc("CVE-2022-24834 cjson.encode buffer past 2 GiB",
          "cjson.encode_sparse_array(true, 0) return cjson.encode({[2^29] = 1})",
          script_error("cjson.encode_sparse_array(true, 0) return cjson.encode({[2^29] = 1})",
                       b"Cannot serialise, the encoding could exceed 1072693247 bytes"),
          redis=False),
    evalc("parser nesting (", "return " + "(" * 10000 + "1" + ")" * 10000,
          b"-ERR Error compiling script (new function): user_script:1: chunk has too many syntax "
          b"levels\r\n"),
    evalc("parser nesting {", "return " + "{" * 10000 + "}" * 10000,
          b"-ERR Error compiling script (new function): user_script:1: chunk has too many syntax "
          b"levels\r\n"),
    evalc("loadstring nesting", "return select(2, loadstring(string.rep('(', 10000)))",
          bulk(b'[string "' + b"(" * 63 + b'..."]:1: chunk has too many syntax levels')),
    evalc("Lua stack overflow", "local function f(n) return f(n + 1) + 1 end return f(1)",
          script_error("local function f(n) return f(n + 1) + 1 end return f(1)",
                       b"stack overflow")),
    evalc("C stack: __tostring recursion",
          "return tostring(setmetatable({}, {__tostring = function(t) return tostring(t) end}))",
          b"-ERR C stack overflow script: %s, on @user_script:1.\r\n" % hashlib.sha1(
              b"return tostring(setmetatable({}, {__tostring = function(t) return tostring(t) "
              b"end}))").hexdigest().encode()),
    evalc("CVE-2014-5461 vararg with many fixed parameters", VARARG, b":0\r\n"),
    evalc("CVE-2025-49844 reader collecting garbage while parsing",
          "local p = {'return ', '6'} local i = 0 return load(function() i = i + 1 "
          "collectgarbage() collectgarbage() return p[i] end)()", b":6\r\n"),
    # Where redis-server 7.0.15 crashes (C stack) or stalls, Plinth answers at once.
    evalc("pattern recursion (crashes redis-server)",
          "return string.find(string.rep('a', 500000), string.rep('a-', 500000) .. 'b')",
          script_error("return string.find(string.rep('a', 500000), string.rep('a-', 500000) .. "
                       "'b')", b"pattern too complex"), redis=False),
    evalc("string.rep of 2^31 bytes", "return string.rep('x', 2147483647)",
          run_error("return string.rep('x', 2147483647)", b"not enough memory"), redis=False),
    evalc("string.rep of nothing 2^31 times", "return string.rep('', 2147483647)", bulk(b""),
          redis=False),
    evalc("doubling concatenation",
          "local s = string.rep('x', 2^20) for i = 1, 12 do s = s .. s end return #s",
          run_error("local s = string.rep('x', 2^20) for i = 1, 12 do s = s .. s end return #s",
                    b"not enough memory"), redis=False),
    evalc("table.concat past the cap",
          "local s = string.rep('x', 2^20) local t = {} for i = 1, 1500 do t[i] = s end "
          "return #table.concat(t)",
          run_error("local s = string.rep('x', 2^20) local t = {} for i = 1, 1500 do t[i] = s "
                    "end return #table.concat(t)", b"not enough memory"), redis=False),
    evalc("table.insert at -2^31 (spins 2^31 times in redis-server)",
          "local t = {} table.insert(t, -2147483648, 1) return #t",
          script_error("local t = {} table.insert(t, -2147483648, 1) return #t",
                       b"bad argument #2 to 'insert' (position out of bounds)"), redis=False),
    evalc("cmsgpack.pack past the cap",
          "local s = string.rep('x', 2^20) local t = {} for i = 1, 3000 do t[i] = s end "
          "return #cmsgpack.pack(t)",
          run_error("local s = string.rep('x', 2^20) local t = {} for i = 1, 3000 do t[i] = s "
                    "end return #cmsgpack.pack(t)", b"not enough memory"), redis=False),
    evalc("CVE-2025-46819 chunk past 1 GiB (an int in Lua 5.1's lexer)",
          "local piece = string.rep(string.rep('=', 1024), 1024) local n = 0 "
          "local f, e = load(function() n = n + 1 if n == 1 then return '--[[' end "
          "if n <= 1026 then return piece end end) return e",
          b"-ERR user_script:1: chunk too large (more than 1073741824 bytes)\r\n", redis=False),
]


def run_cases(port, cases, log):
    """Runs cases on the server at port; returns the failures."""
    failures = []
    for name, argv, want, _ in cases:
        with support.RespConn(port, timeout=120) as c:
            start = time.monotonic()
            try:
                raw, _ = c.call(*argv)
            except (ConnectionError, OSError) as e:
                raw = ("no reply: %s" % e).encode()
            took = time.monotonic() - start
        ok = raw == want
        log("%-4s %-60s %.2fs" % ("ok" if ok else "FAIL", name, took))
        if not ok:
            failures.append("%s: want %s, got %s" % (name, support.show(want), support.show(raw)))
        try:
            with support.RespConn(port, timeout=10) as c:
                pong = c.call("PING")[0]
        except (ConnectionError, OSError) as e:
            pong = ("no reply: %s" % e).encode()
        if pong != b"+PONG\r\n":
            failures.append("%s: PING after it got %s" % (name, support.show(pong)))
            break
    return failures


def cjson_wrap_case(port, log):
    """CVE-2022-24834 with its published size: a string argument of CJSON_WRAP bytes (within
    proto-max-bulk-len and the memory cap) to cjson.encode, which wraps its buffer size."""
    script = "return #cjson.encode(ARGV[1])"
    want = script_error(script, b"Cannot serialise, the encoding could exceed 1072693247 bytes")
    with support.RespConn(port, timeout=120) as c:
        raw = c.call("EVAL", script, "0", b"x" * CJSON_WRAP)[0]
        pong = c.call("PING")[0]
    log("%-4s %-60s" % ("ok" if raw == want else "FAIL", "CVE-2022-24834 cjson.encode of %d "
                        "bytes" % CJSON_WRAP))
    failures = [] if raw == want else ["cjson wrap: got %s" % support.show(raw)]
    if pong != b"+PONG\r\n":
        failures.append("cjson wrap: PING after it got %s" % support.show(pong))
    return failures


def flush_while_busy(port):
    """CVE-2024-46981's ground: the states are never reset under a running script. While a
    script runs past busy-reply-threshold, SCRIPT FLUSH and FUNCTION FLUSH get -BUSY; after
    SCRIPT KILL, flushes between scripts leave the server serving. Returns what was seen."""
    seen = []
    runner = support.RespConn(port, timeout=30)
    box = {}
    t = threading.Thread(target=lambda: box.update(r=runner.call(
        "EVAL", "local t = {} while true do t[#t % 100 + 1] = cmsgpack.pack({1, 2}) end", "0")[0]))
    t.start()
    with support.RespConn(port, timeout=10) as other:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            raw = other.call("SCRIPT", "FLUSH")[0]
            if raw.startswith(b"-BUSY"):
                break
            time.sleep(0.05)
        seen.append(raw)
        seen.append(other.call("FUNCTION", "FLUSH")[0])
        seen.append(other.call("SCRIPT", "KILL")[0])
        t.join(30)
        seen.append(box.get("r", b"no reply"))
        for mode in ("SYNC", "ASYNC", "SYNC"):
            seen.append(other.call("EVAL", "for i = 1, 100 do cmsgpack.pack({i}) end return 1",
                                   "0")[0])
            seen.append(other.call("SCRIPT", "FLUSH", mode)[0])
        seen.append(other.call("PING")[0])
    runner.close()
    return seen


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--server", required=True)
    ap.add_argument("--redis", default="/usr/bin/redis-server")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args()
    log = (lambda s: None) if args.quiet else print
    extra = ("--busy-reply-threshold", "100")
    failures = []
    srv = support.start_plinth(args.server, extra=extra)
    try:
        failures += run_cases(srv.port, CASES, log)
        failures += cjson_wrap_case(srv.port, log)
        plinth_busy = flush_while_busy(srv.port)
        log("busy flush: %r" % plinth_busy)
        if not srv.alive():
            failures.append("plinth-server exited:\n" + srv.log()[-3000:])
    finally:
        problem = srv.stop_cleanly()
        if problem:
            failures.append(problem)
    if os.path.exists(args.redis):
        log("-- the same cases against %s --" % args.redis)
        ref = support.start_redis(args.redis, extra=extra)
        try:
            failures += ["redis-server: " + f for f in
                         run_cases(ref.port, [c for c in CASES if c[3]], log)]
            redis_busy = flush_while_busy(ref.port)
            if redis_busy != plinth_busy:
                failures.append("busy flush differs: redis %r, plinth %r" %
                                (redis_busy, plinth_busy))
        finally:
            ref.stop()
    for f in failures:
        print("FAIL: " + f)
    if failures:
        return 1
    print("PASS: %d cases" % (len(CASES) + 1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
