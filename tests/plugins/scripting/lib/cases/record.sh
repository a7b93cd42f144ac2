#!/bin/bash
# Re-records the expected line of every case in the given .cases files from a live Redis 7.0:
#   redis-server --port 7811 --save '' --daemonize yes
#   tests/plugins/scripting/lib/cases/record.sh 7811 tests/plugins/scripting/lib/cases/*.cases
# A case is an expression line followed by its "= <expected>" line; "--" lines are comments.
set -euo pipefail
port=$1
shift
here=$(cd "$(dirname "$0")" && pwd)
prelude=$(cat "$here/prelude.lua")
for file in "$@"; do
  out=$(mktemp)
  while IFS= read -r line; do
    case "$line" in
      "= "* | "=") continue ;;
      "--"* | "") printf '%s\n' "$line" >>"$out" ;;
      *)
        reply=$(redis-cli -p "$port" --no-raw EVAL "$prelude return OUT($line)" 0 2>&1)
        expected=$(python3 -c '
import sys
s = sys.argv[1]
if s.startswith("\""): s = eval("b" + s).decode("latin1")
elif s.startswith("(integer) "): s = s[10:]
elif s.startswith("(error) "): s = "FAIL " + s[8:]
print(s)' "$reply")
        printf '%s\n= %s\n' "$line" "$expected" >>"$out"
        ;;
    esac
  done <"$file"
  mv "$out" "$file"
done
