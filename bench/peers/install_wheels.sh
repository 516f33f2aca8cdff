#!/usr/bin/env bash
# Install the carried cuda-cccl wheel (.whl/, from bench/peers/fetch_wheels.sh) into
# /tmp/site ON THE GPU MACHINE (no package index there), from the repository root:
#
#   bash bench/peers/install_wheels.sh      then: export PYTHONPATH=/tmp/site
#
# Probes `import cuda.compute`; only if that fails with the image's own cuda-core /
# cuda-pathfinder / cuda-bindings, installs the carried fallbacks (.whl/fallback/) too.
# Used by run_all.sh (part "install") and scripts/gpu/run.sh (part "refw1").
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 2
py=${PYTHON:-python3}
# cuda.pathfinder looks for NVRTC/nvJitLink in pip wheels first; the toolkit is its fallback.
if [[ -z "${CUDA_HOME:-}" && -d /usr/local/cuda ]]; then export CUDA_HOME=/usr/local/cuda; fi

probe() {
  PYTHONPATH=/tmp/site $py -c '
import cuda.compute as cc
from cuda.compute import OpKind, SortOrder
for f in ("make_merge_sort", "make_reduce_into", "make_inclusive_scan", "make_exclusive_scan",
          "make_unary_transform", "make_binary_transform", "make_radix_sort", "serialize", "deserialize"):
    assert callable(getattr(cc, f)), f
_ = (OpKind.LESS, OpKind.PLUS, OpKind.MAXIMUM, OpKind.NEGATE, SortOrder.ASCENDING)
print("cuda.compute OK from", cc.__file__)
'
}

shopt -s nullglob
main=(.whl/*.whl) fb=(.whl/fallback/*.whl)
shopt -u nullglob
if [[ ${#main[@]} -eq 0 ]]; then
  echo "no wheels in .whl/: run bench/peers/fetch_wheels.sh on the development machine and carry .whl"
  exit 3
fi
rm -rf /tmp/site
$py -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target /tmp/site "${main[@]}" || exit 4
probe && exit 0
echo "import failed with the image's cuda-core/cuda-pathfinder/cuda-bindings; installing fallbacks: ${fb[*]}"
[[ ${#fb[@]} -gt 0 ]] || exit 5
$py -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target /tmp/site "${main[@]}" "${fb[@]}" || exit 6
probe && exit 0
echo "diagnostics:"
PYTHONPATH=/tmp/site $py -c 'import cuda, sys; print("cuda package path:", list(cuda.__path__), getattr(cuda, "__file__", None))'
$py -m pip show cuda-bindings cuda-core cuda-pathfinder 2>&1 | grep -E "^(Name|Version|Location)"
exit 7
