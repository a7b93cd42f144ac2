#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test: an ASan+UBSan build of the tests and
# 120 s of the command fuzzer against its server, the threaded tests and the server's integration
# suite with IO threads under TSan, once parking on the futex and once on the condition variable
# (PLINTH_PARK=condvar), fuzz runs of the RESP, RDB, AOF, AOF manifest and replication stream
# parsers, then the normal build and its full test suite (last, so the closing ctest line counts
# every test).
# The builds are .ci/builds.sh's. The ASan build comes first; the TSan, fuzzer and release builds
# then run one after another in the background at the lowest CPU priority (nice 19), using the
# CPU the tests leave idle while they wait on their servers and clients, and each test stage
# waits for the build it needs, printing its log then.
# Each stage prints "== <name>" when it starts and "-- <name>: N s" when it ends; a table of all
# stages comes before the last one (the full test suite), whose own closing line gives its time.
set -euo pipefail
cd "$(dirname "$0")/.."

stage_names=()
stage_secs=()
stage_name=""
stage_start=$SECONDS
# stage NAME: ends the running stage (printing its time) and starts NAME.
stage() {
  stage_done
  stage_name=$1
  stage_start=$SECONDS
  echo "== $stage_name"
}
stage_done() {
  [ -n "$stage_name" ] || return 0
  local secs=$((SECONDS - stage_start))
  echo "-- $stage_name: $secs s"
  stage_names+=("$stage_name")
  stage_secs+=("$secs")
  stage_name=""
}
bg_notes=()
stage_summary() {
  local i
  echo "== Stage times (total so far: $SECONDS s)"
  for i in "${!stage_names[@]}"; do
    printf '%6d s  %s\n' "${stage_secs[$i]}" "${stage_names[$i]}"
  done
  for i in "${!bg_notes[@]}"; do
    echo "        ${bg_notes[$i]}"
  done
}
# .ci/builds.sh --background writes its process id here; it leads its own process group.
bg_pidfile=build-asan/ci-background.pid
rm -f "$bg_pidfile"
# On a failure the table still shows where the time went, and which stage failed; the
# background builds stop.
on_exit() {
  local rc=$? pid
  pid=$(cat "$bg_pidfile" 2>/dev/null || true)
  [ -z "$pid" ] || kill -- "-$pid" 2>/dev/null || true
  if [ "$rc" -ne 0 ]; then
    [ -z "$stage_name" ] || echo "!! failed in: $stage_name"
    stage_done
    stage_summary
  fi
}
trap on_exit EXIT

