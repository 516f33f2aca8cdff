#!/usr/bin/env bash
# Codegen A/B input for bench_merge_sort_vs_cub --alt (run on the development machine;
# needs nvcc): for keys and pairs, nvcc's own cubin (nvcc -cubin: cicc, then ptxas in
# whole-program mode) of the very source ms::build hands NVRTC. Bound and dispatched
# like ours, it separates our code generation from our dispatch.
# (Run 7 in docs/gpu-results compared four such routes; ms::build took the winner.)
# Usage: codegen_ab.sh TOOL OUTDIR   (TOOL: the bench_cubin_sizes_tool binary)
set -euo pipefail
tool=$1 out=$2
cuda_bin=${CUDA_BIN:-/usr/local/cuda/bin}
# The pinned CCCL (scripts/install-deps.sh), as ms::build's NVRTC uses it.
cccl_inc=${CCCL_CACHE_CCCL_INCLUDE:-$(cd "$(dirname "$0")/.." && pwd)/.deps/cccl-3.5.0/include}
mkdir -p "$out"
for kind in keys pairs; do
  "$tool" source "merge_sort_ab_$kind" "$out/$kind.cu"
  "$cuda_bin/nvcc" -cubin -arch=sm_90 -std=c++20 -DCUB_DISABLE_CDP -I"$cccl_inc" \
    -o "$out/$kind.nvcc.cubin" "$out/$kind.cu"
done
ls -l "$out"/*.cubin
