#!/usr/bin/env bash
# Codegen A/B input for bench_unique_by_key_vs_cub --alt (run on the development machine;
# needs nvcc and the package index): cubins of the int64 spec's kernels (int64 keys and
# values, uint64 offsets) compiled two other ways, bound and dispatched like ours:
#   int64.nvcc.cubin      nvcc -cubin of the very source our build hands NVRTC (the SASS of
#                         CUB's own instantiation in the benchmark)
#   int64.nvrtc13.1.cubin our build itself (cubin_sizes_tool), with NVRTC and nvJitLink
#                         13.1 (scripts/install-jit.sh into $JIT_13_1_DIR, default
#                         .deps/jit-13.1/) found first in LD_LIBRARY_PATH
# Why: NVRTC 13.0 (the toolkit's) gives __shared__ pointers 64 bits where nvcc's front end
# (and NVRTC from 13.1 on) gives them 32, so the unique_by_key sweep kernel's shared-memory
# scatter keeps 64-bit address arithmetic (44 SHF.R.S64 on sm_90; nvcc: none).
# Usage: unique_by_key_ab.sh TOOL OUTDIR   (TOOL: the bench_cubin_sizes_tool binary)
set -euo pipefail
tool=$1 out=$2
root=$(cd "$(dirname "$0")/.." && pwd)
cuda_bin=${CUDA_BIN:-/usr/local/cuda/bin}
cccl_inc=${CCCL_CACHE_CCCL_INCLUDE:-$root/.deps/cccl-3.5.0/include}
jit=${JIT_13_1_DIR:-$root/.deps/jit-13.1}
mkdir -p "$out"
bash "$root/scripts/install-jit.sh" "$jit"
"$tool" source unique_by_key_int64 "$out/int64.cu"
"$cuda_bin/nvcc" -cubin -arch=sm_90 -std=c++20 -DCUB_DISABLE_CDP -I"$cccl_inc" \
  -o "$out/int64.nvcc.cubin" "$out/int64.cu"
LD_LIBRARY_PATH="$jit/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
  "$tool" cubin unique_by_key_int64 "$out/int64.nvrtc13.1.cubin"
ls -l "$out"/*.cubin
