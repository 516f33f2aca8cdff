#!/usr/bin/env python3
"""Wave 1 against the reference library, NVIDIA's cuda.compute (wheel cuda-cccl), on the
GPU machine (scripts/gpu/run.sh part "refw1"; see README.md).

  reference_wave1.py OUT.json [--specs wave1|later|all|reduce,radix_sort,...]
                     [--types float32,int64,int32] [--curve-types float32,int32]
                     [--trials 51] [--queries 5000] [--child-runs 3]
                     [--min-log 10] [--max-log 28]
                     [--budget-s 200] [--skip-child] [--skip-curves]

Specs (one per algorithm and type; names as in bench/algorithms_acquire.cpp,
<algorithm>_<type>, so that both sides share a table). Group "wave1" (the default), one
per algorithm the reference offers in wave 1, float32 and int64:
  reduce            make_reduce_into, OpKind.PLUS, h_init 0
  reduce_max        make_reduce_into, OpKind.MAXIMUM, h_init the type's lowest value
  inclusive_scan    make_inclusive_scan, OpKind.PLUS, no initial value
  exclusive_scan    make_exclusive_scan, OpKind.PLUS, initial value 0
  unary_transform   make_unary_transform, OpKind.NEGATE (no temp storage: no query)
  binary_transform  make_binary_transform, OpKind.PLUS (no temp storage: no query)
  radix_sort        make_radix_sort, keys only, SortOrder.ASCENDING, all bits
  merge_sort        make_merge_sort, keys only, OpKind.LESS (float32 only)
Group "later" (later_algos.py), one type each, as our bench::later_specs: segmented_reduce
(float32), unique_by_key, select, three_way_partition, histogram_even, lower_bound and
upper_bound (int32); "all": both groups.

Parts, each spec's failure recorded in the JSON (key "error") without stopping the rest;
the JSON is rewritten after every spec, so a run cut short keeps what it measured:
  specs   per spec: factory (build) time, the in-process repeat, serialize and
          deserialize times, blob size, each object's first ready call (the first
          temp-storage query; for a transform or a binary search, one run, synchronized), and for
          specs with a query `trials` x `queries` temp-storage-only calls
          (temp_storage=None, 2,048 items) of a fresh and a deserialized object, the
          order alternating between trials (peerstats.alternating_trials, as
          reference_bench.py), with Python's own call floor; P5..P95 ns per query.
  curves  run time of each spec of `curve_types` for 2^min_log .. 2^max_log items
          (x2 steps): inputs from CuPy, temp storage allocated once per size outside
          the timing, CUDA events around the call only on CuPy's current stream
          (also cuda.compute's with stream=None), 2 warm-ups, median of 100 / 30 / 11
          reps (up to 2^20 / 2^24 / above; cupy_wave1.py's timed()). Each size's
          output is checked against CuPy (sum, max, cumsum, -x, x + y, sort; for the
          later group see later_algos.py); the
          reduce / scan / transform inputs are integers in [-1, 1], so float32
          sums are exact and the checks are equality.
  child   new processes: per spec, `child_runs` processes each doing import cupy and
          a context, import cuda.compute, deserialize the spec's blob, first ready
          call; then `child_runs` processes doing all specs in one process
          ("all ready", the counterpart of our cold start).
Parts run in this order: specs, curves, child. --budget-s: optional work (curve sizes,
then child processes) is skipped, and marked "skipped", once the run has used this many
seconds; what was measured stays. Estimate on the H200 (from reference_bench.py's
merge sort: 3.75 s factory, ~5 us per query; ~1.3 s per child process assumed): specs 15 x
(3.5 s build + 2.6 s of queries) ~ 90 s, curves ~ 15 s, child 48 processes ~ 65 s:
~170 s in all. The later group's 7 specs: about 7 x 6 s + curves ~30 s + 24 child
processes ~30 s, ~100 s.

Output: OUT.json (see README.md for the layout; "summary" holds one flat row per spec)
and, on stdout, one line per figure:
  RESULT peer=reference spec=<spec> build_ms=.. query_p50_fresh_ns=..
         query_p50_deserialized_ns=.. new_process_first_ready_ms=.. ...
  RESULT peer=reference op=<spec without type> type=<type> n=<n> ms=<median ms> check=<0|1>
(the second form is cupy_wave1.py's, so bench/wave1_report.py reads both alike).
"""

from __future__ import annotations

