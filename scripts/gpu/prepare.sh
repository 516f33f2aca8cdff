#!/usr/bin/env bash
# Run HERE (the development machine): builds the GPU tests and merge-sort benchmarks
# in Release for plain x86-64 into build-gpu/ and copies them, with the shared
# libraries the GPU machine's Ubuntu + CUDA image lacks, into .devcarry/ (ignored by
# git). Then call the device tool with carry [".devcarry"] and the command
# `bash scripts/gpu/run.sh`. The pinned CCCL wheel (4 MB) travels in .devcarry/wheels;
# run.sh unpacks it there (the GPU machine has no package index), for NVRTC.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
# The pinned CCCL 3.5.0 (.deps/, fetched and checked by install-deps.sh): nvcc compiles
# the snapshot's dispatch.cu and benchmarks against it, NVRTC here (codegen_ab) too.
cccl_inc=$root/.deps/cccl-3.5.0/include
cccl_wheel=$root/.deps/wheels/nvidia_cuda_cccl-13.3.5.0.6-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl
[[ -f "$cccl_inc/cuda/std/__cccl/version.h" && -f "$cccl_wheel" ]] || bash scripts/install-deps.sh
export CCCL_CACHE_CCCL_INCLUDE=$cccl_inc
build=${CCCL_CACHE_GPU_BUILD_DIR:-build-gpu}
src=${build}-src
targets=(test_algos_executable_gpu test_algos_temp_storage bench_merge_sort_query bench_merge_sort_acquire
         bench_merge_sort_vs_cub bench_merge_sort_hit_anatomy cccl-cache-demo)
