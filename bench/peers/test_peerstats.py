"""Unit tests of the peer benchmark's pure-Python parts (no GPU needed).

Run: python3 -m unittest discover -s bench/peers -p 'test_*.py'
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import peerstats  # noqa: E402


class PeerStats(unittest.TestCase):
    def test_percentile_matches_linear_interpolation(self):
        xs = [10.0, 20.0, 30.0, 40.0, 50.0]
        self.assertEqual(peerstats.percentile(xs, 0), 10.0)
        self.assertEqual(peerstats.percentile(xs, 50), 30.0)
        self.assertEqual(peerstats.percentile(xs, 100), 50.0)
        self.assertAlmostEqual(peerstats.percentile(xs, 5), 12.0)
        self.assertAlmostEqual(peerstats.percentile(xs, 95), 48.0)
        self.assertAlmostEqual(peerstats.percentile([4.0, 1.0, 3.0, 2.0], 50), 2.5)

    def test_percentile_rejects_bad_input(self):
        with self.assertRaises(ValueError):
            peerstats.percentile([], 50)
        with self.assertRaises(ValueError):
            peerstats.percentile([1.0], 101)

    def test_summary_has_all_percentiles(self):
        s = peerstats.summary(list(range(1, 102)))
        self.assertEqual(s["p50"], 51)
        self.assertEqual(s["p5"], 6)
        self.assertEqual(s["p95"], 96)
        self.assertEqual((s["min"], s["max"], s["n"]), (1, 101, 101))

    def test_paired_difference_is_per_trial(self):
        a = [100.0, 200.0, 300.0]
        b = [150.0, 210.0, 390.0]  # diffs 50, 10, 90; ratios 1.5, 1.05, 1.3
        p = peerstats.paired(a, b)
        self.assertEqual(p["median_diff"], 50.0)
        self.assertAlmostEqual(p["median_ratio"], 1.3)
        self.assertEqual(p["n"], 3)
        with self.assertRaises(ValueError):
            peerstats.paired([1.0], [1.0, 2.0])

    def test_reps_for_size_scales_and_clamps(self):
        self.assertEqual(peerstats.reps_for_size(1 << 11), 200)
        self.assertEqual(peerstats.reps_for_size(1 << 22), 64)
        self.assertEqual(peerstats.reps_for_size(1 << 26), 15)
        self.assertEqual(peerstats.reps_for_size(1 << 26, fixed=7), 7)
        with self.assertRaises(ValueError):
            peerstats.reps_for_size(1024, fixed=0)

    def test_fmt_ratio_handles_missing(self):
        self.assertEqual(peerstats.fmt_ratio(1.0, 4.0), "0.25")
        self.assertEqual(peerstats.fmt_ratio(4.25, 5248.1), "0.0008")
        self.assertEqual(peerstats.fmt_ratio(None, 4.0), "n/a")
        self.assertEqual(peerstats.fmt_ratio(1.0, 0.0), "n/a")


_OUR_QUERY_LOG = """\
fresh executable: builds 1 store_hits 0; loaded executable: builds 0 store_hits 1
temp bytes for 2048 float keys: fresh 8703, loaded 8703, CUB dispatch (bound) 8703, cub::DeviceMergeSort 8703
query overhead, 2048 float32 keys, 101 trials x 20000 queries (ns/query):
fresh    exe(nullptr, bytes, ..., n)             P5     4.100  P25     4.200  P50     4.300  P75     4.400  P95     4.900 ns (n=101)
loaded   exe(nullptr, bytes, ..., n)             P5     4.000  P25     4.150  P50     4.250  P75     4.450  P95     5.000 ns (n=101)
loaded - fresh (paired)                          P5    -0.300  P25    -0.100  P50    -0.020  P75     0.100  P95     0.300 ns (n=101)
fresh    exe.temp_storage_bytes(n)               P5     1.000  P25     1.100  P50     1.200  P75     1.300  P95     1.400 ns (n=101)
RESULT query_p50_fresh_ns=4.300 query_p50_loaded_ns=4.250 median_paired_diff_ns=-0.020 ratio=0.9884
RESULT n=2048 ours_ms=0.0150 cub_ms=0.0160 check=1
RESULT pairs_n=2048 pairs_ours_ms=0.0300 pairs_cub_ms=0.0310 pairs_check=1 reps=100
RESULT build_ms=1834.5 acquire_new_process_ms=0.41 something_new=7
"""


class OursAdapter(unittest.TestCase):
    def test_text_log_maps_query_sort_and_keeps_result_lines(self):
        import ours_adapter

        with tempfile.TemporaryDirectory() as d:
            Path(d, "query.log").write_text(_OUR_QUERY_LOG)
            Path(d, "broken.json").write_text("{not json")
            ours = ours_adapter.load([d])
        q = ours["query"]
        self.assertEqual(q["fresh_ns"]["p50"], 4.3)
        self.assertEqual(q["loaded_ns"]["p95"], 5.0)  # the exe(...) line, not temp_storage_bytes(n)
        self.assertEqual((q["trials"], q["queries_per_trial"]), (101, 20000))
        self.assertEqual(q["paired_loaded_minus_fresh_ns"]["median_diff"], -0.02)
        self.assertEqual(ours["sort"][2048], {"ours_ms": 0.015, "cub_ms": 0.016, "check": True})
        self.assertEqual(ours["build_ms"], 1834.5)
        self.assertEqual(ours["acquire_new_process_ms"], 0.41)
        self.assertEqual(ours["temp_storage_bytes"], 8703)
        self.assertEqual(len(ours["result_lines"]), 2)  # the sort line went into the sort table
        self.assertTrue(any("broken.json" in e for e in ours["errors"]))

    def test_sort_only_log_is_read(self):
        import ours_adapter

        with tempfile.TemporaryDirectory() as d:
            Path(d, "sort.log").write_text(
                "=== sort: bench_merge_sort_vs_cub 28\nMethod: sort time with CUDA events\n"
                "RESULT n=4096 ours_ms=0.02000 cub_ms=0.02100 ratio=0.95 check=0 temp_equal=1 reps=3\n"
                "RESULT pairs_n=4096 pairs_ours_ms=1 pairs_cub_ms=1 pairs_check=1 reps=3\n")
            ours = ours_adapter.load([d])
        self.assertEqual(ours["sort"], {4096: {"ours_ms": 0.02, "cub_ms": 0.021, "check": False}})
        self.assertEqual(len(ours["sources"]), 1)
        self.assertEqual(ours["sort_method"], "sort time with CUDA events")

    def test_report_renders_ours_without_reference(self):
        with tempfile.TemporaryDirectory() as d:
            Path(d, "query.log").write_text(_OUR_QUERY_LOG)
            p = subprocess.run([sys.executable, str(HERE / "report.py"), "--ours", d],
                               capture_output=True, text=True, timeout=60)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("| P50 | n/a | n/a | 4.30 | 4.25 |", p.stdout)
        self.assertIn("something_new=7", p.stdout)
        self.assertIn("worst ours/CUB ratio 0.94", p.stdout)



class RecordRun(unittest.TestCase):
    def test_writes_record_once(self):
        with tempfile.TemporaryDirectory() as d:
            src, dest = Path(d, "out"), Path(d, "rec")
            (src / "ours").mkdir(parents=True)
            (src / "peers.log").write_text("=== [env]\ncommit: 0123abc\n")
            (src / "peers-report.md").write_text("# Peers: x\n\n## Query\n")
            (src / "reference.json").write_text(json.dumps({"started_utc": "2026-11-30T10:00:00Z"}))
            (src / "ours" / "query.log").write_text("RESULT query_p50_loaded_ns=4.2\n")
            cmd = [sys.executable, str(HERE / "record.py"), str(src), "--command", "bash run_all.sh",
                   "--dest", str(dest)]
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
            self.assertEqual(p.returncode, 0, p.stderr)
            text = (dest / "2026-11-30-peers.md").read_text()
            self.assertIn("Commit: `0123abc`", text)
            self.assertIn("`bash run_all.sh`", text)
            self.assertIn("## Peers: x", text)  # report headings demoted one level
            self.assertIn("RESULT query_p50_loaded_ns=4.2", text)
            self.assertTrue((dest / "2026-11-30-peers.json").is_file())
            p2 = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
            self.assertEqual(p2.returncode, 2)
            self.assertIn("exists", p2.stderr)


# Stand-ins for cupy and cuda.compute built on numpy, so that reference_bench.py's
# orchestration (parts, statistics, child process, JSON, checks) runs without a GPU.
# They model only what the script calls; timings from them mean nothing.
_FAKE_CUPY = """
import numpy as _np
uint8 = _np.uint8
float32 = _np.float32
int64 = _np.int64
sort = _np.sort
cumsum = _np.cumsum
sum = _np.sum
max = _np.max
class _Rng:
    def __init__(self, seed): self._g = _np.random.default_rng(seed)
    def integers(self, lo, hi, n, dtype): return self._g.integers(lo, hi, n, dtype=dtype)
    def random(self, n, dtype): return self._g.random(n, dtype=dtype)
