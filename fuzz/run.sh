#!/usr/bin/env bash
# Runs libFuzzer targets from a CCCL_CACHE_FUZZ=ON build.
# Usage: fuzz/run.sh BUILD_DIR LIMIT [TARGET...]
#   LIMIT: seconds per target (e.g. 20) or runs=N (e.g. runs=10000000).
#   TARGET: default all fuzz_* executables in BUILD_DIR/fuzz.
# Each target starts from its committed seeds (fuzz/corpus/<target>, read only) and a
# working corpus in BUILD_DIR/fuzz-corpus/<target> that persists between runs. Caps:
# 512 MB per allocation and RSS, 1 s per input. A crash, timeout or over-cap allocation
# leaves its input in BUILD_DIR/fuzz-artifacts/ and makes this script fail.
set -euo pipefail
src=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$1" && pwd)
limit=$2
shift 2
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for t in "$build"/fuzz/fuzz_*; do [ -x "$t" ] && targets+=("$(basename "$t")"); done
fi
case "$limit" in
  runs=*) budget=(-runs="${limit#runs=}") ;;
  *) budget=(-max_total_time="$limit") ;;
esac
# A small quarantine keeps ASan's own RSS well under the cap on long runs.
export ASAN_OPTIONS=${ASAN_OPTIONS:-quarantine_size_mb=64:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
status=0
for t in "${targets[@]}"; do
  work="$build/fuzz-corpus/$t"
  art="$build/fuzz-artifacts/$t/"
  mkdir -p "$work" "$art"
  echo "fuzz: $t (${limit})"
  if ! "$build/fuzz/$t" "${budget[@]}" -rss_limit_mb=512 -malloc_limit_mb=512 -timeout=1 \
       -print_final_stats=1 -artifact_prefix="$art" "$work" "$src/corpus/$t" \
       >"$build/fuzz-$t.log" 2>&1; then
    echo "fuzz: $t FAILED (log: $build/fuzz-$t.log, input in $art)" >&2
    tail -n 40 "$build/fuzz-$t.log" >&2
    status=1
  else
    grep -E '^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)' "$build/fuzz-$t.log" |
      tr '\n' ' '
    echo
  fi
done
exit $status
