"""reference_wave1.py end to end on numpy-backed stand-ins for cupy and cuda.compute,
and bench/wave1_report.py's reference curve and ratio table (no GPU needed).

Run: python3 -m unittest discover -s bench/peers -p 'test_*.py'
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import tempfile
import unittest
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from test_peerstats import _HAVE_NUMPY, write_fakes  # noqa: E402

# The factories and call signatures of cuda.compute 1.2.1 (cuda-cccl wheel), keyword for
# keyword, computing with numpy, so that a wrong keyword in reference_wave1.py fails
# here as it would on the GPU. FAKE_BROKEN names a factory that raises (per-spec
# failures must not stop the others). Timings from them mean nothing.
_FAKE_COMPUTE = """
import enum, os, pickle
import numpy as _np
class OpKind(enum.Enum):
    PLUS = 1; MAXIMUM = 2; NEGATE = 3; LESS = 4; EQUAL_TO = 5; IDENTITY = 6
class SortOrder(enum.Enum):
    ASCENDING = 0; DESCENDING = 1
TEMP = {"reduce": 1536, "scan": 2304, "radix": 9000, "merge": 8703, "segred": 1, "ubk": 4000,
        "twp": 3000, "select": 3000, "hist": 2000}
class _Algo:
    def __init__(self, kind, dtype, op): self.kind, self.dtype, self.op = kind, dtype, op
    def _temp(self, temp_storage, kind):
        if temp_storage is None: return TEMP[kind], True
        assert temp_storage.nbytes >= TEMP[kind]
        return temp_storage.nbytes, False
class _Reduce(_Algo):
    def __call__(self, *, temp_storage, d_in, d_out, num_items, op, h_init, stream=None):
        assert op is self.op
        b, q = self._temp(temp_storage, "reduce")
        if not q:
            f = _np.sum if op is OpKind.PLUS else _np.max
            d_out[0] = f(_np.concatenate([h_init, d_in[:num_items]]))
        return b
class _Scan(_Algo):
    def __call__(self, *, temp_storage, d_in, d_out, op, init_value, num_items, stream=None):
        assert op is OpKind.PLUS and (init_value is None) == (self.kind == "inclusive")
        b, q = self._temp(temp_storage, "scan")
        if not q:
            c = _np.cumsum(d_in[:num_items])
            if self.kind == "inclusive":
                d_out[:num_items] = c
            else:
                d_out[0] = init_value[0]
                d_out[1:num_items] = c[:-1] + init_value[0]
        return b
class _Unary(_Algo):
    def __call__(self, *, d_in, d_out, op, num_items, stream=None):
        assert op is OpKind.NEGATE
        d_out[:num_items] = -d_in[:num_items]
class _Binary(_Algo):
    def __call__(self, *, d_in1, d_in2, d_out, op, num_items, stream=None):
        assert op is OpKind.PLUS
        d_out[:num_items] = d_in1[:num_items] + d_in2[:num_items]
class _Radix(_Algo):
    def __call__(self, *, temp_storage, d_in_keys, d_out_keys, d_in_values, d_out_values, num_items,
                 begin_bit=None, end_bit=None, stream=None):
        b, q = self._temp(temp_storage, "radix")
        if not q: d_out_keys[:num_items] = _np.sort(d_in_keys[:num_items])
        return b
class _Merge(_Algo):
    def __call__(self, *, temp_storage, d_in_keys, d_in_values, d_out_keys, d_out_values, num_items, op,
                 stream=None):
        assert op is OpKind.LESS
        b, q = self._temp(temp_storage, "merge")
        if not q: d_out_keys[:num_items] = _np.sort(d_in_keys[:num_items])
        return b
class _SegReduce(_Algo):
    def __call__(self, *, temp_storage, d_in, d_out, num_segments, start_offsets_in, end_offsets_in, op,
                 h_init, max_segment_size=None, stream=None):
        assert op is OpKind.PLUS and h_init.dtype == d_in.dtype
        b, q = self._temp(temp_storage, "segred")
        if not q:
            for i in range(num_segments):
                d_out[i] = h_init[0] + d_in[start_offsets_in[i]:end_offsets_in[i]].sum()
        return b
