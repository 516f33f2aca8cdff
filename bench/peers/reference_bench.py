#!/usr/bin/env python3
"""Peer benchmark: NVIDIA's cuda.compute (cuda-cccl wheel) and CuPy on one GPU.

Runs on the GPU machine (see README.md for installing the carried wheels).

  reference_bench.py OUT.json [--trials 51] [--queries 5000] [--skip-sort] ...

Parts (each one's failure is recorded in the JSON and does not stop the others):
  query  cuda.compute.make_merge_sort, float32 keys, 2,048 items, OpKind.LESS.
         A fresh object and one restored with cuda.compute.deserialize(blob):
         factory (build), serialize, deserialize, each object's first query,
         then `trials` trials of `queries` temp-storage-only calls
         (temp_storage=None) per object, the order alternating between trials;
         P5..P95 of ns per query and the median paired difference.
  child  in a new Python process: import, deserialize the blob, first query
         (the reference's "store hit in a new process").
  sort   end-to-end sort of 2^k float32 keys, k in [min_log, max_log]:
         cuda.compute merge sort (temp storage allocated once per size, outside
         the timing) and CuPy's in-place ndarray.sort(). Per repetition the
         unsorted input is copied into the sort buffer (timed separately), then
         sorted; both timed with CUDA events on the same stream; median of reps
         after warm-up. Results checked against each other and for order.

Writes machine-readable JSON to OUT.json (rewritten after each part) and a
human-readable table to stdout.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import platform
import subprocess
import sys
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import peerstats  # noqa: E402

NUM_ITEMS = 2048


def _versions() -> dict:
    from importlib import metadata

    out = {"python": platform.python_version()}
    for dist in ("cuda-cccl", "cupy-cuda13x", "cuda-core", "cuda-bindings",
                 "cuda-pathfinder", "numpy", "numba", "numba-cuda"):
        try:
            out[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            out[dist] = None
    try:
        import cuda.compute as _cc  # noqa: F401
        out["cuda.compute_file"] = _cc.__file__
    except Exception as e:  # recorded, not fatal
        out["cuda.compute_import_error"] = repr(e)
    import cupy as cp

    rt = cp.cuda.runtime
    props = rt.getDeviceProperties(0)
    out["device"] = props["name"].decode() if isinstance(props["name"], bytes) else props["name"]
    out["cc"] = f"{props['major']}.{props['minor']}"
    out["cuda_driver_api"] = rt.driverGetVersion()
    out["cuda_runtime"] = rt.runtimeGetVersion()
    try:
        smi = subprocess.run(
            ["nvidia-smi", "--query-gpu=driver_version,clocks.sm,clocks.mem", "--format=csv,noheader"],
            capture_output=True, text=True, timeout=20)
        out["nvidia_smi"] = smi.stdout.strip()
    except Exception as e:
        out["nvidia_smi"] = repr(e)
    return out


def _query_fn(obj, d_in, d_out, op):
    """A zero-argument callable issuing one temp-storage-only query (a
    functools.partial: no Python frame of its own per call)."""
    return functools.partial(obj, temp_storage=None, d_in_keys=d_in, d_in_values=None,
                             d_out_keys=d_out, d_out_values=None, num_items=NUM_ITEMS, op=op)


def _call_floor(*, temp_storage, d_in_keys, d_in_values, d_out_keys, d_out_values,
                num_items, op):
    return 0


def object_lifecycle(cc, make, ready, result: dict, first: str):
    """A reference object's one-off costs, into `result`: the factory (the first call in
    a process builds: NVRTC + nvJitLink + load) and its in-process repeat (21, served
    from cuda.compute's cache), the first ready call of the fresh object (`ready(obj)`
    returns its temp-storage bytes, or None), serialize and deserialize (21 each), and
    the deserialized object's first ready call; keys <first>_fresh_us and
    <first>_deserialized_us. Raises if the two objects' temp bytes differ.
    Returns (fresh, deserialized, blob)."""
    t0 = time.perf_counter_ns()
    fresh = make()
    result["factory_build_ms"] = (time.perf_counter_ns() - t0) / 1e6
    reps = []
    for _ in range(21):
        t0 = time.perf_counter_ns()
        again = make()
        reps.append(time.perf_counter_ns() - t0)
    result["factory_inprocess_repeat_us_p50"] = peerstats.median(reps) / 1e3
    result["factory_repeat_returns_same_object"] = again is fresh

    t0 = time.perf_counter_ns()
    tmp_bytes = ready(fresh)
    result[f"{first}_fresh_us"] = (time.perf_counter_ns() - t0) / 1e3
    result["temp_storage_bytes"] = tmp_bytes

    ser = []
    for _ in range(21):
        t0 = time.perf_counter_ns()
        blob = cc.serialize(fresh)
        ser.append(time.perf_counter_ns() - t0)
    result["serialize_ms_first"] = ser[0] / 1e6
    result["serialize_ms_p50"] = peerstats.median(ser) / 1e6
    result["blob_bytes"] = len(blob)
    des = []
    for _ in range(21):  # objects never called load nothing; the last one is kept
        t0 = time.perf_counter_ns()
        loaded = cc.deserialize(blob)
        des.append(time.perf_counter_ns() - t0)
    result["deserialize_ms_first"] = des[0] / 1e6
    result["deserialize_ms_p50"] = peerstats.median(des) / 1e6
    t0 = time.perf_counter_ns()
    tmp2 = ready(loaded)
    result[f"{first}_deserialized_us"] = (time.perf_counter_ns() - t0) / 1e3
    if tmp2 != tmp_bytes:
        raise RuntimeError(f"temp bytes differ: fresh {tmp_bytes}, deserialized {tmp2}")
    return fresh, loaded, blob


def record_trials(result: dict, args, fresh_ns, loaded_ns, floor_ns) -> None:
    """alternating_trials' lists of a fresh and a deserialized object, into `result`:
    P5..P95 of each, the paired difference, Python's call floor and the raw trials."""
    result["trials"] = args.trials
    result["queries_per_trial"] = args.queries
    result["fresh_ns"] = peerstats.summary(fresh_ns)
    result["deserialized_ns"] = peerstats.summary(loaded_ns)
    result["paired_deserialized_minus_fresh_ns"] = peerstats.paired(fresh_ns, loaded_ns)
    result["python_call_floor_ns"] = peerstats.summary(floor_ns)
    result["raw_fresh_ns"] = fresh_ns
    result["raw_deserialized_ns"] = loaded_ns