import argparse
import functools
import json
import subprocess
import sys
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import peerstats  # noqa: E402
import reference_bench  # noqa: E402  (versions, JSON writing, the part runner)
from later_algos import LATER, Algo  # noqa: E402

NUM_ITEMS = 2048
WAVE1_TYPES = ("float32", "int64")
TYPES = WAVE1_TYPES + ("int32",)  # int32: the later group


def _small_ints(cp, rng, n, t):
    """n values in {-1, 0, 1} of type t: float32 sums and prefix sums stay exact."""
    return rng.integers(-1, 2, n, dtype=cp.int64).astype(t)


def _sort_keys(cp, rng, n, t):
    if t == "float32":
        return rng.random(n, dtype=cp.float32)
    return rng.integers(-(1 << 40), 1 << 40, n, dtype=cp.int64)


def _lowest(np, t):
    dt = np.dtype(t)
    return -np.inf if dt.kind == "f" else np.iinfo(dt).min


def _reduce(op_name, init):
    def inputs(cp, np, rng, n, t):
        return {"x": _small_ints(cp, rng, n, t), "out": cp.empty(1, dtype=t),
                "h": np.full(1, init(np, t), dtype=t)}

    def make(cc, a):
        return cc.make_reduce_into(d_in=a["x"], d_out=a["out"], op=getattr(cc.OpKind, op_name),
                                   h_init=a["h"])

    def call(cc, obj, a, n, temp):
        return functools.partial(obj, temp_storage=temp, d_in=a["x"], d_out=a["out"],
                                 num_items=n, op=getattr(cc.OpKind, op_name), h_init=a["h"])

    return inputs, make, call


def _scan(inclusive):
    def inputs(cp, np, rng, n, t):
        a = {"x": _small_ints(cp, rng, n, t), "out": cp.empty(n, dtype=t)}
        a["init"] = None if inclusive else np.zeros(1, dtype=t)
        return a

    def make(cc, a):
        f = cc.make_inclusive_scan if inclusive else cc.make_exclusive_scan
        return f(d_in=a["x"], d_out=a["out"], op=cc.OpKind.PLUS, init_value=a["init"])

    def call(cc, obj, a, n, temp):
        return functools.partial(obj, temp_storage=temp, d_in=a["x"], d_out=a["out"],
                                 op=cc.OpKind.PLUS, init_value=a["init"], num_items=n)

    return inputs, make, call


def _check_exclusive(cp, a):
    x, out = a["x"], a["out"]
    if int(out[0].item()) != 0:
        return False
    return bool(cp.array_equal(out[1:], cp.cumsum(x)[:-1]).item())


def _unary_inputs(cp, np, rng, n, t):
    return {"x": _small_ints(cp, rng, n, t), "out": cp.empty(n, dtype=t)}


def _binary_inputs(cp, np, rng, n, t):
    return {"x": _small_ints(cp, rng, n, t), "y": _small_ints(cp, rng, n, t), "out": cp.empty(n, dtype=t)}


def _sort_inputs(cp, np, rng, n, t):
    x = _sort_keys(cp, rng, n, t)
    return {"x": x, "out": cp.empty_like(x)}


def _radix_call(cc, obj, a, n, temp):
    return functools.partial(obj, temp_storage=temp, d_in_keys=a["x"], d_out_keys=a["out"],
                             d_in_values=None, d_out_values=None, num_items=n)


def _merge_call(cc, obj, a, n, temp):
    return functools.partial(obj, temp_storage=temp, d_in_keys=a["x"], d_in_values=None,
                             d_out_keys=a["out"], d_out_values=None, num_items=n, op=cc.OpKind.LESS)


def _sorted_equal(cp, a):
    return bool(cp.array_equal(a["out"], cp.sort(a["x"])).item())


