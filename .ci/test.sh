#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test: an ASan+UBSan build of the tests and
# 120 s of the command fuzzer against its server, the threaded tests and the server's integration
# suite with IO threads under TSan and with the condition-variable parker, fuzz runs of the RESP,
# RDB, AOF, AOF manifest and replication stream parsers, then the normal build and its full test
# suite (last, so the closing ctest line counts every test).
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/deps.sh test
jobs=$(nproc)

echo "== ASan+UBSan build and tests"
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DPLINTH_SANITIZE=address,undefined \
  -DPLINTH_BUILD_BENCH=OFF -DPLINTH_WERROR=ON >/dev/null
cmake --build build-asan -j"$jobs"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build-asan --output-on-failure -j"$jobs" -LE 'no-sanitizer|fuzz'

echo "== The command fuzzer against the ASan+UBSan server (120 s)"
/usr/bin/python3 tests/fuzz/command_fuzz.py --server build-asan/bin/plinth-server \
  --plugin-dir build-asan/lib/plinth/plugins --seconds 120 --seed 2 \
  --corpus tests/fuzz/corpus/commands --crash-dir build-asan/command-fuzz-crashes \
  --exclude-file tests/fuzz/command_fuzz_known.txt

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

echo "== TSan build of the threaded tests and the server"
cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DPLINTH_SANITIZE=thread \
  -DPLINTH_BUILD_BENCH=OFF >/dev/null
# shellcheck disable=SC2086
cmake --build build-tsan -j"$jobs" --target host_threaded_test fakehost_types_test aof_test \
  replication_link_test integration_test $server_targets $rdma_targets
TSAN_OPTIONS=halt_on_error=1 ctest --test-dir build-tsan --output-on-failure -L threaded
TSAN_OPTIONS=halt_on_error=1 build-tsan/tests/integration_test --plinth-io-threads=3
TSAN_OPTIONS=halt_on_error=1 LD_LIBRARY_PATH=$PWD/build-tsan/tests/rdma_fabric/lib \
  build-tsan/tests/rdma_plugin_test --plinth-io-threads=3

echo "== Threaded tests and the server with the condition-variable parker (PLINTH_PARK_CONDVAR)"
cmake -S . -B build-condvar -G Ninja -DCMAKE_BUILD_TYPE=Debug -DPLINTH_PARK_CONDVAR=ON \
  -DPLINTH_BUILD_BENCH=OFF -DPLINTH_WERROR=ON >/dev/null
# shellcheck disable=SC2086
cmake --build build-condvar -j"$jobs" --target host_threaded_test fakehost_types_test aof_test \
  replication_link_test integration_test $server_targets $rdma_targets
ctest --test-dir build-condvar --output-on-failure -L threaded
build-condvar/tests/integration_test --plinth-io-threads=3
LD_LIBRARY_PATH=$PWD/build-condvar/tests/rdma_fabric/lib build-condvar/tests/rdma_plugin_test \
  --plinth-io-threads=3

echo "== Fuzzing the parsers of untrusted bytes: RESP (45 s), RDB and AOF files (20 s each)," \
  "the AOF manifest, the replication stream, msgpack and struct input of scripts (15 s each)"
CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DPLINTH_FUZZ=ON -DPLINTH_BUILD_BENCH=OFF \
  >/dev/null
cmake --build build-fuzz -j"$jobs" --target resp_parser_fuzz rdb_reader_fuzz aof_parser_fuzz \
  aof_manifest_fuzz repl_stream_fuzz lua_msgpack_fuzz
mkdir -p build-fuzz/corpus build-fuzz/corpus-rdb build-fuzz/corpus-aof build-fuzz/corpus-repl \
  build-fuzz/corpus-lua build-fuzz/corpus-manifest
build-fuzz/tests/fuzz/resp_parser_fuzz -max_total_time=45 -dict=tests/fuzz/resp.dict \
  -print_final_stats=1 build-fuzz/corpus tests/fuzz/corpus/resp 2>&1 | tail -n 15
build-fuzz/tests/fuzz/rdb_reader_fuzz -max_total_time=20 -print_final_stats=1 \
  build-fuzz/corpus-rdb tests/fuzz/corpus/rdb 2>&1 | tail -n 15
build-fuzz/tests/fuzz/aof_parser_fuzz -max_total_time=20 -print_final_stats=1 \
  build-fuzz/corpus-aof tests/fuzz/corpus/aof 2>&1 | tail -n 15
build-fuzz/tests/fuzz/aof_manifest_fuzz -max_total_time=15 -dict=tests/fuzz/manifest.dict \
  -print_final_stats=1 build-fuzz/corpus-manifest tests/fuzz/corpus/manifest 2>&1 | tail -n 15
build-fuzz/tests/fuzz/repl_stream_fuzz -max_total_time=15 -dict=tests/fuzz/resp.dict \
  -print_final_stats=1 build-fuzz/corpus-repl tests/fuzz/corpus/repl 2>&1 | tail -n 15
build-fuzz/tests/fuzz/lua_msgpack_fuzz -max_total_time=15 -print_final_stats=1 \
  build-fuzz/corpus-lua 2>&1 | tail -n 15

echo "== Release build and full test suite"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPLINTH_WERROR=ON \
  -DPLINTH_BUILD_TESTS=ON -DPLINTH_BUILD_BENCH=ON >/dev/null
cmake --build build -j"$jobs"
ctest --test-dir build --output-on-failure -j"$jobs"
