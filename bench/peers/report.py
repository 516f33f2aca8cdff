#!/usr/bin/env python3
"""Merge the peer benchmark's JSON outputs into one markdown report.

  report.py --reference reference.json [--ours DIR_OR_FILE ...] [--env-log peers.log]
            [--out report.md]

--reference: the JSON written by reference_bench.py (cuda.compute + CuPy).
--ours:      our C++ benchmarks' JSON outputs (files, or folders searched for
             *.json); see ours_adapter.py for the formats understood.
Prints the markdown on stdout and writes it to --out when given. Missing parts
show as 'n/a' rather than failing; exit status 1 only if no input could be read.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import ours_adapter  # noqa: E402
import peerstats  # noqa: E402
from peerstats import fmt_ratio  # noqa: E402

QUERY_GOAL_X = 50.0  # our loaded query vs the reference's deserialized one


def _f(x, digits=1, unit=""):
    if x is None:
        return "n/a"
    return f"{x:,.{digits}f}{unit}"


def _fq(x):
    """A query time in ns: two decimals below 100 ns, one above."""
    if x is None:
        return "n/a"
    return _f(x, 2 if abs(x) < 100 else 1)


def _speedup(ref, ours):
    if ref is None or ours is None or ours <= 0:
        return "n/a"
    return f"{ref / ours:,.1f}x"


def _versions_block(ref: dict, env_log: str | None, ours: dict) -> list[str]:
    v = ref.get("versions", {}) if ref else {}
    lines = ["| item | value |", "|---|---|"]
    started = ref.get("started_utc") if ref else None
    lines.append(f"| date (UTC) | {started or 'n/a'} |")
    commit = ours.get("commit")
    if not commit and env_log:
        m = re.search(r"^commit: (\S+)", env_log, re.M)
        commit = m.group(1) if m else None
    lines.append(f"| commit | {commit or 'n/a'} |")
    lines.append(f"| GPU | {v.get('device', 'n/a')} (CC {v.get('cc', 'n/a')}) |")
    drv = v.get("nvidia_smi", "n/a")
    lines.append(f"| driver, SM clock, memory clock (nvidia-smi) | {drv} |")
    lines.append(f"| CUDA driver API / runtime (CuPy) | {v.get('cuda_driver_api', 'n/a')} / {v.get('cuda_runtime', 'n/a')} |")
    for k in ("python", "cuda-cccl", "cupy-cuda13x", "cuda-core", "cuda-bindings", "cuda-pathfinder", "numpy"):
        lines.append(f"| {k} | {v.get(k, 'n/a')} |")
    if ours.get("versions"):
        for k, val in ours["versions"].items():
            lines.append(f"| ours: {k} | {val} |")
    return lines


def query_table(ref: dict, ours: dict) -> list[str]:
    q = (ref or {}).get("query", {})
    c = (ref or {}).get("child", {})
    oq = ours.get("query", {})
    rf, rd = q.get("fresh_ns", {}), q.get("deserialized_ns", {})
    of, ol = oq.get("fresh_ns", {}), oq.get("loaded_ns", {})
    out = [
        f"Temp-storage-only query, merge sort, float32 keys, {q.get('num_items', 2048)} items, less-than. "
        f"Reference: {q.get('trials', 'n/a')} trials x {q.get('queries_per_trial', 'n/a')} queries, "
        f"ours: {oq.get('trials', 'n/a')} trials x {oq.get('queries_per_trial', 'n/a')} queries; "
        "order alternating between trials; ns per query.",
        "",
        "| statistic | reference fresh | reference deserialized | ours fresh | ours store-loaded | "
        "ours loaded / ref deserialized | ref deserialized / ours loaded |",
        "|---|---|---|---|---|---|---|",
    ]
    for p in peerstats.PERCENTILES:
        k = f"p{p}"
        out.append(
            f"| P{p} | {_fq(rf.get(k))} | {_fq(rd.get(k))} | {_fq(of.get(k))} | {_fq(ol.get(k))} | "
            f"{fmt_ratio(ol.get(k), rd.get(k))} | {_speedup(rd.get(k), ol.get(k))} |")
    rp = q.get("paired_deserialized_minus_fresh_ns", {})
    op = oq.get("paired_loaded_minus_fresh_ns", {})
    out.append(f"| median paired difference (loaded - fresh) | | {_fq(rp.get('median_diff'))} | | "
               f"{_fq(op.get('median_diff'))} | | |")
    if q.get("python_call_floor_ns"):
        out.append("")
        out.append(f"Python's own cost of calling a do-nothing function with the same keyword "
                   f"arguments: P50 {_f(q['python_call_floor_ns'].get('p50'))} ns (included in the "
                   "reference's figures; a Python user pays it too).")
    ratio_p50 = None
    if ol.get("p50") and rd.get("p50"):
        ratio_p50 = rd["p50"] / ol["p50"]
    out.append("")
    if ratio_p50 is None:
        out.append(f"Goal (ours loaded at least {QUERY_GOAL_X:.0f}x faster than the reference's "
                   "deserialized query, P50): not evaluated, a figure is missing.")
    else:
        verdict = "met" if ratio_p50 >= QUERY_GOAL_X else "NOT met"
        out.append(f"Goal (ours loaded at least {QUERY_GOAL_X:.0f}x faster than the reference's "
                   f"deserialized query, P50): {ratio_p50:,.1f}x, {verdict}.")
        floor = (q.get("python_call_floor_ns") or {}).get("p50")
        if floor is not None and rd["p50"] > floor:
            net = rd["p50"] - floor
            out.append(f"Without Python's own call cost (P50 {floor:,.1f} ns), the reference's deserialized "
                       f"query is {net:,.1f} ns: still {net / ol['p50']:,.1f}x ours.")

    out += ["", "| one-off cost | reference | ours |", "|---|---|---|"]
    out.append(f"| build (factory; ours: NVRTC build + bind) | {_f(q.get('factory_build_ms'), 1, ' ms')} | "
               f"{_f(ours.get('build_ms'), 1, ' ms')} |")
    out.append(f"| in-process repeat (same spec again) | {_f(q.get('factory_inprocess_repeat_us_p50'), 2, ' us')} | "
               f"{_f(ours.get('inprocess_repeat_us'), 2, ' us')} |")
    out.append(f"| serialize | {_f(q.get('serialize_ms_p50'), 3, ' ms')} | {_f(ours.get('serialize_ms'), 3, ' ms')} |")
    out.append(f"| deserialize (ours: store lookup + deserialize + bind) | {_f(q.get('deserialize_ms_p50'), 3, ' ms')} | "
               f"{_f(ours.get('load_ms'), 3, ' ms')} |")
    out.append(f"| first query, fresh object | {_f(q.get('first_query_fresh_us'), 1, ' us')} | "
               f"{_f(ours.get('first_query_fresh_us'), 1, ' us')} |")
    out.append(f"| first query, deserialized / loaded object | {_f(q.get('first_query_deserialized_us'), 1, ' us')} | "
               f"{_f(ours.get('first_query_loaded_us'), 1, ' us')} |")
    out.append(f"| new process: deserialize + first query (ours: store hit acquisition) | "
               f"{_f(c.get('acquire_ms_p50'), 3, ' ms')} | {_f(ours.get('acquire_new_process_ms'), 3, ' ms')} |")
    out.append(f"| new process: import cuda.compute | {_f(c.get('import_cuda_compute_ms_p50'), 1, ' ms')} | - |")
    out.append(f"| serialized blob | {_f(q.get('blob_bytes'), 0, ' B')} | {_f(ours.get('blob_bytes'), 0, ' B')} |")
    out.append(f"| temp-storage bytes at 2,048 items | {_f(q.get('temp_storage_bytes'), 0)} | "
               f"{_f(ours.get('temp_storage_bytes'), 0)} |")
    return out


def sort_table(ref: dict, ours: dict) -> list[str]:
    rows = {r["n"]: r for r in (ref or {}).get("sort", {}).get("rows", []) if "n" in r}
    osort = ours.get("sort", {})
    sizes = sorted(set(rows) | set(osort))
    if not sizes:
        return ["No sort results."]
    out = [
        "End-to-end sort of float32 keys, median ms per sort (input re-copied before each sort, copy not counted).",
        "",
        "| n | reference merge sort | CuPy sort | CUB merge sort (nvcc) | ours | ours / reference | ours / CuPy | ours / CUB | check |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    worst = None
    for n in sizes:
        r, o = rows.get(n, {}), osort.get(n, {})
        ref_ms, cupy_ms = r.get("reference_ms_p50"), r.get("cupy_ms_p50")
        cub_ms, our_ms = o.get("cub_ms"), o.get("ours_ms")
        if cub_ms and our_ms:
            worst = max(worst or 0.0, our_ms / cub_ms)
        checks = []
        if r:
            checks.append("ref ok" if r.get("check_reference_sorted") and r.get("check_reference_equals_cupy")
                          else f"ref: {r.get('error', 'unchecked')}")
        if o.get("check") is not None:
            checks.append("ours ok" if o["check"] else "ours FAILED")
        exp = n.bit_length() - 1
        label = f"2^{exp}" if n == 1 << exp else str(n)
        out.append(f"| {label} | {_f(ref_ms, 4)} | {_f(cupy_ms, 4)} | {_f(cub_ms, 4)} | {_f(our_ms, 4)} | "
                   f"{fmt_ratio(our_ms, ref_ms)} | {fmt_ratio(our_ms, cupy_ms)} | {fmt_ratio(our_ms, cub_ms)} | "
                   f"{', '.join(checks) or 'n/a'} |")
    out.append("")
    if worst is None:
        out.append("Goal (our sort at least as fast as CUB's own): not evaluated, a figure is missing.")
    else:
        out.append(f"Goal (our sort at least as fast as CUB's own): worst ours/CUB ratio {worst:.2f} "
                   f"({'met' if worst <= 1.0 else 'NOT met at every size'}; differences of a few "
                   "percent are within run-to-run noise).")
    method = (ref or {}).get("sort", {}).get("method")
    if method:
        out += ["", f"Reference and CuPy method: {method}"]
    if ours.get("sort_method"):
        out += ["", f"Ours and CUB method: {ours['sort_method']}"]
    return out


def render(ref: dict, ours: dict, env_log: str | None) -> str:
    parts = ["# Peers: cccl-cache beside cuda.compute and CuPy", ""]
    parts += _versions_block(ref, env_log, ours)
    parts += ["", "## Query", ""] + query_table(ref, ours)
    parts += ["", "## Sort", ""] + sort_table(ref, ours)
    if ours.get("result_lines"):
        parts += ["", "## Ours: RESULT lines as printed", "", "```"] + ours["result_lines"] + ["```"]
        parts += ["", "Sources: " + ", ".join(Path(x).name for x in ours.get("sources", []))]
    errs = []
    for name in ("query", "child", "sort"):
        e = (ref or {}).get(name, {}).get("error")
        if e:
            errs.append(f"- reference part '{name}' failed: {e}")
    errs += [f"- ours: {e}" for e in ours.get("errors", [])]
    if errs:
        parts += ["", "## Errors", ""] + errs
    return "\n".join(parts) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reference", help="reference_bench.py JSON")
    ap.add_argument("--ours", action="append", default=[], help="our JSON file or folder (repeatable)")
    ap.add_argument("--env-log", help="run_all.sh log (commit line)")
    ap.add_argument("--out", help="write the markdown here too")
    ap.add_argument("--quiet", action="store_true", help="do not print the markdown")
    args = ap.parse_args(argv)

    ref = {}
    if args.reference:
        try:
            ref = json.loads(Path(args.reference).read_text())
        except (OSError, ValueError) as e:
            print(f"report: cannot read reference JSON {args.reference}: {e}", file=sys.stderr)
    ours = ours_adapter.load(args.ours)
    env_log = None
    if args.env_log:
        try:
            env_log = Path(args.env_log).read_text(errors="replace")
        except OSError:
            pass
    md = render(ref, ours, env_log)
    if args.out:
        Path(args.out).write_text(md)
    if not args.quiet:
        print(md)
    return 0 if (ref or ours.get("sources")) else 1


if __name__ == "__main__":
    sys.exit(main())
