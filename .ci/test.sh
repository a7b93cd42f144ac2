#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test: an ASan+UBSan build of the tests, the
# threaded tests under TSan and with the condition-variable parker, a 60-second fuzz run of the
# RESP parser, then the normal build and its full test suite (last, so the closing ctest line
# counts every test).
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/deps.sh test
jobs=$(nproc)

echo "== ASan+UBSan build and tests"
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DPLINTH_SANITIZE=address,undefined \
  -DPLINTH_BUILD_BENCH=OFF -DPLINTH_WERROR=ON >/dev/null
cmake --build build-asan -j"$jobs"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build-asan --output-on-failure -j"$jobs" -LE no-sanitizer

echo "== TSan build of the threaded tests"
cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DPLINTH_SANITIZE=thread \
  -DPLINTH_BUILD_BENCH=OFF >/dev/null
cmake --build build-tsan -j"$jobs" --target host_threaded_test
TSAN_OPTIONS=halt_on_error=1 ctest --test-dir build-tsan --output-on-failure -L threaded

echo "== Threaded tests with the condition-variable parker (PLINTH_PARK_CONDVAR)"
cmake -S . -B build-condvar -G Ninja -DCMAKE_BUILD_TYPE=Debug -DPLINTH_PARK_CONDVAR=ON \
  -DPLINTH_BUILD_BENCH=OFF -DPLINTH_WERROR=ON >/dev/null
cmake --build build-condvar -j"$jobs" --target host_threaded_test
ctest --test-dir build-condvar --output-on-failure -L threaded

echo "== RESP parser fuzzing (60 s)"
CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DPLINTH_FUZZ=ON -DPLINTH_BUILD_BENCH=OFF \
  >/dev/null
cmake --build build-fuzz -j"$jobs" --target resp_parser_fuzz
mkdir -p build-fuzz/corpus
build-fuzz/tests/fuzz/resp_parser_fuzz -max_total_time=60 -dict=tests/fuzz/resp.dict \
  -print_final_stats=1 build-fuzz/corpus tests/fuzz/corpus/resp 2>&1 | tail -n 15

echo "== Release build and full test suite"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPLINTH_WERROR=ON \
  -DPLINTH_BUILD_TESTS=ON -DPLINTH_BUILD_BENCH=ON >/dev/null
cmake --build build -j"$jobs"
ctest --test-dir build --output-on-failure -j"$jobs"
