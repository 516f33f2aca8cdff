#!/usr/bin/env bash
# Installs the Debian packages cccl-cache needs. Non-interactive and idempotent:
# packages already present are left alone, apt is touched only when one is missing.
set -euo pipefail
pkgs=(cmake g++ make pkg-config liblmdb-dev lmdb-utils libxxhash-dev libcereal-dev libspdlog-dev
      libfmt-dev libgtest-dev libgmock-dev libbenchmark-dev libcli11-dev libtomlplusplus-dev
      libexpected-dev libzstd-dev nlohmann-json3-dev libsodium-dev libhiredis-dev redis-server
      clang-14 libclang-rt-14-dev  # clang + its runtimes: libFuzzer/ASan/UBSan for fuzz/
      cloc)  # scripts/count_algo_lines.sh
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  sudo_cmd=""; [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
# numpy: the peer benchmark's own tests (bench/peers) run its pipeline against numpy stand-ins.
if command -v python3 >/dev/null 2>&1 && ! python3 -c 'import numpy' >/dev/null 2>&1; then
  echo "install-deps: installing numpy for python3"
  python3 -m pip install -q --disable-pip-version-check numpy
fi
# The Python module's build and test requirements (python/requirements.txt, pinned):
# nanobind, found by CMake through `python3 -m nanobind`, and pytest for python/tests.
root=$(cd "$(dirname "$0")/.." && pwd)
if command -v python3 >/dev/null 2>&1 && ! python3 - "$root/python/requirements.txt" <<'PY' >/dev/null 2>&1
import sys
from importlib.metadata import version
pins = [l.split("#")[0].strip() for l in open(sys.argv[1])]
sys.exit(any(p and version(p.split("==")[0]) != p.split("==")[1] for p in pins))
PY
then
  echo "install-deps: installing python/requirements.txt for python3"
  python3 -m pip install -q --disable-pip-version-check -r "$root/python/requirements.txt"
fi
# CCCL 3.5.0, pinned: the header-only wheel nvidia-cuda-cccl from the Python package index
# (version and sha256 checked), unpacked into .deps/ (git-ignored). CMake's
# CCCL_CACHE_CCCL_INCLUDE_DIR defaults to its include dir; nvcc (dispatch.cu, bench/*.cu) and
# NVRTC both compile against it instead of the toolkit's own CCCL 3.0.1.
cccl_version=3.5.0
cccl_wheel_version=13.3.5.0.6
cccl_wheel=nvidia_cuda_cccl-${cccl_wheel_version}-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl
cccl_sha256=d5230098fa2df5021e1a00c0c4eee41797671a91119d31e892463e5ccf3ee326
cccl_dir=$root/.deps/cccl-$cccl_version
if [ ! -f "$cccl_dir/.complete" ]; then
  mkdir -p "$root/.deps/wheels"
  if [ ! -f "$root/.deps/wheels/$cccl_wheel" ]; then
    echo "install-deps: downloading nvidia-cuda-cccl==$cccl_wheel_version"
    python3 -m pip download -q --disable-pip-version-check --no-deps --only-binary=:all: \
      --platform manylinux2014_x86_64 --python-version 3 \
      -d "$root/.deps/wheels" "nvidia-cuda-cccl==$cccl_wheel_version"
  fi
  if ! CCCL_WHEEL_SHA256=$cccl_sha256 python3 "$root/scripts/unpack-cccl.py" \
      "$root/.deps/wheels/$cccl_wheel" "$cccl_dir"; then
    rm -f "$root/.deps/wheels/$cccl_wheel"  # a bad download is fetched again next time
    exit 1
  fi
fi
if ! command -v nvcc >/dev/null 2>&1 && [ ! -x /usr/local/cuda/bin/nvcc ]; then
  echo "install-deps: the CUDA Toolkit 13.0 (nvcc, NVRTC, nvJitLink) is required and was not found" >&2
  exit 1
fi
