"""Struct element types from NumPy structured dtypes (cccl_cache.gpu_struct): the
definition and spec text each makes, the specs of arrays of them, and the refusals (no
GPU; test_gpu.py reduces and scans struct items)."""

import numpy as np
import pytest

import cccl_cache
from cccl_cache import Op, Spec, _api
from cccl_cache.structs import definitions, host_init, struct_of

ARGMAX = Op("argmax", "__device__ vi argmax(vi a, vi b) { return a.value < b.value ? b : a; }")


def test_a_struct_is_its_c_layout_and_definition():
    vi = cccl_cache.gpu_struct("vi", [("value", np.float32), ("index", np.int32)])
    assert vi.text == "vi:8/4"
    assert vi.definition == "struct vi { float value; int index; };"
    wide = cccl_cache.gpu_struct("wide", [("flag", np.uint8), ("total", np.float64), ("id", np.int16)])
    assert wide.text == "wide:24/8"  # C's padding: 1 + 7, 8, 2 + 6
    assert wide.definition == "struct wide { unsigned char flag; double total; short id; };"
    assert wide.dtype.itemsize == 24
    flagged = cccl_cache.gpu_struct("flagged", [("value", np.float32), ("valid", np.bool_)])
    assert flagged.text == "flagged:8/4"
    assert flagged.definition == "struct flagged { float value; bool valid; };"


def test_arrays_of_a_registered_dtype_are_arrays_of_the_struct(fake):
    vi = cccl_cache.gpu_struct("vi", [("value", np.float32), ("index", np.int32)])
    items = fake(typestr="|V8")
    items.dtype = vi.dtype
    assert _api._type_of(items, "d_in") == "vi:8/4"
    assert _api._type_of(vi.dtype, "d_in") == "vi:8/4"
    assert _api._type_of(vi, "d_in") == "vi:8/4"
    plain = fake(typestr="|V8")  # a void array of no registered dtype
    with pytest.raises(TypeError, match="gpu_struct"):
        _api._type_of(plain, "d_in")


def test_a_reduce_spec_over_a_struct_carries_its_definition():
    vi = cccl_cache.gpu_struct("vi", [("value", np.float32), ("index", np.int32)])
    fields = {"type": vi.text, "op": "argmax", "offset": "uint64"}
    ops = {"argmax": ARGMAX.source}
    definitions(fields, ops)
    assert ops["vi"] == vi.definition
    spec = Spec.from_fields("reduce", fields, ops)
    assert spec.text == "reduce type=vi:8/4 op=argmax offset=uint64"
    other = cccl_cache.gpu_struct("vj", [("value", np.float32), ("index", np.uint32)])
    ops2 = {"argmax": ARGMAX.source.replace("vi", "vj")}
    definitions({"type": other.text}, ops2)
    assert Spec.from_fields("reduce", {"type": other.text, "op": "argmax"}, ops2).key(90) != spec.key(90)


def test_scan_specs_over_a_struct_carry_its_definition():
    vi = cccl_cache.gpu_struct("vi", [("value", np.float32), ("index", np.int32)])
    for name in ("inclusive_scan", "exclusive_scan"):
        fields = {"type": vi.text, "op": "argmax"}
        ops = {"argmax": ARGMAX.source}
        definitions(fields, ops)
        spec = Spec.from_fields(name, fields, ops)
        assert spec.text == f"{name} type=vi:8/4 op=argmax offset=uint64"
    # A struct aligned to 16 is refused by the scans (their host dispatch's stand-ins are
    # aligned to at most 8), by name.
    ops = {"sum4": "__device__ v4 sum4(v4 a, v4 b) { return a; }",
           "v4": "struct alignas(16) v4 { float x, y, z, w; };"}
    with pytest.raises(ValueError, match="aligned to at most 8"):
        Spec.from_fields("inclusive_scan", {"type": "v4:16/16", "op": "sum4"}, ops)


