#!/usr/bin/env bash
# Installs the current build into a temporary prefix, then configures, builds and unit-tests
# each example plugin OUT OF TREE against it (find_package(Plinth) with CMAKE_PREFIX_PATH), and
# checks each example .so exports only plinth_plugin_entry_v1.
# usage: build_examples.sh BUILD_DIR SOURCE_DIR WORK_DIR GENERATOR BUILD_TYPE [EXTRA_FLAGS]
set -eu
build=$1 src=$2 work=$3 generator=$4 build_type=$5 flags=${6:-}
prefix="$work/prefix"
rm -rf "$work" && mkdir -p "$work"

echo "== install $build into $prefix"
cmake --install "$build" --prefix "$prefix" >"$work/install.log" || {
  cat "$work/install.log" >&2
  exit 1
}

for ex in hello hello_c replicate; do
  echo "== $ex: configure, build, test out of tree"
  cmake -S "$src/examples/$ex" -B "$work/$ex" -G "$generator" -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_BUILD_TYPE="$build_type" -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags" \
    -DCMAKE_EXE_LINKER_FLAGS="$flags" -DCMAKE_MODULE_LINKER_FLAGS="$flags" >"$work/$ex.configure.log" ||
    { cat "$work/$ex.configure.log" >&2; exit 1; }
  cmake --build "$work/$ex" >"$work/$ex.build.log" 2>&1 || { cat "$work/$ex.build.log" >&2; exit 1; }
  ctest --test-dir "$work/$ex" --output-on-failure
  # The server refuses plugin files that group or others may write, whatever the umask was.
  chmod 0755 "$work/$ex/$ex.so"
done

echo "== exported symbols"
bash "$src/tests/abi/exports.sh" "$work/hello/hello.so" "$work/hello_c/hello_c.so" \
  "$work/replicate/replicate.so"
