"""Argument checks that need no GPU: host arrays, malformed or mismatched device
arrays, streams, initial values. Each gives TypeError / ValueError, never a crash."""

import enum
import struct

import numpy as np
import pytest

import cccl_cache
from cccl_cache import _core


def test_host_arrays_are_type_errors():
    a = np.zeros(8, np.float32)
    with pytest.raises(TypeError, match="host array"):
        _core.array_info(a, "d_in")
    with pytest.raises(TypeError, match="d_in_keys: a host array"):
        cccl_cache.make_merge_sort(a, None, a, None)
    with pytest.raises(TypeError, match="host array"):
        cccl_cache.reduce_into(a, a)


@pytest.mark.parametrize("obj", [None, 3, "x", object(), [1.0, 2.0]])
def test_non_arrays_are_type_errors(obj):
    with pytest.raises(TypeError):
        _core.array_info(obj, "d_in")


def test_array_info_reads_the_interface(fake):
    assert _core.array_info(fake(8, "<f4"))[:3] == ("float32", 8, None)
    assert _core.array_info(fake(shape=(3, 4), typestr="<i8", strides=(32, 8)))[:2] == ("int64", 12)
    assert _core.array_info(fake(shape=(0,), typestr="|u1"))[:2] == ("uint8", 0)
    assert _core.array_info(fake(typestr="<f2"))[0] == "float16"
    assert _core.array_info(fake(typestr="|b1"))[0] == "bool"
    assert _core.array_info(fake(typestr="|b2"))[0] is None
    assert _core.array_info(fake(typestr="<c8"))[0] is None
    assert _core.array_info(fake(typestr=">f4"))[0] is None  # big-endian: not ours
    assert _core.array_info(fake(ptr=1234))[3] == 1234


@pytest.mark.parametrize("kwargs, exc, words", [
    (dict(strides=(8,)), ValueError, "not C-contiguous"),
    (dict(shape=(4, 4), strides=(4, 16)), ValueError, "not C-contiguous"),
    (dict(shape=(4, 4), strides=(16,)), ValueError, "strides"),
    (dict(shape=(-1,)), ValueError, "shape"),
    (dict(shape="8"), ValueError, "shape"),
    (dict(typestr="f4"), ValueError, "typestr"),
    (dict(typestr="<f"), ValueError, "typestr"),
    (dict(typestr=4), ValueError, "typestr"),
    (dict(ptr="0x10"), ValueError, "data"),
    (dict(mask=object()), TypeError, "masked"),
])
def test_malformed_interfaces(fake, kwargs, exc, words):
    with pytest.raises(exc, match=words):
        _core.array_info(fake(**kwargs), "d_in")


def test_interface_that_is_not_a_dict():
    class Odd:
        __cuda_array_interface__ = [1, 2]
    with pytest.raises(ValueError, match="not a dict"):
        _core.array_info(Odd())


def test_size_one_strides_are_ignored(fake):
    assert _core.array_info(fake(shape=(1, 8), strides=(999, 4)))[1] == 8


