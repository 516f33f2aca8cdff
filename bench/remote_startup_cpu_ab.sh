#!/usr/bin/env bash
# Two builds of bench_remote_startup_cpu side by side in one run (their start-up children
# alternate, so both see the same machine load): starts a redis-server, seeds it with the
# NEW build's full run (which also prints its own table), then ROUNDS rounds of one warm and
# one remote_batch child of each build, and prints P5/P50/P95 of each. Seeding builds the
# specs (NVRTC): a minute or two.
# Usage: bench/remote_startup_cpu_ab.sh OLD_BINARY NEW_BINARY [rounds=16] [specs=12]
# Both builds must compute the same keys (same toolchain and codegen).
set -euo pipefail
old=${1:?usage: bench/remote_startup_cpu_ab.sh OLD_BINARY NEW_BINARY [rounds] [specs]}
new=${2:?usage}
rounds=${3:-16}
specs=${4:-12}
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../scripts/redis-local.sh"
redis_start
work=$(mktemp -d)
trap 'redis_stop; rm -rf "$work"' EXIT
export CCCL_CACHE_BENCH_DIR=$work
"$new" "$REDIS_URL" 4 "$specs"  # seeds db 2 and $work/remote_startup_cpu/seed
seed=$work/remote_startup_cpu/seed
url=$REDIS_URL/2
for ((i = 0; i < rounds; ++i)); do
  for which in old new; do
    bin=$old
    [[ $which == new ]] && bin=$new
    echo "$which warm $("$bin" --child warm "$seed" "$url" "$specs")"
    echo "$which remote_batch $("$bin" --child remote_batch "$work/r-$which-$i" "$url" "$specs")"
  done
done >"$work/children.txt"
python3 - "$work/children.txt" <<'EOF'
import statistics, sys
runs = {}
for line in open(sys.argv[1]):
    which, state, _, *fields = line.split()
    for f in fields:
        k, v = f.split("=")
        runs.setdefault((which, state, k), []).append(float(v))
def pct(v, p):
    v = sorted(v); return v[min(len(v) - 1, int(round(p / 100 * (len(v) - 1))))]
for key in ["all_ms", "prefetch_ms"]:
    for state in ["warm", "remote_batch"]:
        for which in ["old", "new"]:
            v = runs.get((which, state, key))
            if v:
                print(f"{which:3} {state:12} {key:12} P5 {pct(v,5):7.3f}  P50 {pct(v,50):7.3f}  P95 {pct(v,95):7.3f} ms (n={len(v)})")
for which in ["old", "new"]:
    w, r = statistics.median(runs[(which, "warm", "all_ms")]), statistics.median(runs[(which, "remote_batch", "all_ms")])
    print(f"RESULT {which}: warm_ms_p50={w:.3f} remote_batch_ms_p50={r:.3f} batch_over_warm={r / w:.2f}")
EOF
