"""Run time against size for each algorithm (ours, CUB by nvcc, CuPy), from recorded GPU
runs: parses the logs under docs/gpu-results/ and writes one SVG plot per algorithm
(docs/plots/<algorithm>.svg) and a markdown table of worst-case ratios to stdout.
No third-party packages (the SVG is written by hand).

  python3 bench/wave1_report.py [RESULTS_DIR] [PLOTS_DIR]

Which log feeds which curve is the SOURCES table below: each entry names the run, the
file and the series; a reader can check every point against the recorded output.
"""
import math
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
WAVE1 = "2026-12-01-wave1"

# algorithm -> (title, [(label, file, parser, selector)])
SOURCES = {
    "reduce": ("reduce, float32 plus", [
        ("ours", f"{WAVE1}/run4-reduce_bench.log", "kv", ("float32_plus", "ours_ms")),
        ("CUB DeviceReduce::Reduce", f"{WAVE1}/run4-reduce_bench.log", "kv", ("float32_plus", "cub_ms")),
        ("cupy.sum", f"{WAVE1}/run3-cupy.log", "cupy", ("sum", "float32")),
    ]),
    "inclusive_scan": ("inclusive scan, float32 plus", [
        ("ours", f"{WAVE1}/run3-scan_bench.log", "kv", ("inclusive_float32", "ours_ms")),
        ("CUB DeviceScan::InclusiveScan", f"{WAVE1}/run3-scan_bench.log", "kv",
         ("inclusive_float32", "cub_inclusive_scan_ms")),
        ("cupy.cumsum", f"{WAVE1}/run3-cupy.log", "cupy", ("cumsum", "float32")),
    ]),
    "binary_transform": ("binary transform, float32 plus", [
        ("ours", f"{WAVE1}/run3-transform_bench.log", "table", ("binary plus float32", 1)),
        ("CUB DeviceTransform::Transform", f"{WAVE1}/run3-transform_bench.log", "table",
         ("binary plus float32", 2)),
        ("CuPy ElementwiseKernel x + y", f"{WAVE1}/run3-cupy.log", "cupy", ("add", "float32")),
    ]),
    "radix_sort": ("radix sort, float32 keys", [
        ("ours", f"{WAVE1}/run5-radix_bench.log", "kv", ("type=float32", "ours_ms")),
        ("CUB DeviceRadixSort::SortKeys", f"{WAVE1}/run5-radix_bench.log", "kv", ("type=float32", "cub_ms")),
        ("cupy.sort", f"{WAVE1}/run3-cupy.log", "cupy", ("sort", "float32")),
    ]),
    "merge_sort": ("merge sort, float32 keys", [
        ("ours", "2026-12-01-run1-core-merge-sort.md", "kv", ("", "ours_ms")),
        ("CUB DeviceMergeSort::SortKeys", "2026-12-01-run1-core-merge-sort.md", "kv", ("", "cub_ms")),
    ]),
}


def parse(path, kind, sel):
    """{n: ms} for one series."""
    out = {}
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


def main():
    results = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "docs", "gpu-results")
    plots = sys.argv[2] if len(sys.argv) > 2 else os.path.join(ROOT, "docs", "plots")
    os.makedirs(plots, exist_ok=True)
    print("| algorithm | sizes | ours / CUB (min .. max) | ours / CuPy (min .. max) | source runs |")
    print("|---|---|---|---|---|")
    for algo, (title, specs) in SOURCES.items():
        series = {label: parse(os.path.join(results, f), kind, sel) for label, f, kind, sel in specs}
        labels = list(series)
        ours, cub = series[labels[0]], series[labels[1]]
        peer = series[labels[2]] if len(labels) > 2 else {}
        both = sorted(set(ours) & set(cub))
        rc = [ours[n] / cub[n] for n in both]
        rp = [ours[n] / peer[n] for n in sorted(set(ours) & set(peer))]
        span = f"2^{int(math.log2(both[0]))}..2^{int(math.log2(both[-1]))}" if both else "-"
        fmt = lambda r: f"{min(r):.3f} .. {max(r):.3f}" if r else "not measured"
        runs = ", ".join(sorted({f.split("/")[-1] for _, f, _, _ in specs}))
        print(f"| {algo} | {span} | {fmt(rc)} | {fmt(rp)} | {runs} |")
        svg(title, series, os.path.join(plots, f"{algo}.svg"))


if __name__ == "__main__":
    main()
