#!/usr/bin/python3
"""redis-cli against a real plinth-server: one-shot commands (formatted, --raw, -3 RESP3, -n),
-x (value from stdin), --pipe mass insert, --scan --pattern, and an interactive session inside
tmux where typing "set " must show the argument hint. Expected outputs are those of redis-cli
7.0 against Redis 7.0 (run with --against-redis to see them hold)."""

import os
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import support  # noqa: E402
from support import expect, expect_eq  # noqa: E402

CLI = shutil.which("redis-cli") or "/usr/bin/redis-cli"
if not os.path.exists(CLI):
    print("SKIP: redis-cli is missing (apt-get install redis-tools)")
    sys.exit(support.SKIP)

checks = support.Checks(__doc__)
check = checks.check


def cli(port, *args, stdin=None, timeout=60, status=0):
    """Runs redis-cli -p port args; returns stdout as text (stderr appended). Fails on a hang or
    an exit status other than status."""
    res = subprocess.run([CLI, "-h", "127.0.0.1", "-p", str(port)] + list(args), input=stdin,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout)
    expect_eq(res.returncode, status, "redis-cli %s exit status" % " ".join(args))
    return res.stdout.decode("utf-8", "replace")


@check("strings")
def one_shot_commands(port):
    expect_eq(cli(port, "set", "cli:k", "hello world"), "OK\n", "set")
    expect_eq(cli(port, "get", "cli:k"), "hello world\n", "get (raw when not a tty)")
    expect_eq(cli(port, "--no-raw", "get", "cli:k"), '"hello world"\n', "get formatted")
    expect_eq(cli(port, "--no-raw", "get", "cli:none"), "(nil)\n", "nil formatted")
    expect_eq(cli(port, "--raw", "get", "cli:none"), "\n", "nil raw")
    expect_eq(cli(port, "--no-raw", "incr", "cli:n"), "(integer) 1\n", "integer formatted")
    expect_eq(cli(port, "--no-raw", "mget", "cli:k", "cli:none", "cli:n"),
              '1) "hello world"\n2) (nil)\n3) "1"\n', "array formatted")
    expect_eq(cli(port, "--raw", "mget", "cli:k", "cli:none", "cli:n"), "hello world\n\n1\n",
              "array raw")
    expect_eq(cli(port, "--no-raw", "incr", "cli:k"),
              "(error) ERR value is not an integer or out of range\n", "error formatted")
    expect_eq(cli(port, "incr", "cli:k"), "ERR value is not an integer or out of range\n\n",
              "error raw")
    expect_eq(cli(port, "--no-raw", "nosuchcmd", "a"),
              "(error) ERR unknown command 'nosuchcmd', with args beginning with: 'a' \n",
              "unknown command")
    expect_eq(cli(port, "--no-raw", "set", "cli:k"),
              "(error) ERR wrong number of arguments for 'set' command\n", "arity error")
    cli(port, "set", "cli:bin", "a\tb")
    expect_eq(cli(port, "--no-raw", "get", "cli:bin"), '"a\\tb"\n', "escaped formatted value")
    expect_eq(cli(port, "--no-raw", "incrbyfloat", "cli:f", "1.5"), '"1.5"\n', "incrbyfloat")
    expect_eq(cli(port, "--no-raw", "setrange", "cli:r", "3", "x"), "(integer) 4\n", "setrange")
    expect_eq(cli(port, "--no-raw", "get", "cli:r"), '"\\x00\\x00\\x00x"\n', "NUL bytes shown")


@check("strings")
def stdin_value_with_x(port):
    value = b"line one\nline two\0with NUL\r\n"
    expect_eq(cli(port, "-x", "set", "cli:x", stdin=value), "OK\n", "-x set")
    expect_eq(cli(port, "strlen", "cli:x"), "%d\n" % len(value), "-x keeps every byte")
    expect_eq(cli(port, "--raw", "get", "cli:x"), value.decode() + "\n", "-x value read back")
    big = b"z" * (1 << 20)
    expect_eq(cli(port, "-x", "set", "cli:big", stdin=big), "OK\n", "-x set of 1 MiB")
    expect_eq(cli(port, "strlen", "cli:big"), "1048576\n", "1 MiB value length")


@check("strings", "connection")
def resp3_mode(port):
    expect_eq(cli(port, "-3", "--no-raw", "get", "cli3:none"), "(nil)\n", "RESP3 null")
    expect_eq(cli(port, "-3", "--no-raw", "set", "cli3:k", "v"), "OK\n", "RESP3 set")
    expect_eq(cli(port, "-3", "--no-raw", "mget", "cli3:k", "cli3:none"),
              '1) "v"\n2) (nil)\n', "RESP3 mget")
    cli(port, "mset", "cli3:a", "ohmytext", "cli3:b", "mynewtext")
    out = cli(port, "-3", "--no-raw", "lcs", "cli3:a", "cli3:b", "idx", "minmatchlen", "4")
    expect_eq(out, '1# "matches" => \n   1) 1) 1) (integer) 4\n         2) (integer) 7\n'
              '      2) 1) (integer) 5\n         2) (integer) 8\n2# "len" => (integer) 6\n',
              "RESP3 map reply")
    out = cli(port, "-3", "--no-raw", "hello", "3")
    expect('"proto" => (integer) 3' in out and "1# " in out, "HELLO 3 shown as a map", out)


