#!/usr/bin/python3
"""Differential check of what access control knows about each command: for every command and
subcommand that Debian's redis-server 7.0 and plinth-server both have, the ACL categories
(COMMAND INFO element 7) and the read/write access of each key (Redis: COMMAND GETKEYSANDFLAGS
over a sample call; a key needs READ when its key spec says "access", WRITE when it says
"insert", "delete" or "update") must be the same. Also flags a subcommand that Plinth's container
runs but does not declare ("container|sub" metadata), since access control would then check the
container instead. A container's own categories are not compared: access control checks the
subcommand, and Plinth's container keeps the flags its dispatch needs. Every complexity Plinth's
COMMAND DOCS gives (plinth_command_spec_t.complexity, ABI 1.1) must be Redis's text.
Exit 0: no mismatch; 1: mismatches (each printed); 77: redis-server is missing."""

import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "clients"))

import support  # noqa: E402

# Sample calls for commands whose keys depend on the arguments (numkeys, keywords, options):
# each is run through COMMAND GETKEYSANDFLAGS on both servers.
SAMPLES = [
    "set k v", "set k v GET", "set k v NX GET",
    "sort k", "sort k BY w GET g STORE d", "sort_ro k BY w GET g",
    "eval s 2 k1 k2 a", "eval s 0", "evalsha s 1 k1 a", "eval_ro s 2 k1 k2", "evalsha_ro s 1 k1",
    "fcall f 2 k1 k2 a", "fcall_ro f 1 k1 a",
    "zunionstore d 2 k1 k2 WEIGHTS 1 2", "zinterstore d 2 k1 k2", "zdiffstore d 2 k1 k2",
    "zunion 2 k1 k2", "zinter 2 k1 k2 WITHSCORES", "zdiff 2 k1 k2", "zintercard 2 k1 k2",
    "sintercard 2 k1 k2 LIMIT 1", "lmpop 2 k1 k2 LEFT", "blmpop 0 2 k1 k2 LEFT COUNT 1",
    "zmpop 2 k1 k2 MIN", "bzmpop 0 2 k1 k2 MAX",
    "xread COUNT 1 STREAMS s1 s2 0 0", "xread STREAMS s1 0",
    "xreadgroup GROUP g c COUNT 1 STREAMS s1 s2 > >",
    "migrate h 1 k 0 5000", "migrate h 1 \"\" 0 5000 KEYS k1 k2",
    "georadius k 0 0 1 m STORE d", "georadius k 0 0 1 m STOREDIST d", "georadius k 0 0 1 m",
    "georadiusbymember k m 1 m STORE d", "georadiusbymember k m 1 m",
    "bitfield k GET u8 0", "bitfield k SET u8 0 1", "bitfield k INCRBY u8 0 1",
    "copy s d", "copy s d DB 1 REPLACE", "rename s d", "renamenx s d", "lmove s d LEFT RIGHT",
    "blmove s d LEFT RIGHT 0", "rpoplpush s d", "brpoplpush s d 0", "smove s d m",
    "sdiffstore d k1 k2", "sinterstore d k1 k2", "sunionstore d k1 k2", "pfmerge d k1 k2",
    "bitop AND d k1 k2", "bitop NOT d k1", "zrangestore d s 0 -1",
    "geosearchstore d s FROMMEMBER m BYRADIUS 1 m", "geosearchstore d s FROMMEMBER m BYRADIUS 1 m STOREDIST",
    "mset k1 v1 k2 v2", "msetnx k1 v1 k2 v2", "mget k1 k2", "del k1 k2", "unlink k1 k2",
    "exists k1 k2", "touch k1 k2", "watch k1 k2", "blpop k1 k2 0", "brpop k1 k2 0",
    "bzpopmin k1 k2 0", "bzpopmax k1 k2 0", "sdiff k1 k2", "sinter k1 k2", "sunion k1 k2",
    "pfcount k1 k2", "memory usage k SAMPLES 5", "object encoding k", "xinfo stream k FULL",
]


