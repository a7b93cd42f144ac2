#!/usr/bin/env bash
# Installs what is missing, builds a release build, and starts plinth-server on 127.0.0.1:6379
# with the default plugin set. Extra arguments go to the server (--port 6380, --config f.json).
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/deps.sh build
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPLINTH_BUILD_TESTS=OFF \
  -DPLINTH_BUILD_BENCH=OFF >/dev/null
cmake --build build -j"$(nproc)"
exec build/bin/plinth-server "$@"
