#!/usr/bin/env bash
# Runs one loader failure case against the real plinth-server (ROBUSTNESS.md item 26-27):
# the server must exit non-zero and log "plugin <path>: <stage>: <reason>", or, with
# --plugin-optional, skip the plugin with a warning and start.
#
# usage: load_case.sh CASE SERVER FIXTURE_DIR PLUGIN_DIR WORK_DIR HOST_ABI
# Exit 0 pass, 1 fail, 77 skipped (a plugin the case needs is not built).
set -u
case_name=$1 server=$2 fx=$3 plugin_dir=$4 work=$5 host_abi=$6
rm -rf "$work" && mkdir -p "$work"
log="$work/server.log"

fail() {
  echo "FAIL [$case_name]: $*" >&2
  echo "---- server output ----" >&2
  cat "$log" >&2 2>/dev/null
  exit 1
}
skip() {
  echo "SKIP [$case_name]: $*"
  exit 77
}

[ -x "$server" ] || skip "no server at $server"

# Runs the server (no default plugins) with args; it must refuse failpath at stage with a
# reason matching the extended regex pattern.
expect_refused() {
  local failpath=$1 stage=$2 pattern=$3
  shift 3
  timeout 20 "$server" --no-default-plugins "$@" >"$log" 2>&1
  local rc=$?
  [ $rc -ne 124 ] || fail "the server did not exit (it should refuse $failpath)"
  [ $rc -ne 0 ] || fail "exit status 0, want non-zero"
  local line
  line=$(grep -F "plugin $failpath: $stage: " "$log") ||
    fail "no line 'plugin $failpath: $stage: ...'"
  echo "$line" | grep -Eq -- "$pattern" || fail "reason does not match /$pattern/: $line"
  echo "ok [$case_name] exit $rc: $line"
}

# Loads the plugins with --help (which loads everything, prints and exits 0).
expect_help() {
  timeout 20 "$server" --no-default-plugins "$@" --help >"$log" 2>&1
  local rc=$?
  [ $rc -eq 0 ] || fail "--help exited $rc, want 0"
}

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# The plugins a running server gets: the default set when it is all built, else just resp and
# tcp (enough to speak RESP over TCP), else the case is skipped.
base_plugins() {
  local p
  base=()
  for p in resp tcp connection server strings keys; do
    if [ ! -f "$plugin_dir/$p.so" ]; then
      [ -f "$plugin_dir/resp.so" ] && [ -f "$plugin_dir/tcp.so" ] || skip "resp.so or tcp.so not built"
      base=(--no-default-plugins --plugin resp --plugin tcp)
      return
    fi
  done
}

# Starts the server with base_plugins plus args on a free port; waits until it answers.
start_server() {
  base_plugins
  command -v redis-cli >/dev/null || skip "redis-cli not installed"
  port=$(free_port)
  "$server" --port "$port" --save "" "${base[@]}" "$@" >"$log" 2>&1 &  # persist nothing
  server_pid=$!
  trap 'kill -KILL $server_pid 2>/dev/null' EXIT
  for _ in $(seq 100); do
    redis-cli -p "$port" PING >/dev/null 2>&1 && return 0
    kill -0 "$server_pid" 2>/dev/null || fail "the server exited early"
    sleep 0.1
  done
  fail "the server did not answer on port $port"
}

stop_server() {
  kill -TERM "$server_pid" 2>/dev/null
  for _ in $(seq 50); do
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.1
  done
  kill -KILL "$server_pid" 2>/dev/null
  wait "$server_pid" 2>/dev/null
  trap - EXIT
}

so() { echo "$fx/abi_$1.so"; }

