#!/usr/bin/env bash
# The whole side-by-side benchmark, in one call, ON THE GPU MACHINE, from the
# repository root:
#
#   bench/peers/run_all.sh [--quick]
#
# Needs: the carried wheels in .whl/ (bench/peers/fetch_wheels.sh, run on the
# development machine) and, for our side, the binaries carried in .devcarry/
# (scripts/gpu/prepare.sh); run with carry [".whl", ".devcarry"].
#
# Parts, each logged and each allowed to fail without stopping the others:
#   1. environment (GPU, driver, Python packages)
#   2. install the cuda-cccl wheel into /tmp/site (+ fallbacks if import fails;
#      bench/peers/install_wheels.sh)
#   3. bench/peers/reference_bench.py -> $OUT/reference.json
#   4. our C++ benchmarks: scripts/gpu/run.sh with its parts "env query acquire
#      sort" (PEERS_OURS_PARTS overrides); its logs go to $OUT/ours/
#   5. bench/peers/report.py -> $OUT/peers-report.md (also printed last)
# Everything is logged to $OUT/peers.log. Total runtime is bounded by per-part
# timeouts (env 20 s, install 45, reference 120, ours: env 20 + query 45 +
# acquire 150 + sort 180, report 20: 600 s at most, inside the device tool's
# 10-minute command limit if nothing else runs; 17 s measured for the Python
# side, a few minutes expected in all).
#
# --quick: fewer trials and sort sizes up to 2^20 (a smoke test).
# PEERS_SKIP_OURS=1: leave out part 4. PEERS_OURS_PARTS="...": run.sh's parts.
# PEERS_COMMIT=<sha>: the commit to record (the device copy has no .git).
set -u
set -o pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 2
root="$PWD"
OUT="${OUT:-$root/peers-out}"
mkdir -p "$OUT" "$OUT/ours"
export PYTHONUNBUFFERED=1
# cuda.pathfinder looks for NVRTC/nvJitLink in pip wheels first; the toolkit is
# its fallback.
if [[ -z "${CUDA_HOME:-}" && -d /usr/local/cuda ]]; then export CUDA_HOME=/usr/local/cuda; fi
log="$OUT/peers.log"
: >"$log"
failures=()
quick=0
[[ "${1:-}" == "--quick" ]] && quick=1

say() { echo "$*" | tee -a "$log"; }

# run_part NAME TIMEOUT_S CMD...: runs CMD with a timeout, output to the log
# and the terminal; records a failure without stopping the script.
run_part() {
  local name="$1" limit="$2"; shift 2
  say ""
  say "=== [$name] $(date -u +%H:%M:%S) (limit ${limit}s): $*"
  local t0=$SECONDS rc
  # A shell function runs in a child bash (timeout needs a program); the
  # functions and variables it uses are exported below.
  if declare -F "$1" >/dev/null; then set -- bash -c '"$@"' _ "$@"; fi
  timeout --kill-after=10 "$limit" "$@" 2>&1 | tee -a "$log"
  rc=${PIPESTATUS[0]}
  say "=== [$name] rc=$rc after $((SECONDS - t0))s"
  if [[ $rc -ne 0 ]]; then failures+=("$name(rc=$rc)"); fi
  return $rc
}

py=python3

env_info() {
  date -u
  # The device copy of the tree may have no .git: PEERS_COMMIT (set by the
  # caller, e.g. PEERS_COMMIT=$(git rev-parse HEAD) in the command) or
  # .devcarry/COMMIT name the commit then.
  local c="${PEERS_COMMIT:-}"
  [[ -n "$c" ]] || c="$(git -C "$root" rev-parse --verify -q HEAD 2>/dev/null)"
  [[ -n "$c" ]] || c="$(head -n1 "$root/.devcarry/COMMIT" 2>/dev/null)"
  echo "commit: ${c:-unknown}"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem,temperature.gpu --format=csv
  nvcc --version 2>/dev/null | tail -2
  $py --version
  $py -m pip list 2>/dev/null | grep -i -E '^(cuda|cupy|numpy|numba|nvidia-cuda-nvrtc|nvidia-nvjitlink|nvidia-cuda-runtime)' || true
  ls -la .whl .whl/fallback 2>/dev/null
  ls -la .devcarry 2>/dev/null | head -40
  return 0
}

export py root
export -f env_info
run_part env 20 env_info

if run_part install 45 bash bench/peers/install_wheels.sh; then
  export PYTHONPATH=/tmp/site${PYTHONPATH:+:$PYTHONPATH}
  if [[ $quick -eq 1 ]]; then
    ref_args=(--trials 11 --queries 2000 --child-runs 2 --max-log 20)
  else
    ref_args=(--trials 51 --queries 5000 --child-runs 3)
  fi
  run_part reference 120 $py bench/peers/reference_bench.py "$OUT/reference.json" \
    --blob-out /tmp/peers-reference.blob "${ref_args[@]}"
else
  say "skipping reference_bench.py: cuda.compute is not importable"
fi

# Our side: scripts/gpu/run.sh's parts (its defaults include the GPU tests and
# the demo; the peers run takes only the benchmarks unless told otherwise).
ours_parts="${PEERS_OURS_PARTS:-env query acquire sort}"
if [[ -n "${PEERS_SKIP_OURS:-}" ]]; then
  say "PEERS_SKIP_OURS is set: our C++ side was not run"
elif [[ ! -d .devcarry/bin ]]; then
  say ".devcarry/bin is absent (run scripts/gpu/prepare.sh here-side and carry .devcarry): our C++ side was not run"
  failures+=("ours(no .devcarry)")
elif [[ -f scripts/gpu/run.sh ]]; then
  # One run.sh call per part, each with its own limit, so that one part that
  # hangs costs only its own time (run.sh has inner limits too).
  for p in $ours_parts; do
    case $p in
      env) lim=20 ;; query) lim=45 ;; acquire) lim=150 ;; sort) lim=180 ;; *) lim=120 ;;
    esac
    run_part "ours-$p" "$lim" env OUT="$OUT/ours" CCCL_CACHE_GPU_PARTS="$p" bash scripts/gpu/run.sh
  done
else
  say "scripts/gpu/run.sh is absent: our C++ side was not run"
  failures+=("ours(absent)")
fi

# At most 8 files come back from $OUT: fold our side's minor logs into one,
# keeping a slot for the report written next.
fold_minor_logs() {
  local total keep f
  total=$(find "$OUT" -type f | wc -l)
  [[ -f "$OUT/peers-report.md" ]] || total=$((total + 1))
  (( total > 8 )) || return 0
  for f in "$OUT"/ours/*; do
    keep=0
    case "$(basename "$f")" in query.log|acquire.log|sort.log|other.log) keep=1 ;; esac
    (( keep )) && continue
    { echo "##### $(basename "$f")"; cat "$f"; } >>"$OUT/ours/other.log" && rm -f "$f"
  done
  say "folded minor logs into ours/other.log ($total files were under \$OUT)"
}
fold_minor_logs

run_part report 20 $py bench/peers/report.py --reference "$OUT/reference.json" \
  --ours "$OUT/ours" --env-log "$log" --out "$OUT/peers-report.md" --quiet

say ""
if [[ ${#failures[@]} -eq 0 ]]; then
  say "run_all: all parts succeeded"
else
  say "run_all: failed parts: ${failures[*]}"
fi
[[ -f "$OUT/peers-report.md" ]] && cat "$OUT/peers-report.md"
[[ ${#failures[@]} -eq 0 ]]
