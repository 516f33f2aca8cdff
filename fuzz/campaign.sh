#!/usr/bin/env bash
# A long campaign (docs/fuzzing.md): for each TARGET:W, W parallel libFuzzer workers
# (-jobs=W -workers=W) share one working corpus and run 10^7 inputs in total
# (ceil(10^7/W) each), capped at CAP seconds. Leaves, per target in OUT_DIR, the
# command, each worker's last log lines (fuzz-N.log.tail), its first error if any
# (fuzz-N.log.err) and any crash/timeout/oom input (art/); prints the totals.
# Usage: fuzz/campaign.sh BIN_DIR CORPUS_DIR OUT_DIR CAP "fuzz_config:4 fuzz_manifest:8 ..."
set -u
bin=$(cd "$1" && pwd); seeds=$(cd "$2" && pwd); out=$3; cap=$4; spec=$5
mkdir -p "$out"; out=$(cd "$out" && pwd)
export ASAN_OPTIONS=${ASAN_OPTIONS:-quarantine_size_mb=64:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
for ts in $spec; do
  t=${ts%%:*}; n=${ts##*:}; d=$out/$t; mkdir -p "$d/corpus" "$d/art"
  runs=$(( (10000000 + n - 1) / n ))
  cp -r "$seeds/$t/." "$d/corpus/"
  args=(-jobs="$n" -workers="$n" -runs="$runs" -max_total_time="$cap" -rss_limit_mb=512
        -malloc_limit_mb=512 -timeout=1 -print_final_stats=1 -artifact_prefix="$d/art/")
  echo "$t ${args[*]}" > "$d/command"
  ( cd "$d" && "$bin/$t" "${args[@]}" "$d/corpus" > "$d/parent.log" 2>&1 ) &
done
wait
for ts in $spec; do
  t=${ts%%:*}; d=$out/$t
  for f in "$d"/fuzz-*.log; do
    grep -B2 -A40 -m1 "ERROR\|runtime error" "$f" > "$f.err"; tail -n 8 "$f" > "$f.tail"; rm "$f"
  done
  total=$(cat "$d"/fuzz-*.log.tail | awk '/^stat::number_of_executed_units/ {s += $2} END {print s}')
  echo "$t: $total inputs, $(ls "$d/art" | wc -l) artifacts, corpus $(ls "$d/corpus" | wc -l)"
done