# Load order of the bundled plugins (plinth-server's defaults); those built in --plugin-dir load.
PLUGIN_ORDER = ["resp", "tcp", "connection", "server", "strings", "keys", "hash", "list", "set",
                "zset", "stream", "pubsub", "scripting", "reply_offload", "rdb", "aof",
                "replication", "diagnostics", "acl"]


def plugin_args(folder):
    """--plugin-dir folder and every bundled plugin built there, in load order."""
    have = [p for p in PLUGIN_ORDER if os.path.exists(os.path.join(folder, p + ".so"))]
    args = ["--no-default-plugins", "--plugin-dir", folder]
    for p in have:
        args += ["--plugin", p]
    return args


def words(text):
    """Splits a sample call; "" stands for an empty argument."""
    return [b"" if w == '""' else w.encode() for w in text.split()]


def value(r):
    """A Reply as plain Python: bytes to str, aggregates to lists, errors to ("error", text)."""
    if r.is_error():
        return ("error", r.data.decode("utf-8", "replace"))
    if isinstance(r.data, list):
        return [value(x) for x in r.data]
    return r.data.decode("utf-8", "replace") if isinstance(r.data, bytes) else r.data


def field(pairs, name):
    """The value after name in a flat [name, value, ...] list (a RESP2 key spec map)."""
    for i in range(0, len(pairs) - 1, 2):
        if pairs[i] == name:
            return pairs[i + 1]
    return None


def flatten(infos, out, parent=None):
    """name -> (COMMAND INFO entry, container name or None), subcommands included."""
    for info in infos:
        if not isinstance(info, list) or len(info) < 7:
            continue
        out[info[0].lower()] = (info, parent)
        if len(info) > 9 and isinstance(info[9], list):
            flatten(info[9], out, info[0].lower())
    return out


def commands(conn):
    return flatten(value(conn.call("COMMAND")[1]), {})


def access(flags):
    """(read, write) that Redis's ACL derives from key spec flags."""
    flags = {f.lower() for f in flags}
    return ("access" in flags, bool(flags & {"insert", "delete", "update"}))


def keys_and_flags(conn, argv):
    """[(key, read, write)] of argv by COMMAND GETKEYSANDFLAGS; [] when it has none (an error
    reply: Redis answers "The command has no key arguments")."""
    rep = value(conn.call(b"COMMAND", b"GETKEYSANDFLAGS", *argv)[1])
    if isinstance(rep, tuple):
        return []
    return [(k[0],) + access(k[1]) for k in rep]


def synthetic_calls(name, info):
    """Calls of a command whose keys sit at fixed positions: its name (and subcommand) and
    placeholder words, for a few lengths its arity allows."""
    head = [w.encode() for w in name.split("|")]
    arity = int(info[1])
    lengths = [arity] if arity > 0 else [-arity, -arity + 1, -arity + 2, -arity + 3]
    return [head + [b"a%d" % i for i in range(len(head), n)] for n in lengths if n >= len(head)]


def compare_keys(redis, plinth, name, info, problems):
    """Compares the keys of the first synthetic call Redis accepts."""
    if not info[8] or "movablekeys" in info[2]:
        return 0
    for argv in synthetic_calls(name, info):
        if value(redis.call(b"COMMAND", b"GETKEYS", *argv)[1]).__class__ is tuple:
            continue  # Redis refuses this length
        want = keys_and_flags(redis, argv)
        got = keys_and_flags(plinth, argv)
        if got != want:
            problems.append("%s: keys of %r: redis %s, plinth %s" %
                            (name, b" ".join(argv).decode(), want, got))
        return 1
    return 0


def declared_subcommand_missing(port, name, info):
    """True when Plinth's container runs subcommand name (it does not answer "unknown
    subcommand") though Plinth declares no metadata for it."""
    head = [w.encode() for w in name.split("|")]
    arity = abs(int(info[1]))
    argv = head + [b"a%d" % i for i in range(len(head), max(arity, len(head)))]
    try:
        with support.RespConn(port, timeout=3.0) as c:
            rep = c.call(*argv)[1]
    except (OSError, ConnectionError):
        return True
    text = rep.data.decode("utf-8", "replace").lower() if rep.is_error() and rep.data else ""
    return "unknown subcommand" not in text


