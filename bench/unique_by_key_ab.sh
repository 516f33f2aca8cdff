#!/usr/bin/env bash
# Codegen A/B input for bench_unique_by_key_vs_cub --alt (run on the development machine;
# needs nvcc and the package index): cubins of the int64 spec's kernels (int64 keys and
# values, uint64 offsets) compiled two other ways, bound and dispatched like ours:
#   int64.nvcc.cubin      nvcc -cubin of the very source our build hands NVRTC (the SASS of
#                         CUB's own instantiation in the benchmark)
#   int64.nvrtc13.1.cubin our build itself (cubin_sizes_tool), with NVRTC and nvJitLink
#                         13.1 (pinned wheels from the package index, sha256-checked, in
#                         $JIT_13_1_DIR, default .deps/jit-13.1/) found first in LD_LIBRARY_PATH
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
mkdir -p "$out" "$jit/wheels" "$jit/lib"
# name==version sha256 (manylinux x86-64 wheels)
wheels=("nvidia-cuda-nvrtc==13.1.115 d7cf1284ab82f379884decc8813d9d4a729bc96b1ec020a9cf80303f698d73c4"
        "nvidia-nvjitlink==13.1.115 658e87d42ac6be82ae2c56eb9abe45bc8de45b7cf7692d24f86848f0266d121b")
if [[ ! -f "$jit/lib/.complete" ]]; then
  for w in "${wheels[@]}"; do
    read -r req sha <<<"$w"
    python3 -m pip download -q --disable-pip-version-check --no-deps --only-binary=:all: \
      --platform manylinux2014_x86_64 -d "$jit/wheels" "$req"
    file=$(ls "$jit"/wheels/"$(echo "${req%%==*}" | tr - _)"-"${req##*==}"-*.whl)
    echo "$sha  $file" | sha256sum -c --quiet || { rm -f "$file"; exit 1; }
    python3 - "$file" "$jit/lib" <<'PY'
import os, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    for info in z.infolist():
        if info.filename.startswith("nvidia/cu13/lib/") and not info.filename.endswith("/"):
            with z.open(info) as src, open(os.path.join(sys.argv[2], os.path.basename(info.filename)), "wb") as dst:
                dst.write(src.read())
PY
  done
  touch "$jit/lib/.complete"
fi
"$tool" source unique_by_key_int64 "$out/int64.cu"
"$cuda_bin/nvcc" -cubin -arch=sm_90 -std=c++20 -DCUB_DISABLE_CDP -I"$cccl_inc" \
  -o "$out/int64.nvcc.cubin" "$out/int64.cu"
LD_LIBRARY_PATH="$jit/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
  "$tool" cubin unique_by_key_int64 "$out/int64.nvrtc13.1.cubin"
ls -l "$out"/*.cubin