WAVE1 = (
    Algo("reduce", "make_reduce_into, OpKind.PLUS, h_init 0", WAVE1_TYPES,
         *_reduce("PLUS", lambda np, t: 0),
         check=lambda cp, a: bool((a["out"][0] == cp.sum(a["x"])).item())),
    Algo("reduce_max", "make_reduce_into, OpKind.MAXIMUM, h_init lowest", WAVE1_TYPES,
         *_reduce("MAXIMUM", _lowest),
         check=lambda cp, a: bool((a["out"][0] == cp.max(a["x"])).item())),
    Algo("inclusive_scan", "make_inclusive_scan, OpKind.PLUS, no initial value", WAVE1_TYPES,
         *_scan(True), check=lambda cp, a: bool(cp.array_equal(a["out"], cp.cumsum(a["x"])).item())),
    Algo("exclusive_scan", "make_exclusive_scan, OpKind.PLUS, initial value 0", WAVE1_TYPES,
         *_scan(False), check=_check_exclusive),
    Algo("unary_transform", "make_unary_transform, OpKind.NEGATE", WAVE1_TYPES, _unary_inputs,
         lambda cc, a: cc.make_unary_transform(d_in=a["x"], d_out=a["out"], op=cc.OpKind.NEGATE),
         lambda cc, obj, a, n, temp: functools.partial(obj, d_in=a["x"], d_out=a["out"],
                                                       op=cc.OpKind.NEGATE, num_items=n),
         lambda cp, a: bool(cp.array_equal(a["out"], -a["x"]).item()), has_query=False),
    Algo("binary_transform", "make_binary_transform, OpKind.PLUS", WAVE1_TYPES, _binary_inputs,
         lambda cc, a: cc.make_binary_transform(d_in1=a["x"], d_in2=a["y"], d_out=a["out"],
                                                op=cc.OpKind.PLUS),
         lambda cc, obj, a, n, temp: functools.partial(obj, d_in1=a["x"], d_in2=a["y"], d_out=a["out"],
                                                       op=cc.OpKind.PLUS, num_items=n),
         lambda cp, a: bool(cp.array_equal(a["out"], a["x"] + a["y"]).item()), has_query=False),
    Algo("radix_sort", "make_radix_sort, keys only, SortOrder.ASCENDING, all bits", WAVE1_TYPES, _sort_inputs,
         lambda cc, a: cc.make_radix_sort(d_in_keys=a["x"], d_out_keys=a["out"], d_in_values=None,
                                          d_out_values=None, order=cc.SortOrder.ASCENDING),
         _radix_call, _sorted_equal),
    Algo("merge_sort", "make_merge_sort, keys only, OpKind.LESS", ("float32",), _sort_inputs,
         lambda cc, a: cc.make_merge_sort(d_in_keys=a["x"], d_out_keys=a["out"], op=cc.OpKind.LESS),
         _merge_call, _sorted_equal),
)
ALGOS = {a.name: a for a in WAVE1 + LATER}
# --specs accepts these group names beside algorithm names.
GROUPS = {"wave1": [a.name for a in WAVE1], "later": [a.name for a in LATER], "all": list(ALGOS)}


def expand_specs(text: str) -> list[str]:
    """Algorithm names from a comma-separated list of names and group names, in order,
    each once."""
    out = []
    for s in (s for s in text.split(",") if s):
        for a in GROUPS.get(s, [s]):
            if a not in out:
                out.append(a)
    return out


def spec_names(algos, types) -> list[str]:
    """Every (algorithm, type) the reference offers among those asked for, type-major
    (all float32 specs first: they matter most when a run is cut short)."""
    return [f"{a}_{t}" for t in types for a in algos if t in ALGOS[a].types]


def split_spec(spec: str) -> tuple[Algo, str]:
    for t in TYPES:
        if spec.endswith("_" + t) and spec[: -len(t) - 1] in ALGOS:
            return ALGOS[spec[: -len(t) - 1]], t
    raise ValueError(f"unknown spec {spec!r}")


def ready_call(cc, cp, algo: Algo, obj, a) -> int | None:
    """The first call that makes the object ready to use: a temp-storage query, or for a
    transform (no temp storage) one run, synchronized. Returns the temp bytes or None."""
    if algo.has_query:
        return int(algo.call(cc, obj, a, NUM_ITEMS, None)())
    algo.call(cc, obj, a, NUM_ITEMS, None)()
    cp.cuda.runtime.deviceSynchronize()
    return None


def _floor(**_kwargs):
    return 0


def measure_spec(args, spec: str, blob_dir: Path, r: dict) -> None:
    import cupy as cp
    import numpy as np

    import cuda.compute as cc

    algo, t = split_spec(spec)
    if algo.ops:
        algo.ops(cc)
    r.update(algorithm=algo.name, type=t, what=algo.what, has_query=algo.has_query, num_items=NUM_ITEMS)
    a = algo.inputs(cp, np, cp.random.default_rng(args.seed), NUM_ITEMS, t)
    cp.cuda.runtime.deviceSynchronize()

    fresh, loaded, blob = reference_bench.object_lifecycle(
        cc, lambda: algo.make(cc, a), lambda obj: ready_call(cc, cp, algo, obj, a), r, "first_ready")
    (blob_dir / f"{spec}.blob").write_bytes(blob)
    if not algo.has_query:
        return

    q_fresh = algo.call(cc, fresh, a, NUM_ITEMS, None)
    q_loaded = algo.call(cc, loaded, a, NUM_ITEMS, None)
    q_floor = functools.partial(_floor, **q_fresh.keywords)
    fresh_ns, loaded_ns, floor_ns = peerstats.alternating_trials(
        q_fresh, q_loaded, args.trials, args.queries, floor=q_floor)
    reference_bench.record_trials(r, args, fresh_ns, loaded_ns, floor_ns)


