#!/usr/bin/env bash
# Checks that every plugin .so exports exactly one dynamic symbol, plinth_plugin_entry_v1
# (hidden visibility + the version script of plinth_add_plugin).
# usage: exports.sh (DIR | FILE.so)...   Every .so directly in each DIR is checked.
set -u
files=()
for arg in "$@"; do
  if [ -d "$arg" ]; then
    for f in "$arg"/*.so; do [ -f "$f" ] && files+=("$f"); done
  elif [ -f "$arg" ]; then
    files+=("$arg")
  else
    echo "FAIL: no such file or directory: $arg" >&2
    exit 1
  fi
done
[ ${#files[@]} -gt 0 ] || { echo "FAIL: no plugin .so found in: $*" >&2; exit 1; }
status=0
for f in "${files[@]}"; do
  symbols=$(nm -D --defined-only "$f" | awk '{print $NF}' | sort -u | tr '\n' ' ')
  if [ "$symbols" = "plinth_plugin_entry_v1 " ]; then
    echo "ok $f"
  else
    echo "FAIL $f exports: ${symbols:-nothing}" >&2
    status=1
  fi
done
exit $status
