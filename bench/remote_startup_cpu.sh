#!/usr/bin/env bash
# A new node's start-up from the remote tier, CPU side (bench_remote_startup_cpu): starts
# a local redis-server on a free port, runs the benchmark against it, stops it.
# Usage: bench/remote_startup_cpu.sh BUILD_DIR [children=16] [specs=12]
set -euo pipefail
build=${1:?usage: bench/remote_startup_cpu.sh BUILD_DIR [children] [specs]}
shift
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../scripts/redis-local.sh"
redis_start
trap redis_stop EXIT
"$build/bench/bench_remote_startup_cpu" "$REDIS_URL" "$@"