class _UniqueByKey(_Algo):
    def __call__(self, *, temp_storage, d_in_keys, d_in_items, d_out_keys, d_out_items, d_out_num_selected,
                 op, num_items, stream=None):
        assert op is OpKind.EQUAL_TO
        b, q = self._temp(temp_storage, "ubk")
        if not q:
            k = d_in_keys[:num_items]
            first = _np.concatenate([[True], k[1:] != k[:-1]])
            m = int(first.sum())
            d_out_keys[:m], d_out_items[:m], d_out_num_selected[0] = k[first], d_in_items[:num_items][first], m
        return b
def _partition(x, first, second, rest, count, op1, op2=None):
    a = _np.asarray(op1(x), bool)  # the Python predicates, on the host here
    b = _np.asarray(op2(x), bool) & ~a if op2 is not None else _np.zeros(len(x), bool)
    m1, m2 = int(a.sum()), int(b.sum())
    u = ~(a | b)
    first[:m1], second[:m2], rest[:int(u.sum())], count[0], count[1] = x[a], x[b], x[u][::-1], m1, m2
class _Select(_Algo):
    def __call__(self, *, temp_storage, d_in, d_out, d_num_selected_out, cond, num_items, stream=None):
        assert callable(cond) and len(d_num_selected_out) >= 2
        b, q = self._temp(temp_storage, "select")
        if not q:
            _partition(d_in[:num_items], d_out, _np.empty(0), _np.empty(num_items, d_in.dtype), d_num_selected_out,
                       cond)
        return b
class _ThreeWay(_Algo):
    def __call__(self, *, temp_storage, d_in, d_first_part_out, d_second_part_out, d_unselected_out,
                 d_num_selected_out, select_first_part_op, select_second_part_op, num_items, stream=None):
        assert callable(select_first_part_op) and callable(select_second_part_op)
        b, q = self._temp(temp_storage, "twp")
        if not q:
            _partition(d_in[:num_items], d_first_part_out, d_second_part_out, d_unselected_out, d_num_selected_out,
                       select_first_part_op, select_second_part_op)
        return b
