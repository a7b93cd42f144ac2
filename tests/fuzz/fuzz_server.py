"""The command fuzzer's server under test: plinth-server (or a redis-server, to check the fuzzer)
started on a free loopback port in a scratch folder, with ASan/UBSan told to write their reports
to files there. health() says whether it crashed, hung, grew past an RSS limit, or left a
sanitizer report; stop() checks that SIGTERM ends it with status 0."""

import ctypes
import glob
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time

import fuzz_resp as resp

SANITIZER_MARKS = ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:",
                   "UndefinedBehaviorSanitizer", "SUMMARY: ", "WARNING: ThreadSanitizer")


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((resp.HOST, 0))
        return s.getsockname()[1]


def _die_with_parent():
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def _with(env, name, defaults, forced):
    """env[name] between defaults (the caller's options override them) and forced (they
    override the caller's)."""
    return ":".join(x for x in (defaults, env.get(name, ""), forced) if x)


class Server:
    """One server process. Use stop() in a finally; the scratch folder goes with it unless a
    finding asked to keep its logs (keep=True)."""

    def __init__(self, path, plugin_dir, timeout):
        self.path, self.plugin_dir, self.timeout = path, plugin_dir, timeout
        self.workdir = tempfile.mkdtemp(prefix="command-fuzz-")
        self.log_path = os.path.join(self.workdir, "server.log")
        self.keep = False
        self.proc, self.port = None, None
        last = None
        for _ in range(3):  # another process may take the free port first
            self.port = free_port()
            self._spawn()
            try:
                self._wait_ready()
                return
            except RuntimeError as e:
                last = e
                self._kill()
        raise last

    def is_redis(self):
        return os.path.basename(self.path).startswith(("redis-server", "valkey-server"))

    def _argv(self):
        argv = [self.path, "--port", str(self.port), "--bind", resp.HOST, "--dir", self.workdir,
                "--save", "", "--appendonly", "no", "--proto-max-bulk-len", "32mb"]
        if self.is_redis():
            return argv + ["--daemonize", "no"]
        if self.plugin_dir:
            argv += ["--plugin-dir", self.plugin_dir]
        return argv

    def _spawn(self):
        env = dict(os.environ)
        san = os.path.join(self.workdir, "sanitizer")
        env["ASAN_OPTIONS"] = _with(env, "ASAN_OPTIONS", "detect_leaks=1", "log_path=" + san)
        env["UBSAN_OPTIONS"] = _with(env, "UBSAN_OPTIONS", "print_stacktrace=1",
                                     "log_path=" + san)
        self.log = open(self.log_path, "ab")
        self.proc = subprocess.Popen(self._argv(), stdout=self.log, stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL, cwd=self.workdir, env=env,
                                     preexec_fn=_die_with_parent)

    def _wait_ready(self):
        deadline = time.monotonic() + max(30.0, self.timeout)
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("the server exited with %s at start:\n%s" %
                                   (self.proc.returncode, self.log_tail()))
            if resp.ping(self.port, 1.0):
                return
            time.sleep(0.05)
        raise RuntimeError("the server did not answer PING:\n" + self.log_tail())

    def log_tail(self, n=4000):
        try:
            with open(self.log_path, "rb") as f:
                return f.read().decode("utf-8", "replace")[-n:]
        except OSError:
            return ""

    def sanitizer_report(self):
        """The text of any sanitizer report so far (its files, or the server's log), or ''."""
        texts = []
        for name in sorted(glob.glob(os.path.join(self.workdir, "sanitizer*"))):
            with open(name, "rb") as f:
                texts.append(f.read().decode("utf-8", "replace"))
        log = self.log_tail(1 << 20)
        if any(m in log for m in SANITIZER_MARKS):
            texts.append(log)
        return "\n".join(t for t in texts if t.strip())[-6000:]

    def rss_mb(self):
        try:
            with open("/proc/%d/status" % self.proc.pid) as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        return int(line.split()[1]) // 1024
        except (OSError, ValueError):
            pass
        return 0

    def health(self, rss_limit_mb):
        """None when the server is well, else (kind, detail): crash, sanitizer, hang, memory."""
        if self.proc.poll() is not None:
            return ("crash", "the server exited with status %s\n%s\n%s" % (
                self.proc.returncode, self.sanitizer_report(), self.log_tail()))
        report = self.sanitizer_report()
        if report:
            return ("sanitizer", report)
        rss = self.rss_mb()
        if rss_limit_mb and rss > rss_limit_mb:
            return ("memory", "RSS %d MiB over the %d MiB limit" % (rss, rss_limit_mb))
        if not resp.ping(self.port, self.timeout):
            if self.proc.poll() is not None:
                return self.health(rss_limit_mb)
            return ("hang", "a fresh connection got no PONG within %.0f s" % self.timeout)
        return None

    def _kill(self):
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def stop(self, check=False):
        """SIGTERM and wait (then SIGKILL). With check: None when it exited 0 with no sanitizer
        report, else the problem's text."""
        problem = None
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(60)
            except subprocess.TimeoutExpired:
                problem = "the server ignored SIGTERM for 60 s"
                self._kill()
        elif check:
            problem = "the server had already exited with %s" % self.proc.returncode
        if check and not problem:
            if self.proc.returncode != 0:
                problem = "SIGTERM ended the server with status %s" % self.proc.returncode
            elif self.sanitizer_report():
                problem = "a sanitizer report at exit"
        if problem:
            problem += "\n" + self.sanitizer_report() + "\n" + self.log_tail()
        self.log.close()
        if not self.keep:
            shutil.rmtree(self.workdir, ignore_errors=True)
        return problem

    def abort(self):
        """Kills a hung or broken server, keeping its scratch folder's logs."""
        self.keep = True
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGABRT)  # a sanitized build prints where it was
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self._kill()
        self.log.close()