def part_query(args, result: dict) -> None:
    import cupy as cp
    import numpy as np

    import cuda.compute as cc
    from cuda.compute import OpKind

    rng = np.random.default_rng(args.seed)
    d_in = cp.asarray(rng.standard_normal(NUM_ITEMS, dtype=np.float32))
    d_out = cp.empty_like(d_in)
    cp.cuda.runtime.deviceSynchronize()
    op = OpKind.LESS

    fresh, loaded, blob = object_lifecycle(
        cc, lambda: cc.make_merge_sort(d_in_keys=d_in, d_out_keys=d_out, op=op),
        lambda obj: int(_query_fn(obj, d_in, d_out, op)()), result, "first_query")

    if args.blob_out:
        Path(args.blob_out).write_bytes(blob)

    # Warm-up, then paired trials in alternating order.
    fresh_ns, loaded_ns, floor_ns = peerstats.alternating_trials(
        _query_fn(fresh, d_in, d_out, op), _query_fn(loaded, d_in, d_out, op), args.trials,
        args.queries, floor=_query_fn(_call_floor, d_in, d_out, op))
    result["num_items"] = NUM_ITEMS
    record_trials(result, args, fresh_ns, loaded_ns, floor_ns)


def child_main(blob_path: str, seed: int) -> None:
    """New-process acquisition: context first, then import, deserialize, first
    query, then a short batch. Prints one JSON object on stdout."""
    t_start = time.perf_counter_ns()
    import cupy as cp
    import numpy as np

    rng = np.random.default_rng(seed)
    d_in = cp.asarray(rng.standard_normal(NUM_ITEMS, dtype=np.float32))
    d_out = cp.empty_like(d_in)
    cp.cuda.runtime.deviceSynchronize()
    t_ctx = time.perf_counter_ns()
    import cuda.compute as cc
    from cuda.compute import OpKind
    t_imp = time.perf_counter_ns()
    blob = Path(blob_path).read_bytes()
    t0 = time.perf_counter_ns()
    obj = cc.deserialize(blob)
    t1 = time.perf_counter_ns()
    nbytes = _query_fn(obj, d_in, d_out, OpKind.LESS)()
    t2 = time.perf_counter_ns()
    batches = [peerstats.batch_ns(_query_fn(obj, d_in, d_out, OpKind.LESS), 2000) for _ in range(7)]
    print(json.dumps({
        "cupy_and_context_ms": (t_ctx - t_start) / 1e6,
        "import_cuda_compute_ms": (t_imp - t_ctx) / 1e6,
        "deserialize_ms": (t1 - t0) / 1e6,
        "first_query_us": (t2 - t1) / 1e3,
        "acquire_ms": (t2 - t0) / 1e6,
        "temp_storage_bytes": int(nbytes),
        "query_ns_p50": peerstats.median(batches),
    }))


