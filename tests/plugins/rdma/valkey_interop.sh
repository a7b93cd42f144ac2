#!/usr/bin/env bash
# Interop with unmodified Valkey client tools over the software fabric: valkey-benchmark --rdma
# (-c 50 -t ping,set,get,incr,mset -n 100000, then with -P 16, and -n 20000 with -d 65536) against
# plinth-server with the rdma plugin at io-threads 1 and 3, with no errors; valkey-cli --rdma in
# interactive mode (on a pseudo-terminal); and proof that the traffic went over RDMA verbs:
# the fabric's counters of the benchmark process, INFO rdma, and no TCP connections but ours.
# Usage: valkey_interop.sh PLINTH_SERVER FABRIC_LIB_DIR [--sanitized]. Runs on the fabric when it
# is built, else on a real RDMA device; exits 77 (skipped) when there is neither, when
# ../shared/anchors is missing, or when the build is sanitized (Valkey's binaries cannot load a
# sanitized fabric).
set -euo pipefail

server_bin=${1:?usage: valkey_interop.sh PLINTH_SERVER FABRIC_LIB_DIR [--sanitized]}
lib_dir=${2:?usage: valkey_interop.sh PLINTH_SERVER FABRIC_LIB_DIR [--sanitized]}
if [[ ${3:-} == --sanitized ]]; then
  echo "skip: sanitized build; valkey's binaries cannot load a sanitized fabric"
  exit 77
fi
here=$(cd "$(dirname "$0")" && pwd)
valkey=${PLINTH_ANCHORS:-$here/../../../../shared/anchors}/valkey-9.1.2
for bin in valkey-benchmark valkey-cli; do
  if [[ ! -x $valkey/$bin ]]; then
    echo "skip: $valkey/$bin not found (set PLINTH_ANCHORS)"
    exit 77
  fi
done

work=$(mktemp -d /tmp/plinth-rdma-interop-XXXXXX)
server_pid=
cleanup() {
  if [[ -n $server_pid ]] && kill -0 "$server_pid" 2>/dev/null; then
    kill -KILL "$server_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT
fail() {
  echo "FAIL: $*"
  [[ -f $work/server.log ]] && tail -n 20 "$work/server.log"
  exit 1
}
# The software fabric when it is built; else a real device (Soft-RoCE, hardware) if there is one.
if [[ -e $lib_dir/libibverbs.so.1 && -e $lib_dir/librdmacm.so.1 ]]; then
  export LD_LIBRARY_PATH=$lib_dir
  export RDMA_FABRIC_STATS_DIR=$work/stats
  mkdir -p "$RDMA_FABRIC_STATS_DIR"
elif compgen -G "/sys/class/infiniband/*" >/dev/null; then
  echo "no software fabric in $lib_dir: using the RDMA device(s) $(ls /sys/class/infiniband)"
else
  echo "skip: neither the software fabric ($lib_dir) nor an RDMA device is present"
  exit 77
fi

# A free TCP port for the control connection; the RDMA port space is the fabric's own.
free_port() { /usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
info() { redis-cli -p "$tcp_port" info "$1" | tr -d '\r' | sed -n "s/^$2://p"; }

start_server() {
  tcp_port=$(free_port)
  rdma_port=$((42000 + RANDOM % 8000))
  "$server_bin" --port "$tcp_port" --bind 127.0.0.1 --save "" --plugin rdma --rdma-port "$rdma_port" \
    --io-threads "$1" --io-threads-adaptive no >"$work/server.log" 2>&1 &
  server_pid=$!
  for _ in $(seq 100); do
    redis-cli -p "$tcp_port" ping >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  fail "plinth-server did not start"
}

stop_server() {
  redis-cli -p "$tcp_port" shutdown nosave >/dev/null 2>&1 || true
  wait "$server_pid" 2>/dev/null || true
  server_pid=
}

# bench REQUESTS [valkey-benchmark options...]
bench() {
  local out=$work/bench.csv requests=$1
  shift
  timeout 600 "$valkey/valkey-benchmark" --rdma -h 127.0.0.1 -p "$rdma_port" -c 50 \
    -t ping,set,get,incr,mset -n "$requests" --csv "$@" >"$out" 2>"$work/bench.err" ||
    fail "valkey-benchmark --rdma $* exited $?: $(tail -n 3 "$work/bench.err")"
  if grep -qi "error" "$work/bench.err" "$out"; then fail "errors from valkey-benchmark $*"; fi
  local rows
  rows=$(grep -c '^"[A-Z]' "$out" || true)
  [[ $rows -eq 6 ]] || fail "valkey-benchmark $* reported $rows of 6 tests"
  echo "  valkey-benchmark --rdma $*: $(tr -d '"' <"$out" | awk -F, 'NR>1 {printf "%s %d/s  ", $1, $2}')"
}

# valkey-cli in interactive mode: on a pseudo-terminal it prompts and answers line by line.
interactive_cli() {
  /usr/bin/python3 - "$valkey/valkey-cli" "$rdma_port" <<'EOF'
import fcntl, os, pty, select, struct, sys, termios, time
cli, port = sys.argv[1], sys.argv[2]
pid, fd = pty.fork()
if pid == 0:
    fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))  # an 80-column terminal
    os.execv(cli, [cli, "--rdma", "-h", "127.0.0.1", "-p", port])
out = b""
def expect(text, timeout=30):
    global out
    end = time.time() + timeout
    while text.encode() not in out:
        if time.time() > end or not select.select([fd], [], [], max(0, end - time.time()))[0]:
            sys.exit("valkey-cli: no %r in %r" % (text, out[-300:]))
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            sys.exit("valkey-cli exited: %r" % out[-300:])
        if b"\x1b[6n" in chunk:  # the line editor asks where the cursor is: answer as a terminal
            os.write(fd, b"\x1b[1;1R")
        out += chunk
prompt = "127.0.0.1:%s>" % port
expect(prompt)
time.sleep(0.1)
# Type each line only once the prompt is back: the line editor switches the terminal to raw
# mode (flushing pending input) before it prints the prompt.
def command(line, reply):
    global out
    out = b""
    os.write(fd, line.encode() + b"\r")
    expect(reply)
    out = out[out.index(reply.encode()) + len(reply):]
    expect(prompt)
    time.sleep(0.1)
command("SET greeting hello-over-rdma", "OK")
command("GET greeting", '"hello-over-rdma"')
command("INCRBY counter:interactive 41", "(integer) 41")
os.write(fd, b"quit\r")
for _ in range(50):
    if os.waitpid(pid, os.WNOHANG)[0] == pid:
        break
    time.sleep(0.1)
else:
    os.kill(pid, 9)
    sys.exit("valkey-cli did not quit")
print("  valkey-cli --rdma interactive: SET, GET, INCRBY answered at the prompt")
EOF
}

