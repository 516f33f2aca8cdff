#!/usr/bin/env bash
# Codegen A/B inputs for bench_merge_sort_vs_cub --alt (run on the development machine;
# needs nvcc and ptxas). For keys and pairs, four cubins of the same three kernels:
#   nvrtc-jitlink  NVRTC PTX, pruned, nvJitLink (what ms::build makes; a sanity check)
#   nvrtc-ptxas    NVRTC PTX, pruned, ptxas in whole-program mode (nvcc's default)
#   nvcc-jitlink   nvcc PTX of the same source, pruned, nvJitLink
#   nvcc-ptxas     nvcc PTX, pruned, ptxas whole-program (what nvcc makes for CUB)
# nvJitLink compiles PTX as relocatable code (ptxas -c); nvcc does not.
# Usage: codegen_ab.sh TOOL OUTDIR   (TOOL: the bench_merge_sort_codegen_ab_tool binary)
set -euo pipefail
tool=$1 out=$2
cuda_bin=${CUDA_BIN:-/usr/local/cuda/bin}
inc=${CUDA_INCLUDE:-/usr/local/cuda/include}
mkdir -p "$out"
for kind in keys pairs; do
  "$tool" source "$kind" "$out/$kind.cu"
  "$tool" nvrtc-ptx "$kind" "$out/$kind.nvrtc.ptx" "$out/$kind.names"
  "$cuda_bin/nvcc" -ptx -arch=sm_90 -std=c++20 -DCUB_DISABLE_CDP -I"$inc/cccl" \
    -o "$out/$kind.nvcc.full.ptx" "$out/$kind.cu"
  "$tool" prune "$out/$kind.nvcc.full.ptx" "$out/$kind.names" "$out/$kind.nvcc.ptx"
  for src in nvrtc nvcc; do
    "$tool" assemble "$out/$kind.$src.ptx" "$out/$kind.$src-jitlink.cubin"
    "$cuda_bin/ptxas" -arch=sm_90 -m64 -O3 "$out/$kind.$src.ptx" -o "$out/$kind.$src-ptxas.cubin"
  done
done
ls -l "$out"/*.cubin