def part_child(args, result: dict, blob_path: str) -> None:
    runs = []
    for _ in range(args.child_runs):
        p = subprocess.run([sys.executable, __file__, "--child", blob_path, "--seed", str(args.seed)],
                           capture_output=True, text=True, timeout=300)
        if p.returncode != 0:
            raise RuntimeError(f"child exited {p.returncode}: {p.stderr[-2000:]}")
        runs.append(json.loads(p.stdout.strip().splitlines()[-1]))
    result["runs"] = runs
    for key in ("deserialize_ms", "first_query_us", "acquire_ms", "import_cuda_compute_ms", "query_ns_p50"):
        result[key + "_p50"] = peerstats.median([r[key] for r in runs])


def _time_sort(sort_once, src, dst, reps: int, warmup: int):
    """Per rep: copy src -> dst, then sort dst (or from it). Returns per-rep
    (copy_ms, sort_ms) lists measured with CUDA events on the current stream."""
    import cupy as cp

    ev = [cp.cuda.Event() for _ in range(3)]
    copies, sorts = [], []
    for r in range(warmup + reps):
        ev[0].record()
        cp.copyto(dst, src)
        ev[1].record()
        sort_once()
        ev[2].record()
        ev[2].synchronize()
        if r >= warmup:
            copies.append(cp.cuda.get_elapsed_time(ev[0], ev[1]))
            sorts.append(cp.cuda.get_elapsed_time(ev[1], ev[2]))
    return copies, sorts