def test_factories_reject_mismatched_types(fake):
    f4, i4 = fake(typestr="<f4"), fake(typestr="<i4")
    with pytest.raises(TypeError, match="d_out_keys"):
        cccl_cache.make_merge_sort(f4, None, i4, None)
    with pytest.raises(TypeError, match="d_out_values"):
        cccl_cache.make_merge_sort(f4, i4, f4, f4)
    with pytest.raises(TypeError, match="d_out"):
        cccl_cache.make_reduce_into(f4, i4)
    with pytest.raises(TypeError, match="d_out"):
        cccl_cache.make_inclusive_scan(f4, i4)
    with pytest.raises(TypeError, match="end_offsets_in"):
        cccl_cache.make_segmented_reduce(f4, f4, i4, fake(typestr="<i8"))
    with pytest.raises(ValueError, match="offset"):
        cccl_cache.make_segmented_reduce(f4, f4, f4, f4)  # float offsets
    with pytest.raises(TypeError, match="d_out"):
        cccl_cache.make_select(f4, i4, i4)
    with pytest.raises(ValueError, match="selected"):
        cccl_cache.make_select(f4, f4, f4)  # a float count
    with pytest.raises(ValueError, match="identity"):
        cccl_cache.make_select(f4, f4, i4, "less")
    with pytest.raises(TypeError, match="d_first_part_out"):
        cccl_cache.make_three_way_partition(f4, i4, f4, f4, i4)
    with pytest.raises(ValueError, match="counter"):
        cccl_cache.make_histogram_even(i4, f4)  # float bins
    with pytest.raises(ValueError, match="counter"):
        cccl_cache.make_histogram_even(i4, fake(typestr="<i8"))  # CUDA's atomicAdd takes no int64
    with pytest.raises(ValueError, match="offset"):
        cccl_cache.make_histogram_even(f4, i4, offset="uint32")
    with pytest.raises(TypeError, match="d_second_part_out"):
        cccl_cache.make_three_way_partition(f4, f4, i4, f4, i4)
    with pytest.raises(TypeError, match="d_unselected_out"):
        cccl_cache.make_three_way_partition(f4, f4, f4, i4, i4)
    with pytest.raises(ValueError, match="selected"):
        cccl_cache.make_three_way_partition(f4, f4, f4, f4, f4)  # a float count
    with pytest.raises(ValueError, match="first_op"):
        cccl_cache.make_three_way_partition(f4, f4, f4, f4, i4, "less")
    with pytest.raises(ValueError, match="second_op"):
        cccl_cache.make_three_way_partition(f4, f4, f4, f4, i4, "identity", "plus")
    with pytest.raises(ValueError, match="offset"):
        cccl_cache.make_three_way_partition(f4, f4, f4, f4, i4, offset="uint32")
    with pytest.raises(TypeError, match="d_values"):
        cccl_cache.make_lower_bound(f4, i4, i4)
    with pytest.raises(TypeError, match="d_out_keys"):
        cccl_cache.make_segmented_sort(f4, i4, None, None, i4, i4)
    with pytest.raises(TypeError, match="d_out_values"):
        cccl_cache.make_segmented_sort(f4, f4, i4, f4, i4, i4)
    with pytest.raises(TypeError, match="end_offsets_in"):
        cccl_cache.make_segmented_sort(f4, f4, None, None, i4, fake(typestr="<i8"))
    with pytest.raises(ValueError, match="offset"):
        cccl_cache.make_segmented_sort(f4, f4, None, None, f4, f4)  # float offsets
    with pytest.raises(ValueError, match="order"):
        cccl_cache.make_segmented_sort(f4, f4, None, None, i4, i4, "sideways")
    with pytest.raises(ValueError, match="out"):
        cccl_cache.make_upper_bound(f4, f4, f4)  # a float index
    with pytest.raises(ValueError, match="compare"):
        cccl_cache.make_lower_bound(f4, f4, i4, "plus")
    with pytest.raises(TypeError, match="d_out_keys"):
        cccl_cache.make_unique_by_key(f4, i4, i4, i4, i4)
    with pytest.raises(TypeError, match="d_out_items"):
        cccl_cache.make_unique_by_key(f4, i4, f4, f4, i4)
    with pytest.raises(ValueError, match="selected"):
        cccl_cache.make_unique_by_key(f4, i4, f4, i4, f4)  # a float count
    with pytest.raises(ValueError, match="equal_to or custom"):
        cccl_cache.make_unique_by_key(f4, i4, f4, i4, i4, "less")
    with pytest.raises(TypeError, match="d_values_out"):
        cccl_cache.make_scan_by_key(i4, f4, i4)
    with pytest.raises(ValueError, match="equal_to or custom"):
        cccl_cache.make_scan_by_key(i4, i4, i4, equality="less")
    with pytest.raises(ValueError, match="integer types only"):
        cccl_cache.make_scan_by_key(i4, f4, f4, "bit_xor")
    with pytest.raises(ValueError, match="offset"):
        cccl_cache.make_scan_by_key(i4, i4, i4, offset="int64")
    with pytest.raises(TypeError, match="element type not supported"):
        cccl_cache.make_radix_sort(fake(typestr="<c8"), fake(typestr="<c8"))
    with pytest.raises(ValueError, match="order"):
        cccl_cache.make_radix_sort(f4, f4, order="sideways")


