#!/usr/bin/env bash
# Optional: NVRTC and nvJitLink 13.1.115 (pinned wheels from the Python package index,
# sha256-checked) unpacked into DIR/lib (default .deps/jit-13.1/), for builds with a newer
# JIT compiler than the toolkit's: `LD_LIBRARY_PATH=DIR/lib` makes libalgos locate and
# load them (src/jit_libraries.hpp), and every key names them. Why one would: NVRTC 13.0
# gives __shared__ pointers 64 bits where nvcc (and NVRTC from 13.1 on) gives them 32,
# which costs unique_by_key's int64 kernels up to 5% against nvcc's (docs/benchmarks.md).
# Idempotent. Usage: scripts/install-jit.sh [DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
jit=${1:-$root/.deps/jit-13.1}
[[ -f "$jit/lib/.complete" ]] && exit 0
mkdir -p "$jit/wheels" "$jit/lib"
# name==version sha256 (manylinux x86-64 wheels)
wheels=("nvidia-cuda-nvrtc==13.1.115 d7cf1284ab82f379884decc8813d9d4a729bc96b1ec020a9cf80303f698d73c4"
        "nvidia-nvjitlink==13.1.115 658e87d42ac6be82ae2c56eb9abe45bc8de45b7cf7692d24f86848f0266d121b")
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