def test_a_three_way_partition_spec_over_a_struct_carries_its_definition():
    vi = cccl_cache.gpu_struct("vi", [("value", np.float32), ("index", np.int32)])
    ops = {"high": "__device__ bool high(const vi& x) { return x.value > 25.0f; }",
           "even": "__device__ bool even(const vi& x) { return x.index % 2 == 0; }"}
    fields = {"type": vi.text, "first_op": "high", "second_op": "even"}
    definitions(fields, ops)
    assert ops["vi"] == vi.definition
    spec = Spec.from_fields("three_way_partition", fields, ops)
    assert spec.text == ("three_way_partition type=vi:8/4 first_op=high second_op=even offset=int64 "
                         "selected=uint64")
    with pytest.raises(ValueError, match="struct items need a custom predicate"):
        Spec.from_fields("three_way_partition", dict(fields, second_op="identity"), ops)


def test_a_unique_by_key_spec_over_structs_carries_their_definitions():
    vi = cccl_cache.gpu_struct("vi", [("value", np.float32), ("index", np.int32)])
    wide = cccl_cache.gpu_struct("wide", [("flag", np.uint8), ("total", np.float64), ("id", np.int16)])
    ops = {"same": "__device__ bool same(const vi& a, const vi& b) { return a.value == b.value; }"}
    fields = {"keys": vi.text, "values": wide.text, "op": "same"}
    definitions(fields, ops)
    assert ops["vi"] == vi.definition and ops["wide"] == wide.definition
    spec = Spec.from_fields("unique_by_key", fields, ops)
    assert spec.text == "unique_by_key keys=vi:8/4 values=wide:24/8 op=same offset=uint64 selected=uint64"
    with pytest.raises(ValueError, match="struct keys need a custom equality"):
        Spec.from_fields("unique_by_key", dict(fields, op="equal_to"), ops)


def test_binary_search_and_transform_specs_over_structs_carry_their_definitions(fake):
    vi = cccl_cache.gpu_struct("vi", [("value", np.float32), ("index", np.int32)])
    ops = {"by_value": "__device__ bool by_value(const vi& a, const vi& b) { return a.value < b.value; }"}
    fields = {"type": vi.text, "compare": "by_value"}
    definitions(fields, ops)
    assert Spec.from_fields("binary_search", fields, ops).text == \
        "binary_search type=vi:8/4 out=int64 compare=by_value upper=false"
    with pytest.raises(ValueError, match="struct items need a custom comparator"):
        Spec.from_fields("binary_search", dict(fields, compare="less"), ops)
    items = fake(typestr="|V8")
    items.dtype = vi.dtype
    twice = Op("twice", "__device__ float twice(const vi& x) { return 2 * x.value; }")
    ops = {}
    fields, _ = _api._transform_fields((items,), np.float32, twice, ops)
    definitions(fields, ops)
    assert Spec.from_fields("unary_transform", fields, ops).text == "unary_transform in=vi:8/4 out=float32 op=twice"
    with pytest.raises(ValueError, match="needs a custom operator"):
        Spec.from_fields("unary_transform", dict(fields, op="negate"), ops)


def test_a_segmented_reduce_spec_over_a_struct_carries_its_definition():
    vi = cccl_cache.gpu_struct("vi", [("value", np.float32), ("index", np.int32)])
    fields = {"type": vi.text, "op": "argmax", "offset": "int64"}
    ops = {"argmax": ARGMAX.source}
    definitions(fields, ops)
    assert Spec.from_fields("segmented_reduce", fields, ops).text == \
        "segmented_reduce type=vi:8/4 op=argmax offset=int64"
    with pytest.raises(ValueError, match="custom operator"):
        Spec.from_fields("segmented_reduce", dict(fields, op="plus"), ops)


def test_radix_and_segmented_sort_specs_with_struct_values_carry_their_definitions():
    vi = cccl_cache.gpu_struct("vi", [("value", np.float32), ("index", np.int32)])
    for algorithm, extra, text in (
            ("radix_sort", {"offset": "uint32"}, "radix_sort keys=float32 values=vi:8/4 descending=false offset=uint32"),
            ("segmented_sort", {"offset": "int64"},
             "segmented_sort keys=float32 values=vi:8/4 descending=false offset=int64")):
        fields, ops = dict({"keys": "float32", "values": vi.text}, **extra), {}
        definitions(fields, ops)
        assert ops["vi"] == vi.definition
        assert Spec.from_fields(algorithm, fields, ops).text == text
        with pytest.raises(ValueError, match="keys"):  # the keys' bits are what a radix sort orders
            Spec.from_fields(algorithm, dict(fields, keys=vi.text), ops)
    odd = cccl_cache.gpu_struct("odd", [("a", np.uint8), ("b", np.uint8), ("c", np.uint8)])  # 3 bytes
    fields, ops = {"keys": "int32", "values": odd.text, "offset": "int64"}, {}
    definitions(fields, ops)
    with pytest.raises(ValueError, match="takes structs of 1, 2, 4, 8"):
        Spec.from_fields("segmented_sort", fields, ops)


