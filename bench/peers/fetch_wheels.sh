#!/usr/bin/env bash
# Download the Python wheels the peer benchmark needs on the GPU machine.
# Runs on the DEVELOPMENT machine (network); the GPU machine has none.
#   bench/peers/fetch_wheels.sh [--fallback] [DEST]   DEST defaults to <repo>/.whl
# Reads bench/peers/requirements-gpu.txt (pinned versions + sha256). Wheels of
# group "main" (cuda-cccl, 7 MB) land in DEST/. With --fallback, group
# "fallback" (cuda-core, cuda-pathfinder, cuda-bindings, 14 MB) lands in
# DEST/fallback/; without it DEST/fallback/ is removed, so that what travels
# stays small: the carried tree (with .devcarry/) must fit in 64 MiB, and the
# GPU image's own versions of those three work (seen 2026-11-29).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
with_fallback=0
if [[ "${1:-}" == "--fallback" ]]; then with_fallback=1; shift; fi
dest="${1:-$root/.whl}"
req="$here/requirements-gpu.txt"
py="${PYTHON:-python3}"

# The GPU machine's interpreter: CPython 3.12 on glibc 2.39, x86_64.
platforms=()
for n in 17 24 26 27 28 31 34 35; do platforms+=(--platform "manylinux_2_${n}_x86_64"); done
platforms+=(--platform manylinux2014_x86_64 --platform manylinux1_x86_64)

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

fetch_group() {
  local group="$1" out="$2"
  grep -E "# group=${group}\$" "$req" | sed 's/ *#.*$//' >"$tmp/$group.txt"
  if [[ ! -s "$tmp/$group.txt" ]]; then return 0; fi
  mkdir -p "$out"
  # Remove stale versions of the same packages: two versions of one package
  # in the folder would stop the install on the GPU machine.
  while read -r line; do
    spec="${line%% *}"; name="${spec%%==*}"; ver="${spec#*==}"; norm="${name//-/_}"
    find "$out" -maxdepth 1 -name "${norm}-*.whl" ! -name "${norm}-${ver}-*" -print -delete
  done <"$tmp/$group.txt"
  "$py" -m pip download --quiet --no-deps --only-binary=:all: --require-hashes \
    --python-version 3.12 --implementation cp --abi cp312 --abi abi3 --abi none \
    "${platforms[@]}" -d "$out" -r "$tmp/$group.txt"
}

fetch_group main "$dest"
if (( with_fallback )); then
  fetch_group fallback "$dest/fallback"
else
  rm -rf "$dest/fallback"
fi
echo "wheels in $dest:"
ls -lR "$dest"
du -sh "$dest"
