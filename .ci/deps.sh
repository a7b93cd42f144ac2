#!/usr/bin/env bash
# Installs the Debian 12 packages Plinth needs that are not installed yet.
#   deps.sh build   what building and running the server needs
#   deps.sh test    that plus the test tools (real Redis clients and server, clang for fuzzing)
set -euo pipefail
mode=${1:-build}
pkgs=(build-essential cmake ninja-build pkg-config binutils libuv1-dev nettle-dev nlohmann-json3-dev
      libgoogle-perftools-dev doctest-dev libbenchmark-dev libibverbs-dev librdmacm-dev
      liblua5.1-0-dev lua-cjson-dev lua-bitop-dev)
if [ "$mode" = test ]; then
  pkgs+=(redis-server redis-tools python3 python3-redis clang libclang-rt-14-dev gnuplot-nox
         valgrind tmux nodejs node-redis redis-sentinel nutcracker abigail-tools)
fi
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
sudo=""
[ "$(id -u)" -eq 0 ] || sudo=sudo
echo "Installing: ${missing[*]}"
# Keep package installs from starting services (a packaged redis-server would take port 6379).
if [ ! -e /usr/sbin/policy-rc.d ]; then
  printf '#!/bin/sh\nexit 101\n' | $sudo tee /usr/sbin/policy-rc.d >/dev/null
  $sudo chmod +x /usr/sbin/policy-rc.d
  trap '$sudo rm -f /usr/sbin/policy-rc.d' EXIT
fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
