"""Run time against size for each algorithm (ours, CUB by nvcc, CuPy, the reference
library cuda.compute), from recorded GPU runs: parses the logs under docs/gpu-results/
and writes one SVG plot per algorithm (docs/plots/<algorithm>.svg) and a markdown table
of worst-case ratios to stdout. With the reference's JSON (bench/peers/reference_wave1.py)
and our bench_algorithms_acquire log, also a table of ours-vs-reference query, build and
first-ready ratios per spec. No third-party packages (the SVG is written by hand).

  python3 bench/wave1_report.py [RESULTS_DIR] [PLOTS_DIR] [--reference JSON]
                                [--ours-acquire LOG] [--later DIR]

--reference defaults to RESULTS_DIR/<wave-1 folder>/reference_wave1.json, --ours-acquire
to the last (by name) *algos_acquire*.log there; either absent: its part is left out.
The algorithms added after wave 1 come from one GPU call's logs in --later DIR (default:
the last RESULTS_DIR/*-later folder by name), named as scripts/gpu/run.sh writes them:
reference_wave1.json (part refw1, CCCL_CACHE_REFW1_SPECS=later), cupy.log (part cupy,
CCCL_CACHE_CUPY_OPS=later), algos_acquire.log, and where that call ran them our
*_bench.log curves (otherwise ours and CUB come from the recorded runs named below); their
ours-vs-reference table is printed apart, from that call alone.
Which log feeds which curve is the SOURCES table below: each entry names the run, the
file (or candidates, the first present wins; "{later}/" is the --later folder) and the
series; a reader can check every point against the recorded output.
"""
import argparse
import glob
import json
import math
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
WAVE1 = "2026-12-01-wave1"
REF_LABEL = "cuda.compute (reference)"
S3, S5, S7 = "2026-12-02-session3/run5-", "2026-12-02-session5/", "2026-12-03-session7/run1/"

# algorithm -> (title, [(label, file, parser, selector)])
SOURCES = {
    "reduce": ("reduce, float32 plus", [
        ("ours", f"{WAVE1}/run6-reduce_bench.log", "kv", ("float32_plus", "ours_ms")),
        ("CUB DeviceReduce::Reduce", f"{WAVE1}/run6-reduce_bench.log", "kv", ("float32_plus", "cub_ms")),
        ("cupy.sum", f"{WAVE1}/run6-cupy.log", "cupy", ("sum", "float32")),
        (REF_LABEL, None, "ref", "reduce_float32"),
    ]),
    "reduce_max": ("reduce, float32 maximum", [
        ("ours", f"{WAVE1}/run6-reduce_bench.log", "kv", ("float32_maximum", "ours_ms")),
        ("CUB DeviceReduce::Reduce", f"{WAVE1}/run6-reduce_bench.log", "kv", ("float32_maximum", "cub_ms")),
        ("cupy.max", f"{WAVE1}/run6-cupy.log", "cupy", ("max", "float32")),
        (REF_LABEL, None, "ref", "reduce_max_float32"),
    ]),
    "inclusive_scan": ("inclusive scan, float32 plus", [
        ("ours", f"{WAVE1}/run3-scan_bench.log", "kv", ("inclusive_float32", "ours_ms")),
        ("CUB DeviceScan::InclusiveScan", f"{WAVE1}/run3-scan_bench.log", "kv",
         ("inclusive_float32", "cub_inclusive_scan_ms")),
        ("cupy.cumsum", f"{WAVE1}/run3-cupy.log", "cupy", ("cumsum", "float32")),
        (REF_LABEL, None, "ref", "inclusive_scan_float32"),
    ]),
    "binary_transform": ("binary transform, float32 plus", [
        ("ours", f"{WAVE1}/run3-transform_bench.log", "table", ("binary plus float32", 1)),
        ("CUB DeviceTransform::Transform", f"{WAVE1}/run3-transform_bench.log", "table",
         ("binary plus float32", 2)),
        ("CuPy ElementwiseKernel x + y", f"{WAVE1}/run3-cupy.log", "cupy", ("add", "float32")),
        (REF_LABEL, None, "ref", "binary_transform_float32"),
    ]),
    "radix_sort": ("radix sort, float32 keys", [
        ("ours", f"{WAVE1}/run6-radix_bench.log", "kv", ("type=float32", "ours_ms")),
        ("CUB DeviceRadixSort::SortKeys", f"{WAVE1}/run6-radix_bench.log", "kv", ("type=float32", "cub_ms")),
        ("cupy.sort", f"{WAVE1}/run6-cupy.log", "cupy", ("sort", "float32")),
        (REF_LABEL, None, "ref", "radix_sort_float32"),
    ]),
    "merge_sort": ("merge sort, float32 keys", [
        ("ours", "2026-12-01-run1-core-merge-sort.md", "kv", ("", "ours_ms")),
        ("CUB DeviceMergeSort::SortKeys", "2026-12-01-run1-core-merge-sort.md", "kv", ("", "cub_ms")),
        (REF_LABEL, None, "ref", "merge_sort_float32"),
    ]),
}