def complexities(conn):
    """command name -> COMMAND DOCS complexity, for the commands that give one."""
    docs = value(conn.call("COMMAND", "DOCS")[1])
    out = {}
    for i in range(0, len(docs) - 1, 2):
        text = field(docs[i + 1], "complexity")
        if text is not None:
            out[docs[i].lower()] = text
    return out


def compare_complexity(redis, plinth, problems):
    """Compares each complexity Plinth gives with Redis's; returns how many it compared."""
    want, got = complexities(redis), complexities(plinth)
    for name, text in sorted(got.items()):
        if want.get(name) != text:
            problems.append("%s: COMMAND DOCS complexity %r, redis %r" % (name, text,
                                                                          want.get(name)))
    return len(got)


def check(redis, plinth, plinth_port, verbose):
    problems, notes = [], []
    want, got = commands(redis), commands(plinth)
    both = sorted(set(want) & set(got))
    cats = keyed = 0
    for name in both:
        rinfo, pinfo = want[name][0], got[name][0]
        is_container = len(rinfo) > 9 and bool(rinfo[9])
        if is_container:
            notes.append("%s: container, categories not compared (redis %s, plinth %s)" %
                         (name, " ".join(rinfo[6]), " ".join(pinfo[6])))
        else:
            cats += 1
            if sorted(rinfo[6]) != sorted(pinfo[6]):
                missing = sorted(set(rinfo[6]) - set(pinfo[6]))
                extra = sorted(set(pinfo[6]) - set(rinfo[6]))
                problems.append("%s: categories: plinth lacks %s, has extra %s" %
                                (name, missing, extra))
        keyed += compare_keys(redis, plinth, name, rinfo, problems)
    for text in SAMPLES:
        argv = words(text)
        if argv[0].decode() not in got:
            continue
        w, g = keys_and_flags(redis, argv), keys_and_flags(plinth, argv)
        keyed += 1
        if w != g:
            problems.append("keys of %r: redis %s, plinth %s" % (text, w, g))
    for name in sorted(set(want) - set(got)):
        parent = want[name][1]
        if parent and parent in got and declared_subcommand_missing(plinth_port, name,
                                                                     want[name][0]):
            problems.append("%s: %s runs it but declares no metadata for it" % (name, parent))
    documented = compare_complexity(redis, plinth, problems)
    print("compared %d commands and subcommands (%d by categories, %d key samples, %d "
          "complexities); redis only: %d, plinth only: %d" %
          (len(both), cats, keyed, documented, len(set(want) - set(got)),
           len(set(got) - set(want))))
    if verbose:
        for n in notes:
            print("note: " + n)
    for p in problems:
        print("MISMATCH " + p)
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--plinth-server", required=True, help="path of plinth-server")
    ap.add_argument("--plugin-dir", help="folder of the plugins (default: beside the binary)")
    ap.add_argument("--redis-server", default="/usr/bin/redis-server")
    ap.add_argument("-v", "--verbose", action="store_true", help="print notes too")
    args = ap.parse_args()
    if not os.path.exists(args.redis_server):
        print("SKIP: %s is missing" % args.redis_server)
        return support.SKIP
    plugin_dir = args.plugin_dir or support.plugin_dir(args.plinth_server)
    redis = support.start_redis(args.redis_server)
    plinth = support._start("plinth", lambda port: (
        [args.plinth_server, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
         "--appendonly", "no"] + plugin_args(plugin_dir), None))
    try:
        with support.RespConn(redis.port) as rc, support.RespConn(plinth.port) as pc:
            problems = check(rc, pc, plinth.port, args.verbose)
    finally:
        redis.stop()
        error = plinth.stop_cleanly()
    if error:
        print(error)
        return 1
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
