#!/usr/bin/env bash
# The cold-miss storm (bench_cold_miss_storm) with its two-host scenario: starts a
# local redis-server on a free port, runs the benchmark against it, stops it.
# Usage: bench/cold_miss_storm.sh BUILD_DIR [bench options, e.g. --procs 16 --reps 3]
set -euo pipefail
build=${1:?usage: bench/cold_miss_storm.sh BUILD_DIR [options]}
shift
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../scripts/redis-local.sh"
redis_start
trap redis_stop EXIT
"$build/bench/bench_cold_miss_storm" --redis "$REDIS_URL" "$@"