def child_main(blob_dir: str, specs: list[str], seed: int) -> None:
    """A new process: cupy and a context, import cuda.compute, then per spec deserialize
    its blob and make the first ready call. Prints one JSON object on stdout."""
    t_start = time.perf_counter_ns()
    import cupy as cp
    import numpy as np

    arrays = {}
    for spec in specs:
        algo, t = split_spec(spec)
        arrays[spec] = algo.inputs(cp, np, cp.random.default_rng(seed), NUM_ITEMS, t)
    cp.cuda.runtime.deviceSynchronize()
    t_ctx = time.perf_counter_ns()
    import cuda.compute as cc
    t_imp = time.perf_counter_ns()
    for spec in specs:  # operators compiled before the clock restarts (Algo.ops)
        algo, _ = split_spec(spec)
        if algo.ops:
            algo.ops(cc)
    ops_ns = time.perf_counter_ns() - t_imp
    per = {}
    for spec in specs:
        algo, _ = split_spec(spec)
        blob = (Path(blob_dir) / f"{spec}.blob").read_bytes()
        t0 = time.perf_counter_ns()
        obj = cc.deserialize(blob)
        t1 = time.perf_counter_ns()
        ready_call(cc, cp, algo, obj, arrays[spec])
        t2 = time.perf_counter_ns()
        per[spec] = {"deserialize_ms": (t1 - t0) / 1e6, "first_ready_us": (t2 - t1) / 1e3,
                     "ready_ms": (t2 - t0) / 1e6}
    t_end = time.perf_counter_ns()
    print(json.dumps({
        "cupy_and_context_ms": (t_ctx - t_start) / 1e6,
        "import_cuda_compute_ms": (t_imp - t_ctx) / 1e6,
        "operators_compile_ms": ops_ns / 1e6,
        "all_ready_after_import_ms": (t_end - t_imp - ops_ns) / 1e6,
        "all_ready_from_start_ms": (t_end - t_start - ops_ns) / 1e6,
        "specs": per,
    }))


def _spawn_child(blob_dir: Path, specs: list[str], seed: int) -> dict:
    p = subprocess.run([sys.executable, __file__, "--child", str(blob_dir), "--child-specs", ",".join(specs),
                        "--seed", str(seed)], capture_output=True, text=True, timeout=120)
    if p.returncode != 0:
        raise RuntimeError(f"child exited {p.returncode}: {p.stderr[-2000:]}")
    return json.loads(p.stdout.strip().splitlines()[-1])


class Budget:
    def __init__(self, seconds: float):
        self.t0, self.seconds = time.monotonic(), seconds

    def spent(self) -> bool:
        return time.monotonic() - self.t0 > self.seconds


def part_child(args, doc: dict, blob_dir: Path, budget: Budget, save) -> None:
    """Per spec, `child_runs` new processes (runs interleaved across specs), then
    `child_runs` processes acquiring every spec."""
    ready = [s for s, r in doc["specs"].items() if "error" not in r and (blob_dir / f"{s}.blob").is_file()]
    for run in range(args.child_runs):
        for spec in ready:
            c = doc["specs"][spec].setdefault("child", {"runs": []})
            if budget.spent():
                c["skipped"] = "budget"
                continue
            try:
                out = _spawn_child(blob_dir, [spec], args.seed)
                run_r = {"import_cuda_compute_ms": out["import_cuda_compute_ms"],
                         "cupy_and_context_ms": out["cupy_and_context_ms"], **out["specs"][spec]}
                run_r["import_and_ready_ms"] = run_r["import_cuda_compute_ms"] + run_r["ready_ms"]
                c["runs"].append(run_r)
            except Exception as e:  # recorded per spec; the others go on
                c.setdefault("errors", []).append(repr(e))
            save()
    for spec in ready:
        c = doc["specs"][spec].get("child", {})
        if c.get("runs"):
            for key in ("deserialize_ms", "first_ready_us", "ready_ms", "import_cuda_compute_ms",
                        "import_and_ready_ms"):
                c[key + "_p50"] = peerstats.median([x[key] for x in c["runs"]])
    allr = doc.setdefault("child_all", {"specs": ready, "runs": []})
    for _ in range(args.child_runs if ready else 0):
        if budget.spent():
            allr["skipped"] = "budget"
            break
        try:
            allr["runs"].append(_spawn_child(blob_dir, ready, args.seed))
        except Exception as e:
            allr.setdefault("errors", []).append(repr(e))
        save()
    if allr["runs"]:
        for key in ("all_ready_after_import_ms", "all_ready_from_start_ms", "import_cuda_compute_ms"):
            allr[key + "_p50"] = peerstats.median([x[key] for x in allr["runs"]])