def test_factories_reject_bad_operators(fake):
    f4 = fake()
    with pytest.raises(ValueError, match="bit_and"):
        cccl_cache.make_reduce_into(f4, f4, op="bit_and")  # bitwise: integers only
    with pytest.raises(TypeError, match="op"):
        cccl_cache.make_reduce_into(f4, f4, op=3)
    with pytest.raises(ValueError, match="source"):
        cccl_cache.make_merge_sort(f4, None, f4, None, op="abs_less")


def test_factory_without_a_usable_device_raises_error(fake):
    if cccl_cache.device_count() > 0:
        pytest.skip("a GPU is present")
    f4 = fake()
    with pytest.raises(cccl_cache.Error) as info:
        cccl_cache.make_merge_sort(f4, None, f4, None)
    assert info.value.code == "driver"
    with pytest.raises(cccl_cache.Error, match="driver"):
        cccl_cache.make_merge_sort("float32", None, "float32", None, device=0)


def test_an_empty_array_without_an_address_names_no_device(fake):
    # CuPy's empty arrays have address 0: the device comes from another argument (the
    # count's array of a select of nothing), not from asking the driver about address 0.
    empty = fake(shape=(0,), ptr=0)
    assert _core.array_device(empty) is None
    assert cccl_cache._api._device_of(None, (empty, None, "float32")) == 0
    assert cccl_cache._api._device_of(3, (empty,)) == 3


def test_one_shot_functions_check_types_before_any_device_work(fake):
    with pytest.raises(TypeError, match="d_out"):
        cccl_cache.inclusive_scan(fake(8, "<f4"), fake(8, "<f8"))
    with pytest.raises(TypeError, match="d_in2"):
        cccl_cache.binary_transform(fake(8, "<f4"), np.zeros(8, np.float32), fake(8, "<f4"))


def test_element_types_from_dtypes():
    from cccl_cache._api import _type_of
    assert _type_of(np.float32, "x") == "float32"
    assert _type_of(np.dtype("int16"), "x") == "int16"
    assert _type_of("bfloat16", "x") == "bfloat16"
    assert _type_of(np.bool_, "x") == "bool"
    assert _type_of(np.dtype(bool), "x") == "bool"
    assert _type_of("complex64", "x") == "complex64:8/4"  # NumPy's complex as a struct
    with pytest.raises(TypeError):
        _type_of("datetime64[ns]", "x")


def test_operator_kinds():
    from cccl_cache._api import _op_text

    class OpKind(enum.Enum):
        LESS = 1
    ops = {}
    assert _op_text(OpKind.LESS, ops) == "less"
    assert _op_text("maximum", ops) == "maximum"
    assert _op_text(cccl_cache.Op("f", "__device__ float f(float a, float b) { return a; }"), ops) == "f"
    assert ops == {"f": "__device__ float f(float a, float b) { return a; }"}


class Method:
    def __init__(self, h):
        self.h = h

    def __cuda_stream__(self):
        return (0, self.h)


class Attribute:
    def __init__(self, h):
        self.__cuda_stream__ = (0, h)


class CupyLike:
    ptr = 77


class TorchLike:
    cuda_stream = 88


@pytest.mark.parametrize("stream, handle", [
    (None, 0), (0, 0), (12345, 12345), (Method(5), 5), (Attribute(6), 6), (CupyLike(), 77),
    (TorchLike(), 88)])
