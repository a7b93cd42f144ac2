#!/usr/bin/python3
"""Command-level differential fuzz: generates commands of the standard types (strings, hashes,
lists, sets, sorted sets, generic keys and transactions) from templates, mutates their argument
lists (an argument dropped, repeated, inserted or replaced by an edge case: negative, huge, not
a number, inf, an empty or binary string), sends each to a fresh Debian redis-server and a fresh
plinth-server, and requires the same reply (unordered replies compared as sets). Keys and
members come from small pools so the commands meet each other's values, wrong types and every
encoding threshold. A fixed seed makes a run repeatable.
Exit 0: all equal; 1: a mismatch (each printed with the commands that led to it); 77:
redis-server is missing."""

import argparse
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "clients"))

import run  # noqa: E402  (canon)
import support  # noqa: E402

KEYS = [b"k%d" % i for i in range(6)]
EDGE = [b"", b"0", b"-1", b"1", b"-0", b"+1", b"007", b"9223372036854775807",
        b"-9223372036854775808", b"9223372036854775808", b"1e400", b"inf", b"-inf", b"+inf",
        b"nan", b"1.5", b"(1", b"[a", b"-", b"+", b"abc", b"\x00\xff", b"x" * 70]

# Generators of one argument, by the letter a template uses.
def _member(rng):
    r = rng.random()
    if r < 0.6:
        return b"m%d" % rng.randrange(12)
    if r < 0.85:
        return b"%d" % rng.randrange(-20, 600)
    return rng.choice([b"x" * rng.randrange(60, 80), b"\x00bin\xff", b""])


GEN = {
    "K": lambda rng: rng.choice(KEYS),
    "M": _member,
    "V": lambda rng: rng.choice([b"v", b"12", b"-3", b"1.5", b"x" * 70, b""]),
    "I": lambda rng: b"%d" % rng.choice([0, 1, 2, 3, -1, -2, 5, 10, 100, 1000, -100]),
    "D": lambda rng: rng.choice([b"0", b"1", b"-1", b"2.5", b"1e3", b"-inf", b"+inf", b"3"]),
    "S": lambda rng: rng.choice([b"0", b"1", b"(1", b"5", b"(5", b"-inf", b"+inf", b"-1"]),
    "L": lambda rng: rng.choice([b"-", b"+", b"[m1", b"(m3", b"[m9", b"(a", b"[z"]),
}

# name -> templates; a template is a list of tokens: a GEN letter, "*X" (one to four of X), or
# a literal. Replies of commands in UNORDERED are compared as sets.
FAMILIES = {
    "strings": ["SET K V", "GET K", "APPEND K V", "INCR K", "INCRBY K I", "STRLEN K",
                "GETRANGE K I I", "SETRANGE K I V", "MSET K V K V", "MGET *K", "GETDEL K"],
    "hash": ["HSET K *MV", "HSETNX K M V", "HGET K M", "HMGET K *M", "HDEL K *M", "HEXISTS K M",
             "HLEN K", "HSTRLEN K M", "HKEYS K", "HVALS K", "HGETALL K", "HINCRBY K M I",
             "HINCRBYFLOAT K M D", "HMSET K M V"],
    "list": ["LPUSH K *M", "RPUSH K *M", "LPUSHX K M", "RPUSHX K M", "LPOP K", "RPOP K",
             "LPOP K I", "LLEN K", "LRANGE K I I", "LINDEX K I", "LSET K I M",
             "LINSERT K BEFORE M M", "LINSERT K AFTER M M", "LREM K I M", "LTRIM K I I",
             "LPOS K M", "LPOS K M RANK I COUNT I", "LMOVE K K LEFT RIGHT",
             "RPOPLPUSH K K", "LMPOP I *K LEFT COUNT I"],
    "set": ["SADD K *M", "SREM K *M", "SMEMBERS K", "SISMEMBER K M", "SMISMEMBER K *M",
            "SCARD K", "SMOVE K K M", "SINTER *K", "SINTERCARD I *K", "SUNION *K", "SDIFF *K",
            "SINTERSTORE K *K", "SUNIONSTORE K *K", "SDIFFSTORE K *K"],
    "zset": ["ZADD K *DM", "ZADD K NX D M", "ZADD K XX CH D M", "ZADD K GT D M", "ZADD K LT D M",
             "ZADD K INCR D M", "ZINCRBY K D M", "ZREM K *M", "ZSCORE K M", "ZMSCORE K *M",
             "ZCARD K", "ZCOUNT K S S", "ZRANGE K I I",
             "ZRANGE K I I WITHSCORES", "ZRANGE K S S BYSCORE",
             "ZRANGE K I I REV", "ZRANGE K S S BYSCORE LIMIT I I", "ZRANGEBYSCORE K S S",
             "ZREVRANGEBYSCORE K S S WITHSCORES", "ZREVRANGE K I I",
             "ZRANK K M", "ZREVRANK K M", "ZPOPMIN K", "ZPOPMAX K I", "ZREMRANGEBYSCORE K S S",
             "ZREMRANGEBYRANK K I I", "ZUNIONSTORE K I *K",
             "ZINTERSTORE K I *K", "ZDIFFSTORE K I *K", "ZUNION I *K WITHSCORES",
             "ZINTER I *K", "ZDIFF I *K", "ZINTERCARD I *K", "ZRANGESTORE K K I I",
             "ZMPOP I *K MIN COUNT I",
             # lex ranges are defined only when every score is equal: one key, score 0
             "ZADD lex 0 M", "ZLEXCOUNT lex L L", "ZRANGE lex L L BYLEX", "ZRANGEBYLEX lex L L",
             "ZREVRANGEBYLEX lex L L", "ZREMRANGEBYLEX lex L L", "ZRANGE lex L L BYLEX REV LIMIT I I"],
    "keys": ["DEL *K", "EXISTS *K", "TYPE K", "RENAME K K", "RENAMENX K K", "COPY K K",
             "COPY K K REPLACE", "OBJECT ENCODING K", "EXPIRE K I", "PERSIST K",
             "UNLINK K"],
    "multi": ["MULTI", "EXEC", "DISCARD"],
}
UNORDERED = {b"SMEMBERS", b"SINTER", b"SUNION", b"SDIFF", b"HKEYS", b"HVALS", b"HGETALL"}
REQUIRES = {"hash": "hash", "list": "list", "set": "set", "zset": "zset"}