LATER_ALGOS = []


def _later(algo, title, bench_log, recorded, label, cupy_ops, spec, cub_name):
    """A later algorithm's series: ours and CUB from {later}/<bench_log> or the recorded
    run, CuPy's ops from {later}/cupy.log, the reference's curve of `spec`."""
    logs = (f"{{later}}/{bench_log}", recorded)
    LATER_ALGOS.append(algo)
    return algo, (title, [("ours", logs, "kv", (label, "ours_ms")), (cub_name, logs, "kv", (label, "cub_ms"))]
                  + [(name, "{later}/cupy.log", "cupy", (op, typ)) for name, op, typ in cupy_ops]
                  + [(REF_LABEL, None, "ref", spec)])


SOURCES.update(dict((
    _later("segmented_reduce", "segmented reduce, float32 plus, segments of 1,024", "segreduce_bench.log",
           f"{S3}segreduce_bench.log", "float32_plus layout=seg1024",
           [("cupy.add.reduceat", "segsum", "float32")], "segmented_reduce_float32",
           "CUB DeviceSegmentedReduce::Reduce"),
    _later("unique_by_key", "unique_by_key, int32 keys and values, short runs", "uniquebk_bench.log",
           f"{S3}uniquebk_bench.log", "int32_int32 layout=run8",
           [("CuPy first of each run (mask)", "unique_runs", "int32"), ("cupy.unique (sorts)", "unique", "int32")],
           "unique_by_key_int32", "CUB DeviceSelect::UniqueByKey"),
    _later("select", "select, int32 nonzero, half selected", "select_bench.log", f"{S5}run1-select_bench.log",
           "int32_nonzero layout=keep50", [("x[x != 0]", "select", "int32")], "select_int32",
           "CUB DeviceSelect::If"),
    # Ours, CUB and the reference: x < 0, then nonzero (three parts).
    _later("three_way_partition", "three-way partition, int32, x < 0 then nonzero",
           "twp_bench.log", f"{S5}run6-twp_bench.log", "int32_negative_nonzero layout=thirds", [],
           "three_way_partition_int32", "CUB DevicePartition::If"),
    _later("histogram_even", "histogram_even, int32 samples, 256 bins", "hist_bench.log", f"{S7}hist_bench.log",
           "int32_256bins", [("cupy.histogram", "histogram", "int32")], "histogram_even_int32",
           "CUB DeviceHistogram::HistogramEven"),
    _later("lower_bound", "lower bound, int32", "bsearch_bench.log", f"{S7}bsearch_bench.log", "int32_lower_less",
           [("cupy.searchsorted", "searchsorted", "int32")], "lower_bound_int32", "CUB DeviceFind::LowerBound"),
    _later("upper_bound", "upper bound, int32", "bsearch_bench.log", f"{S7}bsearch_bench.log", "int32_upper_less",
           [("cupy.searchsorted right", "searchsorted_right", "int32")], "upper_bound_int32",
           "CUB DeviceFind::UpperBound"),
)))


