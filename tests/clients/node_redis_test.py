#!/usr/bin/python3
"""node-redis (Debian's node-redis v4, run with node) against a real plinth-server: the
typical-application smoke in node_redis_smoke.js. Skips when node or node-redis is missing."""

import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import support  # noqa: E402
from support import expect  # noqa: E402

NODE = shutil.which("node") or shutil.which("nodejs")
MODULES = "/usr/share/nodejs"
if not NODE or not os.path.isdir(os.path.join(MODULES, "redis")):
    print("SKIP: node or node-redis is missing (apt-get install nodejs node-redis)")
    sys.exit(support.SKIP)

checks = support.Checks(__doc__)


@checks.check("strings", "keys", "connection", "server", "hash", "list", "set", "zset", "pubsub")
def typical_application(port):
    env = dict(os.environ, NODE_PATH=MODULES)
    res = subprocess.run([NODE, os.path.join(HERE, "node_redis_smoke.js"), str(port)],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=120, env=env)
    out = res.stdout.decode("utf-8", "replace")
    print("  " + out.strip().replace("\n", "\n  "))
    expect(res.returncode == 0, "node-redis smoke failed", out[-3000:])


if __name__ == "__main__":
    support.main_guard(checks.run)