def part_curves(args, doc: dict, budget: Budget, save) -> None:
    import cupy as cp
    import numpy as np

    import cuda.compute as cc
    from cupy_wave1 import reps_for, timed

    curves = doc.setdefault("curves", {})
    for spec in spec_names(args.specs, args.curve_types):
        algo, t = split_spec(spec)
        curve = curves.setdefault(spec, {"rows": []})
        rows = curve["rows"]
        if "error" in doc["specs"].get(spec, {}):
            # Its factory or query failed in the specs part: each size would only
            # repeat the failure (and a failed build costs seconds).
            curve["error"] = "skipped: the spec failed in the specs part"
            print(f"reference {spec}: curve {curve['error']}", flush=True)
            continue
        for k in range(args.min_log, args.max_log + 1):
            n = 1 << k
            row = {"n": n, "log2n": k}
            rows.append(row)
            if budget.spent():
                row["skipped"] = "budget"
                continue
            try:
                a = algo.inputs(cp, np, cp.random.default_rng(args.seed + k), n, t)
                obj = algo.make(cc, a)  # in-process cache: built once per spec
                temp = None
                if algo.has_query:
                    tbytes = int(algo.call(cc, obj, a, n, None)())
                    temp = cp.empty(max(1, tbytes), dtype=cp.uint8)
                    row["temp_storage_bytes"] = tbytes
                row["reps"] = reps_for(n)
                row["ms"] = timed(algo.call(cc, obj, a, n, temp), row["reps"])
                row["check"] = algo.check(cp, a)
                if not row["check"]:
                    row["error"] = "output differs from CuPy's"
                del a, temp
            except Exception as e:
                row["error"] = repr(e)
                traceback.print_exc()
            cp.get_default_memory_pool().free_all_blocks()
            if "ms" in row:
                print(f"RESULT peer=reference op={algo.name} type={t} n={n} ms={row['ms']:.5f} "
                      f"check={int(bool(row.get('check')))}", flush=True)
            else:
                print(f"reference {spec} n={n}: {row.get('error') or row.get('skipped')}", flush=True)
            save()


def summarize(doc: dict) -> dict:
    """One flat row per spec: what a table beside ours needs."""
    out = {}
    for spec, r in doc.get("specs", {}).items():
        c = r.get("child", {})
        out[spec] = {
            "build_ms": r.get("factory_build_ms"),
            "query_p50_fresh_ns": (r.get("fresh_ns") or {}).get("p50"),
            "query_p50_deserialized_ns": (r.get("deserialized_ns") or {}).get("p50"),
            "python_call_floor_p50_ns": (r.get("python_call_floor_ns") or {}).get("p50"),
            "deserialize_ms": r.get("deserialize_ms_p50"),
            "new_process_first_ready_ms": c.get("ready_ms_p50"),
            "new_process_import_ms": c.get("import_cuda_compute_ms_p50"),
            "new_process_import_and_ready_ms": c.get("import_and_ready_ms_p50"),
            "blob_bytes": r.get("blob_bytes"),
            "temp_storage_bytes": r.get("temp_storage_bytes"),
            "error": r.get("error"),
        }
    return out