def parse(path, kind, sel):
    """{n: ms} for one series; {} (with a note on stderr) when its source is absent."""
    out = {}
    if not path or not os.path.isfile(path):
        print(f"wave1_report: {path or 'no file'} for {kind} {sel} absent, series left out", file=sys.stderr)
        return out
    if kind == "ref":  # reference_wave1.py's JSON: curves.<spec>.rows[] with n, ms, check
        rows = json.load(open(path)).get("curves", {}).get(sel, {}).get("rows", [])
        return {int(r["n"]): float(r["ms"]) for r in rows if "ms" in r and r.get("check")}
    text = open(path).read().splitlines()
    if kind == "kv":  # RESULT <label> [layout=..] n=.. key=..  (label "" = lines with a bare n=)
        label, key = sel
        want = label.split()
        for line in text:
            if not line.startswith("RESULT"):
                continue
            f = line.split()
            if want and f[1:1 + len(want)] != want:
                continue
            kv = dict(x.split("=", 1) for x in f[1:] if "=" in x)
            if "n" in kv and key in kv:
                out[int(kv["n"])] = float(kv[key])
    elif kind == "cupy":
        op, typ = sel
        for line in text:
            m = re.match(rf"RESULT peer=cupy op={op} type={typ} n=(\d+) ms=([\d.]+)", line)
            if m:
                out[int(m.group(1))] = float(m.group(2))
    elif kind == "table":  # a header line, then "items ours_us cub_us ..." rows (us)
        header, col = sel
        inside = False
        for line in text:
            if line.strip() == header:
                inside = True
                continue
            if inside:
                f = line.split()
                if not f or not f[0].isdigit():
                    if f and f[0] != "items":
                        break
                    continue
                out[int(f[0])] = float(f[col]) / 1000.0
    return out


def svg(title, series, path):
    w, h, l, r, t, b = 640, 400, 70, 200, 30, 50
    xs = sorted({n for s in series.values() for n in s})
    ys = [v for s in series.values() for v in s.values() if v > 0]
    if not xs or not ys:
        return False
    x0, x1 = math.log2(xs[0]), math.log2(xs[-1])
    y0, y1 = math.floor(math.log10(min(ys))), math.ceil(math.log10(max(ys)))
    X = lambda n: l + (math.log2(n) - x0) / max(x1 - x0, 1) * (w - l - r)
    Y = lambda v: h - b - (math.log10(v) - y0) / max(y1 - y0, 1) * (h - t - b)
    colors = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e"]
    series = {k: v for k, v in series.items() if v}
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="11">',
           f'<text x="{l}" y="18" font-size="13">{title}: GPU time per call (H200, median)</text>',
           f'<line x1="{l}" y1="{h-b}" x2="{w-r}" y2="{h-b}" stroke="black"/>',
           f'<line x1="{l}" y1="{t}" x2="{l}" y2="{h-b}" stroke="black"/>']
    for e in range(int(x0), int(x1) + 1, 2):
        out.append(f'<text x="{X(2**e):.1f}" y="{h-b+15}" text-anchor="middle">2^{e}</text>')
    for e in range(y0, y1 + 1):
        out.append(f'<line x1="{l}" y1="{Y(10**e):.1f}" x2="{w-r}" y2="{Y(10**e):.1f}" stroke="#ddd"/>')
        out.append(f'<text x="{l-5}" y="{Y(10**e)+4:.1f}" text-anchor="end">{10**e:g} ms</text>')
    out.append(f'<text x="{(l+w-r)/2}" y="{h-12}" text-anchor="middle">items</text>')
    for i, (label, s) in enumerate(series.items()):
        c = colors[i % len(colors)]
        pts = " ".join(f"{X(n):.1f},{Y(v):.1f}" for n, v in sorted(s.items()) if v > 0)
        out.append(f'<polyline fill="none" stroke="{c}" stroke-width="1.5" points="{pts}"/>')
        out.append(f'<text x="{w-r+8}" y="{t+16*i+10}" fill="{c}">{label}</text>')
    out.append("</svg>")
    open(path, "w").write("\n".join(out) + "\n")
    return True


def _ratio(num, den):
    return num / den if num is not None and den else None


def _fmt(x, digits=2, suffix=""):
    return "n/a" if x is None else f"{x:,.{digits}f}{suffix}"


