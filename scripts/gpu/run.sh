#!/usr/bin/env bash
# Run THERE (the GPU machine), from the repository root, after scripts/gpu/prepare.sh
# and with .devcarry carried: the GPU tests and the merge-sort benchmarks. Logs go to
# $OUT (one file per part). Parts: CCCL_CACHE_GPU_PARTS (default
# "env tests query acquire sort demo"; also "ab": sort time of ours, CUB and nvcc's own
# cubin of our generated source, bench/codegen_ab.sh; "uniquebk_ab": the same for
# unique_by_key's int64 kernels, nvcc's and NVRTC 13.1's, bench/unique_by_key_ab.sh; "hit": where a store hit spends what the
# bare load does not, bench_merge_sort_hit_anatomy; "refw1": the reference library cuda.compute on
# the wave-1 specs (CCCL_CACHE_REFW1_SPECS=later: the later algorithms), bench/peers/reference_wave1.py,
# which needs .whl carried too; "python",
# "pybench", "cupy_adapter": the Python module, after scripts/gpu/prepare-python.sh; "refms": the
# reference's merge sort query and start-up (.whl carried); "capi": test_capi; "jit_libraries": test_algos_jit_libraries;
# "import_bench": bench/peers/import_bench.py; "foreach_tests" / "foreach_bench": for_each's GPU
# tests and its benchmark against cub::DeviceFor; "remote_startup": a
# new node's start-up over the remote tier (AlgorithmCache::prefetch then acquire, beside each
# acquire on its own), bench_remote_startup against the carried redis-server,
# started on 127.0.0.1 on a free port and stopped after). Never touches
# the user's cache: every store lives under a fresh temporary directory.
set -u -o pipefail
cd "$(dirname "$0")/../.."
root=$PWD
OUT=${OUT:-$root/gpu-out}
mkdir -p "$OUT"
bin=$root/.devcarry/bin
# prepare.sh carries the binaries as one xz archive (they share libalgos' bytes).
if [[ -f "$root/.devcarry/bin.tar.xz" && ! -d "$bin" ]]; then
  tar -C "$root/.devcarry" -xJf "$root/.devcarry/bin.tar.xz" || { echo "run.sh: cannot unpack bin.tar.xz" >&2; exit 1; }
fi
export LD_LIBRARY_PATH="$root/.devcarry/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
if [[ -z "${CCCL_CACHE_CUDA_INCLUDE:-}" && -d /usr/local/cuda/include ]]; then
  export CCCL_CACHE_CUDA_INCLUDE=/usr/local/cuda/include
fi
# The pinned CCCL 3.5.0 for NVRTC: the carried wheel, sha256-checked and unpacked here
# (no package index on this machine), not the toolkit's own CCCL.
if [[ -z "${CCCL_CACHE_CCCL_INCLUDE:-}" ]]; then
  wheel=$(ls "$root"/.devcarry/wheels/nvidia_cuda_cccl-13.3.5.0.6-*.whl 2>/dev/null | head -1)
  if [[ -z "$wheel" ]]; then
    echo "run.sh: no CCCL wheel in .devcarry/wheels (run scripts/gpu/prepare.sh)" >&2
    exit 1
  fi
  CCCL_WHEEL_SHA256=d5230098fa2df5021e1a00c0c4eee41797671a91119d31e892463e5ccf3ee326 \
    python3 "$root/scripts/unpack-cccl.py" "$wheel" "$root/.deps/cccl-3.5.0" || exit 1
  export CCCL_CACHE_CCCL_INCLUDE=$root/.deps/cccl-3.5.0/include
fi
scratch=$(mktemp -d /tmp/cccl-cache-gpu.XXXXXX)
export CCCL_CACHE_DIR=$scratch/cache TMPDIR=$scratch
parts=${CCCL_CACHE_GPU_PARTS:-"env tests query acquire sort demo"}
status=0

part() {  # part NAME TIMEOUT CMD...
  local name=$1 limit=$2; shift 2
  local t0=$SECONDS
  echo "=== $name: $*" | tee "$OUT/$name.log"
  timeout "$limit" "$@" >>"$OUT/$name.log" 2>&1
  local rc=$?
  echo "=== $name: exit $rc after $((SECONDS - t0)) s" | tee -a "$OUT/$name.log"
  [[ $rc -eq 0 ]] || status=1
}