@check("strings", "connection")
def pipe_mass_insert(port):
    n = 10000
    data = b"".join(support.encode(["SET", "pipe:%d" % i, "value-%d" % i]) for i in range(n))
    out = cli(port, "--pipe", stdin=data, timeout=120)
    expect("errors: 0, replies: %d" % n in out, "pipe summary", out)
    expect_eq(cli(port, "get", "pipe:0"), "value-0\n", "first inserted key")
    expect_eq(cli(port, "get", "pipe:%d" % (n - 1)), "value-%d\n" % (n - 1), "last key")
    bad = support.encode(["SET", "pipe:x"]) + support.encode(["INCR", "pipe:0"])
    out = cli(port, "--pipe", stdin=bad, status=1)
    expect("errors: 2, replies: 2" in out, "pipe counts error replies", out)


@check("strings", "keys")
def scan_with_pattern(port):
    keys = ["scan:user:%d" % i for i in range(250)]
    data = b"".join(support.encode(["SET", k, "v"]) for k in keys)
    data += support.encode(["SET", "scan:other", "v"])
    with support.RespConn(port) as conn:
        conn.send_raw(data)
        for _ in range(len(keys) + 1):
            conn.read()
    out = cli(port, "--scan", "--pattern", "scan:user:*")
    expect_eq(sorted(out.split()), sorted(keys), "--scan --pattern lists each key once")
    out = cli(port, "--scan", "--pattern", "scan:user:1?")
    expect_eq(sorted(out.split()), sorted("scan:user:%d" % i for i in range(10, 20)),
              "--scan with ?")
    expect_eq(cli(port, "--scan", "--pattern", "nomatch:*"), "", "--scan with no match")


@check("strings", "connection")
def database_option(port):
    expect_eq(cli(port, "-n", "2", "set", "cli:db", "two"), "OK\n", "set in db 2")
    expect_eq(cli(port, "-n", "2", "get", "cli:db"), "two\n", "get from db 2")
    expect_eq(cli(port, "--no-raw", "get", "cli:db"), "(nil)\n", "db 0 does not see it")


def tmux(*args):
    return subprocess.run(["tmux", "-L", TMUX_SOCKET] + list(args), stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, timeout=20).stdout.decode("utf-8", "replace")


TMUX_SOCKET = "plinth-cli-%d" % os.getpid()


def wait_screen(want, timeout=10.0):
    """Polls the tmux pane until want appears; returns the screen text, or fails."""
    deadline = time.monotonic() + timeout
    screen = ""
    while time.monotonic() < deadline:
        screen = tmux("capture-pane", "-p", "-t", "cli")
        if want in screen:
            return screen
        time.sleep(0.1)
    raise AssertionError("screen never showed %r; it shows:\n%s" % (want, screen))


@check("strings")
def interactive_hints(port):
    if not shutil.which("tmux"):
        raise support.Skipped("tmux is missing (apt-get install tmux)")
    prompt = "127.0.0.1:%d>" % port
    # redis-cli 7.0 asks COMMAND DOCS at start and builds its hints from the reply; when that
    # fails it falls back to its built-in table. Say which path this run takes.
    with support.RespConn(port) as conn:
        _, docs = conn.call("COMMAND", "DOCS", "set")
    print("  hints come from %s" % ("redis-cli's built-in table (COMMAND DOCS failed)"
                                    if docs.is_error() else "the server's COMMAND DOCS"))
    env = dict(os.environ, TERM="xterm", HOME=os.environ.get("HOME", "/tmp"))
    subprocess.run(["tmux", "-L", TMUX_SOCKET, "new-session", "-d", "-s", "cli", "-x", "200",
                    "-y", "40", "%s -h 127.0.0.1 -p %d" % (CLI, port)], check=True, env=env,
                   timeout=20)
    try:
        wait_screen(prompt)
        tmux("send-keys", "-t", "cli", "set ")
        screen = wait_screen("key value [NX|XX]")
        expect(prompt + " set key value [NX|XX] [GET] [EX seconds|PX milliseconds|" in screen,
               "hint follows the typed command", screen)
        tmux("send-keys", "-t", "cli", "tty:k 'hello world'", "Enter")
        wait_screen(prompt + " set tty:k 'hello world'\nOK")
        tmux("send-keys", "-t", "cli", "getrange ")
        wait_screen("getrange key start end")
        tmux("send-keys", "-t", "cli", "tty:k 0 4", "Enter")
        wait_screen('"hello"')
        tmux("send-keys", "-t", "cli", "incr tty:k", "Enter")
        wait_screen("(error) ERR value is not an integer or out of range")
        tmux("send-keys", "-t", "cli", "mget tty:k tty:none", "Enter")
        wait_screen('1) "hello world"\n2) (nil)')
        tmux("send-keys", "-t", "cli", "quit", "Enter")
    finally:
        tmux("kill-server")


if __name__ == "__main__":
    support.main_guard(checks.run)
