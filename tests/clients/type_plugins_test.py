#!/usr/bin/python3
"""The type plugins (hash, list, set, zset) and pubsub as a third party's would be: each loads
alone into plinth-server (with only resp, tcp and connection) and serves its commands while the
others' commands are unknown; each .so exports exactly one symbol; each type plugin includes
only SDK headers, the C++ standard library and files of its own folder."""

import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import support  # noqa: E402
from support import expect, expect_eq  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))
# plugin -> (a command it serves and its reply, a command of another plugin)
PLUGINS = {
    "hash": ((b"HSET", b"h", b"f", b"v"), b":1\r\n"),
    "list": ((b"LPUSH", b"l", b"a"), b":1\r\n"),
    "set": ((b"SADD", b"s", b"a"), b":1\r\n"),
    "zset": ((b"ZADD", b"z", b"1", b"a"), b":1\r\n"),
    "pubsub": ((b"PUBLISH", b"ch", b"m"), b":0\r\n"),
}
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)

checks = support.Checks(__doc__)


def plugin_path(server, name):
    return os.path.join(support.plugin_dir(server), name + ".so")


@checks.check("hash", "list", "set", "zset", "pubsub")
def each_loads_alone(port):
    server = checks.args.server
    if not server:
        raise support.Skipped("needs --server (plinth-server's own plugins)")
    for name, (cmd, reply) in PLUGINS.items():
        extra = ["--no-default-plugins", "--plugin", "resp", "--plugin", "tcp", "--plugin",
                 "connection", "--plugin", name]
        with support.start_plinth(server, extra) as s:
            with support.RespConn(s.port) as c:
                raw, _ = c.call(*cmd)
                expect_eq(raw, reply, "%s alone serves %s" % (name, cmd[0].decode()))
                for other, (ocmd, _) in PLUGINS.items():
                    if other == name:
                        continue
                    raw, rep = c.call(*ocmd)
                    expect(rep.is_error() and b"unknown command" in raw,
                           "without %s, %s is an unknown command" % (other, ocmd[0].decode()),
                           raw)


@checks.check("hash", "list", "set", "zset", "pubsub")
def each_exports_one_symbol(port):
    nm = shutil.which("nm")
    if not nm or not checks.args.server:
        raise support.Skipped("needs nm and --server")
    for name in PLUGINS:
        out = subprocess.run([nm, "-D", "--defined-only", plugin_path(checks.args.server, name)],
                             capture_output=True, text=True, check=True).stdout
        symbols = sorted(line.split()[-1] for line in out.splitlines() if line.strip())
        expect_eq(symbols, ["plinth_plugin_entry_v1"], "%s.so exports" % name)


@checks.check()
def each_type_includes_only_the_sdk(port):
    for name in ("hash", "list", "set", "zset"):
        folder = os.path.join(ROOT, "plugins", name)
        own = set(os.listdir(folder))
        for f in sorted(own):
            if not f.endswith((".h", ".cc")):
                continue
            with open(os.path.join(folder, f)) as src:
                for kind, path in INCLUDE.findall(src.read()):
                    if kind == '"':  # spelled from plugins/: "<name>/<file>"
                        expect(path.startswith(name + "/") and path[len(name) + 1:] in own,
                               "%s/%s includes its own files only" % (name, f), path)
                    else:
                        expect("/" not in path or path.startswith("plinth/"),
                               "%s/%s includes SDK or standard headers only" % (name, f), path)


if __name__ == "__main__":
    support.main_guard(checks.run)
