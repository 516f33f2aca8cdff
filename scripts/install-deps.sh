#!/usr/bin/env bash
# Installs the Debian packages cccl-cache needs. Non-interactive and idempotent:
# packages already present are left alone, apt is touched only when one is missing.
set -euo pipefail
pkgs=(cmake g++ make pkg-config liblmdb-dev lmdb-utils libxxhash-dev libcereal-dev libspdlog-dev
      libfmt-dev libgtest-dev libgmock-dev libbenchmark-dev libcli11-dev libtomlplusplus-dev
      libexpected-dev libzstd-dev nlohmann-json3-dev
      clang-14 libclang-rt-14-dev)  # clang + its runtimes: libFuzzer/ASan/UBSan for fuzz/
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
if ! command -v nvcc >/dev/null 2>&1 && [ ! -x /usr/local/cuda/bin/nvcc ]; then
  echo "install-deps: the CUDA Toolkit 13.0 (nvcc, NVRTC, nvJitLink) is required and was not found" >&2
  exit 1
fi