for p in $parts; do
  case $p in
    env)
      {
        echo "binaries built from commit $(cat .devcarry/COMMIT 2>/dev/null)"
        date -u; uname -a; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu --format=csv
        ls /usr/local/cuda/lib64/ | grep -E 'libnvrtc|libnvJitLink' | head; nproc
        echo "CCCL for NVRTC: $CCCL_CACHE_CCCL_INCLUDE"; grep '^#define CCCL_VERSION' "$CCCL_CACHE_CCCL_INCLUDE/cuda/std/__cccl/version.h"
        for b in "$bin"/*; do ldd "$b" | grep 'not found' && echo "MISSING libs for $b"; done; true
      } >"$OUT/env.log" 2>&1
      cat "$OUT/env.log" ;;
    tests) part tests 170 "$bin/test_algos_executable_gpu" ;;
    # Every carried algorithm's GPU tests at once, one process each (NVRTC builds, one core
    # each, dominate their time); logs as the single parts' (tests, scan_tests, ...).
    gpu_tests)
      for t in tests:executable scan_tests:scan transform_tests:transform reduce_tests:reduce \
               radix_tests:radix_sort argsort_tests:argsort segreduce_tests:segmented_reduce \
               uniquebk_tests:unique_by_key select_tests:select \
               twp_tests:three_way_partition hist_tests:histogram_even bsearch_tests:binary_search \
               segsort_tests:segmented_sort \
               opstate_tests:op_state iterator_tests:iterator struct_tests:struct_types \
               sbk_tests:scan_by_key bool_tests:bool foreach_tests:for_each; do
        # The iterator binary holds every algorithm's iterator tests: the longest (above 400 s).
        limit=400; [[ $t == iterator_tests:* ]] && limit=560
        [[ -x "$bin/test_algos_${t#*:}_gpu" ]] && part "${t%%:*}" "$limit" "$bin/test_algos_${t#*:}_gpu" &
      done
      wait
      grep -L 'exit 0 after' "$OUT"/*tests.log 2>/dev/null | grep -q . && status=1 ;;
    query) part query 40 "$bin/bench_merge_sort_query" 101 20000 ;;
    acquire) part acquire 150 "$bin/bench_merge_sort_acquire" 16 ;;
    hit) part hit 150 "$bin/bench_merge_sort_hit_anatomy" 16 ;;
    sort) part sort 140 "$bin/bench_merge_sort_vs_cub" 28 ;;
    ab)
      part ab 300 "$bin/bench_merge_sort_vs_cub" 26 --alt nvcc .devcarry/ab/keys.nvcc.cubin \
        .devcarry/ab/pairs.nvcc.cubin ;;
    demo) part demo 30 "$bin/cccl-cache-demo" ;;
    # Wave-1 algorithms: their GPU tests and their run time against CUB's own.
    scan_tests) part scan_tests 300 "$bin/test_algos_scan_gpu" ;;
    scan_bench) part scan_bench 300 "$bin/bench_scan_vs_cub" 28 ;;
    transform_tests) part transform_tests 300 "$bin/test_algos_transform_gpu" ;;
    transform_bench) part transform_bench 300 "$bin/bench_transform_vs_cub" 28 ;;
    reduce_tests) part reduce_tests 300 "$bin/test_algos_reduce_gpu" ;;
    reduce_bench) part reduce_bench 300 "$bin/bench_reduce_vs_cub" 28 ;;
    iterator_bench) part iterator_bench 300 "$bin/bench_iterator_vs_cub" 28 ;;
    transform_iterator_bench) part transform_iterator_bench 300 "$bin/bench_transform_iterator_vs_cub" 28 ;;
    selection_iterator_bench) part selection_iterator_bench 300 "$bin/bench_selection_iterator_vs_cub" 28 ;;
    segreduce_tests) part segreduce_tests 300 "$bin/test_algos_segmented_reduce_gpu" ;;
    segreduce_bench) part segreduce_bench 400 "$bin/bench_segmented_reduce_vs_cub" 28 ;;
    uniquebk_tests) part uniquebk_tests 300 "$bin/test_algos_unique_by_key_gpu" ;;
    uniquebk_bench) part uniquebk_bench 400 "$bin/bench_unique_by_key_vs_cub" 28 ;;
    select_tests) part select_tests 300 "$bin/test_algos_select_gpu" ;;
    select_bench) part select_bench 400 "$bin/bench_select_vs_cub" 28 ;;
    twp_tests) part twp_tests 300 "$bin/test_algos_three_way_partition_gpu" ;;
    twp_bench) part twp_bench 400 "$bin/bench_three_way_partition_vs_cub" 28 ;;
    hist_tests) part hist_tests 300 "$bin/test_algos_histogram_even_gpu" ;;
    hist_bench) part hist_bench 400 "$bin/bench_histogram_even_vs_cub" 28 ;;
    bsearch_tests) part bsearch_tests 300 "$bin/test_algos_binary_search_gpu" ;;
    bsearch_bench) part bsearch_bench 400 "$bin/bench_binary_search_vs_cub" 28 ;;
    segsort_tests) part segsort_tests 400 "$bin/test_algos_segmented_sort_gpu" ;;
    segsort_bench) part segsort_bench 500 "$bin/bench_segmented_sort_vs_cub" 28 ;;
    sbk_tests) part sbk_tests 400 "$bin/test_algos_scan_by_key_gpu" ;;
    sbk_bench) part sbk_bench 500 "$bin/bench_scan_by_key_vs_cub" "${CCCL_CACHE_SBK_MAX_LOG:-28}" ;;
    opstate_tests) part opstate_tests 300 "$bin/test_algos_op_state_gpu" ;;
    foreach_tests) part foreach_tests 300 "$bin/test_algos_for_each_gpu" ;;
    foreach_bench) part foreach_bench 300 "$bin/bench_for_each_vs_cub" 28 ;;
    bool_tests) part bool_tests 300 "$bin/test_algos_bool_gpu" ;;
    iterator_tests) part iterator_tests 560 "$bin/test_algos_iterator_gpu" ;;
    struct_tests) part struct_tests 300 "$bin/test_algos_struct_types_gpu" ;;
    # Its int64 kernels as nvcc and NVRTC 13.1 compile them, bound like ours (prepare.sh makes them).
    uniquebk_ab) part uniquebk_ab 500 "$bin/bench_unique_by_key_vs_cub" 28 20 \
      --alt nvcc .devcarry/ab/ubk_int64.nvcc.cubin --alt nvrtc13.1 .devcarry/ab/ubk_int64.nvrtc13.1.cubin ;;
    radix_tests) part radix_tests 300 "$bin/test_algos_radix_sort_gpu" ;;
    argsort_tests) part argsort_tests 300 "$bin/test_algos_argsort_gpu" ;;
    radix_bench) part radix_bench 300 "$bin/bench_radix_sort_vs_cub" 28 ;;
    # The same with float keys uniform in [0, 1), as CuPy's and the reference's benchmarks draw them.
    radix_bench_unit) part radix_bench_unit 300 env CCCL_CACHE_BENCH_KEYS=unit "$bin/bench_radix_sort_vs_cub" 28 ;;
    radix_memcheck) part radix_memcheck 200 /usr/local/cuda/bin/compute-sanitizer --print-limit 4 \
      "$bin/bench_radix_sort_vs_cub" 18 18 ;;
    algos_acquire) part algos_acquire 200 "$bin/bench_algorithms_acquire" 16 51 20000 ;;
    # Start-up acquiring 12 specs: warm local vs cold local + remote hit vs cold everything,
    # against the carried redis-server (scripts/redis-local.sh; its log in $OUT).
    remote_startup)
      source "$root/scripts/redis-local.sh"
      if REDIS_LD_LIBRARY_PATH="$root/.devcarry/redis/lib:$root/.devcarry/lib" REDIS_LOG="$OUT/redis-server.log" \
           redis_start "$root/.devcarry/redis/redis-server" >"$OUT/remote_startup.log" 2>&1; then
        cat "$OUT/remote_startup.log"
        part remote_startup_run 400 "$bin/bench_remote_startup" "$REDIS_URL" \
          ${CCCL_CACHE_REMOTE_STARTUP_ARGS:-16 12 2}
        cat "$OUT/remote_startup_run.log" >>"$OUT/remote_startup.log"
        rm -f "$OUT/remote_startup_run.log"
        redis_stop
      else
        cat "$OUT/remote_startup.log"; status=1
      fi ;;
    # CuPy's sort / sum / max / cumsum / elementwise add on the same sizes (the image's CuPy);
    # CCCL_CACHE_CUPY_OPS=later: its counterparts of the later algorithms, checked against NumPy.
    cupy) part cupy 300 python3 bench/peers/cupy_wave1.py 28 10 "${CCCL_CACHE_CUPY_OPS:-sort,sum,max,cumsum,add}" ;;
    # The reference library (cuda.compute, the carried cuda-cccl wheel in .whl/) on the wave-1
    # specs, or those CCCL_CACHE_REFW1_SPECS names ("later": the algorithms added after wave 1;
    # "all"; or algorithm names): build, query, new-process readiness and run time per size
    # (bench/peers/README.md).
    refw1)
      part refw1 240 bash -c 'bash bench/peers/install_wheels.sh &&
        PYTHONPATH=/tmp/site${PYTHONPATH:+:$PYTHONPATH} exec python3 bench/peers/reference_wave1.py \
          "$1" --blob-dir "$2" --specs "$3" ${CCCL_CACHE_REFW1_ARGS:-}' _ "$OUT/reference_wave1.json" \
          "$scratch/refw1-blobs" "${CCCL_CACHE_REFW1_SPECS:-wave1}" ;;
    # The reference's merge sort query, fresh and deserialized, and its new-process start-up
    # (reference_bench.py without the sort curves), beside "pybench" in the same call.
    refms)
      part refms 200 bash -c 'bash bench/peers/install_wheels.sh &&
        PYTHONPATH=/tmp/site${PYTHONPATH:+:$PYTHONPATH} exec python3 bench/peers/reference_bench.py \
          "$1" --skip-sort' _ "$OUT/reference.json" ;;
    # The C ABI's test program (C11) with its GPU half: libcccl_cache.so travels in lib/.
    capi) part capi 200 "$bin/test_capi" ;;
    # NVRTC and nvJitLink loaded at the first build only; a store hit binds without them.
    jit_libraries) part jit_libraries 200 "$bin/test_algos_jit_libraries" ;;
    # `import cccl_cache` in new processes (no CuPy first), against bare Python start-up.
    import_bench) part import_bench 200 env PYTHONPATH="$root/.devcarry/python" \
      python3 bench/peers/import_bench.py "$OUT/import_bench.json" ;;
    # The Python module (scripts/gpu/prepare-python.sh): its GPU tests, then the per-call
    # cost and start-up from Python (bench/peers/python_bench.py, JSON in $OUT).
    python) part python 300 env PYTEST_DISABLE_PLUGIN_AUTOLOAD=1 PYTHONPATH="$root/.devcarry/python:$root/.devcarry/pylib" \
      python3 -m pytest -q -p no:cacheprovider -rs python/tests ;;
    pybench) part pybench 500 env PYTHONPATH="$root/.devcarry/python" \
      python3 bench/peers/python_bench.py "$OUT/python_bench.json" ;;
    cupy_adapter) part cupy_adapter 200 env PYTHONPATH="$root/.devcarry/python" \
      python3 examples/python/cupy_adapter.py ;;
    *) echo "unknown part $p" ;;
  esac
done

echo "================ summary"
for f in tests query acquire hit sort ab demo scan_tests scan_bench transform_tests \
  transform_bench reduce_tests reduce_bench segreduce_tests segreduce_bench uniquebk_tests uniquebk_bench select_tests select_bench twp_tests twp_bench hist_tests hist_bench bsearch_tests bsearch_bench segsort_tests segsort_bench sbk_tests sbk_bench opstate_tests bool_tests iterator_tests iterator_bench struct_tests radix_tests argsort_tests radix_bench radix_bench_unit \
  cupy algos_acquire \
  remote_startup refw1 refms capi jit_libraries python pybench import_bench cupy_adapter; do
  [[ -f "$OUT/$f.log" ]] || continue
  echo "--- $f"
  case $f in
    tests|*_tests) grep -E '^\[  (PASSED|FAILED|SKIPPED) |^\[==========\]|Failure' "$OUT/$f.log" | tail -20 ;;
    sort|ab|cupy|*_bench) grep -E '^RESULT|^Method|^codegen' "$OUT/$f.log" | cut -c1-160 ;;
    hit) grep -E '^RESULT' "$OUT/$f.log" | tr ' ' '\n' ;;
    refw1) grep -E '^RESULT peer=reference (spec|all)|rror' "$OUT/$f.log" | cut -c1-240 ;;
    *) grep -vE '^\[' "$OUT/$f.log" | tail -32 ;;
  esac
done
# The device tool brings back at most 8 files: everything travels as one archive.
if [[ "${CCCL_CACHE_GPU_PACK:-1}" = 1 ]]; then
  tar -czf "$scratch/results.tgz" -C "$OUT" . && rm -rf "${OUT:?}"/* && mv "$scratch/results.tgz" "$OUT/"
fi
rm -rf "$scratch"
exit $status
