"""The reference library's algorithms added after wave 1, as reference_wave1.py measures
them (group "later"), and the Algo record both groups share. Each mirrors the spec that
bench/algorithms_acquire.cpp measures on our side under the same name (bench::later_specs)
and the input layout of our *_vs_cub benchmark's curve, so that the tables join:

  segmented_reduce_float32   make_segmented_reduce, OpKind.PLUS, h_init 0, int64 begin/end
                             offsets; curve: segments of 1,024 items (our "seg1024")
  unique_by_key_int32        make_unique_by_key, int32 keys and values, OpKind.EQUAL_TO;
                             curve: sorted keys in runs, a new key where a uniform draw
                             is below 2/9 (mean run 4.5 items; ours: uniform in [1, 8])
  select_int32               make_select, a predicate `x != 0` as C++ compiled to a RawOp
                             (the wheel's OpKind.IDENTITY must return its argument type,
                             so it is no predicate there); curve: half the items nonzero at
                             random (our "keep50")
  three_way_partition_int32  make_three_way_partition, C++ RawOp predicates `x < 0`, then
                             `x != 0`: negative items first, positive second, zeros
                             unselected, a third each (our curve's layout and predicates;
                             our acquisition spec takes `identity` twice)
  histogram_even_int32       make_histogram_even, int32 samples and levels, int32
                             counters, 257 levels over [0, 1024) (256 bins); curve:
                             samples uniform over [-57, 1081) (a tenth outside)
  lower_bound_int32          make_lower_bound, OpKind.LESS, uint64 indices (np.uintp, as
  upper_bound_int32          the wheel requires); make_upper_bound; curve: n sorted items
                             of about n/4 distinct even values, n values around them
                             (our bsearch curves). No temp storage: no query; the first
                             ready call is one run, synchronized.

Every curve size is checked against CuPy (boolean masks, bincount, searchsorted, a
reshape-sum).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Callable

SEGMENT = 1024  # items per segment of the segmented reduce
HIST_LEVELS, HIST_LOWER, HIST_UPPER = 257, 0, 1024


@dataclass(frozen=True)
class Algo:
    """One reference algorithm: how to make its inputs, build it, query and run it,
    and check its output. `a` is the dict of arrays from `inputs`; `cc` the module
    cuda.compute; `cp` the module cupy."""
    name: str
    what: str
    types: tuple
    inputs: Callable  # (cp, np, rng, n, dtype_name) -> dict
    make: Callable  # (cc, a) -> object
    call: Callable  # (cc, obj, a, n, temp) -> functools.partial (temp None: the query)
    check: Callable  # (cp, a) -> bool
    has_query: bool = True
    # (cc) -> None: compiles the operators the calls pass (predicate(cc, name)), run
    # before any timing starts, so that no build, query or ready call times it.
    ops: Callable | None = None


def _eq(cp, a, b) -> bool:
    return bool(cp.array_equal(a, b).item())


def _count(a, i=0) -> int:
    return int(a["count"][i].item())


# --- segmented reduce ---------------------------------------------------------------

def _segred_inputs(cp, np, rng, n, t):
    starts = cp.arange(0, n, SEGMENT, dtype=cp.int64)
    return {"x": rng.integers(-1, 2, n, dtype=cp.int64).astype(t), "starts": starts,
            "ends": starts + SEGMENT, "out": cp.empty(len(starts), dtype=t), "h": np.zeros(1, dtype=t)}


def _segred_call(cc, obj, a, n, temp):
    return functools.partial(obj, temp_storage=temp, d_in=a["x"], d_out=a["out"],
                             num_segments=len(a["starts"]), start_offsets_in=a["starts"],
                             end_offsets_in=a["ends"], op=cc.OpKind.PLUS, h_init=a["h"])


def _segred_check(cp, a):  # small integers: float32 sums are exact
    return _eq(cp, a["out"], a["x"].reshape(-1, SEGMENT).sum(axis=1))


# --- unique_by_key ------------------------------------------------------------------

def _ubk_inputs(cp, np, rng, n, t):
    starts = rng.random(n, dtype=cp.float32) < (2.0 / 9.0)
    keys = cp.cumsum(starts.astype(cp.int64)).astype(t)
    return {"keys": keys, "vals": rng.integers(-(1 << 30), 1 << 30, n, dtype=cp.int64).astype(t),
            "out_keys": cp.empty(n, dtype=t), "out_vals": cp.empty(n, dtype=t),
            "count": cp.zeros(1, dtype=cp.int64)}


def _ubk_call(cc, obj, a, n, temp):
    return functools.partial(obj, temp_storage=temp, d_in_keys=a["keys"], d_in_items=a["vals"],
                             d_out_keys=a["out_keys"], d_out_items=a["out_vals"],
                             d_out_num_selected=a["count"], op=cc.OpKind.EQUAL_TO, num_items=n)


def _ubk_check(cp, a):
    k = a["keys"]
    first = cp.concatenate([cp.ones(1, dtype=bool), k[1:] != k[:-1]])
    m = _count(a)
    return (m == int(first.sum().item()) and _eq(cp, a["out_keys"][:m], k[first])
            and _eq(cp, a["out_vals"][:m], a["vals"][first]))


# --- select and three-way partition -------------------------------------------------

# The predicates as C++ device functions compiled by the wheel's own compile_cpp_op_code
# (NVRTC through cuda.core) into RawOps: the reference's route for C++ operators, which
# needs no numba-cuda (not carried to the GPU machine). Compiled once per process.
_PREDICATES = {
    "nonzero": "*static_cast<bool*>(r) = *static_cast<const int*>(x) != 0;",
    "negative": "*static_cast<bool*>(r) = *static_cast<const int*>(x) < 0;",
}
_COMPILED = {}


def predicate(cc, name):
    """select's predicate `x != 0` ("nonzero") and three-way partition's first, `x < 0`
    ("negative"), on int32 items, as RawOps."""
    if name not in _COMPILED:
        from cuda.compute._cpp_compile import compile_cpp_op_code
        from cuda.compute.op import RawOp

        src = f'extern "C" __device__ void {name}(void* x, void* r) {{ {_PREDICATES[name]} }}\n'
        _COMPILED[name] = RawOp(ltoir=compile_cpp_op_code(src), name=name)
    return _COMPILED[name]


def _compile_predicates(cc):
    for name in _PREDICATES:
        predicate(cc, name)


def _sparse_ints(cp, rng, n, t, zero_share, negative_share=0.0):
    """Values in [1, 2^20), each item zero with probability zero_share, else negated with
    probability negative_share."""
    v = rng.integers(1, 1 << 20, n, dtype=cp.int64)
    v = cp.where(rng.random(n, dtype=cp.float32) < negative_share, -v, v)
    return cp.where(rng.random(n, dtype=cp.float32) < zero_share, cp.zeros(1, dtype=cp.int64), v).astype(t)


def _select_inputs(cp, np, rng, n, t):
    return {"x": _sparse_ints(cp, rng, n, t, 0.5), "out": cp.empty(n, dtype=t),
            "count": cp.zeros(2, dtype=cp.int64)}


def _select_call(cc, obj, a, n, temp):
    return functools.partial(obj, temp_storage=temp, d_in=a["x"], d_out=a["out"],
                             d_num_selected_out=a["count"], cond=predicate(cc, "nonzero"),
                             num_items=n)


def _select_check(cp, a):
    want = a["x"][a["x"] != 0]
    m = _count(a)
    return m == len(want) and _eq(cp, a["out"][:m], want)


def _twp_inputs(cp, np, rng, n, t):
    return {"x": _sparse_ints(cp, rng, n, t, 1.0 / 3.0, 0.5), "first": cp.empty(n, dtype=t),
            "second": cp.empty(n, dtype=t), "rest": cp.empty(n, dtype=t), "count": cp.zeros(2, dtype=cp.int64)}


def _twp_call(cc, obj, a, n, temp):
    return functools.partial(obj, temp_storage=temp, d_in=a["x"], d_first_part_out=a["first"],
                             d_second_part_out=a["second"], d_unselected_out=a["rest"],
                             d_num_selected_out=a["count"],
                             select_first_part_op=predicate(cc, "negative"),
                             select_second_part_op=predicate(cc, "nonzero"), num_items=n)


def _twp_check(cp, a):
    x = a["x"]
    neg, pos = x[x < 0], x[x > 0]
    m1, m2, zeros = len(neg), len(pos), len(x) - len(neg) - len(pos)
    return (_count(a, 0) == m1 and _count(a, 1) == m2 and _eq(cp, a["first"][:m1], neg)
            and _eq(cp, a["second"][:m2], pos) and not bool((a["rest"][:zeros] != 0).any().item()))


# --- histogram_even -----------------------------------------------------------------

def _hist_inputs(cp, np, rng, n, t):
    span = HIST_UPPER - HIST_LOWER
    x = rng.integers(HIST_LOWER - span // 18, HIST_UPPER + span // 18, n, dtype=cp.int64).astype(t)
    return {"x": x, "hist": cp.zeros(HIST_LEVELS - 1, dtype=cp.int32),
            "levels": np.array([HIST_LEVELS], dtype=np.int32), "lower": np.array([HIST_LOWER], dtype=t),
            "upper": np.array([HIST_UPPER], dtype=t)}


def _hist_make(cc, a):
    return cc.make_histogram_even(d_samples=a["x"], d_histogram=a["hist"], h_num_output_levels=a["levels"],
                                  h_lower_level=a["lower"], h_upper_level=a["upper"], num_samples=len(a["x"]))


def _hist_call(cc, obj, a, n, temp):
    return functools.partial(obj, temp_storage=temp, d_samples=a["x"], d_histogram=a["hist"],
                             h_num_output_levels=a["levels"], h_lower_level=a["lower"],
                             h_upper_level=a["upper"], num_samples=n)


def _hist_check(cp, a):
    x = a["x"]
    inside = x[(x >= HIST_LOWER) & (x < HIST_UPPER)].astype(cp.int64)
    bins = HIST_LEVELS - 1
    want = cp.bincount((inside - HIST_LOWER) * bins // (HIST_UPPER - HIST_LOWER), minlength=bins)
    return _eq(cp, a["hist"].astype(cp.int64), want)


# --- lower / upper bound ------------------------------------------------------------

def _bsearch_inputs(cp, np, rng, n, t):
    distinct = max(n // 4, 1)
    data = cp.sort(2 * rng.integers(0, distinct, n, dtype=cp.int64) + 2).astype(t)
    return {"data": data, "values": rng.integers(0, 2 * distinct + 4, n, dtype=cp.int64).astype(t),
            "out": cp.empty(n, dtype=cp.uint64)}


def _bsearch(upper: bool):
    def make(cc, a):
        f = cc.make_upper_bound if upper else cc.make_lower_bound
        return f(d_data=a["data"], d_values=a["values"], d_out=a["out"], comp=cc.OpKind.LESS)

    def call(cc, obj, a, n, temp):
        return functools.partial(obj, d_data=a["data"], num_items=n, d_values=a["values"], num_values=n,
                                 d_out=a["out"], comp=cc.OpKind.LESS)

    def check(cp, a):
        want = cp.searchsorted(a["data"], a["values"], side="right" if upper else "left")
        return _eq(cp, a["out"].astype(cp.int64), want.astype(cp.int64))

    return make, call, check


LATER = (
    Algo("segmented_reduce", "make_segmented_reduce, OpKind.PLUS, h_init 0, segments of 1,024",
         ("float32",), _segred_inputs,
         lambda cc, a: cc.make_segmented_reduce(d_in=a["x"], d_out=a["out"], start_offsets_in=a["starts"],
                                                end_offsets_in=a["ends"], op=cc.OpKind.PLUS, h_init=a["h"]),
         _segred_call, _segred_check),
    Algo("unique_by_key", "make_unique_by_key, int32 keys and values, OpKind.EQUAL_TO", ("int32",),
         _ubk_inputs,
         lambda cc, a: cc.make_unique_by_key(d_in_keys=a["keys"], d_in_items=a["vals"], d_out_keys=a["out_keys"],
                                             d_out_items=a["out_vals"], d_out_num_selected=a["count"],
                                             op=cc.OpKind.EQUAL_TO),
         _ubk_call, _ubk_check),
    Algo("select", "make_select, C++ RawOp predicate x != 0", ("int32",), _select_inputs,
         lambda cc, a: cc.make_select(d_in=a["x"], d_out=a["out"], d_num_selected_out=a["count"],
                                      cond=predicate(cc, "nonzero")),
         _select_call, _select_check, ops=_compile_predicates),
    Algo("three_way_partition", "make_three_way_partition, C++ RawOp predicates x < 0, x != 0",
         ("int32",), _twp_inputs,
         lambda cc, a: cc.make_three_way_partition(
             d_in=a["x"], d_first_part_out=a["first"], d_second_part_out=a["second"], d_unselected_out=a["rest"],
             d_num_selected_out=a["count"], select_first_part_op=predicate(cc, "negative"),
             select_second_part_op=predicate(cc, "nonzero")),
         _twp_call, _twp_check, ops=_compile_predicates),
    Algo("histogram_even", "make_histogram_even, int32, 257 levels over [0, 1024)", ("int32",), _hist_inputs,
         _hist_make, _hist_call, _hist_check),
    Algo("lower_bound", "make_lower_bound, OpKind.LESS, uint64 indices", ("int32",), _bsearch_inputs,
         *_bsearch(False), has_query=False),
    Algo("upper_bound", "make_upper_bound, OpKind.LESS, uint64 indices", ("int32",), _bsearch_inputs,
         *_bsearch(True), has_query=False),
)