def part_sort(args, result: dict, stdout_rows: list) -> None:
    import cupy as cp
    import numpy as np
    import cuda.compute as cc
    from cuda.compute import OpKind

    rng = np.random.default_rng(args.seed + 1)
    rows = []
    result["method"] = (
        "float32 keys from a standard normal distribution; per repetition: "
        "cupy.copyto(unsorted -> sort buffer) then the sort, CUDA events around each on "
        "CuPy's current stream (the legacy default stream, also used by cuda.compute with "
        "stream=None); warm-up reps discarded; median of timed reps. cuda.compute: "
        "make_merge_sort(d_in_keys=buf, d_out_keys=out, op=OpKind.LESS), temp storage "
        "allocated once per size outside the timing. CuPy: buf.sort() in place "
        "(allocates its own temp storage through CuPy's memory pool)."
    )
    result["rows"] = rows
    for k in range(args.min_log, args.max_log + 1):
        n = 1 << k
        reps = peerstats.reps_for_size(n, args.sort_reps)
        row = {"log2n": k, "n": n, "reps": reps}
        rows.append(row)
        try:
            src = cp.asarray(rng.standard_normal(n, dtype=np.float32))
            buf = cp.empty_like(src)
            out = cp.empty_like(src)
            sorter = cc.make_merge_sort(d_in_keys=buf, d_out_keys=out, op=OpKind.LESS)
            tbytes = sorter(temp_storage=None, d_in_keys=buf, d_in_values=None, d_out_keys=out,
                            d_out_values=None, num_items=n, op=OpKind.LESS)
            temp = cp.empty(max(1, int(tbytes)), dtype=cp.uint8)

            def ref_sort():
                sorter(temp_storage=temp, d_in_keys=buf, d_in_values=None, d_out_keys=out,
                       d_out_values=None, num_items=n, op=OpKind.LESS)

            c1, s1 = _time_sort(ref_sort, src, buf, reps, args.warmup)
            ref_result = out.copy()
            c2, s2 = _time_sort(lambda: buf.sort(), src, buf, reps, args.warmup)
            cupy_result = buf.copy()
            row["reference_ms_p50"] = peerstats.median(s1)
            row["reference_ms_p5"] = peerstats.percentile(s1, 5)
            row["reference_ms_p95"] = peerstats.percentile(s1, 95)
            row["cupy_ms_p50"] = peerstats.median(s2)
            row["cupy_ms_p5"] = peerstats.percentile(s2, 5)
            row["cupy_ms_p95"] = peerstats.percentile(s2, 95)
            row["copy_ms_p50"] = peerstats.median(c1 + c2)
            row["temp_storage_bytes"] = int(tbytes)
            ordered = bool(cp.all(ref_result[1:] >= ref_result[:-1]).item())
            same = bool(cp.array_equal(ref_result, cupy_result).item())
            row["check_reference_sorted"] = ordered
            row["check_reference_equals_cupy"] = same
            if not (ordered and same):
                row["error"] = "sort check failed"
            del src, buf, out, temp, ref_result, cupy_result
            cp.get_default_memory_pool().free_all_blocks()
        except Exception as e:
            row["error"] = repr(e)
            traceback.print_exc()
        stdout_rows.append(row)
        print(f"  sort 2^{k:<2} n={n:<9} ref {row.get('reference_ms_p50', float('nan')):9.4f} ms  "
              f"cupy {row.get('cupy_ms_p50', float('nan')):9.4f} ms  "
              f"copy {row.get('copy_ms_p50', float('nan')):8.4f} ms  reps {reps}"
              f"{'  ERROR ' + row['error'] if 'error' in row else ''}", flush=True)


def _write(path: str, doc: dict) -> None:
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(doc, f, indent=1, default=str)
    os.replace(tmp, path)


def _run_part(name: str, fn, doc: dict, out: str) -> bool:
    part = doc.setdefault(name, {})
    t0 = time.time()
    try:
        fn(part)
        ok = True
    except Exception as e:
        part["error"] = repr(e)
        part["traceback"] = traceback.format_exc()
        traceback.print_exc()
        ok = False
    part["wall_s"] = round(time.time() - t0, 3)
    _write(out, doc)
    return ok


def _print_query(q: dict) -> None:
    if "fresh_ns" not in q:
        return
    print(f"\ncuda.compute merge sort query, float32, {q['num_items']} items, OpKind.LESS, "
          f"{q['trials']} trials x {q['queries_per_trial']} queries (ns per query)")
    print(f"  {'object':<14}" + "".join(f"{'P' + str(p):>9}" for p in peerstats.PERCENTILES))
    for label, key in (("fresh", "fresh_ns"), ("deserialized", "deserialized_ns"),
                       ("python floor", "python_call_floor_ns")):
        s = q[key]
        print(f"  {label:<14}" + "".join(f"{s['p' + str(p)]:9.1f}" for p in peerstats.PERCENTILES))
    pd = q["paired_deserialized_minus_fresh_ns"]
    print(f"  median paired difference deserialized - fresh: {pd['median_diff']:.1f} ns "
          f"(P25 {pd['p25_diff']:.1f}, P75 {pd['p75_diff']:.1f}); median ratio {pd['median_ratio']:.3f}")
    print(f"  factory build {q['factory_build_ms']:.1f} ms; "
          f"in-process repeat {q['factory_inprocess_repeat_us_p50']:.1f} us")
    print(f"  serialize {q['serialize_ms_p50']:.3f} ms (first {q['serialize_ms_first']:.3f}); "
          f"deserialize {q['deserialize_ms_p50']:.3f} ms (first {q['deserialize_ms_first']:.3f}); "
          f"blob {q['blob_bytes']} B")
    print(f"  first query: fresh {q['first_query_fresh_us']:.1f} us, deserialized "
          f"{q['first_query_deserialized_us']:.1f} us; temp bytes {q['temp_storage_bytes']}")


