"""CuPy's own implementations of the wave-1 algorithms, timed on the GPU machine in the
same call as our C++ benchmarks (scripts/gpu/run.sh part "cupy"):

  sort    cupy.sort (a radix sort)                    vs our radix_sort (keys)
  sum     cupy.sum, max: cupy.max                     vs our reduce (plus / maximum)
  cumsum  cupy.cumsum                                 vs our inclusive_scan (plus)
  add     a CuPy ElementwiseKernel computing x + y    vs our binary_transform (plus)

for float32 (and int64 for sum / cumsum / add), 2^10 .. 2^MAX items. The later
algorithms (OPS "later"), on the inputs reference_wave1.py gives cuda.compute
(later_algos.py), each output checked against NumPy on the host (check=1/0):

  select              x[x != 0], int32, half zero             vs select_int32 (identity)
  unique              cupy.unique(keys), int32 sorted keys     vs unique_by_key_int32 (it
                      (sorts again: not the same work)            keeps values too)
  unique_runs         the first of each run of keys and values by a boolean mask: the
                      same output as unique_by_key
  histogram           cupy.histogram(x, 256, range=(0, 1024))  vs histogram_even_int32
                      (its last bin is closed: 1024 counts; CUB's is open)
  searchsorted        cupy.searchsorted(data, values), left     vs lower_bound_int32
  searchsorted_right  side="right"                              vs upper_bound_int32
  segsum              cupy.add.reduceat(x, starts), float32     vs segmented_reduce_float32
                      segments of 1,024 (a cumsum difference where CuPy lacks reduceat;
                      the line says which: method=)

Method: the inputs are made once per size; each op is timed with CUDA events around the
call only, after 2 warm-up calls; median over reps (100 below 2^21 items, 30 below 2^25,
11 above).
Output lines: RESULT peer=cupy op=<op> type=<type> n=<n> ms=<median ms> [check=<0|1>]
Usage: python3 cupy_wave1.py [MAX_LOG2=28] [MIN_LOG2=10] [OPS=sort,sum,max,cumsum,add]
(OPS: op names, "wave1" or "later"; the exit status is 1 if a check failed.)
"""
import statistics
import sys

import cupy as cp
import numpy as np

import later_algos

WAVE1_OPS = ("sort", "sum", "max", "cumsum", "add")
LATER_OPS = ("select", "unique", "unique_runs", "histogram", "searchsorted", "searchsorted_right", "segsum")
SEARCH_SAMPLE = 1 << 16  # values checked per size by np.searchsorted


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


def _first_of_runs(k):
    return np.concatenate([np.ones(1, dtype=bool), k[1:] != k[:-1]])


def _segsum(x, starts):
    """Segment sums by cupy.add.reduceat, or by a cumsum difference; (result, method)."""
    try:
        return cp.add.reduceat(x, starts), "reduceat"
    except (AttributeError, NotImplementedError, TypeError):
        c = cp.concatenate([cp.zeros(1, dtype=x.dtype), cp.cumsum(x)])
        ends = cp.concatenate([starts[1:], cp.asarray([len(x)], dtype=starts.dtype)])
        return c[ends] - c[starts], "cumsum_diff"


