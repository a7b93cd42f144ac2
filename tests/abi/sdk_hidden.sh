#!/usr/bin/env bash
# Checks that a C++ plugin built with default visibility and no export map exports no symbol
# of the SDK (plinth::...): the SDK headers keep their own symbols hidden.
# usage: sdk_hidden.sh FILE.so
set -u
f=$1
[ -f "$f" ] || { echo "FAIL: no such file: $f" >&2; exit 1; }
nm -D --defined-only "$f" | grep -q ' plinth_plugin_entry_v1$' ||
  { echo "FAIL $f does not export plinth_plugin_entry_v1" >&2; exit 1; }
leaked=$(nm -DC --defined-only "$f" | grep 'plinth::')
if [ -n "$leaked" ]; then
  echo "FAIL $f exports SDK symbols:" >&2
  echo "$leaked" >&2
  exit 1
fi
echo "ok $f: no plinth:: symbol exported"