def test_streams(stream, handle):
    assert _core.stream_handle(stream) == handle


@pytest.mark.parametrize("stream", ["s", 1.5, object(), Method("x"), Attribute((1, 2, 3)), -1])
def test_bad_streams_are_type_errors(stream):
    with pytest.raises(TypeError, match="stream"):
        _core.stream_handle(stream)


EXECUTABLES = [t for t in vars(_core).values()
               if isinstance(t, type) and "stream" in (getattr(t, "__call__").__doc__ or "")]


@pytest.mark.parametrize("cls", EXECUTABLES, ids=lambda t: t.__name__)
def test_every_call_takes_any_stream_object(cls):
    """The bound signature (names against C++ parameters) gives `stream` every stream form."""
    signature = cls.__call__.__doc__.splitlines()[0]
    assert "stream: object | None = None" in signature, signature


def test_every_executable_is_checked():
    assert {t.__name__ for t in EXECUTABLES} >= {
        "MergeSort", "RadixSort", "Reduce", "InclusiveScan", "ExclusiveScan", "SegmentedReduce", "UniqueByKey", "ScanByKey",
        "UnaryTransform", "BinaryTransform"}


@pytest.mark.parametrize("value, type, expect", [
    (3, "int32", struct.pack("<i", 3)),
    (-128, "int8", struct.pack("<b", -128)),
    (2**64 - 1, "uint64", struct.pack("<Q", 2**64 - 1)),
    (1.5, "float32", struct.pack("<f", 1.5)),
    (2, "float64", struct.pack("<d", 2.0)),
    (1.5, "float16", np.float16(1.5).tobytes()),
    (65504.0, "float16", np.float16(65504).tobytes()),
    (1.0, "bfloat16", b"\x80\x3f"),
    (3.0, "bfloat16", b"\x40\x40"),
    (np.float32(2.5), "float32", struct.pack("<f", 2.5)),
    (np.array([7], np.int64), "int64", struct.pack("<q", 7)),
    (True, "uint8", b"\x01"),
    (True, "bool", b"\x01"),
    (False, "bool", b"\x00"),
    (0, "bool", b"\x00"),
    (1, "bool", b"\x01"),
    (np.bool_(True), "bool", b"\x01"),
])
def test_initial_values(value, type, expect):
    assert _core._host_value(value, type) == expect


@pytest.mark.parametrize("value, type, exc", [
    (128, "int8", OverflowError),
    (-1, "uint32", OverflowError),
    (2**64, "uint64", OverflowError),
    (1.5, "int32", TypeError),
    (np.float64(1.0), "float32", TypeError),
    (np.array([1, 2], np.float32), "float32", ValueError),
    (None, "float32", TypeError),
    ("1", "float32", TypeError),
    (2, "bool", ValueError),
    (-1, "bool", ValueError),
    (0.0, "bool", TypeError),
    (np.uint8(1), "bool", TypeError),
])
def test_bad_initial_values(value, type, exc):
    with pytest.raises(exc):
        _core._host_value(value, type)


def test_an_interface_that_raises_falls_back_to_dlpack():
    class Refuses:  # as PyTorch for CPU tensors: the interface raises, DLPack is offered
        def __init__(self):
            self.host = np.zeros(4, np.float32)

        @property
        def __cuda_array_interface__(self):
            raise TypeError("not representable")

        def __dlpack__(self, **kw):
            return self.host.__dlpack__(**kw)

        def __dlpack_device__(self):
            return self.host.__dlpack_device__()

    with pytest.raises(TypeError, match="host array"):
        _core.array_info(Refuses(), "d_in")

    class Broken:
        @property
        def __cuda_array_interface__(self):
            raise KeyError("inner")

    with pytest.raises(KeyError, match="inner"):
        _core.array_info(Broken(), "d_in")


