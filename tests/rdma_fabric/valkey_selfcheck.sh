#!/usr/bin/env bash
# Proves the fabric with unmodified peers: valkey-server with valkey-rdma.so, valkey-benchmark
# --rdma and valkey-cli --rdma, all with LD_LIBRARY_PATH at the fabric's libraries. Checks the
# benchmark's rates, a 1 MiB value round trip, and the stats files of server and clients.
# Usage: valkey_selfcheck.sh FABRIC_LIB_DIR [--sanitized]. Exits 77 (skipped) when the anchors
# are missing or the fabric was built with sanitizers (unsanitized binaries cannot load it).
set -euo pipefail

lib_dir=${1:?usage: valkey_selfcheck.sh FABRIC_LIB_DIR [--sanitized]}
if [[ ${2:-} == --sanitized ]]; then
  echo "skip: the fabric is built with sanitizers; valkey's binaries cannot load it"
  exit 77
fi
here=$(cd "$(dirname "$0")" && pwd)
anchors=${PLINTH_ANCHORS:-$here/../../../shared/anchors}
valkey=$anchors/valkey-9.1.2
for bin in valkey-server valkey-rdma.so valkey-benchmark valkey-cli; do
  if [[ ! -e $valkey/$bin ]]; then
    echo "skip: $valkey/$bin not found (set PLINTH_ANCHORS)"
    exit 77
  fi
done
[[ -e $lib_dir/libibverbs.so.1 && -e $lib_dir/librdmacm.so.1 ]] || {
  echo "FAIL: no fabric libraries in $lib_dir"
  exit 1
}

work=$(mktemp -d /tmp/rdma-fabric-selfcheck-XXXXXX)
stats=$work/stats
mkdir -p "$stats"
server_pid=
cleanup() {
  if [[ -n $server_pid ]] && kill -0 "$server_pid" 2>/dev/null; then
    kill -KILL "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

export LD_LIBRARY_PATH=$lib_dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export RDMA_FABRIC_STATS_DIR=$stats
fail() {
  echo "FAIL: $*"
  [[ -f $work/server.log ]] && tail -n 20 "$work/server.log"
  exit 1
}

# The RDMA port space is the fabric's own; retry on the rare port another run holds.
start_server() {
  local attempt
  for attempt in 1 2 3 4 5; do
    port=$((41000 + RANDOM % 8000))
    "$valkey/valkey-server" --port 0 --save '' --appendonly no \
      --loadmodule "$valkey/valkey-rdma.so" --rdma-port "$port" --rdma-bind 127.0.0.1 \
      >"$work/server.log" 2>&1 &
    server_pid=$!
    for _ in $(seq 100); do
      if grep -q "Ready to accept connections" "$work/server.log"; then return 0; fi
      kill -0 "$server_pid" 2>/dev/null || break
      sleep 0.1
    done
    kill -KILL "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
    server_pid=
  done
  fail "valkey-server did not start over the fabric"
}
start_server
echo "valkey-server pid $server_pid serving RDMA on 127.0.0.1:$port"

cli() { timeout 60 "$valkey/valkey-cli" --rdma -h 127.0.0.1 -p "$port" "$@"; }

[[ $(cli ping) == PONG ]] || fail "valkey-cli --rdma ping"

timeout 300 "$valkey/valkey-benchmark" --rdma -h 127.0.0.1 -p "$port" -t ping,set,get \
  -n 100000 -q >"$work/bench.raw" 2>&1 || fail "valkey-benchmark exited $?: $(tail -c 500 "$work/bench.raw")"
tr '\r' '\n' <"$work/bench.raw" | grep -E 'requests per second' | grep -v 'rps=' >"$work/bench.out" || true
cat "$work/bench.out"
if grep -qiE 'error|fail' "$work/bench.raw"; then fail "valkey-benchmark reported errors"; fi
for t in PING_INLINE PING_MBULK SET GET; do
  grep -qE "^ *$t: [0-9.]+ requests per second" "$work/bench.out" || fail "no rate for $t"
done

head -c 786432 /dev/urandom | base64 -w0 | head -c 1048576 >"$work/big"
[[ $(stat -c %s "$work/big") == 1048576 ]] || fail "could not make a 1 MiB value"
[[ $(cli -x set big <"$work/big") == OK ]] || fail "SET of a 1 MiB value"
[[ $(cli strlen big) == 1048576 ]] || fail "STRLEN of the 1 MiB value"
cli get big >"$work/got"
head -c 1048576 "$work/got" | cmp -s - "$work/big" || fail "the 1 MiB value came back different"
echo "1 MiB value round-tripped intact"

# A clean shutdown writes the server's final figures.
kill -TERM "$server_pid"
wait "$server_pid" 2>/dev/null || true
server_pid=

field() { sed -n "s/.*\"$2\": \([0-9]*\).*/\1/p" "$1"; }
server_file= bench_file= big_set_file=
for f in "$stats"/*.json; do
  exe=$(sed -n 's/.*"exe": "\([^"]*\)".*/\1/p' "$f")
  echo "$(basename "$exe") $(basename "$f"): writes_with_imm_posted=$(field "$f" writes_with_imm_posted)" \
    "bytes_written=$(field "$f" bytes_written) recv_completions=$(field "$f" recv_completions)" \
    "errors=$(field "$f" errors)"
  [[ $(field "$f" errors) == 0 ]] || fail "$f counts errors"
  case $exe in
    */valkey-server) server_file=$f ;;
    */valkey-benchmark) bench_file=$f ;;
    */valkey-cli) (($(field "$f" bytes_written) >= 1048576)) && big_set_file=$f ;;
  esac
done
[[ -n $server_file ]] || fail "no stats file from valkey-server"
[[ -n $bench_file ]] || fail "no stats file from valkey-benchmark"
[[ -n $big_set_file ]] || fail "no valkey-cli wrote the 1 MiB value over RDMA"
(($(field "$server_file" writes_with_imm_posted) >= 300000)) || fail "server posted too few writes"
(($(field "$server_file" bytes_written) >= 1048576)) || fail "server wrote too few bytes"
(($(field "$bench_file" writes_with_imm_posted) >= 300000)) || fail "benchmark posted too few writes"
(($(field "$bench_file" bytes_written) > 0)) || fail "benchmark wrote nothing"
echo "PASS"
