#!/usr/bin/env python3
"""`import cccl_cache` in new Python processes: what an array library pays at start-up.

  import_bench.py [OUT.json] [--runs 41]

Needs no GPU: the module on PYTHONPATH (build tree: build/python). Runs `runs` pairs of
new processes, alternating: a bare `python -c pass` and one that times `import cccl_cache`
around the import (time.perf_counter_ns, so Python's own start-up is not in it) and
reports which shared objects the import mapped (NVRTC and nvJitLink must not be among
them: they load at the first build). Prints P5..P95 of the in-process import time, of
each process's wall time and of the paired difference (import process - bare process).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import peerstats  # noqa: E402

CHILD = r"""
import json, time
t0 = time.perf_counter_ns()
import cccl_cache
t1 = time.perf_counter_ns()
maps = open("/proc/self/maps").read()
print(json.dumps({"import_ns": t1 - t0,
                  "nvrtc_mapped": "libnvrtc" in maps, "nvjitlink_mapped": "libnvJitLink" in maps}))
"""


def _wall(argv: list[str]) -> tuple[float, str]:
    t0 = time.perf_counter_ns()
    p = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    t1 = time.perf_counter_ns()
    if p.returncode != 0:
        raise RuntimeError(f"{argv[:3]} exited {p.returncode}: {p.stderr[-2000:]}")
    return (t1 - t0) / 1e6, p.stdout


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", nargs="?", help="write the results as JSON here")
    ap.add_argument("--runs", type=int, default=41)
    args = ap.parse_args()

    _wall([sys.executable, "-c", CHILD])  # page cache warm for both
    bare, full, inner, mapped = [], [], [], set()
    for i in range(args.runs):
        order = (0, 1) if i % 2 == 0 else (1, 0)
        for which in order:
            if which == 0:
                bare.append(_wall([sys.executable, "-c", "pass"])[0])
            else:
                ms, out = _wall([sys.executable, "-c", CHILD])
                full.append(ms)
                r = json.loads(out.strip().splitlines()[-1])
                inner.append(r["import_ns"] / 1e6)
                mapped.update(k for k in ("nvrtc_mapped", "nvjitlink_mapped") if r[k])
    doc = {
        "python": sys.version.split()[0],
        "runs": args.runs,
        "import_in_process_ms": peerstats.summary(inner),
        "bare_process_ms": peerstats.summary(bare),
        "import_process_ms": peerstats.summary(full),
        "import_minus_bare_ms": peerstats.summary([f - b for f, b in zip(full, bare)]),
        "jit_libraries_mapped_by_import": sorted(mapped),
    }
    pct = ("p5", "p25", "p50", "p75", "p95")
    print("ms                         " + "  ".join(f"{p:>7}" for p in pct))
    for key in ("import_in_process_ms", "bare_process_ms", "import_process_ms", "import_minus_bare_ms"):
        print(f"{key:<26} " + "  ".join(f"{doc[key][p]:7.2f}" for p in pct))
    print("NVRTC / nvJitLink mapped by the import:", ", ".join(doc["jit_libraries_mapped_by_import"]) or "no")
    if args.out:
        Path(args.out).write_text(json.dumps(doc, indent=2) + "\n")
    return 1 if mapped else 0


if __name__ == "__main__":
    sys.exit(main())