for io in 1 3; do
  echo "io-threads $io"
  start_server "$io"
  bench 100000
  bench 100000 -P 16
  bench 20000 -d 65536  # 6 GiB at -n 100000: the same coverage in a fifth of the time
  interactive_cli || fail "valkey-cli --rdma interactive session"
  errors=$(info rdma rdma_connection_errors)
  rdma_conns=$(info rdma rdma_total_connections)
  all_conns=$(info stats total_connections_received)
  sent=$(info rdma rdma_bytes_sent)
  [[ $errors == 0 ]] || fail "rdma_connection_errors:$errors"
  # 50 per benchmark test (6 tests x 3 runs) and the cli; TCP only had redis-cli's checks.
  [[ $rdma_conns -ge 900 ]] || fail "rdma_total_connections:$rdma_conns"
  tcp_conns=$((all_conns - rdma_conns))
  [[ $tcp_conns -le 12 ]] || fail "$tcp_conns TCP connections: traffic did not go over RDMA"
  echo "  INFO: rdma_total_connections:$rdma_conns rdma_bytes_sent:$sent, TCP connections $tcp_conns (this script's)"
  stop_server
done

if [[ -z ${RDMA_FABRIC_STATS_DIR:-} ]]; then
  echo "PASS (on a device: its counters are in 'rdma statistic show')"
  exit 0
fi
# The benchmark processes' own fabric counters: their requests went out as RDMA writes.
/usr/bin/python3 - "$RDMA_FABRIC_STATS_DIR" <<'EOF'
import glob, json, sys
bench = [json.load(open(f)) for f in glob.glob(sys.argv[1] + "/*.json")]
bench = [s for s in bench if s.get("exe", "").endswith("valkey-benchmark")]
if len(bench) < 6:
    sys.exit("FAIL: %d valkey-benchmark stats files" % len(bench))
writes = sum(s["writes_with_imm_posted"] for s in bench)
written = sum(s["bytes_written"] for s in bench)
if writes == 0 or written == 0:
    sys.exit("FAIL: valkey-benchmark posted no RDMA writes")
print("fabric counters of %d valkey-benchmark runs: %d WRITE_WITH_IMM, %d bytes written"
      % (len(bench), writes, written))
EOF
echo "PASS"