class random:
    default_rng = _Rng
asarray = _np.asarray
empty_like = _np.empty_like
empty = _np.empty
copyto = _np.copyto
def all(x): return _np.asarray(_np.all(x))
def array_equal(a, b): return _np.asarray(_np.array_equal(a, b))
class _Pool:
    def free_all_blocks(self): pass
def get_default_memory_pool(): return _Pool()
class _Runtime:
    @staticmethod
    def deviceSynchronize(): pass
    @staticmethod
    def getDeviceProperties(i): return {"name": b"FakeGPU", "major": 9, "minor": 0}
    @staticmethod
    def driverGetVersion(): return 13000
    @staticmethod
    def runtimeGetVersion(): return 13000
class _Event:
    def record(self):
        import time
        self.t = time.perf_counter()
    def synchronize(self): pass
class _Cuda:
    runtime = _Runtime
    Event = _Event
    @staticmethod
    def get_elapsed_time(a, b): return (b.t - a.t) * 1e3
cuda = _Cuda
asnumpy = _np.asarray
class ElementwiseKernel:
    def __init__(self, params, out, body, name): pass
    def __call__(self, x, y, out): _np.add(x, y, out=out); return out
def __getattr__(name):  # the rest of CuPy's array API, as numpy's
    return getattr(_np, name)
