#!/usr/bin/env bash
# Installs the build tree into a temporary prefix and builds and runs, against it only:
#   - a plain CMake consumer (find_package(cccl_cache); cccl_cache::algos, cccl_cache::c);
#   - the C example and the C++ consumer through pkg-config (cccl_cache, cccl_cache_algos).
# usage: run.sh BUILD_DIR SOURCE_DIR [C_COMPILER CXX_COMPILER]
set -euo pipefail
build=$1 src=$2 cc=${3:-cc} cxx=${4:-c++}
work=$(mktemp -d "${TMPDIR:-/tmp}/cccl-cache-install-XXXXXX")
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix

cmake --install "$build" --prefix "$prefix" > "$work/install.log"
echo "installed into $prefix"

cmake -S "$src/tests/install/consumer" -B "$work/cmake" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_C_COMPILER="$cc" -DCMAKE_CXX_COMPILER="$cxx" \
  -DCCCL_CACHE_EXAMPLE_DIR="$src/examples/c" > "$work/configure.log" ||
  { cat "$work/configure.log"; exit 1; }
cmake --build "$work/cmake" -j2
echo "--- CMake consumer (cccl_cache::algos)"
"$work/cmake/consumer" "$work/store-cmake"
echo "--- CMake C example (cccl_cache::c)"
CCCL_CACHE_DIR=$work/store-c "$work/cmake/sort_floats" 1000

export PKG_CONFIG_PATH=$(dirname "$(find "$prefix" -name cccl_cache.pc)")
libdir=$(pkg-config --variable=libdir cccl_cache)
cuda=$(dirname "$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)")/..
echo "--- pkg-config C example (cccl_cache)"
# shellcheck disable=SC2046
"$cc" -std=c11 -Wall -Wextra -Werror -pedantic "$src/examples/c/sort_floats.c" -o "$work/sort_floats" \
  $(pkg-config --cflags --libs cccl_cache) -Wl,-rpath,"$libdir" \
  -I"$cuda/include" -L"$cuda/lib64" -lcudart_static -lrt -ldl -lpthread
CCCL_CACHE_DIR=$work/store-pc "$work/sort_floats" 1000
echo "--- pkg-config C++ consumer (cccl_cache_algos)"
# shellcheck disable=SC2046
"$cxx" "$src/tests/install/consumer/consumer.cpp" -o "$work/consumer" \
  $(pkg-config --cflags cccl_cache_algos) $(pkg-config --libs cccl_cache_algos)
"$work/consumer" "$work/store-pc-cpp"
echo "install test passed"
