"""Spec text and fields: parse, canonical text, round trip, errors (no GPU)."""

import pytest

import cccl_cache
from cccl_cache import Spec

ALL = [
    "merge_sort keys=float32 values=none compare=less offset=int64",
    "merge_sort keys=int64 values=uint32 compare=greater offset=uint32",
    "radix_sort keys=float32 values=none descending=false offset=uint32",
    "radix_sort keys=uint16 values=int64 descending=true offset=uint64",
    "reduce type=float32 op=plus offset=uint64",
    "reduce type=bfloat16 op=maximum offset=uint32",
    "reduce type=bool op=logical_or offset=uint64",
    "radix_sort keys=bool values=int32 descending=false offset=uint32",
    "inclusive_scan type=int32 op=plus offset=uint64",
    "inclusive_scan type=int8 op=maximum offset=uint32 init=true",
    "exclusive_scan type=float16 op=multiplies offset=uint64",
    "unary_transform in=float32 out=float64 op=negate",
    "unary_transform in=uint16 out=uint16 op=bit_not",
    "binary_transform in1=int32 in2=int32 out=int32 op=modulus",
    "binary_transform in1=float32 in2=float32 out=int8 op=greater_equal",
    "binary_transform in1=float32 in2=float32 out=bool op=less",
    "binary_transform in1=int32 in2=int32 out=int32 op=bit_xor",
    "segmented_reduce type=float64 op=minimum offset=int32",
    "unique_by_key keys=int64 values=float32 op=equal_to offset=uint32 selected=int32",
    "select type=uint16 op=identity offset=int64 selected=int32",
    "three_way_partition type=int8 first_op=identity second_op=identity offset=int32 selected=int64",
    "histogram_even type=uint8 level=int32 counter=uint64 offset=int64",
    "binary_search type=float32 out=uint64 compare=greater upper=true",
    "segmented_sort keys=uint16 values=float64 descending=true offset=int64",
    "segmented_sort keys=float32 values=none descending=false offset=uint32",
    "radix_sort keys=float32 values=int32 descending=false offset=uint32 values_in=counting",
]


@pytest.mark.parametrize("text", ALL)
def test_spec_text_round_trips(text):
    spec = Spec(text)
    assert spec.text == text
    assert str(spec) == text
    assert Spec(spec.text) == spec
    assert hash(Spec(spec.text)) == hash(spec)
    assert Spec.from_fields(spec.algorithm, spec.fields) == spec
    assert spec.algorithm == text.split()[0]


def test_defaults_are_filled_in():
    assert Spec("merge_sort keys=float32").text == ALL[0]
    assert Spec("reduce type=float32") == Spec(ALL[4])
    assert Spec("merge_sort keys=float32") != Spec("merge_sort keys=float64")


def test_fields_in_order():
    spec = Spec(ALL[1])
    assert list(spec.fields.items()) == [("keys", "int64"), ("values", "uint32"),
                                         ("compare", "greater"), ("offset", "uint32")]


def test_custom_operator_source_travels_with_the_spec():
    src = "__device__ bool abs_less(float a, float b) { return fabsf(a) < fabsf(b); }"
    spec = Spec("merge_sort keys=float32 compare=abs_less", {"abs_less": src})
    assert spec.text == "merge_sort keys=float32 values=none compare=abs_less offset=int64"
    assert spec.operators == {"abs_less": src}
    assert Spec(spec.text, spec.operators) == spec
    other = Spec("merge_sort keys=float32 compare=abs_less", {"abs_less": src.replace("<", ">")})
    square = "__device__ float square(float x) { return x * x; }"
    it = Spec("reduce type=float32 input=transform(square)", {"square": square})
    assert it.operators == {"square": square} and Spec(it.text, it.operators) == it
    assert other != spec and other.key(90) != spec.key(90)


def test_for_each_spec_takes_a_custom_operator_with_state_and_an_input_iterator():
    src = "__device__ void scatter(void* s, long long i) { (*(long long**)s)[i] = i; }"
    spec = Spec("for_each type=int64 op=scatter:8/8 input=counting(int64)", {"scatter": src})
    assert spec.text == "for_each type=int64 op=scatter:8/8 offset=int64 input=counting(int64)"
    assert spec.operators == {"scatter": src}
    assert Spec(spec.text, spec.operators) == spec  # a stateful operator's source by its name
    assert Spec("for_each type=int64 op=scatter offset=int64 input=counting(int64)",
                {"scatter": src}).key(90) != spec.key(90)
    with pytest.raises(ValueError, match="must be custom"):
        Spec("for_each type=int64 op=plus")
    with pytest.raises(ValueError, match="op"):
        Spec("for_each type=int64")


@pytest.mark.parametrize("text, words", [
    ("", "empty"),
    ("sort keys=float32", "unknown algorithm"),
    ("merge_sort", "keys"),
    ("merge_sort keys=float33", "float33"),
    ("merge_sort keys=float32 colour=red", "colour"),
    ("merge_sort keys=float32 keys=int32", "twice"),
    ("merge_sort keys=float32 compare=abs_less", "source"),
    ("radix_sort keys=float32 offset=int8", "offset"),
    ("reduce type=float32 op=bit_and", "bit_and"),
    ("merge_sort keys='float32", "quote"),
])
def test_bad_spec_text_is_a_value_error(text, words):
    with pytest.raises(ValueError, match=words):
        Spec(text)


def test_from_fields_errors():
    with pytest.raises(ValueError, match="unknown algorithm"):
        Spec.from_fields("nope", {})
    with pytest.raises(ValueError, match="operators"):
        Spec.from_fields("merge_sort", {"keys": "float32", "compare": "f", "source": "x"})
    with pytest.raises(TypeError):
        Spec.from_fields("merge_sort", {"keys": 5})


def test_key_depends_on_spec_and_cc():
    a, b = Spec(ALL[0]), Spec(ALL[1])
    assert a.key(90).endswith("-sm90")
    assert a.key(90) == Spec(ALL[0]).key(90)
    assert a.key(90) != a.key(80)
    assert a.key(90) != b.key(90)


def test_spec_equality_with_other_types():
    assert Spec(ALL[0]) != ALL[0]
    assert repr(Spec(ALL[0])) == f"Spec('{ALL[0]}')"


def test_module_surface():
    for name in ("make_merge_sort", "make_radix_sort", "make_radix_argsort", "argsort", "make_reduce_into", "make_segmented_reduce", "make_unique_by_key", "unique_by_key", "make_scan_by_key",
                 "inclusive_scan_by_key", "exclusive_scan_by_key", "make_select", "select",
                 "make_three_way_partition", "three_way_partition", "make_histogram_even", "histogram_even",
                 "make_lower_bound", "make_upper_bound", "lower_bound", "upper_bound", "make_segmented_sort", "segmented_sort",
                 "make_inclusive_scan",
                 "make_exclusive_scan", "make_unary_transform", "make_binary_transform",
                 "merge_sort", "radix_sort", "reduce_into", "segmented_reduce", "inclusive_scan", "exclusive_scan",
                 "unary_transform", "binary_transform", "make_for_each", "for_each", "Cache", "Spec", "Error",
                 "default_cache"):
        assert callable(getattr(cccl_cache, name)), name
    assert issubclass(cccl_cache.Error, RuntimeError)