def _result_line(spec: str, row: dict) -> str:
    keys = ("build_ms", "query_p50_fresh_ns", "query_p50_deserialized_ns", "python_call_floor_p50_ns",
            "deserialize_ms", "new_process_first_ready_ms", "new_process_import_and_ready_ms", "blob_bytes",
            "temp_storage_bytes")
    kv = " ".join(f"{k}={row[k]:.4f}" if isinstance(row[k], float) else f"{k}={row[k]}"
                  for k in keys if row.get(k) is not None)
    return f"RESULT peer=reference spec={spec} {kv}" + (" error=1" if row.get("error") else "")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", nargs="?", help="JSON output path")
    ap.add_argument("--specs", default="wave1",
                    help="algorithms and groups (wave1, later, all), comma-separated")
    ap.add_argument("--types", default=",".join(TYPES))
    ap.add_argument("--curve-types", default="float32,int32")
    ap.add_argument("--trials", type=int, default=51)
    ap.add_argument("--queries", type=int, default=5000)
    ap.add_argument("--child-runs", type=int, default=3)
    ap.add_argument("--min-log", type=int, default=10)
    ap.add_argument("--max-log", type=int, default=28)
    ap.add_argument("--budget-s", type=float, default=200.0)
    ap.add_argument("--seed", type=int, default=20261201)
    ap.add_argument("--skip-child", action="store_true")
    ap.add_argument("--skip-curves", action="store_true")
    ap.add_argument("--blob-dir", default=None, help="where the blobs go (default: beside OUT.json)")
    ap.add_argument("--child", default=None, help=argparse.SUPPRESS)
    ap.add_argument("--child-specs", default="", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        child_main(args.child, args.child_specs.split(","), args.seed)
        return 0
    if not args.out:
        ap.error("the JSON output path is required")
    args.specs = expand_specs(args.specs)
    args.types = [s for s in args.types.split(",") if s]
    args.curve_types = [s for s in args.curve_types.split(",") if s]
    bad = [s for s in args.specs if s not in ALGOS] + [t for t in args.types + args.curve_types if t not in TYPES]
    if bad:
        ap.error(f"unknown algorithm or type: {', '.join(bad)} (algorithms: {', '.join(ALGOS)}; groups: "
                 f"{', '.join(GROUPS)}; "
                 f"types: {', '.join(TYPES)})")
    if args.trials < 1 or args.queries < 1 or args.child_runs < 0 or not 1 <= args.min_log <= args.max_log <= 30:
        ap.error("need trials >= 1, queries >= 1, child-runs >= 0, 1 <= min-log <= max-log <= 30")

    budget = Budget(args.budget_s)
    doc = reference_bench.start_doc("bench/peers/reference_wave1.py", args)
    doc["specs"] = {}
    blob_dir = Path(args.blob_dir) if args.blob_dir else Path(args.out).with_suffix(".blobs")
    blob_dir.mkdir(parents=True, exist_ok=True)

    def save():
        doc["summary"] = summarize(doc)
        reference_bench._write(args.out, doc)

    ok = True
    for i, spec in enumerate(spec_names(args.specs, args.types)):
        r = doc["specs"].setdefault(spec, {"build_order": i})
        t0 = time.time()
        try:
            measure_spec(args, spec, blob_dir, r)
        except Exception as e:  # this spec only
            r["error"] = repr(e)
            r["traceback"] = traceback.format_exc()
            traceback.print_exc()
            ok = False
        r["wall_s"] = round(time.time() - t0, 3)
        save()
        print(f"{spec}: build {r.get('factory_build_ms', float('nan')):.1f} ms, query P50 fresh "
              f"{(r.get('fresh_ns') or {}).get('p50', float('nan')):.1f} ns, deserialized "
              f"{(r.get('deserialized_ns') or {}).get('p50', float('nan')):.1f} ns"
              f"{'  ERROR ' + r['error'] if 'error' in r else ''}", flush=True)
    # Curves before the child processes: they are cheap, and the plots need them.
    if not args.skip_curves:
        ok &= reference_bench._run_part("curve_part", lambda _: part_curves(args, doc, budget, save),
                                        doc, args.out)
        ok &= not any("error" in c or any("error" in row for row in c["rows"])
                      for c in doc.get("curves", {}).values())
    if not args.skip_child:
        ok &= reference_bench._run_part("child_part", lambda _: part_child(args, doc, blob_dir, budget, save),
                                        doc, args.out)
    doc["finished_utc"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    doc["ok"] = bool(ok)
    save()
    for spec, row in doc["summary"].items():
        print(_result_line(spec, row))
    ca = doc.get("child_all", {})
    if ca.get("runs"):
        print(f"RESULT peer=reference all_specs={len(ca['specs'])} "
              f"all_ready_after_import_ms_p50={ca['all_ready_after_import_ms_p50']:.4f} "
              f"all_ready_from_start_ms_p50={ca['all_ready_from_start_ms_p50']:.4f} "
              f"import_cuda_compute_ms_p50={ca['import_cuda_compute_ms_p50']:.4f}")
    print(f"\nwrote {args.out}; ok={ok}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