def expand(template, rng):
    args = []
    for tok in template.split():
        if tok.startswith("*"):
            for _ in range(rng.randrange(1, 5)):
                args.extend(GEN[c](rng) for c in tok[1:])
        elif tok in GEN:
            args.append(GEN[tok](rng))
        else:
            args.append(tok.encode())
    return args


def mutate(args, rng):
    args = list(args)
    what = rng.randrange(4)
    i = rng.randrange(1, len(args)) if len(args) > 1 else 0
    if what == 0 and len(args) > 1:
        del args[i]
    elif what == 1:
        args.insert(i, args[i])
    elif what == 2:
        args.insert(rng.randrange(1, len(args) + 1), rng.choice(EDGE))
    elif len(args) > 1:
        args[i] = rng.choice(EDGE)
    return args


def same(cmd, r, p):
    (r_raw, r_rep), (p_raw, p_rep) = r, p
    if r_raw == p_raw:
        return True
    sort = cmd[0].upper() in UNORDERED
    return sort and run.canon(r_rep, True) == run.canon(p_rep, True)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--server", required=True, help="path of plinth-server")
    ap.add_argument("--redis", default="/usr/bin/redis-server")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=4000, help="commands per family")
    ap.add_argument("--mutate", type=float, default=0.3, help="share of mutated commands")
    ap.add_argument("--family", action="append", help="only these families")
    ap.add_argument("--require-all-plugins", action="store_true")
    args = ap.parse_args()
    if not os.path.exists(args.redis):
        print("SKIP: %s is missing (apt-get install redis-server)" % args.redis)
        return support.SKIP
    have = set(support.available_plugins(args.server))
    families = args.family or list(FAMILIES)
    missing = [f for f in families if REQUIRES.get(f, "keys") not in have]
    if missing and args.require_all_plugins:
        print("FAIL: plugins missing for %s" % ", ".join(missing))
        return 1
    families = [f for f in families if f not in missing]
    rng = random.Random(args.seed)
    bad = 0
    redis = support.start_redis(args.redis)
    plinth = support.start_plinth(args.server, support.PERSISTENCE_OFF)
    try:
        r, p = support.RespConn(redis.port), support.RespConn(plinth.port)
        for fam in families:
            # each family alone, then mixed with strings and keys so types meet
            mix = FAMILIES[fam] + (FAMILIES["strings"][:3] + FAMILIES["keys"]
                                   if fam not in ("strings", "keys") else [])
            if fam == "multi":  # a container's subcommand is checked when it runs, not queued
                mix = [t for t in mix if not t.startswith("OBJECT")]
            history = []
            r.call(b"FLUSHALL")
            p.call(b"FLUSHALL")
            for n in range(args.count):
                cmd = expand(rng.choice(mix), rng)
                if rng.random() < args.mutate:
                    cmd = mutate(cmd, rng)
                history = (history + [cmd])[-8:]
                rr, pr = r.call(*cmd), p.call(*cmd)
                if not same(cmd, rr, pr):
                    bad += 1
                    print("MISMATCH [%s #%d] %s\n  redis:  %s\n  plinth: %s\n  after: %s" %
                          (fam, n, b" ".join(cmd)[:200], support.show(rr[0], 300),
                           support.show(pr[0], 300),
                           " | ".join(b" ".join(c).decode("latin-1")[:80] for c in history[:-1])))
                    # resynchronise: the states may have diverged
                    for c in (r, p):
                        c.call(b"DISCARD")
                        c.call(b"FLUSHALL")
                    if bad >= 50:
                        break
                if not plinth.alive():
                    print("plinth-server died:\n" + plinth.log()[-2000:])
                    return 1
            print("family %-8s %5d commands" % (fam, args.count))
        r.close()
        p.close()
    finally:
        redis.stop()
        problem = plinth.stop_cleanly()
        if problem:
            print(problem)
            bad += 1
    print("fuzz: seed %d, %d families, %d mismatches: %s" %
          (args.seed, len(families), bad, "PASS" if bad == 0 else "FAIL"))
    return 0 if bad == 0 else 1


if __name__ == "__main__":
    support.main_guard(main)
