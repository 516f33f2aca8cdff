#!/usr/bin/env python3
"""A CuPy adapter over cccl_cache: sort, argsort, sum and cumsum of 1-D CuPy arrays,
each checked equal to CuPy's own, and the start-up of a small program on a warm cache.

  PYTHONPATH=build/python python3 examples/python/cupy_adapter.py [--n 1000000]

The first run builds the four algorithms per element type (NVRTC, about a second or
two each) into the cache (CCCL_CACHE_DIR or ~/.cache/cccl-cache); later runs, in new
processes, load them: the start-up line shows import + acquire + first call then.
"""

import argparse
import time

t_start = time.perf_counter()
import cccl_cache  # noqa: E402

t_import = time.perf_counter()
import cupy as cp  # noqa: E402
import numpy as np  # noqa: E402


def sort(a: cp.ndarray) -> cp.ndarray:
    """cupy.sort: a radix sort of a copy (stable, NaNs last as CuPy's for floats)."""
    out = cp.empty_like(a)
    cccl_cache.radix_sort(a, out)
    return out


def argsort(a: cp.ndarray) -> cp.ndarray:
    """cupy.argsort: a radix sort of (key, index) pairs; the sorted indices."""
    keys_out = cp.empty_like(a)
    idx = cp.arange(a.size, dtype=cp.int64)
    idx_out = cp.empty_like(idx)
    cccl_cache.radix_sort(a, keys_out, idx, idx_out)
    return idx_out


def sum(a: cp.ndarray) -> cp.ndarray:  # noqa: A001 (CuPy's name)
    """cupy.sum for a 1-D array: a 0-d array of a's type (CuPy widens small ints; we do not)."""
    out = cp.empty(1, a.dtype)
    cccl_cache.reduce_into(a, out, "plus", a.dtype.type(0))
    return out.reshape(())


def cumsum(a: cp.ndarray) -> cp.ndarray:
    """cupy.cumsum for a 1-D array: an inclusive plus-scan."""
    out = cp.empty_like(a)
    cccl_cache.inclusive_scan(a, out, "plus")
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=1_000_000)
    n = ap.parse_args().n
    rng = np.random.default_rng(1)

    # Start-up of this program: first ready call (acquire from the cache + the call).
    small = cp.arange(16, dtype=cp.float32)
    cp.cuda.runtime.deviceSynchronize()
    t0 = time.perf_counter()
    sort(small)
    cp.cuda.runtime.deviceSynchronize()
    t_first = time.perf_counter()
    print(f"start-up: import cccl_cache {1e3 * (t_import - t_start):.1f} ms, first sort "
          f"(acquire + call) {1e3 * (t_first - t0):.1f} ms, cache {cccl_cache.default_cache().dir}, "
          f"{cccl_cache.default_cache().stats()}")

    for dtype in (np.float32, np.int64):
        h = (rng.standard_normal(n) * 1000).astype(dtype)
        a = cp.asarray(h)
        assert (sort(a) == cp.sort(a)).all(), "sort"
        # Distinct keys (n < 2^24), so that the permutation is unique whatever the ties' order.
        u = cp.asarray((rng.permutation(n) - n // 2).astype(dtype))
        assert (argsort(u) == cp.argsort(u)).all(), "argsort"
        idx = argsort(a)  # ties: ours keeps input order (a stable sort)
        assert (a[idx] == cp.sort(a)).all() and (idx == cp.asarray(np.argsort(h, kind="stable"))).all(), "argsort"
        if np.issubdtype(dtype, np.integer):
            assert int(sum(a)) == int(cp.sum(a)), "sum"
            assert (cumsum(a) == cp.cumsum(a)).all(), "cumsum"
        else:  # the summation order differs from CuPy's: equal to rounding
            assert cp.allclose(sum(a), cp.sum(a), rtol=1e-5), "sum"
            assert cp.allclose(cumsum(a), cp.cumsum(a), rtol=1e-4, atol=1e-1), "cumsum"
        print(f"{np.dtype(dtype).name}: sort, argsort, sum, cumsum of {n:,} items equal CuPy's")
    print("stats:", cccl_cache.default_cache().stats())


if __name__ == "__main__":
    main()
