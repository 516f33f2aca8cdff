#!/usr/bin/env bash
# Run HERE after scripts/gpu/prepare.sh (which fills .devcarry/ and the HEAD snapshot
# <build>-src): builds the Python module for the GPU machine's Python 3.12 (a cpython-312
# module; Release, plain x86-64), and adds to
# .devcarry/: python/cccl_cache (the package), pylib/ (pytest, pure Python: the GPU
# machine has no package index) and the shared libraries the module needs in lib/.
# Then run.sh's parts "python" (GPU tests) and "pybench" (bench/peers/python_bench.py).
# Python 3.12: $CCCL_CACHE_GPU_PYTHON, else python3.12 on PATH, else pyenv's.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
build=${CCCL_CACHE_GPU_BUILD_DIR:-build-gpu}
src=${build}-src
pybuild=${build}-py
carry=.devcarry
[[ -d "$src" && -d "$carry" ]] || { echo "prepare-python: run scripts/gpu/prepare.sh first" >&2; exit 1; }
py=${CCCL_CACHE_GPU_PYTHON:-$(command -v python3.12 || true)}
# A pyenv shim is found on PATH even where no 3.12 is the selected version: then pyenv's own.
if [[ -n "$py" ]] && ! "$py" --version >/dev/null 2>&1; then py=; fi
if [[ -z "$py" ]] && command -v pyenv >/dev/null; then
  py=$(ls -d "$(pyenv root)"/versions/3.12*/bin/python3.12 2>/dev/null | tail -1)
fi
[[ -x "$py" ]] || { echo "prepare-python: no Python 3.12 (set CCCL_CACHE_GPU_PYTHON)" >&2; exit 1; }
"$py" -m pip install -q --disable-pip-version-check -r "$root/python/requirements.txt"
export PATH="/usr/local/cuda/bin:$PATH"
gen=(); command -v ninja >/dev/null && gen=(-G Ninja)
[[ -f "$pybuild/CMakeCache.txt" ]] || cmake -S "$src" -B "$pybuild" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release \
  -DCCCL_CACHE_BUILD_TESTS=OFF -DPython_EXECUTABLE="$py" \
  -DCCCL_CACHE_CCCL_INCLUDE_DIR="$root/.deps/cccl-3.5.0/include" >/dev/null
cmake --build "$pybuild" -j"$(nproc)" --target cccl_cache_python
rm -rf "$carry/python" "$carry/pylib"
mkdir -p "$carry/python/cccl_cache" "$carry/lib"
cp "$pybuild"/python/cccl_cache/*.py "$carry/python/cccl_cache/"
so=$(ls "$pybuild"/python/cccl_cache/_core*.so)
[[ "$so" == *cpython-312-* ]] || { echo "prepare-python: $so is not a Python 3.12 module" >&2; exit 1; }
cp "$so" "$carry/python/cccl_cache/" && strip --strip-unneeded "$carry/python/cccl_cache/$(basename "$so")"
skip='^(linux-vdso|ld-linux|libc\.|libm\.|libdl\.|libpthread\.|librt\.|libstdc\+\+|libgcc_s|libcuda\.|libnvrtc|libnvJitLink|libcudart)'
ldd "$so" | awk '/=>/ {print $1, $3}' | while read -r name path; do
  [[ "$name" =~ $skip ]] && continue
  [[ -f "$path" && ! -f "$carry/lib/$name" ]] && cp -L "$path" "$carry/lib/$name"
done
"$py" -m pip install -q --disable-pip-version-check --target "$carry/pylib" pytest==8.3.5
du -sh "$carry"
size=$(du -sb "$carry" | cut -f1)
(( size < 60 * 1024 * 1024 )) || { echo "prepare-python: $carry is $size bytes, over the 64 MiB carry limit" >&2; exit 1; }