def later_cases(n, rng):
    """(op, type, fn, check, extra) per later op: fn() runs CuPy's op; check(out) compares
    its output with NumPy's on the host (O(n) forms; searchsorted on a sample)."""
    t, host = "int32", cp.asnumpy
    x = later_algos._select_inputs(cp, np, rng, n, t)["x"]

    def select_ok(out):
        h = host(x)
        return np.array_equal(host(out), h[h != 0])

    yield "select", t, lambda: x[x != 0], select_ok, ""
    u = later_algos._ubk_inputs(cp, np, rng, n, t)
    k, v = u["keys"], u["vals"]

    def unique_ok(out):  # the keys are sorted: the first of each run is the unique set
        h = host(k)
        return np.array_equal(host(out), h[_first_of_runs(h)])

    def runs():
        f = cp.concatenate([cp.ones(1, dtype=bool), k[1:] != k[:-1]])
        return k[f], v[f]

    def runs_ok(out):
        hk, hv = host(k), host(v)
        f = _first_of_runs(hk)
        return np.array_equal(host(out[0]), hk[f]) and np.array_equal(host(out[1]), hv[f])

    yield "unique", t, lambda: cp.unique(k), unique_ok, ""
    yield "unique_runs", t, runs, runs_ok, ""
    hx = later_algos._hist_inputs(cp, np, rng, n, t)["x"]
    lo, hi, bins = later_algos.HIST_LOWER, later_algos.HIST_UPPER, later_algos.HIST_LEVELS - 1

    def hist_ok(out):  # numpy.histogram's bins: [lo + i*w, lo + (i+1)*w), the last closed
        h = host(hx).astype(np.int64)
        h = h[(h >= lo) & (h <= hi)]
        want = np.bincount(np.minimum((h - lo) * bins // (hi - lo), bins - 1), minlength=bins)
        return np.array_equal(host(out[0]), want)

    yield "histogram", t, lambda: cp.histogram(hx, bins=bins, range=(lo, hi)), hist_ok, ""
    b = later_algos._bsearch_inputs(cp, np, rng, n, t)
    for side, op in (("left", "searchsorted"), ("right", "searchsorted_right")):
        def search_ok(out, side=side):
            pick = np.random.default_rng(n).integers(0, n, min(n, SEARCH_SAMPLE))
            want = np.searchsorted(host(b["data"]), host(b["values"])[pick], side=side)
            return np.array_equal(host(out)[pick], want)

        yield op, t, (lambda side=side: cp.searchsorted(b["data"], b["values"], side=side)), search_ok, ""
    s = later_algos._segred_inputs(cp, np, rng, n, "float32")
    _, method = _segsum(s["x"], s["starts"])

    def segsum_ok(out):  # small integers: float32 sums are exact
        return np.array_equal(host(out), host(s["x"]).reshape(-1, later_algos.SEGMENT).sum(axis=1))

    yield "segsum", "float32", lambda: _segsum(s["x"], s["starts"])[0], segsum_ok, f" method={method}"


def run_later(n, reps, rng, wanted) -> bool:
    ok = True
    for op, t, fn, check, extra in later_cases(n, rng):
        if op not in wanted:
            continue
        ms = timed(fn, reps)
        good = bool(check(fn()))
        ok &= good
        print(f"RESULT peer=cupy op={op} type={t} n={n} ms={ms:.5f} check={int(good)}{extra}", flush=True)
    cp.get_default_memory_pool().free_all_blocks()
    return ok


def main():
    max_log = int(sys.argv[1]) if len(sys.argv) > 1 else 28
    min_log = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    wanted = set(WAVE1_OPS)
    if len(sys.argv) > 3:
        groups = {"wave1": WAVE1_OPS, "later": LATER_OPS}
        wanted = {o for w in sys.argv[3].split(",") if w for o in groups.get(w, [w])}
    unknown = wanted - set(WAVE1_OPS) - set(LATER_OPS)
    if unknown:
        sys.exit(f"cupy_wave1.py: unknown ops {', '.join(sorted(unknown))}")
    ok = True
    add = cp.ElementwiseKernel("T x, T y", "T z", "z = x + y", "cccl_cache_peer_add")
    print("device:", cp.cuda.runtime.getDeviceProperties(0)["name"].decode(),
          "cupy", cp.__version__, flush=True)
    for log in range(min_log, max_log + 1):
        n = 1 << log
        reps = reps_for(n)
        rng = cp.random.default_rng(log)
        for dtype, name in ((cp.float32, "float32"), (cp.int64, "int64")) if wanted & set(WAVE1_OPS) else ():
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
                if op not in wanted:
                    continue
                ms = timed(fn, reps)
                print(f"RESULT peer=cupy op={op} type={name} n={n} ms={ms:.5f}", flush=True)
            del x, y, out
            cp.get_default_memory_pool().free_all_blocks()
        if wanted & set(LATER_OPS):
            ok &= run_later(n, reps, cp.random.default_rng(log), wanted)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