class _Histogram(_Algo):
    def __call__(self, *, temp_storage, d_samples, d_histogram, h_num_output_levels, h_lower_level,
                 h_upper_level, num_samples, stream=None):
        b, q = self._temp(temp_storage, "hist")
        if not q:
            bins, lo, hi = int(h_num_output_levels[0]) - 1, int(h_lower_level[0]), int(h_upper_level[0])
            x = d_samples[:num_samples].astype(_np.int64)
            x = x[(x >= lo) & (x < hi)]
            d_histogram[:] = _np.bincount((x - lo) * bins // (hi - lo), minlength=bins)
        return b
class _Bound(_Algo):
    def __call__(self, *, d_data, num_items, d_values, num_values, d_out, comp, stream=None):
        assert comp is OpKind.LESS
        side = "right" if self.kind == "upper" else "left"
        d_out[:num_values] = _np.searchsorted(d_data[:num_items], d_values[:num_values], side=side)
_cache = {}
def _make(cls, kind, dtype, op):
    if os.environ.get("FAKE_BROKEN") == kind:
        raise RuntimeError("NVRTC failed (stand-in)")
    return _cache.setdefault((kind, str(dtype), op), cls(kind, dtype, op))
def make_reduce_into(*, d_in, d_out, op, h_init=None, **kwargs):
    assert h_init.dtype == d_in.dtype
    return _make(_Reduce, "reduce", d_in.dtype, op)
def make_inclusive_scan(*, d_in, d_out, op, init_value=None, compute_capability=None):
    return _make(_Scan, "inclusive", d_in.dtype, op)
def make_exclusive_scan(*, d_in, d_out, op, init_value, compute_capability=None):
    return _make(_Scan, "exclusive", d_in.dtype, op)
def make_unary_transform(*, d_in, d_out, op, compute_capability=None):
    return _make(_Unary, "unary", d_in.dtype, op)
def make_binary_transform(*, d_in1, d_in2, d_out, op, compute_capability=None):
    return _make(_Binary, "binary", d_in1.dtype, op)
def make_radix_sort(*, d_in_keys, d_out_keys, d_in_values, d_out_values, order, compute_capability=None):
    assert order is SortOrder.ASCENDING
    return _make(_Radix, "radix", d_in_keys.dtype, None)
def make_merge_sort(*, d_in_keys, d_in_values=None, d_out_keys, d_out_values=None, op, compute_capability=None):
    return _make(_Merge, "merge", d_in_keys.dtype, op)
def make_segmented_reduce(*, d_in, d_out, start_offsets_in, end_offsets_in, op, h_init, compute_capability=None):
    return _make(_SegReduce, "segred", d_in.dtype, op)
def make_unique_by_key(*, d_in_keys, d_in_items, d_out_keys, d_out_items, d_out_num_selected, op,
                       compute_capability=None):
    return _make(_UniqueByKey, "ubk", d_in_keys.dtype, op)
def make_select(*, d_in, d_out, d_num_selected_out, cond, compute_capability=None):
    return _make(_Select, "select", d_in.dtype, cond)
def make_three_way_partition(*, d_in, d_first_part_out, d_second_part_out, d_unselected_out, d_num_selected_out,
                             select_first_part_op, select_second_part_op, compute_capability=None):
    return _make(_ThreeWay, "twp", d_in.dtype, select_first_part_op)
def make_histogram_even(*, d_samples, d_histogram, h_num_output_levels, h_lower_level, h_upper_level, num_samples,
                        compute_capability=None):
    assert h_lower_level.dtype == h_upper_level.dtype
    return _make(_Histogram, "hist", d_samples.dtype, None)
def _bound(kind, d_data, d_out, comp):
    if d_out.dtype != _np.uintp: raise TypeError("d_out must use an unsigned integer dtype for indices.")
    return _make(_Bound, kind, d_data.dtype, comp)
def make_lower_bound(*, d_data, d_values, d_out, comp=None, compute_capability=None):
    return _bound("lower", d_data, d_out, comp)
def make_upper_bound(*, d_data, d_values, d_out, comp=None, compute_capability=None):
    return _bound("upper", d_data, d_out, comp)
def serialize(obj): return b"FAKEBLOB" + pickle.dumps((type(obj).__name__, obj.kind, str(obj.dtype), obj.op))
def deserialize(blob):
    if not blob.startswith(b"FAKEBLOB"): raise ValueError("bad blob")
    name, kind, dtype, op = pickle.loads(blob[8:])
    return globals()[name](kind, _np.dtype(dtype), op)
"""

# cupy_wave1.py's timed() records events around the call; the stand-in events need a
# stream-free record() and get_elapsed_time (in _FAKE_CUPY).

_ACQUIRE_LOG = """\
13 specs on sm_90: fresh builds 13, loaded store hits 13
RESULT cold_start_all_ms_p50=3.1000 cold_start_first_ms_p50=0.9000 children=16
RESULT query_reduce_float32_p50_ns=4.10/4.00 query_radix_sort_float32_p50_ns=5.00/5.00 (fresh/loaded)
RESULT hit_reduce_float32_ms=0.2000 hit_radix_sort_float32_ms=0.3000 hit_binary_transform_float32_ms=0.1500
RESULT build_reduce_float32_ms=1500.0 build_radix_sort_float32_ms=4000.0
"""


# The wheel's C++ operator route (later_algos.predicate): compile_cpp_op_code keeps the
# source, and a RawOp evaluates the comparison its source makes on numpy arrays.
_FAKE_RAW_OPS = {
    "_cpp_compile.py": "def compile_cpp_op_code(source):\n    return source\n",
    "op.py": """class RawOp:
    def __init__(self, *, ltoir, name):
        self.ltoir, self.name = ltoir, name
    def __call__(self, x):
        if "!= 0" in self.ltoir: return x != 0
        if "< 0" in self.ltoir: return x < 0
        raise ValueError("fake RawOp: unknown predicate " + self.ltoir)
""",
}


@unittest.skipUnless(_HAVE_NUMPY, "numpy is not installed")
class ReferenceWave1OnFakes(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.root = root = Path(cls.tmp.name)
        cls.env = write_fakes(root, _FAKE_COMPUTE, FAKE_BROKEN="exclusive")
        for name, text in _FAKE_RAW_OPS.items():
            (root / "fakes" / "cuda" / "compute" / name).write_text(text)
        cls.out = root / "ref.json"
        cls.proc = subprocess.run(
            [sys.executable, str(HERE / "reference_wave1.py"), str(cls.out), "--trials", "3",
             "--queries", "20", "--child-runs", "1", "--min-log", "10", "--max-log", "12",
             "--specs", "reduce,exclusive_scan,binary_transform,radix_sort,merge_sort"],
            env=cls.env, capture_output=True, text=True, timeout=120)
        cls.doc = json.loads(cls.out.read_text()) if cls.out.is_file() else {}

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_every_spec_measured_and_the_broken_one_recorded(self):
        p, doc = self.proc, self.doc
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)  # the broken spec makes it non-zero
        self.assertFalse(doc["ok"])
        specs = doc["specs"]
        self.assertEqual(list(specs), ["reduce_float32", "exclusive_scan_float32", "binary_transform_float32",
                                       "radix_sort_float32", "merge_sort_float32", "reduce_int64",
                                       "exclusive_scan_int64", "binary_transform_int64",
                                       "radix_sort_int64"])  # type-major; merge sort is float32 only
        self.assertIn("NVRTC failed", specs["exclusive_scan_float32"]["error"])
        self.assertIn("NVRTC failed", specs["exclusive_scan_int64"]["error"])
        r = specs["radix_sort_int64"]
        self.assertEqual(r["temp_storage_bytes"], 9000)
        self.assertEqual((r["trials"], r["fresh_ns"]["n"], len(r["raw_deserialized_ns"])), (3, 3, 3))
        self.assertTrue(r["factory_repeat_returns_same_object"])
        self.assertGreater(r["blob_bytes"], 8)
        t = specs["binary_transform_float32"]
        self.assertFalse(t["has_query"])
        self.assertNotIn("fresh_ns", t)
        self.assertIsNone(t["temp_storage_bytes"])
        self.assertIn("first_ready_deserialized_us", t)

    def test_children_per_spec_and_all_ready(self):
        c = self.doc["specs"]["reduce_int64"]["child"]
        self.assertEqual(len(c["runs"]), 1)
        self.assertGreater(c["ready_ms_p50"], 0)
        self.assertNotIn("child", self.doc["specs"]["exclusive_scan_float32"])
        allr = self.doc["child_all"]
        self.assertEqual(len(allr["runs"]), 1)
        self.assertEqual(len(allr["specs"]), 7)
        self.assertEqual(set(allr["runs"][0]["specs"]), set(allr["specs"]))

    def test_curves_checked_and_printed(self):
        curves = self.doc["curves"]
        self.assertEqual(set(curves), {s for s in self.doc["specs"] if s.endswith("float32")})
        rows = curves["radix_sort_float32"]["rows"]
        self.assertEqual([r["n"] for r in rows], [1024, 2048, 4096])
        self.assertTrue(all(r["check"] for r in rows), rows)
        self.assertEqual(rows[0]["temp_storage_bytes"], 9000)
        self.assertEqual(curves["exclusive_scan_float32"]["rows"], [])  # its build failed: no sizes tried
        self.assertIn("failed in the specs part", curves["exclusive_scan_float32"]["error"])
        self.assertIn("RESULT peer=reference op=binary_transform type=float32 n=4096 ms=", self.proc.stdout)
        self.assertIn("RESULT peer=reference spec=reduce_float32 build_ms=", self.proc.stdout)
        self.assertIn("RESULT peer=reference all_specs=7", self.proc.stdout)
        s = self.doc["summary"]["reduce_float32"]
        self.assertIsNotNone(s["query_p50_deserialized_ns"])
        self.assertIsNotNone(s["new_process_first_ready_ms"])

    def test_budget_skips_optional_work(self):
        out = self.root / "budget.json"
        p = subprocess.run(
            [sys.executable, str(HERE / "reference_wave1.py"), str(out), "--specs", "reduce",
             "--types", "float32", "--trials", "2", "--queries", "10", "--child-runs", "1",
             "--max-log", "11", "--budget-s", "0"],
            env=self.env, capture_output=True, text=True, timeout=60)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        doc = json.loads(out.read_text())
        self.assertEqual(doc["specs"]["reduce_float32"]["child"]["skipped"], "budget")
        self.assertTrue(all(r.get("skipped") == "budget" for r in doc["curves"]["reduce_float32"]["rows"]))
        self.assertIn("fresh_ns", doc["specs"]["reduce_float32"])  # the specs part always runs

    def test_later_group_measured_and_checked(self):
        later = self.root / "results" / "2026-12-03-later"
        later.mkdir(parents=True)
        out = later / "reference_wave1.json"
        env = dict(self.env)
        env.pop("FAKE_BROKEN")
        p = subprocess.run(
            [sys.executable, str(HERE / "reference_wave1.py"), str(out), "--specs", "later", "--trials", "2",
             "--queries", "10", "--child-runs", "1", "--min-log", "10", "--max-log", "12"],
            env=env, capture_output=True, text=True, timeout=120)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        doc = json.loads(out.read_text())
        self.assertTrue(doc["ok"])
        names = ["segmented_reduce_float32", "unique_by_key_int32", "select_int32", "three_way_partition_int32",
                 "histogram_even_int32", "lower_bound_int32", "upper_bound_int32"]
        self.assertEqual(list(doc["specs"]), names)  # type-major: float32 first
        self.assertEqual(set(doc["curves"]), set(names))
        for spec, curve in doc["curves"].items():
            self.assertEqual([r["n"] for r in curve["rows"]], [1024, 2048, 4096], spec)
            self.assertTrue(all(r["check"] is True for r in curve["rows"]), (spec, curve))
        for spec in ("lower_bound_int32", "upper_bound_int32"):  # no temp storage: no query
            self.assertFalse(doc["specs"][spec]["has_query"])
            self.assertNotIn("fresh_ns", doc["specs"][spec])
        self.assertEqual(doc["specs"]["histogram_even_int32"]["temp_storage_bytes"], 2000)
        self.assertEqual(len(doc["child_all"]["specs"]), 7)
        self.assertIn("RESULT peer=reference op=upper_bound type=int32 n=4096 ms=", p.stdout)
        self.assertIn("RESULT peer=reference spec=select_int32 build_ms=", p.stdout)

        # The same call's CuPy and acquisition logs beside it: wave1_report's later part.
        cupy = subprocess.run([sys.executable, str(HERE / "cupy_wave1.py"), "12", "10", "later"], env=env,
                              capture_output=True, text=True, timeout=120)
        (later / "cupy.log").write_text(cupy.stdout)
        (later / "algos_acquire.log").write_text(
            "RESULT build_select_int32_ms=1200.0 build_lower_bound_int32_ms=900.0\n"
            "RESULT query_select_int32_p50_ns=7.00/7.00 query_lower_bound_int32_p50_ns=5.00/5.00 (fresh/loaded)\n"
            "RESULT hit_select_int32_ms=0.0500 hit_lower_bound_int32_ms=0.0400\n")
        plots = self.root / "later-plots"
        r = subprocess.run([sys.executable, str(HERE.parent / "wave1_report.py"), str(HERE.parents[1] / "docs" /
                            "gpu-results"), str(plots), "--later", str(later)],
                           capture_output=True, text=True, timeout=60)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        row = next(l for l in r.stdout.splitlines() if l.startswith("| select |"))
        self.assertNotIn("not measured", row)  # ours/CUB recorded; CuPy and the reference from `later`
        self.assertTrue(row.endswith("run1-select_bench.log, cupy.log, reference_wave1.json |"), row)
        self.assertIn("| three_way_partition | 2^10..2^28 |", r.stdout)
        self.assertIn("cuda.compute", (plots / "upper_bound.svg").read_text())
        tail = r.stdout[r.stdout.index("The later algorithms, one call"):]
        sel = doc["summary"]["select_int32"]
        line = next(l for l in tail.splitlines() if l.startswith("| select_int32 |"))
        self.assertIn(f"{sel['query_p50_deserialized_ns'] / 7.0:,.1f}x", line)
        self.assertIn(f"{1200.0 / sel['build_ms']:,.3f}", line)
        self.assertNotIn("| reduce_float32 |", tail)  # the later table holds the later specs only
        self.assertIn("our cold start covers the wave-1 defaults only", tail)

    def test_checks_catch_unwritten_output(self):
        # Each check on inputs whose outputs were never written (counts 0, histogram 0,
        # the rest uninitialised) must say so: no check passes by construction.
        import importlib.util

        import later_algos
        spec = importlib.util.spec_from_file_location("fake_cupy", self.root / "fakes" / "cupy" / "__init__.py")
        cp = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(cp)
        import numpy as np
        for algo in later_algos.LATER:
            a = algo.inputs(cp, np, cp.random.default_rng(1), 4096, algo.types[0])
            self.assertFalse(algo.check(cp, a), algo.name)

    def test_cupy_later_ops_timed_and_checked(self):
        p = subprocess.run([sys.executable, str(HERE / "cupy_wave1.py"), "11", "10", "later"], env=self.env,
                           capture_output=True, text=True, timeout=120)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        lines = [l for l in p.stdout.splitlines() if l.startswith("RESULT")]
        self.assertEqual(len(lines), 2 * 7)  # 2 sizes x the later ops, none of wave 1
        self.assertTrue(all(l.split()[-1] == "check=1" or " check=1 " in l for l in lines), lines)
        self.assertIn("RESULT peer=cupy op=searchsorted_right type=int32 n=2048 ms=", p.stdout)
        self.assertIn("op=segsum type=float32 n=1024", p.stdout)
        bad = subprocess.run([sys.executable, str(HERE / "cupy_wave1.py"), "11", "10", "later,histogramm"],
                             env=self.env, capture_output=True, text=True, timeout=60)
        self.assertNotEqual(bad.returncode, 0)
        self.assertIn("histogramm", bad.stderr)

    def test_cupy_checks_catch_wrong_output(self):
        # Each later op's check against NumPy must fail on another op's output.
        code = ("import sys; sys.path.insert(0, %r); import cupy_wave1, cupy as cp\n"
                "cases = list(cupy_wave1.later_cases(2048, cp.random.default_rng(3)))\n"
                "for (op, _, fn, check, _), (_, _, other, _, _) in zip(cases, cases[1:] + cases[:1]):\n"
                "    assert check(fn()), op\n"
                "    try: wrong = check(other())\n"
                "    except (ValueError, IndexError, TypeError): wrong = False\n"
                "    assert not wrong, op\n"
                "print('ok')\n") % str(HERE)
        p = subprocess.run([sys.executable, "-c", code], env=self.env, capture_output=True, text=True, timeout=60)
        self.assertEqual(p.stdout.strip(), "ok", p.stdout + p.stderr)

    def test_bad_arguments_are_refused(self):
        p = subprocess.run([sys.executable, str(HERE / "reference_wave1.py"), str(self.root / "x.json"),
                            "--specs", "reduce,histogram"], env=self.env, capture_output=True, text=True,
                           timeout=60)
        self.assertEqual(p.returncode, 2)
        self.assertIn("histogram", p.stderr)

    def test_wave1_report_draws_reference_and_prints_ratios(self):
        # The recorded wave-1 logs for ours, CUB and CuPy; the stand-in run for the reference.
        results, plots = HERE.parents[1] / "docs" / "gpu-results", self.root / "plots"
        acquire = self.root / "algos_acquire.log"
        acquire.write_text(_ACQUIRE_LOG)
        p = subprocess.run([sys.executable, str(HERE.parent / "wave1_report.py"), str(results), str(plots),
                            "--reference", str(self.out), "--ours-acquire", str(acquire)],
                           capture_output=True, text=True, timeout=60)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        svg = (plots / "radix_sort.svg").read_text()
        self.assertIn("cuda.compute", svg)
        self.assertIn("<polyline", svg)
        ref = self.doc["summary"]["reduce_float32"]
        line = next(l for l in p.stdout.splitlines() if l.startswith("| reduce_float32 |"))
        self.assertIn(f"{ref['query_p50_deserialized_ns'] / 4.0:,.1f}x", line)
        self.assertIn(f"{1500.0 / ref['build_ms']:,.3f}", line)
        self.assertIn("| exclusive_scan_float32 (reference failed: RuntimeError('NVRTC failed", p.stdout)
        self.assertIn("cold start: ours 3.100 ms", p.stdout)
        # ours / CuPy, then ours / reference over the stand-in's sizes (2^10..2^12): a number.
        self.assertRegex(p.stdout, r"\| radix_sort \| 2\^10\.\.2\^28 \| [0-9.]+ \.\. [0-9.]+ \| "
                                   r"[0-9.]+ \.\. [0-9.]+ \| [0-9.]+ \.\. [0-9.]+ \| [^|]*ref\.json")


# The stand-ins' classes and the wheel's classes whose __call__ they mirror.
_CALLS = {"_Reduce": "_Reduce", "_Scan": "_Scan", "_Unary": "_UnaryTransform", "_Binary": "_BinaryTransform",
          "_Radix": "_RadixSort", "_Merge": "_MergeSort", "_SegReduce": "_SegmentedReduce",
          "_UniqueByKey": "_UniqueByKey", "_Select": "_Select", "_ThreeWay": "_ThreeWayPartition",
          "_Histogram": "_Histogram", "_Bound": "_BinarySearch"}


def _params(fn: ast.FunctionDef):
    """(names, required names, takes **kwargs) of a def, self left out."""
    a = fn.args
    pos = [x.arg for x in a.posonlyargs + a.args if x.arg != "self"]
    required = set(pos[:len(pos) - len(a.defaults)])
    required |= {x.arg for x, d in zip(a.kwonlyargs, a.kw_defaults) if d is None}
    return set(pos) | {x.arg for x in a.kwonlyargs}, required, a.kwarg is not None


def _defs(tree):
    """{name: def} of top-level functions and {class: __call__ def}."""
    funcs, calls = {}, {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            funcs[node.name] = node
        elif isinstance(node, ast.ClassDef):
            for f in node.body:
                if isinstance(f, ast.FunctionDef) and f.name == "__call__":
                    calls[node.name] = f
    return funcs, calls


@unittest.skipUnless(list((HERE.parents[1] / ".whl").glob("cuda_cccl-*.whl")),
                     "no cuda-cccl wheel in .whl/ (bench/peers/fetch_wheels.sh)")
class FakesMatchTheWheel(unittest.TestCase):
    """The stand-in factories and calls take the keywords of the pinned wheel's: every
    keyword the stand-in takes exists there, and every one required there is required
    by the stand-in (so reference_wave1.py, which satisfies the stand-in, passes it)."""

    def test_signatures(self):
        wheel = sorted((HERE.parents[1] / ".whl").glob("cuda_cccl-*.whl"))[-1]
        real_funcs, real_calls = {}, {}
        with zipfile.ZipFile(wheel) as z:
            for name in z.namelist():
                if name.startswith("cuda/compute/algorithms/") and name.endswith(".py"):
                    f, c = _defs(ast.parse(z.read(name)))
                    real_funcs.update(f)
                    real_calls.update(c)
        fake_funcs, fake_calls = _defs(ast.parse(_FAKE_COMPUTE))
        pairs = [(n, fake_funcs[n], real_funcs[n]) for n in fake_funcs if n.startswith("make_")]
        pairs += [(f"{k}.__call__", fake_calls[k], real_calls[v]) for k, v in _CALLS.items()]
        self.assertEqual(len(pairs), 14 + 12)
        for name, fake, real in pairs:
            f_names, f_req, f_kw = _params(fake)
            r_names, r_req, r_kw = _params(real)
            with self.subTest(name):
                if not r_kw:
                    self.assertLessEqual(f_names, r_names, "keywords the wheel does not take")
                self.assertLessEqual(r_req, f_req | (f_names if f_kw else set()), "required by the wheel")


if __name__ == "__main__":
    unittest.main()