def test_scan_by_key_specs_with_struct_keys_and_values_carry_their_definitions():
    vi = cccl_cache.gpu_struct("vi", [("value", np.float32), ("index", np.int32)])
    cell = cccl_cache.gpu_struct("cell", [("row", np.int32), ("col", np.int32)])
    fields = {"keys": cell.text, "values": vi.text, "equality": "same_row", "op": "argmax"}
    ops = {"argmax": ARGMAX.source,
           "same_row": "__device__ bool same_row(cell a, cell b) { return a.row == b.row; }"}
    definitions(fields, ops)
    assert ops["vi"] == vi.definition and ops["cell"] == cell.definition
    assert Spec.from_fields("scan_by_key", fields, ops).text == \
        "scan_by_key keys=cell:8/4 values=vi:8/4 equality=same_row op=argmax exclusive=false offset=uint64"
    with pytest.raises(ValueError, match="struct values need a custom operator"):
        Spec.from_fields("scan_by_key", dict(fields, op="plus"), ops)
    with pytest.raises(ValueError, match="struct keys need a custom equality"):
        Spec.from_fields("scan_by_key", dict(fields, equality="equal_to"), ops)


def test_layouts_c_does_not_give_and_odd_fields_are_refused():
    with pytest.raises(ValueError, match="align=True"):
        cccl_cache.gpu_struct("packed", np.dtype([("a", np.uint8), ("b", np.float32)]))  # unaligned
    with pytest.raises(TypeError, match="fields are integer, float or bool scalars"):
        cccl_cache.gpu_struct("arr", [("v", np.float32, (3,))])
    with pytest.raises(TypeError, match="not a structured dtype"):
        cccl_cache.gpu_struct("flt", np.dtype(np.float32))
    with pytest.raises(ValueError, match="not an identifier"):
        cccl_cache.gpu_struct("no name", [("v", np.float32)])
    cccl_cache.gpu_struct("once", [("v", np.int64)])
    with pytest.raises(ValueError, match="already the struct 'once'"):
        cccl_cache.gpu_struct("twice", [("v", np.int64)])
    with pytest.raises(ValueError, match="'once' is already the struct of"):
        cccl_cache.gpu_struct("once", [("w", np.int64)])  # same size, other fields


def test_numpy_complex_types_are_structs_of_real_and_imag(fake):
    c64 = _api._type_of(np.complex64, "d_in")
    assert c64 == "complex64:8/4"
    assert struct_of(np.dtype(np.complex128)).definition == \
        "struct complex128 { double real; double imag; };"
    items = fake(typestr="<c8")
    items.dtype = np.dtype(np.complex64)  # as CuPy's complex64 arrays
    assert _api._type_of(items, "d_in") == c64
    fields = {"type": c64, "op": "cadd", "offset": "uint64"}
    ops = {"cadd": "__device__ complex64 cadd(complex64 a, complex64 b) "
                   "{ return {a.real + b.real, a.imag + b.imag}; }"}
    definitions(fields, ops)
    assert ops["complex64"] == "struct complex64 { float real; float imag; };"
    assert Spec.from_fields("reduce", fields, ops).text == "reduce type=complex64:8/4 op=cadd offset=uint64"
    with pytest.raises(ValueError, match="complex"):
        cccl_cache.gpu_struct("complex64", [("re", np.float64), ("im", np.float64)])
    # The one-shot calls' initial values: Python numbers become the complex scalar.
    assert type(host_init(c64, 0)) is np.complex64 and host_init(c64, 1 + 2j) == 1 + 2j
    assert type(host_init("complex128:16/8", 2.5)) is np.complex128
    assert host_init(c64, True) is True and host_init("float32", 0) == 0