# wait_build DIR: waits for .ci/builds.sh --background to finish DIR, prints its log and
# the build's own time; fails when the build failed.
wait_build() {
  local done_file="$1/ci-build.done" rc secs pid tries=0
  until [ -s "$done_file" ]; do
    pid=$(cat "$bg_pidfile" 2>/dev/null || true)
    if { [ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null; } || { [ -z "$pid" ] && [ $tries -gt 30 ]; }
    then
      [ -s "$done_file" ] && break
      echo "!! the background builds ended without finishing $1"
      cat "$1/ci-build.log" 2>/dev/null || true
      return 1
    fi
    tries=$((tries + 1))
    sleep 2
  done
  cat "$1/ci-build.log"
  read -r rc secs <"$done_file"
  echo "-- (built in the background in $secs s; exit status $rc)"
  bg_notes+=("($1 built in the background in $secs s, beside the stages before its wait)")
  [ "$rc" = 0 ]
}

stage "Dependencies"
bash .ci/deps.sh test
jobs=$(nproc)

stage "ASan+UBSan build"
bash .ci/builds.sh asan
# From here the other builds go on in the background, in their own process group (stopped on
# exit), at nice 19: the tests keep the CPU whenever they want it.
rm -f "$bg_pidfile" build-tsan/ci-build.done build-fuzz/ci-build.done build/ci-build.done
setsid nice -n 19 bash .ci/builds.sh --background "$bg_pidfile" tsan fuzz release &

stage "ASan+UBSan tests"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build-asan --output-on-failure -j"$jobs" -LE 'no-sanitizer|fuzz'

stage "The command fuzzer against the ASan+UBSan server (120 s)"
/usr/bin/python3 tests/fuzz/command_fuzz.py --server build-asan/bin/plinth-server \
  --plugin-dir build-asan/lib/plinth/plugins --seconds 120 --seed 2 \
  --corpus tests/fuzz/corpus/commands --crash-dir build-asan/command-fuzz-crashes \
  --exclude-file tests/fuzz/command_fuzz_known.txt

stage "TSan build of the threaded tests and the server (waiting for the background)"
wait_build build-tsan

# The threaded parts: the IO-thread primitives' tests, and the server with its IO threads doing
# every read and write under the integration suite (io-threads 3, all active), and the RDMA
# transport over the software fabric, with its poller thread and IO threads. The checks run once
# parking on the futex (the default) and once on the condition variable, chosen at startup from
# PLINTH_PARK (host/shell/io/parker.h). The two runs go side by side, each into its log (printed
# whole once both end): the integration suite under TSan mostly waits on its servers, so together
# they take little longer than one.
stage "TSan: threaded tests and the server with IO threads, parking on the futex and on the condition variable"
# park_checks MODE: every TSan check with PLINTH_PARK=MODE; its exit status into park-MODE.rc.
park_checks() {
  local rc=0
  # (set -e does not act inside a command whose status "||" tests, hence the "&&")
  (
    export PLINTH_PARK=$1 TSAN_OPTIONS=halt_on_error=1
    ctest --test-dir build-tsan --output-on-failure -j"$jobs" -L threaded &&
      build-tsan/tests/integration_test --plinth-io-threads=3 &&
      LD_LIBRARY_PATH=$PWD/build-tsan/tests/rdma_fabric/lib build-tsan/tests/rdma_plugin_test \
        --plinth-io-threads=3
  ) >"build-tsan/park-$1.log" 2>&1 || rc=$?
  echo "$rc" >"build-tsan/park-$1.rc"
}
rm -f build-tsan/park-*.log build-tsan/park-*.rc
park_checks futex &
futex_pid=$!
park_checks condvar &
wait "$futex_pid" $!
park_failed=0
for park in futex condvar; do
  echo "-- PLINTH_PARK=$park"
  cat "build-tsan/park-$park.log"
  rc=$(cat "build-tsan/park-$park.rc" 2>/dev/null || echo 1)
  if [ "$rc" != 0 ]; then
    echo "!! the TSan checks with PLINTH_PARK=$park failed (exit status $rc)"
    park_failed=1
  fi
done
[ "$park_failed" = 0 ]

stage "Fuzzer build (clang, libFuzzer; waiting for the background)"
wait_build build-fuzz

stage "Fuzzing the parsers of untrusted bytes: RESP (45 s), RDB and AOF files (20 s each), the AOF manifest, the replication stream, msgpack and struct input of scripts (15 s each)"
# Each fuzzer is single-threaded and runs for its own time on one CPU, so with two CPUs two run
# at once (lanes of 65 s each); with one they run one after another. Each prints its last lines
# in the order below once all are done.
fuzz_dir=build-fuzz/tests/fuzz
fuzz_runs=(
  "resp_parser_fuzz -max_total_time=45 -dict=tests/fuzz/resp.dict build-fuzz/corpus tests/fuzz/corpus/resp"
  "rdb_reader_fuzz -max_total_time=20 build-fuzz/corpus-rdb tests/fuzz/corpus/rdb"
  "aof_parser_fuzz -max_total_time=20 build-fuzz/corpus-aof tests/fuzz/corpus/aof"
  "aof_manifest_fuzz -max_total_time=15 -dict=tests/fuzz/manifest.dict build-fuzz/corpus-manifest tests/fuzz/corpus/manifest"
  "repl_stream_fuzz -max_total_time=15 -dict=tests/fuzz/resp.dict build-fuzz/corpus-repl tests/fuzz/corpus/repl"
  "lua_msgpack_fuzz -max_total_time=15 build-fuzz/corpus-lua"
)
if [ "$jobs" -ge 2 ]; then fuzz_lanes=("0 1" "2 3 4 5"); else fuzz_lanes=("0 1 2 3 4 5"); fi
mkdir -p build-fuzz/corpus build-fuzz/corpus-rdb build-fuzz/corpus-aof build-fuzz/corpus-repl \
  build-fuzz/corpus-lua build-fuzz/corpus-manifest build-fuzz/logs
# run_fuzz I: runs fuzz_runs[I] into build-fuzz/logs/I.log and its exit status into I.rc.
run_fuzz() {
  local -a run
  read -r -a run <<<"${fuzz_runs[$1]}"
  local rc=0
  "$fuzz_dir/${run[0]}" -print_final_stats=1 "${run[@]:1}" >"build-fuzz/logs/$1.log" 2>&1 || rc=$?
  echo "$rc" >"build-fuzz/logs/$1.rc"
}
rm -f build-fuzz/logs/*.log build-fuzz/logs/*.rc
lane_pids=()
for lane in "${fuzz_lanes[@]}"; do
  (for i in $lane; do run_fuzz "$i"; done) &
  lane_pids+=($!)
done
wait "${lane_pids[@]}"
fuzz_failed=0
for i in "${!fuzz_runs[@]}"; do
  echo "-- ${fuzz_runs[$i]%% *}"
  tail -n 15 "build-fuzz/logs/$i.log"
  rc=$(cat "build-fuzz/logs/$i.rc" 2>/dev/null || echo 1)
  if [ "$rc" != 0 ]; then
    echo "!! ${fuzz_runs[$i]%% *} exited with $rc (whole log: build-fuzz/logs/$i.log)"
    fuzz_failed=1
  fi
done
[ "$fuzz_failed" = 0 ]

stage "Release build (waiting for the background)"
wait_build build
stage_done
stage_summary
# Last, so its closing line is the last line; it gives its own time.
echo "== Release full test suite"
trap - EXIT
ctest --test-dir build --output-on-failure -j"$jobs"