def parse_acquire(path):
    """Our bench_algorithms_acquire log: {"specs": {spec: {...}}, "cold_start_*": ms}."""
    out = {"specs": {}}
    for line in open(path).read().splitlines():
        if not line.startswith("RESULT"):
            continue
        for field in line.split()[1:]:
            if "=" not in field:
                continue
            k, v = field.split("=", 1)
            m = re.fullmatch(r"query_(.+)_p50_ns", k)
            if m and "/" in v:
                f, l = v.split("/")
                out["specs"].setdefault(m.group(1), {}).update(query_fresh_ns=float(f), query_loaded_ns=float(l))
                continue
            m = re.fullmatch(r"(hit|build)_(.+)_ms", k)
            if m:
                out["specs"].setdefault(m.group(2), {})[m.group(1) + "_ms"] = float(v)
            elif k.startswith("cold_start_") or k == "context_ms_p50":
                out[k] = float(v)
    return out


def ratio_table(ref_path, acquire_path, later=False):
    """Ours vs the reference per spec: query P50, build, new-process readiness. later: the
    reference's specs only, and no cold-start line (ours starts the 15 wave-1 defaults)."""
    ref = json.load(open(ref_path)) if ref_path and os.path.isfile(ref_path) else {}
    ours = parse_acquire(acquire_path) if acquire_path and os.path.isfile(acquire_path) else {"specs": {}}
    summary = ref.get("summary", {})
    specs = list(summary) + ([] if later else [s for s in ours["specs"] if s not in summary])
    if not specs:
        return []
    out = ["", f"Ours ({os.path.basename(acquire_path or '') or 'no log'}) against cuda.compute "
           f"({os.path.basename(ref_path or '') or 'no JSON'}), temp-storage query of 2,048 items "
           "(P50 ns), build (ms), readiness (ms). Goals: ours loaded at least 50x faster per query, "
           "build ours/reference at most 1.", "",
           "| spec | query ours fresh / loaded | reference fresh / deserialized | reference deserialized / "
           "ours loaded | build ours | reference factory | ours / reference build | ours store hit, warm "
           "process | reference new process: deserialize + first ready call | reference / ours |",
           "|---|---|---|---|---|---|---|---|---|---|"]
    for spec in specs:
        r, o = summary.get(spec, {}), ours["specs"].get(spec, {})
        q = _ratio(r.get("query_p50_deserialized_ns"), o.get("query_loaded_ns"))
        b = _ratio(o.get("build_ms"), r.get("build_ms"))
        h = _ratio(r.get("new_process_first_ready_ms"), o.get("hit_ms"))
        err = f" (reference failed: {r['error']})" if r.get("error") else ""
        out.append(
            f"| {spec}{err} | {_fmt(o.get('query_fresh_ns'))} / {_fmt(o.get('query_loaded_ns'))} | "
            f"{_fmt(r.get('query_p50_fresh_ns'), 1)} / {_fmt(r.get('query_p50_deserialized_ns'), 1)} | "
            f"{_fmt(q, 1, 'x')}{'' if q is None else (' met' if q >= 50 else ' NOT met')} | "
            f"{_fmt(o.get('build_ms'), 1)} | {_fmt(r.get('build_ms'), 1)} | "
            f"{_fmt(b, 3)}{'' if b is None else (' met' if b <= 1 else ' NOT met')} | "
            f"{_fmt(o.get('hit_ms'), 4)} | {_fmt(r.get('new_process_first_ready_ms'), 4)} | {_fmt(h, 1, 'x')} |")
    if later:
        ca = ref.get("child_all", {})
        out += ["", f"The reference made its {len(ca.get('specs', []))} specs ready in one new process in "
                f"{_fmt(ca.get('all_ready_after_import_ms_p50'), 3, ' ms')} after `import cuda.compute`; our cold "
                "start covers the wave-1 defaults only (table above)."]
        return out
    ca = ref.get("child_all", {})
    start = ("from main() (context creation included)" if "context_ms_p50" not in ours else
             f"from a current context (its creation, {_fmt(ours['context_ms_p50'], 1, ' ms')}, apart)")
    out += ["", f"New process, cold start: ours {_fmt(ours.get('cold_start_all_ms_p50'), 3, ' ms')} {start} "
            f"until every default spec is ready (first one {_fmt(ours.get('cold_start_first_ms_p50'), 3, ' ms')}); "
            f"the reference {_fmt(ca.get('all_ready_after_import_ms_p50'), 3, ' ms')} to deserialize and make "
            f"ready its {len(ca.get('specs', []))} specs after `import cuda.compute` "
            f"({_fmt(ca.get('import_cuda_compute_ms_p50'), 1, ' ms')}), "
            f"{_fmt(ca.get('all_ready_from_start_ms_p50'), 1, ' ms')} from its script's start (CuPy and a "
            "context included)."]
    if not any("build_ms" in o for o in ours["specs"].values()):
        out.append("Our build times per spec are not in the log (RESULT build_<spec>_ms): build ratios n/a.")
    return out