# Wave-1 algorithms present in this tree. All binaries together exceed the 64 MiB carry
# limit: CCCL_CACHE_GPU_TARGETS="t1 t2 ..." carries only those (the run's parts).
for t in bench_algorithms_acquire bench_remote_startup test_algos_scan_gpu bench_scan_vs_cub test_algos_transform_gpu bench_transform_vs_cub \
         test_algos_reduce_gpu bench_reduce_vs_cub test_algos_radix_sort_gpu test_algos_argsort_gpu bench_radix_sort_vs_cub \
         test_algos_segmented_reduce_gpu bench_segmented_reduce_vs_cub test_algos_unique_by_key_gpu \
         bench_unique_by_key_vs_cub test_algos_select_gpu bench_select_vs_cub \
         test_algos_three_way_partition_gpu bench_three_way_partition_vs_cub \
         test_algos_histogram_even_gpu bench_histogram_even_vs_cub \
         test_algos_binary_search_gpu bench_binary_search_vs_cub \
         test_algos_segmented_sort_gpu bench_segmented_sort_vs_cub test_algos_op_state_gpu test_algos_bool_gpu \
         test_algos_iterator_gpu test_algos_struct_types_gpu test_algos_scan_by_key_gpu \
         bench_scan_by_key_vs_cub bench_iterator_vs_cub \
         bench_transform_iterator_vs_cub bench_selection_iterator_vs_cub test_algos_for_each_gpu \
         bench_for_each_vs_cub; do
  if grep -rqs "($t " "$(git rev-parse --show-toplevel)"/{tests,bench}/*/CMakeLists.txt \
       "$(git rev-parse --show-toplevel)"/bench/CMakeLists.txt; then targets+=("$t"); fi
done
if [[ -n "${CCCL_CACHE_GPU_TARGETS:-}" ]]; then read -r -a targets <<<"$CCCL_CACHE_GPU_TARGETS"; fi
export PATH="/usr/local/cuda/bin:$PATH"
# Build exactly the committed tree (HEAD), not the working tree others are editing:
# a snapshot in $src, where only files whose content changed are rewritten (so that
# rebuilds stay incremental).
head=$(git rev-parse HEAD)
snap=$(mktemp -d)
git archive "$head" | tar -x -C "$snap"
python3 - "$snap" "$src" <<'PY'
import filecmp, os, shutil, sys
snap, dst = sys.argv[1], sys.argv[2]
keep = set()
for root, _, files in os.walk(snap):
    for f in files:
        rel = os.path.relpath(os.path.join(root, f), snap)
        keep.add(rel)
        d = os.path.join(dst, rel)
        if not os.path.exists(d) or not filecmp.cmp(os.path.join(snap, rel), d, shallow=False):
            os.makedirs(os.path.dirname(d), exist_ok=True)
            shutil.copy(os.path.join(snap, rel), d)  # dated now: the archive dates files by the commit
for root, _, files in os.walk(dst):
    for f in files:
        rel = os.path.relpath(os.path.join(root, f), dst)
        if rel not in keep:
            os.remove(os.path.join(root, f))
PY
rm -rf "$snap"
if [[ ! -f "$build/CMakeCache.txt" ]]; then
  # No -march=native: the binaries run on another machine. The driver-stub rpath
  # (<build>/cuda-stub, for test discovery here) does not exist there: the real
  # libcuda.so.1 is used.
  cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCCCL_CACHE_BUILD_BENCH=ON \
    -DCCCL_CACHE_CCCL_INCLUDE_DIR="$cccl_inc" >/dev/null
fi
# Every time: a build dir configured before CCCL was pinned lacks it, and the snapshot
# has no .deps/ of its own.
cmake "$build" -DCCCL_CACHE_CCCL_INCLUDE_DIR="$cccl_inc" >/dev/null
cmake --build "$build" -j"$(nproc)" --target "${targets[@]}" bench_cubin_sizes_tool

carry=.devcarry
rm -rf "$carry"
mkdir -p "$carry/bin" "$carry/lib"
for t in "${targets[@]}"; do
  f=$(find "$build" -type f -name "$t" -perm -u+x | head -1)
  [[ -n "$f" ]] || { echo "prepare: $t not built" >&2; exit 1; }
  cp "$f" "$carry/bin/"
  strip --strip-all "$carry/bin/$t"
done
# Libraries: everything ldd resolves except glibc, the C++ runtime (the GPU machine's
# is newer) and CUDA's own (the driver and toolkit there provide them).
skip='^(linux-vdso|ld-linux|libc\.|libm\.|libdl\.|libpthread\.|librt\.|libstdc\+\+|libgcc_s|libcuda\.|libnvrtc|libnvJitLink|libcudart)'
for b in "$carry"/bin/*; do
  ldd "$b" | awk '/=>/ {print $1, $3}' | while read -r name path; do
    [[ "$name" =~ $skip ]] && continue
    [[ -f "$path" && ! -f "$carry/lib/$name" ]] && cp -L "$path" "$carry/lib/$name"
  done
done
# redis-server for run.sh's part remote_startup (the GPU machine has none).
if [[ " ${targets[*]} " == *" bench_remote_startup "* ]]; then
  bash scripts/gpu/carry-redis.sh "$carry/redis"
fi
# Codegen A/B cubins (bench/codegen_ab.sh; run.sh's part "ab").
mkdir -p "$carry/ab"
rm -rf "$build/codegen_ab"
bash "$src/bench/codegen_ab.sh" "$build/bench/bench_cubin_sizes_tool" "$build/codegen_ab" >/dev/null
cp "$build"/codegen_ab/*.cubin "$carry/ab/"
# unique_by_key's int64 kernels by nvcc and by NVRTC 13.1 (bench/unique_by_key_ab.sh; run.sh's
# part "uniquebk_ab").
if [[ " ${targets[*]} " == *" bench_unique_by_key_vs_cub "* ]]; then
  rm -rf "$build/unique_by_key_ab"
  JIT_13_1_DIR=$root/.deps/jit-13.1 bash "$src/bench/unique_by_key_ab.sh" \
    "$build/bench/bench_cubin_sizes_tool" "$build/unique_by_key_ab" >/dev/null
  for f in "$build"/unique_by_key_ab/*.cubin; do cp "$f" "$carry/ab/ubk_$(basename "$f")"; done
fi
# The CCCL wheel (run.sh checks its sha256 and unpacks it with python3's zipfile).
mkdir -p "$carry/wheels"
cp "$cccl_wheel" "$carry/wheels/"
echo "$head" >"$carry/COMMIT"
# The binaries each link libalgos statically (about 5 MB apiece stripped): one xz archive
# with a window over all of them shares those bytes (about 14x smaller), so that a run's
# binaries fit the carry limit. run.sh unpacks it.
tar -C "$carry" -cf - bin | xz -T0 -9 >"$carry/bin.tar.xz"
rm -rf "$carry/bin"
du -sh "$carry"
ls "$carry/lib"
size=$(du -sb "$carry" | cut -f1)
(( size < 60 * 1024 * 1024 )) || { echo "prepare: $carry is $size bytes, over the 64 MiB carry limit" >&2; exit 1; }
