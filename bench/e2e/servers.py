"""Starting, measuring and stopping the servers under test. Every server runs pinned to its
CPUs (taskset) with persistence off, on a free loopback port, in its own scratch directory. A
server can run as several variants (IO-thread counts, extra arguments), each a ServerSpec."""

import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import time

import resp

# The plugins plinth-server loads when none are named (host/main.cc).
PLINTH_DEFAULT_PLUGINS = ["resp", "tcp", "connection", "server", "strings", "keys"]


# A variant's name: "<server> io<N>" (see io_variants).
IO_NAME = re.compile(r"^(.*) io(\d+)$")


class ServerSpec:
    """One server binary to compare, or one variant of it. kind is "plinth" or "redis"
    (redis-server and anything that takes its command line, such as valkey-server). added: the
    arguments this variant adds to the server's usual command line (shown in the report)."""

    def __init__(self, name, kind, path, extra_args=None, note="", added=None):
        self.name = name
        self.kind = kind
        self.path = path
        self.extra_args = list(extra_args or [])
        self.note = note
        self.added = list(added or [])
        self._version = None

    def variant(self, name, args):
        """A copy of this spec named name, with args appended to its command line."""
        v = ServerSpec(name, self.kind, self.path, self.extra_args + list(args), self.note,
                       self.added + list(args))
        v._version = self._version
        return v

    def io_thread_args(self, n):
        """The arguments that run this server with n IO threads (Redis's --io-threads: 1 is
        the main thread alone). Redis before 8 (and Valkey before 8) thread only the writes
        unless also told --io-threads-do-reads yes; Redis 8 and Valkey 8+ always thread reads
        and accept that option only as a hidden, ignored leftover, so it is not passed there."""
        args = ["--io-threads", str(n)]
        if self.kind == "redis" and n > 1 and self.threads_reads_only_on_request():
            args += ["--io-threads-do-reads", "yes"]
        return args

    def threads_reads_only_on_request(self):
        """True for Redis and Valkey before version 8, from --version."""
        m = re.match(r"(Redis|Valkey) server v=(\d+)\.", self.version())
        return bool(m) and int(m.group(2)) < 8

    def knows_option(self, name):
        """Whether plinth-server --help lists --name (always True for the redis kind)."""
        if self.kind != "plinth":
            return True
        try:
            out = subprocess.run([self.path, "--help"], capture_output=True, text=True,
                                 timeout=10)
        except (OSError, subprocess.SubprocessError):
            return False
        return re.search(r"--%s\b(?!-)" % re.escape(name), out.stdout + out.stderr) is not None

    def args(self, port, workdir):
        if self.kind == "plinth":
            # Persistence off, like the other servers, when the persistence plugins are loaded.
            off = ["--save", "", "--appendonly", "no", "--dir", workdir]
            if not self.knows_option("save"):
                off = []
            return [self.path, "--port", str(port), "--bind", "127.0.0.1"] + off + self.extra_args
        return [self.path, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                "--appendonly", "no", "--dir", workdir, "--logfile", "", "--daemonize",
                "no"] + self.extra_args

    def version(self):
        """The first line of --version (asked once)."""
        if self._version is None:
            try:
                out = subprocess.run([self.path, "--version"], capture_output=True, text=True,
                                     timeout=10)
                self._version = (out.stdout or out.stderr).strip().splitlines()[0]
            except (OSError, subprocess.SubprocessError, IndexError):
                self._version = "unknown"
        return self._version


def io_variants(specs, counts):
    """Each spec once per IO-thread count N of counts, named "<name> io<N>" and run with
    io_thread_args(N). counts [1] leaves the specs as they are (one thread is every server's
    default, so no flag is passed). A spec whose arguments already name --io-threads (a
    --variant that fixes its own count) runs once, as it is."""
    if list(counts) == [1]:
        return list(specs)
    out = []
    for s in specs:
        if "--io-threads" in s.extra_args:
            out.append(s)
            continue
        out += [s.variant("%s io%d" % (s.name, n), s.io_thread_args(n)) for n in counts]
    return out


def io_family(name):
    """(server, N) for a variant named "<server> io<N>", else (name, None)."""
    m = IO_NAME.match(name)
    return (m.group(1), int(m.group(2))) if m else (name, None)


def slug(name):
    """name as a file name: spaces and slashes become dashes."""
    return re.sub(r"[\s/]+", "-", name)


def plinth_plugin_args(mode, server_path, plugin_dir):
    """The plugin arguments for plinth-server. mode "default": the server's default set;
    "available": the default set minus plugins missing from the plugin folder; otherwise a
    comma-separated list of plugin names. Returns (args, note)."""
    args = ["--plugin-dir", plugin_dir] if plugin_dir else []
    if mode == "default":
        return args, ""
    if mode == "available":
        folder = plugin_dir or os.path.join(os.path.dirname(os.path.abspath(server_path)),
                                            "..", "lib", "plinth", "plugins")
        have = [p for p in PLINTH_DEFAULT_PLUGINS
                if os.path.exists(os.path.join(folder, p + ".so"))]
        if have == PLINTH_DEFAULT_PLUGINS:
            return args, ""
        missing = [p for p in PLINTH_DEFAULT_PLUGINS if p not in have]
        names = have
        note = "plugins %s not built; ran with %s" % (",".join(missing), ",".join(have))
    else:
        names = [p for p in mode.split(",") if p]
        note = "plugins: %s" % ",".join(names)
    args = args + ["--no-default-plugins"]
    for n in names:
        args += ["--plugin", n]
    return args, note


def free_port():
    """A loopback TCP port that was free a moment ago."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def pin(cpu, argv):
    """argv run on the CPUs of cpu, a taskset CPU list such as "0", "0,1" or "0-3" (None:
    unpinned)."""
    if cpu is None or not shutil.which("taskset"):
        return argv
    return ["taskset", "-c", str(cpu)] + argv


def proc_cpu_seconds(stat_path):
    """User + system CPU seconds from a /proc .../stat file."""
    with open(stat_path) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    # fields[0] is field 3 (state); utime and stime are fields 14 and 15.
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class RunningServer:
    """A started server. Use as a context manager; the process is stopped on exit."""

    def __init__(self, spec, workdir, log_path, cpu, wrapper=None, ready_timeout=30.0):
        self.spec = spec
        self.port = free_port()
        self.workdir = workdir
        os.makedirs(workdir, exist_ok=True)
        argv = pin(cpu, list(wrapper or []) + spec.args(self.port, workdir))
        self.log = open(log_path, "ab")
        self.log.write(("$ %s\n" % shlex.join(argv)).encode())
        self.log.flush()
        self.proc = subprocess.Popen(argv, stdout=self.log, stderr=subprocess.STDOUT,
                                     cwd=workdir, start_new_session=True)
        if not resp.wait_ready(self.port, lambda: self.proc.poll() is None, ready_timeout):
            self.stop()
            raise RuntimeError("%s did not start (see %s)" % (spec.name, log_path))

    @property
    def pid(self):
        return self.proc.pid

    def cpu_seconds(self):
        """User + system CPU seconds of the server so far (all threads), from /proc/pid/stat."""
        return proc_cpu_seconds("/proc/%d/stat" % self.pid)

    def main_thread_cpu_seconds(self):
        """CPU seconds of the server's main thread alone (the one that runs the commands; its
        inverse per request is the throughput ceiling however many IO threads help it)."""
        return proc_cpu_seconds("/proc/%d/task/%d/stat" % (self.pid, self.pid))

    def rss_bytes(self):
        with open("/proc/%d/status" % self.pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
        return 0

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()
