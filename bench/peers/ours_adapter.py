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
  * Text logs of the C++ benchmarks (bench/merge_sort_*): lines
      RESULT key=value key=value ...
    and percentile lines
      <label>   P5 x  P25 x  P50 x  P75 x  P95 x <unit> (n=N)
    (see _from_text for the labels and keys mapped). Every RESULT line is also
    kept verbatim under "result_lines" so the report can show what it did not map.
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


_TEXT_SUFFIXES = (".log", ".txt", ".out")


def _files(paths) -> list[Path]:
    out = []
    for p in paths:
        p = Path(p)
        if p.is_dir():
            out += sorted(f for f in p.iterdir() if f.is_file() and f.suffix in (".json",) + _TEXT_SUFFIXES)
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


_PCT_RE = re.compile(
    r"^(?P<label>\S.*?)\s+P5\s+(?P<p5>\S+)\s+P25\s+(?P<p25>\S+)\s+P50\s+(?P<p50>\S+)"
    r"\s+P75\s+(?P<p75>\S+)\s+P95\s+(?P<p95>\S+)\s+(?P<unit>\S+)\s+\(n=(?P<n>\d+)\)")
_TEMP_RE = re.compile(r"temp bytes for (\d+) float keys: fresh (\d+)")
_TRIALS_RE = re.compile(r"query overhead, .*?(\d+) trials x (\d+) queries")


def _num(v: str):
    try:
        return int(v)
    except ValueError:
        try:
            return float(v)
        except ValueError:
            return v


def _first(kv: dict, *names):
    for n in names:
        if n in kv and isinstance(kv[n], (int, float)):
            return kv[n]
    return None


def _from_text(text: str) -> dict:
    """Our benchmarks' stdout. Query percentiles come from the lines labelled
    'fresh    exe(...' and 'loaded   exe(...' (the CUB-convention call, what a
    CUB user calls); RESULT keys are mapped by the names listed below."""
    out: dict = {"result_lines": [], "percentiles": {}}
    kv: dict = {}
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("RESULT "):
            pairs = dict(p.split("=", 1) for p in line.split()[1:] if "=" in p)
            pairs = {k: _num(v) for k, v in pairs.items()}
            n = _first(pairs, "n", "num_items", "items")
            if any(k.startswith("pairs_") for k in pairs):
                continue  # key-value sorts: not part of the peers comparison (see ours/sort.log)
            if n is None or not any("ms" in k for k in pairs):
                out["result_lines"].append(line[len("RESULT "):])
            if n is not None and any("ms" in k for k in pairs):
                row = out.setdefault("sort", {}).setdefault(int(n), {})
                ours = _first(pairs, "ours_ms", "ours_ms_p50", "cccl_cache_ms", "ours_median_ms")
                cub = _first(pairs, "cub_ms", "cub_ms_p50", "nvcc_ms", "cub_median_ms")
                if ours is not None:
                    row["ours_ms"] = ours
                if cub is not None:
                    row["cub_ms"] = cub
                if "check" in pairs or "ok" in pairs:
                    row["check"] = str(pairs.get("check", pairs.get("ok"))).lower() in ("1", "true", "ok", "yes")
            else:
                kv.update(pairs)
            continue
        if line.startswith("Method:") and "sort" in line:
            out["sort_method"] = line[len("Method:"):].strip()
            continue
        m = _PCT_RE.match(line)
        if m:
            d = {k: _num(m.group(k)) for k in ("p5", "p25", "p50", "p75", "p95")}
            d["unit"], d["n"] = m.group("unit"), int(m.group("n"))
            out["percentiles"].setdefault(m.group("label").strip(), d)
            continue
        m = _TEMP_RE.search(line)
        if m and int(m.group(1)) == 2048:
            out["temp_storage_bytes"] = int(m.group(2))
            continue
        m = _TRIALS_RE.search(line)
        if m:
            out.setdefault("query", {}).update(trials=int(m.group(1)), queries_per_trial=int(m.group(2)))
    q = out.setdefault("query", {})
    for label, d in out["percentiles"].items():
        if label.startswith("fresh ") and "exe(" in label and "fresh_ns" not in q:
            q["fresh_ns"] = d
        elif label.startswith("loaded ") and "exe(" in label and "loaded_ns" not in q:
            q["loaded_ns"] = d
    diff = _first(kv, "median_paired_diff_ns")
    if diff is not None:
        q["paired_loaded_minus_fresh_ns"] = {"median_diff": diff}
    if "fresh_ns" not in q and _first(kv, "query_p50_fresh_ns") is not None:
        q["fresh_ns"] = {"p50": kv["query_p50_fresh_ns"]}
    if "loaded_ns" not in q and _first(kv, "query_p50_loaded_ns") is not None:
        q["loaded_ns"] = {"p50": kv["query_p50_loaded_ns"]}
    mapping = {
        "build_ms": ("build_ms", "fresh_build_ms", "build_p50_ms"),
        "inprocess_repeat_us": ("inprocess_repeat_us", "repeat_us", "in_process_repeat_us"),
        "serialize_ms": ("serialize_ms",),
        "load_ms": ("load_ms", "store_load_ms", "acquire_loaded_ms"),
        "acquire_new_process_ms": ("acquire_new_process_ms", "new_process_acquire_ms", "store_hit_ms",
                                   "acquire_store_hit_ms"),
        "first_query_fresh_us": ("first_query_fresh_us",),
        "first_query_loaded_us": ("first_query_loaded_us",),
        "blob_bytes": ("blob_bytes", "entry_bytes"),
        "temp_storage_bytes": ("temp_storage_bytes", "temp_bytes"),
    }
    for dst, names in mapping.items():
        v = _first(kv, *names)
        if v is not None:
            out[dst] = v
    return out


def load(paths) -> dict:
    ours: dict = {"sources": [], "errors": []}
    for f in _files(paths):
        if f.suffix in _TEXT_SUFFIXES:
            try:
                part = _from_text(f.read_text(errors="replace"))
            except OSError as e:
                ours["errors"].append(f"{f.name}: unreadable ({e})")
                continue
            if part["result_lines"] or part["percentiles"] or part.get("sort"):
                ours["sources"].append(str(f))
                _merge(ours, part)
            continue
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
