#!/usr/bin/env bash
# The builds .ci/test.sh tests, one per name:
#   asan     build-asan: Debug, ASan+UBSan, every target (its tests and the command fuzzer's server)
#   tsan     build-tsan: Debug, TSan, the threaded tests, the server, its plugins and RDMA pieces
#   fuzz     build-fuzz: clang with libFuzzer, the parser fuzzers
#   release  build: RelWithDebInfo, every target with the tests and benchmarks (the full suite)
# The two GCC Debug builds precompile the common headers (PLINTH_PCH, CMakeLists.txt says why
# the optimized one does not).
# usage: builds.sh NAME...               builds each in turn, output here
#        builds.sh --background PIDFILE NAME...
#            writes its process id to PIDFILE (removed at the end), then builds each in turn
#            into <dir>/ci-build.log and writes <dir>/ci-build.done: "<exit status> <seconds>";
#            the next one starts either way (test.sh waits on these files)
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)

# The threaded parts: the IO-thread primitives' tests, and the server with its IO threads doing
# every read and write under the integration suite (io-threads 3, all active).
server_targets="plinth-server plinth_resp plinth_tcp plinth_connection plinth_server plinth_strings
  plinth_keys plinth_hash plinth_list plinth_set plinth_zset plinth_stream plinth_pubsub
  plinth_scripting plinth_reply_offload plinth_diagnostics plinth_acl
  plinth_rdb plinth_aof plinth_replication plinth_test_notify plinth_test_remote plinth_probe_a
  plinth_probe_b"
# The RDMA transport over the software fabric, with its poller thread and IO threads.
rdma_targets="plinth_rdma rdma_plugin_test rdma_dying_client rdma_fabric_ibverbs rdma_fabric_rdmacm
  rdma_fabric_test rdma_fabric_peer"

# build DIR [TARGET...]: builds DIR (all of it without targets). In the background it calls
# ninja itself, which is what cmake --build runs: the same build.
build() {
  local dir=$1
  shift
  if [ -n "${PLINTH_CI_BACKGROUND:-}" ]; then
    ninja -C "$dir" -j"$jobs" "$@"
  elif [ $# -gt 0 ]; then
    cmake --build "$dir" -j"$jobs" --target "$@"
  else
    cmake --build "$dir" -j"$jobs"
  fi
}

dir_of() {
  case "$1" in
    asan) echo build-asan ;;
    tsan) echo build-tsan ;;
    fuzz) echo build-fuzz ;;
    release) echo build ;;
    *) echo "builds.sh: unknown build '$1' (asan, tsan, fuzz, release)" >&2; return 1 ;;
  esac
}

build_asan() {
  cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DPLINTH_SANITIZE=address,undefined \
    -DPLINTH_BUILD_BENCH=OFF -DPLINTH_WERROR=ON >/dev/null
  build build-asan
}

build_tsan() {
  cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DPLINTH_SANITIZE=thread \
    -DPLINTH_BUILD_BENCH=OFF >/dev/null
  # shellcheck disable=SC2086
  build build-tsan host_threaded_test fakehost_types_test aof_test replication_link_test \
    integration_test $server_targets $rdma_targets
}

build_fuzz() {
  CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DPLINTH_FUZZ=ON \
    -DPLINTH_BUILD_BENCH=OFF >/dev/null
  build build-fuzz resp_parser_fuzz rdb_reader_fuzz aof_parser_fuzz aof_manifest_fuzz \
    repl_stream_fuzz lua_msgpack_fuzz
}

build_release() {
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPLINTH_WERROR=ON \
    -DPLINTH_BUILD_TESTS=ON -DPLINTH_BUILD_BENCH=ON >/dev/null
  build build
}

if [ "${1:-}" = --background ]; then
  pidfile=$2
  echo "$$" >"$pidfile"
  trap 'rm -f "$pidfile"' EXIT
  shift 2
  for name in "$@"; do
    dir=$(dir_of "$name")
    mkdir -p "$dir"
    rm -f "$dir/ci-build.done"
    start=$SECONDS
    rc=0
    # A process of its own, so that set -e stops its build at the first failure.
    PLINTH_CI_BACKGROUND=1 bash "$0" "$name" >"$dir/ci-build.log" 2>&1 || rc=$?
    echo "$rc $((SECONDS - start))" >"$dir/ci-build.done"
  done
  exit 0
fi

for name in "$@"; do
  dir_of "$name" >/dev/null
  "build_$name"
done
