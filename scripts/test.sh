#!/usr/bin/env bash
# Installs what is missing, builds everything and runs the whole test suite; then the
# suite built with ASan+UBSan (second build dir; without the GPU test binaries, which
# only skip here, and the NVRTC-only build suites: tests/libalgos/CMakeLists.txt) and
# every libFuzzer target for a short budget (third build dir, clang). CCCL_CACHE_QUICK=1 stops after the first pass.
# Usage: scripts/test.sh [extra ctest args]   (the args go to both ctest runs)
# Env: CCCL_CACHE_BUILD_DIR (build), CCCL_CACHE_SAN_BUILD_DIR (build-asan),
#      CCCL_CACHE_FUZZ_BUILD_DIR (build-fuzz), CCCL_CACHE_FUZZ_SECONDS (20 per target).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
export PATH="/usr/local/cuda/bin:$PATH"
jobs=$(nproc)
step() { echo "== test.sh: $* ($(date -u +%H:%M:%S))"; }

source scripts/cmake-flags.sh  # release_flags, as quickstart.sh's

step "build and test"
build=${CCCL_CACHE_BUILD_DIR:-build}
cmake -S . -B "$build" "${release_flags[@]}" -DCCCL_CACHE_BUILD_TESTS=ON >/dev/null
cmake --build "$build" -j"$jobs"
step "test"
(cd "$build" && ctest --output-on-failure -j"$jobs" --timeout 600 "$@")
[ "${CCCL_CACHE_QUICK:-0}" = 1 ] && exit 0

step "build and test under ASan+UBSan"
san=${CCCL_CACHE_SAN_BUILD_DIR:-build-asan}
# No GPU test binaries: without a device they only skip, and they are a third of the build.
# C++ at -O1, as ASan advises: it compiles faster than -O2 and keeps stacks readable
# (the later -D wins).
cmake -S . -B "$san" "${release_flags[@]}" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" \
  -DCCCL_CACHE_BUILD_TESTS=ON -DCCCL_CACHE_BUILD_GPU_TESTS=OFF \
  -DCCCL_CACHE_SANITIZE="address;undefined" >/dev/null
cmake --build "$san" -j"$jobs"
step "test under ASan+UBSan"
# Any UBSan report fails its test; leaks fail too, except allocations that NVRTC and
# nvJitLink make for themselves (scripts/lsan.supp).
(
  export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
  export LSAN_OPTIONS=suppressions=$PWD/scripts/lsan.supp:print_suppressions=0
  cd "$san" && ctest --output-on-failure -j"$jobs" --timeout 900 "$@"
)

step "fuzz every parser"
fz=${CCCL_CACHE_FUZZ_BUILD_DIR:-build-fuzz}
cmake -S . -B "$fz" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang-14 \
  -DCMAKE_CXX_COMPILER=clang++-14 -DCCCL_CACHE_FUZZ=ON -DCCCL_CACHE_BUILD_ALGOS=OFF \
  -DCCCL_CACHE_BUILD_TESTS=OFF >/dev/null
cmake --build "$fz" -j"$jobs" --target fuzz
fuzz/run.sh "$fz" "${CCCL_CACHE_FUZZ_SECONDS:-20}"
step "done"