def test_double_buffer_is_cuda_computes_shape(fake):
    a, b = fake(8), fake(8)
    db = cccl_cache.DoubleBuffer(a, b)
    assert db.selector == 0 and db.current() is a and db.alternate() is b
    db.selector = 1
    assert db.current() is b and db.alternate() is a


def test_radix_sort_double_buffer_arguments(fake):
    keys = cccl_cache.DoubleBuffer(fake(8), fake(8))
    with pytest.raises(ValueError, match="must be None when d_in_keys is a DoubleBuffer"):
        cccl_cache.make_radix_sort(keys, fake(8))
    with pytest.raises(TypeError, match="d_in_values: a DoubleBuffer, as d_in_keys is one"):
        cccl_cache.make_radix_sort(keys, None, fake(8, "<i4"))
    with pytest.raises(TypeError, match="d_in_values: a DoubleBuffer only when d_in_keys is one"):
        cccl_cache.make_radix_sort(fake(8), fake(8), cccl_cache.DoubleBuffer(fake(8), fake(8)), None)
    mixed = cccl_cache.DoubleBuffer(fake(8), fake(8, "<f8"))
    with pytest.raises(TypeError, match="d_out_keys: float64, but d_in_keys is float32"):
        cccl_cache.make_radix_sort(mixed, None)


SCALED_PLUS = "__device__ float scaled_plus(void* s, float a, float b) { return a + b * *(float*)s; }"


def test_stateful_op_layout_goes_into_the_spec():
    op = cccl_cache.Op("scaled_plus", SCALED_PLUS, state_size=4)
    assert (op.state_size, op.state_alignment) == (4, 4)
    assert cccl_cache.Op("f", "x", state_size=24).state_alignment == 8
    assert cccl_cache.Op("f", "x", state_size=48).state_alignment == 16
    spec = _core.Spec.from_fields("reduce", {"type": "float32", "op": "scaled_plus:4/4"},
                                  {"scaled_plus": SCALED_PLUS})
    assert "op=scaled_plus:4/4" in spec.text
    with pytest.raises(ValueError, match="power of two"):
        _core.Spec.from_fields("reduce", {"type": "float32", "op": "scaled_plus:4/3"},
                               {"scaled_plus": SCALED_PLUS})
    # Scans, segmented reduce, unique_by_key and three-way partition take state (the
    # partition's two predicates each their own layout).
    for algorithm, fields in (("inclusive_scan", {"type": "float32", "op": "scaled_plus:4/4"}),
                              ("exclusive_scan", {"type": "float32", "op": "scaled_plus:4/4"}),
                              ("segmented_reduce", {"type": "float32", "op": "scaled_plus:4/4"})):
        assert "op=scaled_plus:4/4" in _core.Spec.from_fields(algorithm, fields,
                                                              {"scaled_plus": SCALED_PLUS}).text
    pred = {"p": "__device__ bool p(void* s, float x) { return x > *(float*)s; }",
            "q": "__device__ bool q(void* s, float x) { return x < *(double*)s; }"}
    spec = _core.Spec.from_fields("three_way_partition",
                                  {"type": "float32", "first_op": "p:4/4", "second_op": "q:8/8"}, pred)
    assert "first_op=p:4/4" in spec.text and "second_op=q:8/8" in spec.text
    eq = {"e": "__device__ bool e(void* s, int a, int b) { return a / *(int*)s == b / *(int*)s; }"}
    assert "op=e:4/4" in _core.Spec.from_fields("unique_by_key", {"keys": "int32", "values": "int32",
                                                                  "op": "e:4/4"}, eq).text
    # Binary search's comparator too (its state rides in CUB's search functor).
    assert "compare=f:4/4" in _core.Spec.from_fields(
        "lower_bound", {"type": "float32", "compare": "f:4/4"},
        {"f": "__device__ bool f(void* s, float a, float b) { return a < b; }"}).text
