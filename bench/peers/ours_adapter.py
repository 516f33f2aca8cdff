"""Reads our C++ benchmarks' JSON outputs into one normalized dict for report.py.

Normalized form (every key optional):
  {
    "sources": [paths read],
    "commit": str, "versions": {name: value},
    "query": {"fresh_ns": {p5..p95}, "loaded_ns": {p5..p95},
              "paired_loaded_minus_fresh_ns": {"median_diff": ns},
              "trials": int, "queries_per_trial": int},
    "build_ms", "inprocess_repeat_us", "serialize_ms", "load_ms",
    "first_query_fresh_us", "first_query_loaded_us", "acquire_new_process_ms",
    "blob_bytes", "temp_storage_bytes",
    "sort": {n: {"ours_ms": median, "cub_ms": median, "check": bool}},
    "sort_method": str,
    "errors": [str],
  }

Formats understood:
  * Google Benchmark JSON ({"context": ..., "benchmarks": [...]}), as written
    with --benchmark_out_format=json (see _from_gbench for the names used).
  * A document that already has the normalized keys at top level
    ({"peers_normalized": 1, ...}).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

_UNIT_TO_MS = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}


def _files(paths) -> list[Path]:
    out = []
    for p in paths:
        p = Path(p)
        if p.is_dir():
            out += sorted(p.glob("*.json"))
        elif p.is_file():
            out.append(p)
    return out


def _merge(dst: dict, src: dict) -> None:
    for k, v in src.items():
        if isinstance(v, dict) and isinstance(dst.get(k), dict):
            _merge(dst[k], v)
        elif isinstance(v, list) and isinstance(dst.get(k), list):
            dst[k] += v
        else:
            dst[k] = v


def _from_gbench(doc: dict) -> dict:
    """Google Benchmark JSON. Sort benchmarks: a name with 'sort', a size as
    the last '/N' argument, and 'cub' or 'nvcc' in the name for the CUB
    baseline; median aggregates preferred over single runs."""
    out: dict = {"sort": {}}
    best: dict = {}
    for b in doc.get("benchmarks", []):
        name = b.get("run_name") or b.get("name", "")
        agg = b.get("aggregate_name")
        if agg not in (None, "median"):
            continue
        m = re.search(r"/(\d+)(?:/|$)", name)
        if "sort" not in name.lower() or not m:
            continue
        n = int(m.group(1))
        ms = b.get("real_time", 0.0) * _UNIT_TO_MS.get(b.get("time_unit", "ns"), 1e-6)
        key = "cub_ms" if re.search(r"cub|nvcc", name, re.I) else "ours_ms"
        rank = 1 if agg == "median" else 0
        if best.get((n, key), -1) <= rank:
            best[(n, key)] = rank
            out["sort"].setdefault(n, {})[key] = ms
    return out


def load(paths) -> dict:
    ours: dict = {"sources": [], "errors": []}
    for f in _files(paths):
        try:
            doc = json.loads(f.read_text())
        except (OSError, ValueError) as e:
            ours["errors"].append(f"{f.name}: unreadable JSON ({e})")
            continue
        if not isinstance(doc, dict):
            continue
        if doc.get("peers_normalized"):
            part = {k: v for k, v in doc.items() if k != "peers_normalized"}
            if "sort" in part:
                part["sort"] = {int(k): v for k, v in part["sort"].items()}
        elif "benchmarks" in doc:
            part = _from_gbench(doc)
        else:
            continue
        ours["sources"].append(str(f))
        _merge(ours, part)
    return ours