"""

_FAKE_COMPUTE = """
import enum, pickle
import numpy as _np
class OpKind(enum.Enum):
    LESS = 1
class _Sorter:
    def __call__(self, *, temp_storage, d_in_keys, d_in_values, d_out_keys, d_out_values,
                 num_items, op, stream=None):
        assert op is OpKind.LESS and d_in_values is None and d_out_values is None
        if temp_storage is None:
            return 8703
        d_out_keys[:num_items] = _np.sort(d_in_keys[:num_items])
        return temp_storage.nbytes
_cache = {}
def make_merge_sort(*, d_in_keys, d_out_keys, op, d_in_values=None, d_out_values=None):
    return _cache.setdefault(d_in_keys.dtype.str, _Sorter())
def serialize(obj): return b"FAKEBLOB" + pickle.dumps(1)
def deserialize(blob):
    if not blob.startswith(b"FAKEBLOB"): raise ValueError("bad blob")
    return _Sorter()
"""


def write_fakes(root: Path, compute_source: str, **env) -> dict:
    """Writes the stand-in packages cupy and cuda.compute under root/fakes; returns an
    environment that imports them (plus `env`)."""
    (root / "fakes" / "cupy").mkdir(parents=True)
    (root / "fakes" / "cupy" / "__init__.py").write_text(_FAKE_CUPY)
    (root / "fakes" / "cuda" / "compute").mkdir(parents=True)
    (root / "fakes" / "cuda" / "compute" / "__init__.py").write_text(compute_source)
    return dict(os.environ, PYTHONPATH=str(root / "fakes"), PATH="/usr/bin:/bin", **env)


try:
    import numpy  # noqa: F401  (the fakes are built on it)
    _HAVE_NUMPY = True
except ImportError:
    _HAVE_NUMPY = False


@unittest.skipUnless(_HAVE_NUMPY, "numpy is not installed")
class ReferenceBenchOnFakes(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = Path(self.tmp.name)
        self.env = write_fakes(self.root, _FAKE_COMPUTE)

    def tearDown(self):
        self.tmp.cleanup()

    def test_writes_complete_json_and_report(self):
        out = self.root / "ref.json"
        p = subprocess.run(
            [sys.executable, str(HERE / "reference_bench.py"), str(out), "--trials", "5",
             "--queries", "50", "--child-runs", "2", "--min-log", "11", "--max-log", "13",
             "--sort-reps", "2", "--warmup", "1"],
            env=self.env, capture_output=True, text=True, timeout=120)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        doc = json.loads(out.read_text())
        self.assertTrue(doc["ok"])
        q = doc["query"]
        self.assertEqual(q["temp_storage_bytes"], 8703)
        self.assertEqual(q["trials"], 5)
        self.assertEqual(len(q["raw_fresh_ns"]), 5)
        self.assertEqual(q["fresh_ns"]["n"], 5)
        self.assertLessEqual(q["fresh_ns"]["p5"], q["fresh_ns"]["p95"])
        self.assertIn("median_diff", q["paired_deserialized_minus_fresh_ns"])
        self.assertTrue(q["factory_repeat_returns_same_object"])
        self.assertEqual(len(doc["child"]["runs"]), 2)
        self.assertEqual(doc["child"]["runs"][0]["temp_storage_bytes"], 8703)
        rows = doc["sort"]["rows"]
        self.assertEqual([r["n"] for r in rows], [2048, 4096, 8192])
        for r in rows:
            self.assertTrue(r["check_reference_sorted"] and r["check_reference_equals_cupy"], r)
            self.assertGreater(r["reference_ms_p50"], 0)
        self.assertIn("median paired difference", p.stdout)

        ours = self.root / "ours.json"
        ours.write_text(json.dumps({
            "peers_normalized": 1,
            "query": {"fresh_ns": {"p5": 9, "p25": 10, "p50": 11, "p75": 12, "p95": 14},
                      "loaded_ns": {"p5": 9, "p25": 10, "p50": 11, "p75": 12, "p95": 14}},
            "sort": {"2048": {"ours_ms": 0.010, "cub_ms": 0.011, "check": True}}}))
        md = self.root / "report.md"
        p2 = subprocess.run(
            [sys.executable, str(HERE / "report.py"), "--reference", str(out), "--ours", str(ours),
             "--out", str(md), "--quiet"], capture_output=True, text=True, timeout=60)
        self.assertEqual(p2.returncode, 0, p2.stderr)
        text = md.read_text()
        self.assertIn("| 2^11 |", text)
        self.assertIn("ours ok", text)
        self.assertIn("worst ours/CUB ratio 0.91", text)
        ref_p50 = q["deserialized_ns"]["p50"]
        self.assertIn(f"{ref_p50 / 11:,.1f}x", text)

    def test_bad_arguments_are_refused(self):
        p = subprocess.run([sys.executable, str(HERE / "reference_bench.py"), str(self.root / "x.json"),
                            "--min-log", "12", "--max-log", "11"],
                           env=self.env, capture_output=True, text=True, timeout=60)
        self.assertEqual(p.returncode, 2)
        self.assertIn("min-log", p.stderr)


if __name__ == "__main__":
    unittest.main()
