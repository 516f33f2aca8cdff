#!/usr/bin/env bash
# The main job on the embedded default (a local LMDB cache under ~/.cache/cccl-cache
# or $CCCL_CACHE_DIR): installs what is missing, builds, then acquires a float32
# merge sort through the store (building it on the first run, loading it after)
# and, where a GPU exists, sorts with it.
#
# The CLI is built at $build/tools/cccl-cache/cccl-cache (not on PATH); the script
# says so at the end. CCCL_CACHE_LINK_DIR=~/.local/bin also links it there.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${CCCL_CACHE_BUILD_DIR:-build}
cli="$build/tools/cccl-cache/cccl-cache"
if [ ! -x "$cli" ]; then
  echo "quickstart: first run: installing what is missing and compiling cccl-cache takes" \
       "several minutes (longer on few cores); later runs take seconds"
fi
scripts/install-deps.sh
export PATH="/usr/local/cuda/bin:$PATH"
source scripts/cmake-flags.sh  # release_flags, as test.sh's
cmake -S . -B "$build" "${release_flags[@]}" >/dev/null
cmake --build "$build" -j"$(nproc)" --target cccl-cache cccl-cache-demo
"$build/tools/cccl-cache-demo/cccl-cache-demo" "$@"
echo "\$ $cli ls"
"$cli" ls
echo "\$ $cli stats"
"$cli" stats
case "$cli" in /*) cli_abs="$cli" ;; *) cli_abs="$(pwd)/$cli" ;; esac
if [ -n "${CCCL_CACHE_LINK_DIR:-}" ]; then
  mkdir -p "$CCCL_CACHE_LINK_DIR"
  ln -sfn "$cli_abs" "$CCCL_CACHE_LINK_DIR/cccl-cache"
  echo "quickstart: linked $CCCL_CACHE_LINK_DIR/cccl-cache -> $cli_abs"
elif ! command -v cccl-cache >/dev/null 2>&1; then
  echo "quickstart: the cccl-cache CLI is $cli_abs (not on PATH). Run it by that path, or link it:"
  echo "  ln -s \"$cli_abs\" ~/.local/bin/cccl-cache    # or: CCCL_CACHE_LINK_DIR=~/.local/bin scripts/quickstart.sh"
fi
