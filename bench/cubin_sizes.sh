#!/usr/bin/env bash
# Our cubins against nvcc's for the same kernels, per spec (development machine; needs
# nvcc, no GPU): for each named spec of cubin_sizes_tool, our build's cubin (NVRTC LTO
# IR, nvJitLink with -kernels-used) and nvcc's (nvcc -cubin of the very source our build
# compiles, with exactly its kernels instantiated: cicc, then ptxas, whole program).
# Prints one RESULT line per spec: ours_bytes, nvcc_bytes, ratio = ours / nvcc.
# Usage: cubin_sizes.sh TOOL OUTDIR [CC=90] [NAME...]   (TOOL: the bench_cubin_sizes_tool binary)
set -euo pipefail
tool=$1 out=$2 cc=${3:-90}
shift $(( $# < 3 ? $# : 3 ))
cuda_bin=${CUDA_BIN:-/usr/local/cuda/bin}
cccl_inc=${CCCL_CACHE_CCCL_INCLUDE:-$(cd "$(dirname "$0")/.." && pwd)/.deps/cccl-3.5.0/include}
mkdir -p "$out"
names=("$@")
(( ${#names[@]} )) || mapfile -t names < <("$tool" list)
echo "Method: sizes of the ELF files; ours = the cubin our build stores, nvcc = nvcc -cubin -arch=sm_$cc of the same source with only our kernels instantiated; $("$cuda_bin/nvcc" --version | tail -1)"
for name in "${names[@]}"; do
  "$tool" source "$name" "$out/$name.cu" "$cc"
  "$cuda_bin/nvcc" -cubin -arch="sm_$cc" -std=c++20 -DCUB_DISABLE_CDP -I"$cccl_inc" \
    -o "$out/$name.nvcc.cubin" "$out/$name.cu" 2>/dev/null
  "$tool" cubin "$name" "$out/$name.ours.cubin" "$cc"
  ours=$(stat -c %s "$out/$name.ours.cubin") nvcc=$(stat -c %s "$out/$name.nvcc.cubin")
  echo "RESULT spec=$name sm=$cc ours_bytes=$ours nvcc_bytes=$nvcc ratio=$(awk -v a="$ours" -v b="$nvcc" 'BEGIN { printf "%.3f", a / b }')"
done
