#!/usr/bin/env bash
# The main job on the embedded default (a local LMDB cache under ~/.cache/cccl-cache
# or $CCCL_CACHE_DIR): installs what is missing, builds, then acquires a float32
# merge sort through the store (building it on the first run, loading it after)
# and, where a GPU exists, sorts with it.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
export PATH="/usr/local/cuda/bin:$PATH"
build=${CCCL_CACHE_BUILD_DIR:-build}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j"$(nproc)" --target cccl-cache cccl-cache-demo
"$build/tools/cccl-cache-demo/cccl-cache-demo" "$@"
"$build/tools/cccl-cache/cccl-cache" ls
"$build/tools/cccl-cache/cccl-cache" stats
