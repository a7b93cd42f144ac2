#!/usr/bin/env bash
# Starts the INSTALLED plinth-server (from build_examples.sh's prefix) with the example
# plugins built out of tree, and checks them with redis-cli. Exit 77 (skipped) when the
# server, a default plugin or redis-cli is missing.
# usage: serve_examples.sh WORK_DIR
set -u
work=$1 prefix="$1/prefix"
server="$prefix/bin/plinth-server"
log="$work/server.log"

skip() { echo "SKIP: $*"; exit 77; }
fail() {
  echo "FAIL: $*" >&2
  echo "---- server output ----" >&2
  cat "$log" >&2
  exit 1
}

[ -x "$server" ] || skip "no installed server at $server"
# The default plugin set when it is all installed, else just resp and tcp.
base=()
for p in resp tcp connection server strings keys; do
  if [ ! -f "$prefix/lib/plinth/plugins/$p.so" ]; then
    [ -f "$prefix/lib/plinth/plugins/resp.so" ] && [ -f "$prefix/lib/plinth/plugins/tcp.so" ] ||
      skip "resp.so or tcp.so not installed"
    base=(--no-default-plugins --plugin resp --plugin tcp)
    break
  fi
done
command -v redis-cli >/dev/null || skip "redis-cli not installed"
for so in "$work/hello/hello.so" "$work/hello_c/hello_c.so" "$work/replicate/replicate.so"; do
  [ -f "$so" ] || fail "$so was not built (run build_examples.sh first)"
done

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
# --save "": nothing persisted into the test's folder for a later server to load.
"$server" --port "$port" --save "" "${base[@]}" --plugin "$work/hello/hello.so" --plugin "$work/hello_c/hello_c.so" \
  --plugin "$work/replicate/replicate.so" >"$log" 2>&1 &
pid=$!
trap 'kill -KILL $pid 2>/dev/null' EXIT
up=0
for _ in $(seq 100); do
  if redis-cli -p "$port" PING >/dev/null 2>&1; then up=1; break; fi
  kill -0 "$pid" 2>/dev/null || fail "the server exited early"
  sleep 0.1
done
[ $up = 1 ] || fail "no answer on port $port"

check() {  # check EXPECTED redis-cli-args...
  local want=$1 got
  shift
  got=$(redis-cli -p "$port" "$@" 2>&1)
  [ "$got" = "$want" ] || fail "redis-cli $*: got '$got', want '$want'"
  echo "ok redis-cli $* -> $got"
}
check "Hello, bob!" HELLO.GREET bob
check "Hello, world!" hello.greet
check "1" HELLO.COUNT visits
check "2" HELLO.COUNT visits
check "Hello, bob!" HELLOC.GREET bob
check "1" HELLOC.COUNT c
check "5" CTR.INCRBY hits 5
check "7" CTR.INCRBY hits 2
if [ ${#base[@]} = 0 ]; then  # the strings plugin is loaded: the validated commands work
  check "OK" CTR.SET alice 100
  check $'70\n30' CTR.TRANSFER alice bob 30
  check "1" GET ctr:transfers
fi

kill -TERM "$pid"
for _ in $(seq 50); do
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.1
done
kill -0 "$pid" 2>/dev/null && fail "the server did not stop on SIGTERM"
trap - EXIT
echo "ok server stopped"