def start_doc(tool: str, args) -> dict:
    """A run's JSON document: tool, start time, arguments, the import costs of cupy and
    cuda.compute in this (first) process, before anything else imports them, and the
    versions; written to args.out and the versions printed."""
    doc = {"tool": tool, "started_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
           "args": vars(args)}
    for mod in ("cupy", "cuda.compute"):
        t0 = time.perf_counter_ns()
        try:
            __import__(mod)
            doc[f"import_{mod.replace('.', '_')}_ms"] = (time.perf_counter_ns() - t0) / 1e6
        except Exception as e:
            doc[f"import_{mod.replace('.', '_')}_error"] = repr(e)
    try:
        doc["versions"] = _versions()
    except Exception as e:
        doc["versions"] = {"error": repr(e)}
    _write(args.out, doc)
    print("versions:", json.dumps(doc["versions"]), flush=True)
    return doc


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", nargs="?", help="JSON output path")
    ap.add_argument("--trials", type=int, default=51)
    ap.add_argument("--queries", type=int, default=5000)
    ap.add_argument("--child-runs", type=int, default=3)
    ap.add_argument("--min-log", type=int, default=11)
    ap.add_argument("--max-log", type=int, default=26)
    ap.add_argument("--sort-reps", type=int, default=None, help="fixed reps per size (default: by size)")
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--seed", type=int, default=20261129)
    ap.add_argument("--skip-sort", action="store_true")
    ap.add_argument("--skip-child", action="store_true")
    ap.add_argument("--blob-out", default=None, help="also keep the serialized blob here")
    ap.add_argument("--child", default=None, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        child_main(args.child, args.seed)
        return 0
    if not args.out:
        ap.error("the JSON output path is required")
    if args.trials < 1 or args.queries < 1 or not 1 <= args.min_log <= args.max_log <= 30:
        ap.error("need trials >= 1, queries >= 1, 1 <= min-log <= max-log <= 30")

    doc = start_doc("bench/peers/reference_bench.py", args)
    print(f"import in this process: cupy {doc.get('import_cupy_ms', float('nan')):.1f} ms, "
          f"cuda.compute {doc.get('import_cuda_compute_ms', float('nan')):.1f} ms", flush=True)

    if not args.blob_out:
        args.blob_out = str(Path(args.out).with_suffix(".blob"))
    ok = _run_part("query", lambda r: part_query(args, r), doc, args.out)
    _print_query(doc["query"])
    if not args.skip_child and ok:
        ok &= _run_part("child", lambda r: part_child(args, r, args.blob_out), doc, args.out)
        c = doc["child"]
        if "acquire_ms_p50" in c:
            print(f"  new process (median of {len(c['runs'])}): import {c['import_cuda_compute_ms_p50']:.1f} ms, "
                  f"deserialize {c['deserialize_ms_p50']:.3f} ms, first query {c['first_query_us_p50']:.1f} us, "
                  f"deserialize+first query {c['acquire_ms_p50']:.3f} ms, query P50 {c['query_ns_p50_p50']:.1f} ns")
    if not args.skip_sort:
        print("\nend-to-end sort, float32 (median ms):", flush=True)
        rows: list = []
        ok &= _run_part("sort", lambda r: part_sort(args, r, rows), doc, args.out)
        ok &= not any("error" in r for r in doc["sort"].get("rows", []))
    doc["finished_utc"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    doc["ok"] = bool(ok)
    _write(args.out, doc)
    print(f"\nwrote {args.out}; ok={ok}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
