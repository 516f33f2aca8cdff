"""Run time against size for each algorithm (ours, CUB by nvcc, CuPy, the reference
library cuda.compute), from recorded GPU runs: parses the logs under docs/gpu-results/
and writes one SVG plot per algorithm (docs/plots/<algorithm>.svg) and a markdown table
of worst-case ratios to stdout. With the reference's JSON (bench/peers/reference_wave1.py)
and our bench_algorithms_acquire log, also a table of ours-vs-reference query, build and
first-ready ratios per spec. No third-party packages (the SVG is written by hand).

  python3 bench/wave1_report.py [RESULTS_DIR] [PLOTS_DIR] [--reference JSON]
                                [--ours-acquire LOG]

--reference defaults to RESULTS_DIR/<wave-1 folder>/reference_wave1.json, --ours-acquire
to the last (by name) *algos_acquire*.log there; either absent: its part is left out.
Which log feeds which curve is the SOURCES table below: each entry names the run, the
file and the series; a reader can check every point against the recorded output.
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


def parse(path, kind, sel):
    """{n: ms} for one series; {} (with a note on stderr) when its source is absent."""
    out = {}
    if not path or not os.path.isfile(path):
        print(f"wave1_report: {path or 'no reference JSON'} absent, series left out", file=sys.stderr)
        return out
    if kind == "ref":  # reference_wave1.py's JSON: curves.<spec>.rows[] with n, ms, check
        rows = json.load(open(path)).get("curves", {}).get(sel, {}).get("rows", [])
        return {int(r["n"]): float(r["ms"]) for r in rows if "ms" in r and r.get("check")}
    text = open(path).read().splitlines()
    if kind == "kv":  # RESULT <label> n=.. key=..  (label "" = lines with a bare n=)
        label, key = sel
        for line in text:
            if not line.startswith("RESULT"):
                continue
            f = line.split()
            if label and f[1] != label:
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
    colors = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd"]
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


def ratio_table(ref_path, acquire_path):
    """Ours vs the reference per spec: query P50, build, new-process readiness."""
    ref = json.load(open(ref_path)) if ref_path and os.path.isfile(ref_path) else {}
    ours = parse_acquire(acquire_path) if acquire_path and os.path.isfile(acquire_path) else {"specs": {}}
    summary = ref.get("summary", {})
    specs = list(summary) + [s for s in ours["specs"] if s not in summary]
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


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("results", nargs="?", default=os.path.join(ROOT, "docs", "gpu-results"))
    ap.add_argument("plots", nargs="?", default=os.path.join(ROOT, "docs", "plots"))
    ap.add_argument("--reference", help="reference_wave1.py's JSON")
    ap.add_argument("--ours-acquire", help="bench_algorithms_acquire's log")
    args = ap.parse_args(argv)
    results, plots = args.results, args.plots
    ref_path = args.reference or os.path.join(results, WAVE1, "reference_wave1.json")
    acquire = args.ours_acquire or (sorted(glob.glob(os.path.join(results, WAVE1, "*algos_acquire*.log")))
                                    or [None])[-1]
    os.makedirs(plots, exist_ok=True)
    print("| algorithm | sizes | ours / CUB (min .. max) | ours / CuPy (min .. max) | "
          "ours / cuda.compute (min .. max) | source runs |")
    print("|---|---|---|---|---|---|")
    for algo, (title, specs) in SOURCES.items():
        series, roles = {}, {}
        for label, f, kind, sel in specs:
            series[label] = parse(ref_path if kind == "ref" else os.path.join(results, f), kind, sel)
            roles.setdefault(kind, series[label])
        labels = list(series)
        ours, cub = series[labels[0]], series[labels[1]]
        both = sorted(set(ours) & set(cub))

        def span(other):
            r = [ours[n] / other[n] for n in sorted(set(ours) & set(other))]
            return f"{min(r):.3f} .. {max(r):.3f}" if r else "not measured"

        sizes = f"2^{int(math.log2(both[0]))}..2^{int(math.log2(both[-1]))}" if both else "-"
        paths = [ref_path if kind == "ref" else os.path.join(results, f) for _, f, kind, _ in specs]
        runs = ", ".join(sorted({os.path.basename(x) for x in paths if os.path.isfile(x)}))
        print(f"| {algo} | {sizes} | {span(cub)} | {span(roles.get('cupy', {}))} | "
              f"{span(roles.get('ref', {}))} | {runs} |")
        svg(title, series, os.path.join(plots, f"{algo}.svg"))
    for line in ratio_table(ref_path, acquire):
        print(line)


if __name__ == "__main__":
    main()