def _shown(path, results):
    """A source's name in the table: relative to RESULTS_DIR, or its base name outside it."""
    rel = os.path.relpath(path, results)
    return os.path.basename(path) if rel.startswith("..") else rel


def resolve(results, f, later):
    """The first present of a SOURCES file (or candidates); "{later}/" paths need --later."""
    for c in (f,) if isinstance(f, str) else f:
        if c.startswith("{later}/"):
            if not later:
                continue
            c = os.path.join(later, c[len("{later}/"):])
        else:
            c = os.path.join(results, c)
        if os.path.isfile(c):
            return c
    return None


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("results", nargs="?", default=os.path.join(ROOT, "docs", "gpu-results"))
    ap.add_argument("plots", nargs="?", default=os.path.join(ROOT, "docs", "plots"))
    ap.add_argument("--reference", help="reference_wave1.py's JSON")
    ap.add_argument("--ours-acquire", help="bench_algorithms_acquire's log")
    ap.add_argument("--later", help="one GPU call's logs for the later algorithms (see above)")
    args = ap.parse_args(argv)
    results, plots = args.results, args.plots
    ref_path = args.reference or os.path.join(results, WAVE1, "reference_wave1.json")
    acquire = args.ours_acquire or (sorted(glob.glob(os.path.join(results, WAVE1, "*algos_acquire*.log")))
                                    or [None])[-1]
    later = args.later or (sorted(d for d in glob.glob(os.path.join(results, "*-later")) if os.path.isdir(d))
                           or [None])[-1]
    later_ref = os.path.join(later, "reference_wave1.json") if later else None
    os.makedirs(plots, exist_ok=True)
    print("| algorithm | sizes | ours / CUB (min .. max) | ours / CuPy (min .. max) | "
          "ours / cuda.compute (min .. max) | source runs |")
    print("|---|---|---|---|---|---|")
    for algo, (title, specs) in SOURCES.items():
        series, roles, paths = {}, {}, []
        for label, f, kind, sel in specs:
            path = (later_ref if algo in LATER_ALGOS else ref_path) if kind == "ref" else resolve(results, f, later)
            series[label] = parse(path, kind, sel)
            roles.setdefault(kind, series[label])
            paths.append(path)
        labels = list(series)
        ours, cub = series[labels[0]], series[labels[1]]
        both = sorted(set(ours) & set(cub))

        def span(other):
            r = [ours[n] / other[n] for n in sorted(set(ours) & set(other))]
            return f"{min(r):.3f} .. {max(r):.3f}" if r else "not measured"

        sizes = f"2^{int(math.log2(both[0]))}..2^{int(math.log2(both[-1]))}" if both else "-"
        runs = ", ".join(dict.fromkeys(_shown(x, results) for x in paths if x and os.path.isfile(x)))
        print(f"| {algo} | {sizes} | {span(cub)} | {span(roles.get('cupy', {}))} | "
              f"{span(roles.get('ref', {}))} | {runs} |")
        svg(title, series, os.path.join(plots, f"{algo}.svg"))
    for line in ratio_table(ref_path, acquire):
        print(line)
    if later:
        later_acquire = (sorted(glob.glob(os.path.join(later, "*algos_acquire*.log"))) or [None])[-1]
        print(f"\nThe later algorithms, one call ({os.path.relpath(later, results)}):")
        for line in ratio_table(later_ref, later_acquire, later=True):
            print(line)


if __name__ == "__main__":
    main()
