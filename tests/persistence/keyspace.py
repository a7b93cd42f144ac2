"""Keyspace helpers for the persistence tests: fill a server with every type and every
encoding Redis 7.0 has (with TTLs, in several databases), and read a whole keyspace back with
plain reads (no DUMP) into a dict that compares across servers. /usr/bin/python3 with
Debian's python3-redis. Test thread only."""

DATABASES = (0, 3, 15)


def fill(client, db_count=16):
    """Writes the sample dataset through client (redis-py, any server). Returns the number of
    keys written."""
    n = 0
    for db in DATABASES:
        if db >= db_count:
            continue
        client.execute_command("SELECT", db)
        p = "db%d:" % db
        cmds = [
            ("SET", p + "int", "12345"),
            ("SET", p + "negint", "-9223372036854775808"),
            ("SET", p + "embstr", "hello"),
            ("SET", p + "raw", "r" * 100),
            ("SET", p + "lzf", "abc" * 400),
            ("SET", p + "binary", b"\x00\xff\r\n\x01" * 7),
            ("SET", p + "empty", ""),
            ("SET", p + "ttl", "soon", "PX", "600000"),
            ("RPUSH", p + "list:small", "a", "1", "-7", "b" * 70),
            ("RPUSH", p + "list:big") + tuple(str(i) for i in range(3000)),
            ("RPUSH", p + "list:plain", "x" * 9000, "y"),
            ("SADD", p + "set:intset", "1", "2", "3", "-40000", "5000000000"),
            ("SADD", p + "set:strings", "a", "b", "c"),
            ("SADD", p + "set:bigint") + tuple(str(i) for i in range(600)),
            ("HSET", p + "hash:small", "f1", "v1", "f2", "2", "f3", ""),
            ("HSET", p + "hash:bigvalue", "f", "v" * 100),
            ("HSET", p + "hash:big") + tuple(x for i in range(300) for x in ("f%d" % i, str(i))),
            ("ZADD", p + "zset:small", "1", "a", "2.5", "b", "-inf", "c", "inf", "d"),
            ("ZADD", p + "zset:big") + tuple(x for i in range(300) for x in (str(i / 7), "m%d" % i)),
            ("ZADD", p + "zset:bigmember", "1", "m" * 100),
        ]
        for c in cmds:
            client.execute_command(*c)
            n += 1
        for key in (p + "hash:small", p + "zset:big", p + "list:big"):
            client.execute_command("PEXPIRE", key, "900000")
    client.execute_command("SELECT", 0)
    return n


def dump(client, db_count=16):
    """The whole keyspace as {(db, key): (type, value, has_ttl)}: strings as bytes, lists as
    lists, sets as sorted lists, hashes as sorted item lists, sorted sets as (member, score)
    lists in order. TTLs compare as present or not (their values move with time)."""
    out = {}
    for db in range(db_count):
        client.execute_command("SELECT", db)
        for key in client.scan_iter(count=1000):
            t = client.type(key).decode()
            if t == "string":
                v = client.get(key)
            elif t == "list":
                v = client.lrange(key, 0, -1)
            elif t == "set":
                v = sorted(client.smembers(key))
            elif t == "hash":
                v = sorted(client.hgetall(key).items())
            elif t == "zset":
                v = client.zrange(key, 0, -1, withscores=True)
            else:
                v = None
            out[(db, key)] = (t, v, client.pttl(key) > 0)
    client.execute_command("SELECT", 0)
    return out


def diff(a, b, limit=5):
    """A short text naming the first keys that differ between two dumps, or ""."""
    lines = []
    for k in sorted(set(a) | set(b), key=repr):
        if a.get(k) != b.get(k):
            lines.append("%r: %r != %r" % (k, str(a.get(k))[:120], str(b.get(k))[:120]))
            if len(lines) >= limit:
                break
    return "\n".join(lines)
