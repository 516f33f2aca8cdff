#!/usr/bin/env python3
"""cccl_cache from Python on the GPU machine: the mission's measurement where array
libraries live, beside reference_bench.py's (cuda.compute) numbers.

  python_bench.py OUT.json [--trials 51] [--queries 5000] [--child-runs 11]

Needs the cccl_cache module on PYTHONPATH (build tree: build/python) and CuPy.
Parts (each one's failure is recorded in the JSON and does not stop the others):
  query   for merge sort, radix sort, reduce, inclusive scan (float32, 2,048 items):
          a fresh object (built into an empty store in this process) and a loaded one
          (a second Cache on that store: store hit + bind); then `trials` trials of
          `queries` temp-storage-only calls (temp_storage=None) per object, the order
          alternating between trials, and Python's own do-nothing function called
          with the same arguments in each trial. Positional arguments (the fast
          form) and keyword arguments (as reference_bench.py calls cuda.compute).
          P5..P95 of ns per query, the paired loaded - fresh difference, ratios.
  child   in a new Python process with a warm store: CuPy and the context first,
          then `import cccl_cache`, then make_merge_sort (store hit + bind) and the
          first query (the reference's import + deserialize + first query).
Writes JSON to OUT.json (rewritten after each part) and a table to stdout.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import peerstats  # noqa: E402

NUM_ITEMS = 2048


def _floor(temp_storage, a, b, c, d, num_items):
    return 0


def _floor4(temp_storage, a, b, num_items):
    return 0


def _floor5(temp_storage, a, b, num_items, h_init):
    return 0


def _floor_kw(*, temp_storage, d_in_keys, d_in_values, d_out_keys, d_out_values, num_items):
    return 0


def _cases(cc, cp, cache):
    """name -> (factory(cache) -> callable, positional args after temp_storage, floor)."""
    a = cp.asarray(cp.random.standard_normal(NUM_ITEMS, dtype=cp.float32))
    b = cp.empty_like(a)
    one = cp.empty(1, cp.float32)
    f4 = "float32"
    return {
        "merge_sort": (lambda c: cc.make_merge_sort(f4, None, f4, None, device=0, cache=c),
                       (a, None, b, None, NUM_ITEMS), _floor),
        "radix_sort": (lambda c: cc.make_radix_sort(f4, f4, device=0, cache=c),
                       (a, b, None, None, NUM_ITEMS), _floor),
        "reduce": (lambda c: cc.make_reduce_into(f4, f4, device=0, cache=c),
                   (a, one, NUM_ITEMS, 0.0), _floor5),
        "inclusive_scan": (lambda c: cc.make_inclusive_scan(f4, f4, device=0, cache=c),
                           (a, b, NUM_ITEMS), _floor4),
    }


def _batch(fn, args, count: int) -> float:
    """Mean ns per call over `count` back-to-back calls fn(None, *args)."""
    t0 = time.perf_counter_ns()
    for _ in range(count):
        fn(None, *args)
    return (time.perf_counter_ns() - t0) / count


def _batch_kw(fn, kw, count: int) -> float:
    t0 = time.perf_counter_ns()
    for _ in range(count):
        fn(temp_storage=None, **kw)
    return (time.perf_counter_ns() - t0) / count


def _trials(fresh, loaded, floor, run, trials: int) -> dict:
    run(fresh), run(loaded), run(floor)  # warm-up
    f_ns, l_ns, z_ns = [], [], []
    gc_was = gc.isenabled()
    gc.disable()
    try:
        for t in range(trials):
            order = [(fresh, f_ns), (loaded, l_ns), (floor, z_ns)]
            if t % 2:
                order.reverse()
            for obj, out in order:
                out.append(run(obj))
    finally:
        if gc_was:
            gc.enable()
    return {"fresh_ns": peerstats.summary(f_ns), "loaded_ns": peerstats.summary(l_ns),
            "python_call_floor_ns": peerstats.summary(z_ns),
            "paired_loaded_minus_fresh_ns": peerstats.paired(f_ns, l_ns),
            "loaded_over_fresh_p50": peerstats.median(l_ns) / peerstats.median(f_ns),
            "fresh_over_floor_p50": peerstats.median(f_ns) / peerstats.median(z_ns),
            "raw_fresh_ns": f_ns, "raw_loaded_ns": l_ns, "raw_floor_ns": z_ns}


def part_query(args, result: dict, store: str) -> None:
    import cupy as cp

    import cccl_cache as cc

    fresh_cache, loaded_cache = cc.Cache(store), cc.Cache(store)
    for name, (make, qargs, floor) in _cases(cc, cp, fresh_cache).items():
        r = result.setdefault(name, {})
        try:
            t0 = time.perf_counter_ns()
            fresh = make(fresh_cache)
            r["build_ms"] = (time.perf_counter_ns() - t0) / 1e6
            t0 = time.perf_counter_ns()
            loaded = make(loaded_cache)
            r["load_bind_ms"] = (time.perf_counter_ns() - t0) / 1e6
            t0 = time.perf_counter_ns()
            again = make(loaded_cache)
            r["inprocess_repeat_us"] = (time.perf_counter_ns() - t0) / 1e3
            r["factory_repeat_returns_same_object"] = again is loaded
            r["temp_storage_bytes"] = fresh(None, *qargs)
            if loaded(None, *qargs) != r["temp_storage_bytes"]:
                raise RuntimeError("temp bytes differ between fresh and loaded")
            q = args.queries
            r["positional"] = _trials(fresh, loaded, floor, lambda f: _batch(f, qargs, q), args.trials)
            if name == "merge_sort":
                kw = dict(zip(("d_in_keys", "d_in_values", "d_out_keys", "d_out_values", "num_items"), qargs))
                r["keywords"] = _trials(fresh, loaded, _floor_kw, lambda f: _batch_kw(f, kw, q), args.trials)
        except Exception:
            r["error"] = traceback.format_exc()
    result["stats"] = {"fresh": fresh_cache.stats(), "loaded": loaded_cache.stats()}
    result["num_items"], result["trials"], result["queries_per_trial"] = NUM_ITEMS, args.trials, args.queries


def child_main() -> None:
    """A new process on a warm store: CuPy and the context, then our import, acquire
    (store hit + bind) and first query. Prints one JSON object."""
    t_start = time.perf_counter_ns()
    import cupy as cp

    d_in = cp.asarray(cp.random.standard_normal(NUM_ITEMS, dtype=cp.float32))
    d_out = cp.empty_like(d_in)
    cp.cuda.runtime.deviceSynchronize()
    t_ctx = time.perf_counter_ns()
    import cccl_cache as cc
    t_imp = time.perf_counter_ns()
    exe = cc.make_merge_sort(d_in, None, d_out, None)
    t1 = time.perf_counter_ns()
    nbytes = exe(None, d_in, None, d_out, None, NUM_ITEMS)
    t2 = time.perf_counter_ns()
    print(json.dumps({
        "cupy_and_context_ms": (t_ctx - t_start) / 1e6,
        "import_cccl_cache_ms": (t_imp - t_ctx) / 1e6,
        "acquire_ms": (t1 - t_imp) / 1e6,
        "first_query_us": (t2 - t1) / 1e3,
        "import_acquire_first_query_ms": (t2 - t_ctx) / 1e6,
        "temp_storage_bytes": int(nbytes),
        "stats": cc.default_cache().stats(),
    }))


def _child(env: dict) -> dict:
    p = subprocess.run([sys.executable, __file__, "--child"], capture_output=True, text=True,
                       timeout=300, env=env)
    if p.returncode != 0:
        raise RuntimeError(f"child exited {p.returncode}: {p.stderr[-2000:]}")
    return json.loads(p.stdout.strip().splitlines()[-1])


def part_child(args, result: dict, store: str) -> None:
    env = dict(os.environ, CCCL_CACHE_DIR=store)
    runs = [_child(env) for _ in range(args.child_runs)]
    result["runs"] = runs
    for key in ("import_cccl_cache_ms", "acquire_ms", "first_query_us", "import_acquire_first_query_ms"):
        result[key + "_p50"] = peerstats.median([r[key] for r in runs])
    result["store_hits_each"] = [r["stats"]["store_hits"] for r in runs]


def _table(doc: dict) -> str:
    rows = ["algorithm   form        fresh P50  loaded P50  floor P50  loaded/fresh  fresh/floor  (ns per query)"]
    for name, r in doc.get("query", {}).items():
        if not isinstance(r, dict):
            continue
        for form in ("positional", "keywords"):
            t = r.get(form)
            if t:
                rows.append(f"{name:<11} {form:<11} {t['fresh_ns']['p50']:9.1f}  {t['loaded_ns']['p50']:10.1f}  "
                            f"{t['python_call_floor_ns']['p50']:9.1f}  {t['loaded_over_fresh_p50']:12.3f}  "
                            f"{t['fresh_over_floor_p50']:11.2f}")
    c = doc.get("child", {})
    if "import_cccl_cache_ms_p50" in c:
        rows.append(f"new process: import {c['import_cccl_cache_ms_p50']:.2f} ms, acquire "
                    f"{c['acquire_ms_p50']:.3f} ms, first query {c['first_query_us_p50']:.1f} us, "
                    f"all {c['import_acquire_first_query_ms_p50']:.2f} ms (P50 of {len(c['runs'])})")
    return "\n".join(rows)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", nargs="?")
    ap.add_argument("--trials", type=int, default=51)
    ap.add_argument("--queries", type=int, default=5000)
    ap.add_argument("--child-runs", type=int, default=11)
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child_main()
        return 0
    if not args.out:
        ap.error("OUT.json is required")
    doc = {"python": sys.version, "argv": sys.argv, "errors": []}
    with tempfile.TemporaryDirectory(prefix="cccl-cache-pybench-") as store:
        for name, part in (("query", part_query), ("child", part_child)):
            doc[name] = {}
            try:
                part(args, doc[name], store)
            except Exception:
                doc["errors"].append(f"{name}: {traceback.format_exc()}")
            Path(args.out).write_text(json.dumps(doc, indent=1))
    print(_table(doc))
    for e in doc["errors"]:
        print(e, file=sys.stderr)
    return 1 if doc["errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
