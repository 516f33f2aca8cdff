"""CuPy's own implementations of the wave-1 algorithms, timed on the GPU machine in the
same call as our C++ benchmarks (scripts/gpu/run.sh part "cupy"):

  sort    cupy.sort (a radix sort)                    vs our radix_sort (keys)
  sum     cupy.sum, max: cupy.max                     vs our reduce (plus / maximum)
  cumsum  cupy.cumsum                                 vs our inclusive_scan (plus)
  add     a CuPy ElementwiseKernel computing x + y    vs our binary_transform (plus)

for float32 (and int64 for sum / cumsum / add), 2^10 .. 2^MAX items. Method: the inputs
are made once per size; each op is timed with CUDA events around the call only, after 2
warm-up calls; median over reps (100 below 2^21 items, 30 below 2^25, 11 above).
Output lines: RESULT peer=cupy op=<op> type=<type> n=<n> ms=<median ms>
Usage: python3 cupy_wave1.py [MAX_LOG2=28] [MIN_LOG2=10] [OPS=sort,sum,max,cumsum,add]
"""
import statistics
import sys

import cupy as cp


def reps_for(n):
    return 100 if n <= (1 << 20) else 30 if n <= (1 << 24) else 11


def timed(fn, reps):
    start, stop = cp.cuda.Event(), cp.cuda.Event()
    for _ in range(2):
        fn()
    times = []
    for _ in range(reps):
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, stop))
    return statistics.median(times)


def main():
    max_log = int(sys.argv[1]) if len(sys.argv) > 1 else 28
    min_log = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    wanted = set(sys.argv[3].split(",")) if len(sys.argv) > 3 else None
    add = cp.ElementwiseKernel("T x, T y", "T z", "z = x + y", "cccl_cache_peer_add")
    print("device:", cp.cuda.runtime.getDeviceProperties(0)["name"].decode(),
          "cupy", cp.__version__, flush=True)
    for log in range(min_log, max_log + 1):
        n = 1 << log
        reps = reps_for(n)
        rng = cp.random.default_rng(log)
        for dtype, name in ((cp.float32, "float32"), (cp.int64, "int64")):
            if dtype == cp.float32:
                x = rng.random(n, dtype=cp.float32)
                y = rng.random(n, dtype=cp.float32)
            else:
                x = rng.integers(-1000, 1000, n, dtype=cp.int64)
                y = rng.integers(-1000, 1000, n, dtype=cp.int64)
            out = cp.empty_like(x)
            ops = {
                "sum": lambda: cp.sum(x),
                "max": lambda: cp.max(x),
                "cumsum": lambda: cp.cumsum(x),
                "add": lambda: add(x, y, out),
            }
            if dtype == cp.float32:
                ops["sort"] = lambda: cp.sort(x)
            for op, fn in ops.items():
                if wanted is not None and op not in wanted:
                    continue
                ms = timed(fn, reps)
                print(f"RESULT peer=cupy op={op} type={name} n={n} ms={ms:.5f}", flush=True)
            del x, y, out
            cp.get_default_memory_pool().free_all_blocks()


if __name__ == "__main__":
    main()
