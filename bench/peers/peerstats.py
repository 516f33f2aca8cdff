"""Small, dependency-free statistics shared by the peer benchmark scripts.

Pure Python on purpose: report.py and the unit tests run on the development
machine, which has neither a GPU nor numpy pinned to any version.
"""

from __future__ import annotations

import gc
import math
import time
from typing import Callable, Iterable, Sequence

PERCENTILES = (5, 25, 50, 75, 95)


def percentile(values: Sequence[float], p: float) -> float:
    """The p-th percentile (0..100) by linear interpolation between closest
    ranks (numpy's default method). Raises ValueError on an empty sequence or
    a p outside [0, 100]."""
    if not values:
        raise ValueError("percentile of an empty sequence")
    if not 0.0 <= p <= 100.0:
        raise ValueError(f"percentile {p} outside [0, 100]")
    xs = sorted(values)
    rank = (len(xs) - 1) * p / 100.0
    lo = math.floor(rank)
    hi = math.ceil(rank)
    if lo == hi:
        return float(xs[lo])
    return xs[lo] + (xs[hi] - xs[lo]) * (rank - lo)


def median(values: Sequence[float]) -> float:
    return percentile(values, 50.0)


def summary(values: Sequence[float]) -> dict:
    """P5/P25/P50/P75/P95, min, max and count of `values`, keys 'p5' ... 'n'."""
    out = {f"p{p}": percentile(values, p) for p in PERCENTILES}
    out["min"] = float(min(values))
    out["max"] = float(max(values))
    out["n"] = len(values)
    return out


def paired(a: Sequence[float], b: Sequence[float]) -> dict:
    """Per-trial differences b - a and ratios b / a for paired trials.

    Returns the median difference, its P25/P75, and the median ratio.
    Raises ValueError if the sequences differ in length or are empty."""
    if len(a) != len(b):
        raise ValueError(f"paired samples differ in length: {len(a)} vs {len(b)}")
    if not a:
        raise ValueError("paired samples are empty")
    diffs = [y - x for x, y in zip(a, b)]
    ratios = [y / x for x, y in zip(a, b) if x > 0]
    return {
        "median_diff": median(diffs),
        "p25_diff": percentile(diffs, 25),
        "p75_diff": percentile(diffs, 75),
        "median_ratio": median(ratios) if ratios else None,
        "n": len(diffs),
    }


def reps_for_size(n: int, fixed: int | None = None, lo: int = 15, hi: int = 200) -> int:
    """Timed repetitions for an n-item sort: `fixed` when given, else about
    2^28 / n clamped to [lo, hi], so that each size costs a similar time."""
    if fixed is not None:
        if fixed < 1:
            raise ValueError("repetitions must be >= 1")
        return fixed
    if n < 1:
        raise ValueError("n must be >= 1")
    return max(lo, min(hi, (1 << 28) // n))


def fmt_ratio(num: float | None, den: float | None) -> str:
    """num/den to two decimals (four below 0.1), or 'n/a' when either is
    missing or den is 0."""
    if num is None or den is None or den == 0:
        return "n/a"
    r = num / den
    return f"{r:.2f}" if abs(r) >= 0.1 else f"{r:.4f}"


def first_present(d: dict, keys: Iterable[str]):
    """The value of the first key of `keys` present (and not None) in d."""
    for k in keys:
        if k in d and d[k] is not None:
            return d[k]
    return None


def batch_ns(call: Callable[[], object], count: int) -> float:
    """Mean ns per call over `count` back-to-back calls of `call` (host clock).
    For a temp-storage query, which launches nothing, no device synchronization
    is involved. Pass a functools.partial rather than a lambda: it adds no
    Python frame to each call."""
    t0 = time.perf_counter_ns()
    for _ in range(count):
        call()
    return (time.perf_counter_ns() - t0) / count


def alternating_trials(first: Callable[[], object], second: Callable[[], object], trials: int,
                       queries: int, floor: Callable[[], object] | None = None):
    """Paired trials of two calls: each trial times `queries` calls of each (batch_ns),
    the order alternating between trials (first-second, then second-first), after a
    warm-up batch of each. With `floor`, each trial also times that call (for example
    a do-nothing function taking the same arguments). The garbage collector is off
    during the trials. Returns (first_ns, second_ns, floor_ns) lists, one value per
    trial (floor_ns empty without `floor`)."""
    if trials < 1 or queries < 1:
        raise ValueError("trials and queries must be >= 1")
    for call in (first, second):
        batch_ns(call, max(1000, queries))
    a_ns, b_ns, f_ns = [], [], []
    gc_was = gc.isenabled()
    gc.disable()
    try:
        for t in range(trials):
            if t % 2 == 0:
                a = batch_ns(first, queries)
                b = batch_ns(second, queries)
            else:
                b = batch_ns(second, queries)
                a = batch_ns(first, queries)
            a_ns.append(a)
            b_ns.append(b)
            if floor is not None:
                f_ns.append(batch_ns(floor, queries))
    finally:
        if gc_was:
            gc.enable()
    return a_ns, b_ns, f_ns