case $case_name in
  missing_file)
    expect_refused "$work/missing.so" open 'No such file' --plugin "$work/missing.so" ;;
  not_elf)
    echo "this is not a shared object" >"$work/x.so"
    chmod 0644 "$work/x.so"
    expect_refused "$work/x.so" open '.' --plugin "$work/x.so" ;;
  unresolved_symbol)
    expect_refused "$(so unresolved)" open 'undefined symbol' --plugin "$(so unresolved)" ;;
  world_writable)
    cp "$(so good)" "$work/writable.so"
    chmod 0666 "$work/writable.so"
    expect_refused "$work/writable.so" validate 'writable' --plugin "$work/writable.so"
    expect_help --plugin-allow-writable yes --plugin "$work/writable.so"
    grep -q abi_good "$log" || fail "plugin-allow-writable yes did not load it" ;;
  missing_entry)
    expect_refused "$(so missing_entry)" entry 'plinth_plugin_entry_v1' \
      --plugin "$(so missing_entry)" ;;
  wrong_major)
    major=${host_abi%%.*}
    expect_refused "$(so wrong_major)" abi "plugin ABI $((major + 1))\\.0, host ABI ${host_abi//./\\.}" \
      --plugin "$(so wrong_major)" ;;
  newer_minor)
    major=${host_abi%%.*} minor=${host_abi#*.}
    expect_refused "$(so newer_minor)" abi \
      "plugin ABI $major\\.$((minor + 1)), host ABI ${host_abi//./\\.}" --plugin "$(so newer_minor)" ;;
  short_descriptor)
    expect_refused "$(so short_descriptor)" descriptor 'too short' --plugin "$(so short_descriptor)" ;;
  null_name)
    expect_refused "$(so null_name)" descriptor 'name' --plugin "$(so null_name)" ;;
  invalid_name)
    expect_refused "$(so invalid_name)" descriptor 'invalid name' --plugin "$(so invalid_name)" ;;
  duplicate_name)
    expect_refused "$(so dup_b)" descriptor "duplicate name 'abi_dup'" \
      --plugin "$(so dup_a)" --plugin "$(so dup_b)" ;;
  init_fails)
    expect_refused "$(so init_fails)" init '.' --plugin "$(so init_fails)"
    grep -q 'cannot reach the backend' "$log" || fail "the plugin's own reason was not logged" ;;
  init_throws)
    expect_refused "$(so init_throws)" init '.' --plugin "$(so init_throws)"
    grep -q 'init exploded' "$log" || fail "the exception's message was not logged" ;;
  duplicate_command)
    expect_refused "$(so duplicate_command)" init '.' \
      --plugin "$(so good)" --plugin "$(so duplicate_command)"
    grep -Eiq "abi\\.good.*(already|exists|duplicate)|(already|exists|duplicate).*abi\\.good" "$log" ||
      fail "no message naming the duplicate command"
    if [ -f "$plugin_dir/strings.so" ]; then
      expect_refused "$(so duplicate_command)" init '.' \
        --plugin "$plugin_dir/strings.so" --plugin "$(so duplicate_command)"
    fi ;;
  optional_skipped)
    # Loading continues past an optional broken plugin (checked with --help: no transport
    # needed), then the real server starts and serves with it skipped.
    expect_help --plugin-optional "$(so wrong_major)" --plugin "$(so good)"
    grep -F "plugin $(so wrong_major): abi: " "$log" || fail "no warning for the skipped plugin"
    grep -q abi_good "$log" || fail "the plugin after the optional one was not loaded"
    start_server --plugin-optional "$(so wrong_major)" --plugin "$(so good)"
    grep -qF "plugin $(so wrong_major): abi: " "$log" || fail "no warning for the skipped plugin"
    reply=$(redis-cli -p "$port" ABI.GOOD 2>&1)
    [ "$reply" = GOOD ] || fail "ABI.GOOD answered '$reply', want GOOD"
    stop_server
    echo "ok [$case_name]" ;;
  rollback)
    # init fails after registering a command and an option: neither may remain.
    expect_help --plugin-optional "$(so init_fails)"
    grep -F "plugin $(so init_fails): init: " "$log" || fail "no init warning"
    ! grep -q 'abi_rollback.level' "$log" || fail "the option survived the failed init"
    start_server --plugin-optional "$(so init_fails)"
    reply=$(redis-cli -p "$port" ABI.ROLLBACK 2>&1)
    echo "$reply" | grep -qi 'unknown command' || fail "ABI.ROLLBACK answered: $reply"
    stop_server
    echo "ok [$case_name]" ;;
  *)
    echo "unknown case $case_name" >&2
    exit 2 ;;
esac
exit 0
