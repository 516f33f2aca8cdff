"""Iterators as a reduction's or a scan's input and output (cccl_cache.iterators): spec
text and argument errors (no GPU; test_gpu.py runs each kind)."""

import numpy as np
import pytest

import cccl_cache
from cccl_cache import Op, Spec
from cccl_cache._api import _input_fields, _op_text
from cccl_cache.iterators import (CacheModifiedInputIterator, ConstantIterator, CountingIterator,
                                  DiscardIterator, PermutationIterator,
                                  ReverseIterator, ShuffleIterator, TransformIterator, TransformOutputIterator,
                                  ZipIterator)
from cccl_cache.structs import definitions

SQUARE = Op("square", "__device__ float square(float x) { return x * x; }")


def spec_of(it, out_type="float32"):
    ops: dict = {}
    fields = {"type": out_type, "op": "plus", "offset": "uint64", "input": it._spec(ops)}
    return Spec.from_fields("reduce", fields, ops)


@pytest.fixture
def asked(monkeypatch):
    """The specs and arrays the make_* functions acquire (each answered by its Spec): no
    store, no build."""
    calls = []

    def acquire(algorithm, fields, operators, device, arrays, cache):
        calls.append((Spec.from_fields(algorithm, fields, operators), arrays))
        return calls[-1][0]
    monkeypatch.setattr(cccl_cache._api, "_acquire", acquire)
    return calls


def test_each_kind_is_its_spec_text(fake):
    f4, i8, u4 = fake(typestr="<f4"), fake(typestr="<i8"), fake(typestr="<u4")
    cases = [
        (CountingIterator(np.int64(5)), "counting(int64)"),
        (CountingIterator(3), "counting(int64)"),
        (ConstantIterator(np.float32(2.5)), "constant(float32)"),
        (ReverseIterator(f4), "reverse(float32)"),
        (PermutationIterator(f4, u4), "permutation(float32,uint32)"),
        (TransformIterator(f4, "negate"), "transform(negate,float32)"),
        (TransformIterator(CountingIterator(np.int32(0)), SQUARE), "transform(square,counting(int32))"),
        (TransformIterator(i8, SQUARE), "transform(square,int64)"),
        (CacheModifiedInputIterator(f4, "stream"), "cache_modified(cs,float32)"),
        (CacheModifiedInputIterator(i8, "ldg"), "cache_modified(ldg,int64)"),
    ]
    for it, text in cases:
        spec = spec_of(it)
        assert spec.fields["input"] == text
        assert spec.text == f"reduce type=float32 op=plus offset=uint64 input={text}"
    # A custom transform's source is part of the spec, and so of the key.
    other = TransformIterator(f4, Op("square", "__device__ float square(float x) { return x * x + 0; }"))
    assert spec_of(TransformIterator(f4, SQUARE)).key(90) != spec_of(other).key(90)
    assert spec_of(CountingIterator(np.int64(0))).key(90) != spec_of(CountingIterator(np.int32(0))).key(90)
    # The start is a call value, not part of the spec.
    assert spec_of(CountingIterator(np.int64(0))) == spec_of(CountingIterator(np.int64(9)))


def test_bad_iterators_are_refused_when_made(fake):
    with pytest.raises(TypeError, match="integer"):
        CountingIterator(np.float32(1))
    with pytest.raises(TypeError, match="NumPy scalar"):
        ConstantIterator("x")
    with pytest.raises(TypeError, match="device array"):
        ReverseIterator([1, 2, 3])
    with pytest.raises(TypeError, match="device array"):
        TransformIterator([1, 2], "negate")
    with pytest.raises(ValueError, match="stateful: give its 4 bytes of state"):
        TransformIterator(fake(), Op("f", "__device__ float f(void*, float x) { return x; }", state_size=4))
    with pytest.raises(ValueError, match="num_items"):
        cccl_cache.reduce_into(CountingIterator(0), fake(n=1, typestr="<i8"))
    with pytest.raises(ValueError, match="d_out"):
        cccl_cache.reduce_into(CountingIterator(0), fake(n=0, typestr="<i8"), num_items=4)
    with pytest.raises(ValueError, match="index type"):
        spec_of(PermutationIterator(fake(typestr="<f4"), fake(typestr="<f4")))  # float indices
    with pytest.raises(ValueError, match="modifier: one of stream"):
        CacheModifiedInputIterator(fake(), "fast")
    with pytest.raises(TypeError, match="device array"):
        CacheModifiedInputIterator([1, 2], "stream")


def test_a_shuffle_is_its_spec_text_and_its_seed_a_call_value():
    assert spec_of(ShuffleIterator(1000, 42), "int64").text == \
        "reduce type=int64 op=plus offset=uint64 input=shuffle(int64)"
    assert spec_of(ShuffleIterator(10, 1)) == spec_of(ShuffleIterator(99, 2**64 - 1))
    assert ShuffleIterator(17, 3)._length("d_in") == 17
    for bad in (-1, 2**64, 1.5, True):
        with pytest.raises(ValueError, match="seed"):
            ShuffleIterator(10, bad)
    with pytest.raises(ValueError, match="num_items"):
        ShuffleIterator(-1, 0)


def test_the_package_exports_the_module():
    assert cccl_cache.iterators.CountingIterator is CountingIterator
    assert "iterators" in cccl_cache.__all__


def test_scans_take_the_same_iterators(fake):
    """A scan's input iterator joins its spec as reduce's does (array scans keep their spec
    text); the arguments are checked before anything is built."""
    f4 = fake(typestr="<f4")
    for name in ("inclusive_scan", "exclusive_scan"):
        for it, text in [(CountingIterator(np.int64(1)), "counting(int64)"),
                         (TransformIterator(f4, SQUARE), "transform(square,float32)"),
                         (ReverseIterator(f4), "reverse(float32)")]:
            ops: dict = {}
            fields = {"type": "float32", "op": "plus", "offset": "uint64", "input": it._spec(ops)}
            spec = Spec.from_fields(name, fields, ops)
            assert spec.text == f"{name} type=float32 op=plus offset=uint64 input={text}"
            plain = Spec.from_fields(name, {"type": "float32"})
            assert "input" not in plain.text and spec.key(90) != plain.key(90)
    with pytest.raises(ValueError, match="num_items"):
        cccl_cache.inclusive_scan(CountingIterator(0), fake(n=4, typestr="<i8"))
    with pytest.raises(ValueError, match="d_out"):
        cccl_cache.exclusive_scan(CountingIterator(0), fake(n=3, typestr="<i8"), num_items=4)
    with pytest.raises(ValueError, match="d_out"):
        cccl_cache.inclusive_scan(ReverseIterator(fake(n=5, typestr="<f4")), fake(n=4, typestr="<f4"))


ROOT = Op("root", "__device__ float root(float x) { return sqrtf(x); }")


def test_outputs_join_the_spec_and_name_the_items_type(fake):
    """An output iterator is the spec's `output`; the items' type is the array's beside an
    iterator, or the output iterator's array type between two iterators."""
    f4, f8, i4, u8 = fake(typestr="<f4"), fake(typestr="<f8"), fake(typestr="<i4"), fake(typestr="<u8")
    cases = [
        (f4, TransformOutputIterator(f8, ROOT), "type=float32 output=transform(root,float64)"),
        (i4, ReverseIterator(i4), "type=int32 output=reverse(int32)"),
        (i4, PermutationIterator(f8, u8), "type=int32 output=permutation(float64,uint64)"),
        (f4, DiscardIterator(), "type=float32 output=discard"),
        (TransformIterator(f4, SQUARE), TransformOutputIterator(f8, ROOT),
         "type=float64 input=transform(square,float32) output=transform(root,float64)"),
        (CountingIterator(np.int64(0)), DiscardIterator(), "type=int64 input=counting(int64) output=discard"),
    ]
    keys = set()
    for d_in, d_out, text in cases:
        for name in ("reduce", "inclusive_scan", "exclusive_scan"):
            ops: dict = {}
            fields, arrays = _input_fields(d_in, d_out, ops)
            spec = Spec.from_fields(name, fields, ops)
            for field in text.split():
                assert field in spec.text, (spec.text, field)
            keys.add(spec.key(90))
        assert all(a is not None for a in arrays)
    assert len(keys) == 3 * len(cases)
    with pytest.raises(TypeError, match="without an element type"):
        _input_fields(TransformIterator(CountingIterator(np.int32(0)), "negate"), DiscardIterator(), {})


def test_bad_outputs_are_refused(fake):
    with pytest.raises(TypeError, match="device array"):
        TransformOutputIterator([1.0], "negate")
    with pytest.raises(ValueError, match="stateful: give its 4 bytes of state"):
        TransformOutputIterator(fake(), Op("f", "__device__ float f(void*, float x) { return x; }", state_size=4))
    # A counting iterator cannot be written.
    with pytest.raises(ValueError, match="output"):
        ops: dict = {}
        fields, _ = _input_fields(fake(typestr="<i8"), CountingIterator(np.int64(0)), ops)
        Spec.from_fields("inclusive_scan", fields, ops)
    # The output's array must hold the results, checked before anything is built.
    with pytest.raises(ValueError, match="d_out"):
        cccl_cache.inclusive_scan(fake(n=5, typestr="<f4"), ReverseIterator(fake(n=4, typestr="<f4")))
    with pytest.raises(ValueError, match="d_out"):
        cccl_cache.reduce_into(fake(n=5, typestr="<f4"), TransformOutputIterator(fake(n=0, typestr="<f8"), ROOT))
    assert cccl_cache.iterators.DiscardIterator(ReverseIterator(fake()))._spec({}) == "discard"


ARGMAX64 = Op("argmax64", "__device__ vi64 argmax64(vi64 a, vi64 b) { return a.value >= b.value ? a : b; }")


def _zip_spec(name, d_in, d_out, op=ARGMAX64):
    ops: dict = {}
    fields, arrays = _input_fields(d_in, d_out, ops)
    fields["op"] = cccl_cache._api._op_text(op, ops)
    definitions(fields, ops)
    return Spec.from_fields(name, fields, ops), arrays


def test_a_zip_reads_and_writes_struct_items(fake):
    """A ZipIterator is the spec's zip of its components' spec text; its items are the
    struct of the array beside it (or its value_type between two iterators)."""
    vi64 = cccl_cache.gpu_struct("vi64", [("value", np.float32), ("index", np.int64)])
    f4, i8 = fake(n=10, typestr="<f4"), fake(n=10, typestr="<i8")
    best = fake(n=1, typestr="|V16")
    best.dtype = vi64.dtype
    spec, arrays = _zip_spec("reduce", ZipIterator(f4, CountingIterator(np.int64(0))), best)
    assert spec.text == "reduce type=vi64:16/8 op=argmax64 offset=uint64 input=zip(float32,counting(int64))"
    assert arrays == (f4, best)
    keys = {spec.key(90)}
    for d_in, text in [(ZipIterator([f4, i8]), "zip(float32,int64)"),
                       (ZipIterator(ReverseIterator(f4), CountingIterator(np.int64(0))),
                        "zip(reverse(float32),counting(int64))"),
                       (ZipIterator(TransformIterator(f4, SQUARE), i8), "zip(transform(square,float32),int64)")]:
        other, _ = _zip_spec("reduce", d_in, best)
        assert f"input={text}" in other.text
        keys.add(other.key(90))
    assert len(keys) == 4
    # Written through a zip, read from one: the value_type names the items.
    running, arrays = _zip_spec("inclusive_scan", ZipIterator(f4, CountingIterator(np.int64(0)), value_type=vi64),
                                ZipIterator(fake(n=10, typestr="<f4"), DiscardIterator()))
    assert running.text.startswith("inclusive_scan type=vi64:16/8 op=argmax64 ")
    assert running.text.endswith(" input=zip(float32,counting(int64)) output=zip(float32,discard)")
    assert len(arrays) == 2
    assert ZipIterator(f4, CountingIterator(0))._length("d_in") == 10
    assert ZipIterator(CountingIterator(0), ConstantIterator(1))._length("d_in") is None
    # Struct items read as a TransformIterator's results: over the zip, over a count.
    abs_at = Op("abs_at", "__device__ vi64 abs_at(float v, long long i) { return vi64{fabsf(v), i}; }")
    mags, arrays = _zip_spec("reduce", TransformIterator(ZipIterator(f4, CountingIterator(np.int64(0))), abs_at), best)
    assert mags.text.endswith(" input=transform(abs_at,zip(float32,counting(int64)))")
    assert arrays == (f4, best) and mags.key(90) not in keys
    scored = Op("scored", "__device__ vi64 scored(long long i) { return vi64{(float)(i % 7), i}; }")
    counted, _ = _zip_spec("reduce", TransformIterator(CountingIterator(np.int64(0)), scored), best)
    assert counted.text.endswith(" input=transform(scored,counting(int64))")
    with pytest.raises(ValueError, match="custom operator returning the struct"):
        _zip_spec("reduce", TransformIterator(ZipIterator(f4, f4), "plus"), best)


def test_bad_zips_are_refused(fake):
    f4 = fake(typestr="<f4")
    with pytest.raises(ValueError, match="at least one"):
        ZipIterator()
    with pytest.raises(TypeError, match="zip inside a zip"):
        ZipIterator(f4, ZipIterator(f4))
    with pytest.raises(TypeError, match="component 1"):
        ZipIterator(f4, [1, 2])
    # A zip's items are structs.
    with pytest.raises(ValueError, match="items are structs"):
        _zip_spec("reduce", ZipIterator(f4, CountingIterator(0)), fake(n=1, typestr="<f4"), op="plus")
    with pytest.raises(TypeError, match="without an element type"):
        _input_fields(ZipIterator(f4), ZipIterator(f4), {})


TIMES8 = Op("times8", "__device__ long long times8(long long i) { return 8 * i; }")


def test_segmented_reduce_takes_iterators(fake):
    """Any of a segmented reduce's arguments may be an iterator: it joins the spec; the
    offset type is the arrays' or the iterators' value type."""
    f4, i8 = fake(n=64, typestr="<f4"), fake(n=8, typestr="<i8")
    starts = TransformIterator(CountingIterator(np.int64(0)), TIMES8)
    ends = TransformIterator(CountingIterator(np.int64(1)), TIMES8)
    ops: dict = {}
    fields, arrays = cccl_cache._api._input_fields(f4, fake(n=8, typestr="<f4"), ops)
    assert fields == {"type": "float32"}
    assert cccl_cache._api._offset_type(starts, ends) == "int64"
    assert cccl_cache._api._offset_type(i8, ends) == "int64"
    with pytest.raises(TypeError, match="offset"):
        cccl_cache._api._offset_type(i8, fake(n=8, typestr="<i4"))
    spec = Spec.from_fields("segmented_reduce", {"type": "float32", "offset": "int64",
                                                 "begin_offsets": starts._spec(ops), "end_offsets": ends._spec(ops)},
                            ops)
    assert spec.text == ("segmented_reduce type=float32 op=plus offset=int64 "
                         "begin_offsets=transform(times8,counting(int64)) end_offsets=transform(times8,counting(int64))")
    assert spec.key(90) != Spec.from_fields("segmented_reduce", {"type": "float32"}).key(90)
    # Both offsets iterators without an end: the count is required.
    with pytest.raises(ValueError, match="num_segments"):
        cccl_cache.segmented_reduce(f4, fake(n=8, typestr="<f4"), starts, ends)
    with pytest.raises(ValueError, match="d_out"):
        cccl_cache.segmented_reduce(f4, fake(n=4, typestr="<f4"), starts, ends, num_segments=8)


def test_segmented_sort_takes_offset_iterators(fake):
    """A segmented sort's offsets may be iterators: they join the spec; the offset type is
    the arrays' or the iterators' value type; the count of segments comes from the offsets
    that have a length, else it is required."""
    f4 = fake(n=64, typestr="<f4")
    starts = TransformIterator(CountingIterator(np.int64(0)), TIMES8)
    ends = TransformIterator(CountingIterator(np.int64(1)), TIMES8)
    ops: dict = {}
    spec = Spec.from_fields("segmented_sort", {"keys": "float32", "offset": "int64",
                                               "begin_offsets": starts._spec(ops), "end_offsets": ends._spec(ops)},
                            ops)
    assert spec.text == ("segmented_sort keys=float32 values=none descending=false offset=int64 "
                         "begin_offsets=transform(times8,counting(int64)) end_offsets=transform(times8,counting(int64))")
    assert spec.key(90) != Spec.from_fields("segmented_sort", {"keys": "float32", "offset": "int64"}).key(90)
    with pytest.raises(ValueError, match="num_segments"):
        cccl_cache.segmented_sort(f4, f4, None, None, 64, None, starts, ends)
    with pytest.raises(ValueError, match="end_offsets_in"):
        cccl_cache.segmented_sort(f4, f4, None, None, 64, 9, starts, fake(n=8, typestr="<i8"))
    with pytest.raises(ValueError, match="field 'offset'"):  # float offsets beside an iterator
        cccl_cache.make_segmented_sort(f4, f4, None, None, CountingIterator(np.int64(0)), fake(n=8, typestr="<f4"))


def test_transforms_take_iterators(fake):
    """Each input of a transform and its output may be an iterator: it joins the spec under
    its field (input, input1, input2, output) with its value type as the element type."""
    f4, i8 = fake(n=16, typestr="<f4"), fake(n=16, typestr="<i8")
    ops: dict = {}
    fields, arrays = cccl_cache._api._transform_fields((CountingIterator(np.int64(0)),), f4, "negate", ops)
    assert fields == {"in": "int64", "out": "float32", "op": "negate", "input": "counting(int64)"}
    assert arrays == (f4,)
    spec = Spec.from_fields("unary_transform", fields, ops)
    assert spec.text == "unary_transform in=int64 out=float32 op=negate input=counting(int64)"
    plain = Spec.from_fields("unary_transform", {"in": "int64", "out": "float32", "op": "negate"})
    assert spec.key(90) != plain.key(90)
    # Binary: an array and a transform iterator in, written last first; a discard output takes
    # the first input's type.
    ops = {}
    fields, arrays = cccl_cache._api._transform_fields(
        (f4, TransformIterator(CountingIterator(np.int32(0)), SQUARE)), ReverseIterator(i8), "plus", ops)
    assert fields == {"in1": "float32", "in2": "int32", "out": "int64", "op": "plus",
                      "input2": "transform(square,counting(int32))", "output": "reverse(int64)"}
    assert arrays == (f4, i8)
    assert Spec.from_fields("binary_transform", fields, ops).text.endswith(
        "input2=transform(square,counting(int32)) output=reverse(int64)")
    fields, _ = cccl_cache._api._transform_fields((f4, i8), DiscardIterator(), "plus", {})
    assert fields["out"] == "float32" and fields["output"] == "discard"
    # A zip is not a transform's input (its items are structs).
    with pytest.raises(TypeError, match="d_in: a zip iterator"):
        cccl_cache._api._transform_fields((ZipIterator(f4, i8),), f4, "identity", {})
    # Counts: an iterator without an end needs num_items; every argument with a length holds it.
    with pytest.raises(ValueError, match="num_items"):
        cccl_cache.unary_transform(CountingIterator(0), DiscardIterator())
    with pytest.raises(ValueError, match="d_in1"):
        cccl_cache.binary_transform(fake(n=4, typestr="<f4"), CountingIterator(0), f4, num_items=8)


def test_select_takes_iterators(fake):
    """select's input and output may be iterators: the indices where a predicate holds
    from a CountingIterator, their number alone into a DiscardIterator."""
    even = Op("is_even", "__device__ bool is_even(long long i) { return i % 2 == 0; }")
    i8, count = fake(n=16, typestr="<i8"), fake(n=1, typestr="<u8")
    ops: dict = {}
    fields, arrays = _input_fields(CountingIterator(np.int64(0)), i8, ops)
    fields.update(op=_op_text(even, ops), selected="uint64")
    assert arrays == (i8,)
    spec = Spec.from_fields("select", fields, ops)
    assert spec.text == "select type=int64 op=is_even offset=int64 selected=uint64 input=counting(int64)"
    ops = {}
    fields, _ = _input_fields(CountingIterator(np.int64(0)), DiscardIterator(), ops)
    assert fields["output"] == "discard" and fields["type"] == "int64"
    # Without an end the count is required; an output array must hold it.
    with pytest.raises(ValueError, match="num_items"):
        cccl_cache.select(CountingIterator(0), i8, count, even)
    with pytest.raises(ValueError, match="d_out"):
        cccl_cache.select(CountingIterator(0), i8, count, even, num_items=32)


def test_three_way_partition_takes_iterators(fake, asked):
    """A three-way partition's input and each part's output may be iterators: the indices
    of each part from a CountingIterator, a part written last first, the rest discarded;
    the items' type is the first array's, else the iterators'."""
    big = Op("big", "__device__ bool big(long long x) { return x > 1000; }")
    i8, counts = fake(n=16, typestr="<i8"), fake(n=2, typestr="<u8")
    spec = cccl_cache.make_three_way_partition(CountingIterator(np.int64(0)), i8, ReverseIterator(i8),
                                               DiscardIterator(), counts, big)
    assert spec.text == ("three_way_partition type=int64 first_op=big second_op=identity offset=int64 "
                         "selected=uint64 input=counting(int64) second_output=reverse(int64) "
                         "unselected_output=discard")
    assert asked[-1][1] == (i8, i8, counts)
    # No array: the iterators' type; an array of another type is refused by name.
    spec = cccl_cache.make_three_way_partition(CountingIterator(np.int32(0)), DiscardIterator(),
                                               DiscardIterator(), DiscardIterator(), counts)
    assert spec.fields["type"] == "int32" and spec.fields["first_output"] == "discard"
    with pytest.raises(TypeError, match="d_second_part_out"):
        cccl_cache.make_three_way_partition(CountingIterator(np.int64(0)), i8, fake(typestr="<f4"), i8, counts)
    with pytest.raises(TypeError, match="element type"):
        cccl_cache.make_three_way_partition(DiscardIterator(), DiscardIterator(), DiscardIterator(),
                                            DiscardIterator(), counts)
    # Without an end the count is required; each output array must hold it.
    with pytest.raises(ValueError, match="num_items"):
        cccl_cache.three_way_partition(CountingIterator(0), i8, i8, DiscardIterator(), counts, big)
    with pytest.raises(ValueError, match="d_second_part_out"):
        cccl_cache.three_way_partition(CountingIterator(0), DiscardIterator(), i8, DiscardIterator(), counts,
                                       big, num_items=32)
    with pytest.raises(ValueError, match="d_num_selected_out"):
        cccl_cache.three_way_partition(CountingIterator(0), i8, i8, i8, fake(n=1, typestr="<u8"), big,
                                       num_items=8)


def test_binary_search_takes_iterators(fake, asked):
    """The values a binary search looks for may be an iterator of the range's type and its
    output an output iterator; the range stays an array."""
    data, out = fake(n=16, typestr="<i8"), fake(n=16, typestr="<i8")
    spec = cccl_cache.make_lower_bound(data, CountingIterator(np.int64(0)), ReverseIterator(out))
    assert spec.text == ("binary_search type=int64 out=int64 compare=less upper=false "
                         "values_in=counting(int64) output=reverse(int64)")
    assert asked[-1][1] == (data, out)
    spec = cccl_cache.make_upper_bound(data, data, DiscardIterator())
    assert spec.fields["out"] == "int64" and spec.fields["output"] == "discard"
    with pytest.raises(TypeError, match="d_values"):
        cccl_cache.make_lower_bound(data, CountingIterator(np.int32(0)), out)
    with pytest.raises(ValueError, match="num_values: required"):
        cccl_cache.lower_bound(data, CountingIterator(np.int64(0)), out)
    with pytest.raises(ValueError, match="d_out"):
        cccl_cache.lower_bound(data, CountingIterator(np.int64(0)), out, num_values=32)


def test_binary_search_takes_a_range_iterator(fake, asked):
    """The sorted range may be an iterator too (data_in): the spec names it, only the arrays
    are asked for, and a range without an end needs num_items."""
    values, out = fake(n=16, typestr="<i8"), fake(n=16, typestr="<i8")
    spec = cccl_cache.make_lower_bound(CountingIterator(np.int64(-500)), values, out)
    assert spec.text == ("binary_search type=int64 out=int64 compare=less upper=false "
                         "data_in=counting(int64)")
    assert asked[-1][1] == (values, out)
    with pytest.raises(TypeError, match="d_values"):
        cccl_cache.make_lower_bound(CountingIterator(np.int32(0)), values, out)
    with pytest.raises(ValueError, match="num_items: required for a counting iterator"):
        cccl_cache.lower_bound(CountingIterator(np.int64(0)), values, out)
    with pytest.raises(ValueError, match="num_items: -1 is negative"):
        cccl_cache.lower_bound(CountingIterator(np.int64(0)), values, out, num_items=-1)


def test_histogram_even_takes_a_samples_iterator(fake, asked):
    """The samples of a histogram may be an iterator; its value type is the samples'."""
    f4, hist = fake(n=16, typestr="<f4"), fake(n=10, typestr="<i4")
    spec = cccl_cache.make_histogram_even(TransformIterator(f4, SQUARE), hist, 11, 0.0, 100.0)
    assert spec.text == ("histogram_even type=float32 level=none counter=int32 offset=int32 "
                         "samples=transform(square,float32)")
    assert asked[-1][1] == (f4, hist)
    spec = cccl_cache.make_histogram_even(CountingIterator(np.int64(0)), hist)
    assert spec.fields["type"] == "int64" and spec.fields["samples"] == "counting(int64)"
    with pytest.raises(ValueError, match="num_samples: required"):
        cccl_cache.histogram_even(CountingIterator(np.int32(0)), hist, 11, 0, 100)
    with pytest.raises(ValueError, match="d_histogram"):
        cccl_cache.histogram_even(CountingIterator(np.int32(0)), hist, 12, 0, 100, num_samples=5)


def test_unique_by_key_takes_iterators(fake, asked):
    """unique_by_key's inputs may be iterators and its outputs output iterators; the keys'
    and items' types are their first arrays', else the iterators'."""
    i4, i8, sel = fake(n=16, typestr="<i4"), fake(n=16, typestr="<i8"), fake(n=1, typestr="<u8")
    spec = cccl_cache.make_unique_by_key(i4, CountingIterator(np.int64(0)), DiscardIterator(), i8, sel)
    assert spec.text == ("unique_by_key keys=int32 values=int64 op=equal_to offset=uint64 selected=uint64 "
                         "values_in=counting(int64) keys_out=discard")
    assert asked[-1][1] == (i4, i8, sel)
    spec = cccl_cache.make_unique_by_key(ReverseIterator(i4), i8, i4, ReverseIterator(i8), sel)
    assert spec.fields["keys_in"] == "reverse(int32)" and spec.fields["values_out"] == "reverse(int64)"
    with pytest.raises(TypeError, match="d_out_keys"):
        cccl_cache.make_unique_by_key(i4, i8, i8, i8, sel)
    with pytest.raises(ValueError, match="num_items: required"):
        cccl_cache.unique_by_key(CountingIterator(np.int32(0)), i8, i4, i8, sel)
    with pytest.raises(ValueError, match="d_out_items"):
        cccl_cache.unique_by_key(i4, CountingIterator(np.int64(0)), i4, fake(n=8, typestr="<i8"), sel)


def test_merge_sort_takes_input_iterators(fake, asked):
    """A merge sort's inputs may be iterators (the outputs stay arrays, its buffers): an
    argsort reads a CountingIterator as its values; the types are the outputs'."""
    f4, f4_out, i8 = fake(n=16, typestr="<f4"), fake(n=16, typestr="<f4"), fake(n=16, typestr="<i8")
    spec = cccl_cache.make_merge_sort(f4, CountingIterator(np.int64(0)), f4_out, i8)
    assert spec.text == ("merge_sort keys=float32 values=int64 compare=less offset=int64 "
                         "values_in=counting(int64)")
    assert asked[-1][1] == (f4, f4_out, i8)
    spec = cccl_cache.make_merge_sort(ReverseIterator(f4), None, f4_out, None)
    assert spec.fields["keys_in"] == "reverse(float32)" and spec.fields["values"] == "none"
    with pytest.raises(TypeError, match="d_out_keys"):
        cccl_cache.make_merge_sort(f4, None, i8, None)
    with pytest.raises(ValueError, match="num_items: required"):
        cccl_cache.merge_sort(CountingIterator(np.int32(0)), None, fake(n=16, typestr="<i4"), None)
    with pytest.raises(ValueError, match="d_out_values"):
        cccl_cache.merge_sort(f4, CountingIterator(np.int64(0)), f4_out, fake(n=8, typestr="<i8"))


def test_scan_by_key_takes_iterators(fake, asked):
    """A scan by key's keys and values read may be iterators and its output an output
    iterator: each item's rank in its run reads a ConstantIterator as its values; the
    values' type is the first array's, else the iterators'."""
    i4, i4_out = fake(n=16, typestr="<i4"), fake(n=16, typestr="<i4")
    spec = cccl_cache.make_scan_by_key(i4, ConstantIterator(np.int32(1)), i4_out)
    assert spec.text == ("scan_by_key keys=int32 values=int32 equality=equal_to op=plus exclusive=false "
                         "offset=uint64 values_in=constant(int32)")
    assert asked[-1][1] == (i4, i4_out)
    f8, f8_out = fake(n=16, typestr="<f8"), fake(n=16, typestr="<f8")
    spec = cccl_cache.make_scan_by_key(ReverseIterator(i4), f8, ReverseIterator(f8_out))
    assert spec.fields["keys_in"] == "reverse(int32)" and spec.fields["values_out"] == "reverse(float64)"
    assert spec.fields["values"] == "float64"
    with pytest.raises(ValueError, match="num_items: required"):
        cccl_cache.inclusive_scan_by_key(ConstantIterator(np.int32(0)), i4, i4_out)
    with pytest.raises(ValueError, match="d_values_out"):
        cccl_cache.inclusive_scan_by_key(i4, ConstantIterator(np.int32(1)), fake(n=8, typestr="<i4"))


def test_iterators_nest(fake):
    """A transform over any input iterator (over a zip: an operator of its components), a
    permutation whose values or indices are iterators, a reverse over an iterator: their
    spec text; what cannot nest is
    refused by the spec, naming why."""
    i4, i8, f8 = fake(typestr="<i4"), fake(typestr="<i8"), fake(typestr="<f8")
    madd = Op("madd", "__device__ long long madd(long long a, long long b, long long c) { return a * b + c; }")
    cases = [
        (TransformIterator(ZipIterator(i4, i4), "multiplies"), "transform(multiplies,zip(int32,int32))"),
        (PermutationIterator(i8, ShuffleIterator(10, 1)), "permutation(int64,shuffle(int64))"),
        (PermutationIterator(CountingIterator(np.int64(0)), i4), "permutation(counting(int64),int32)"),
        (TransformIterator(PermutationIterator(f8, i4), "negate"), "transform(negate,permutation(float64,int32))"),
        (TransformIterator(ConstantIterator(np.int64(2)), "negate"), "transform(negate,constant(int64))"),
        (TransformIterator(ZipIterator(i8, ReverseIterator(i8), ConstantIterator(np.int64(1))), madd),
         "transform(madd,zip(int64,reverse(int64),constant(int64)))"),
        (TransformIterator(ZipIterator(i8, i8), madd, value_type="int64"), "transform(madd,zip(int64,int64),int64)"),
        (ReverseIterator(TransformIterator(CountingIterator(np.int64(0)), "negate")),
         "reverse(transform(negate,counting(int64)))"),
        (ReverseIterator(PermutationIterator(i8, ShuffleIterator(10, 1))), "reverse(permutation(int64,shuffle(int64)))"),
    ]
    for it, text in cases:
        assert spec_of(it, "int64").fields["input"] == text
    # A reverse over an iterator has its base's length and arrays.
    assert ReverseIterator(PermutationIterator(i8, ShuffleIterator(10, 1)))._length("d_in") == 10
    assert ReverseIterator(CountingIterator(np.int64(0)))._length("d_in") is None
    assert len(ReverseIterator(PermutationIterator(i8, i4))._arrays()) == 2
    with pytest.raises(TypeError, match="reverse its components instead"):
        ReverseIterator(ZipIterator(i8, i8))
    assert PermutationIterator(i8, ShuffleIterator(10, 1))._length("d_in") == 10
    assert len(PermutationIterator(i8, ShuffleIterator(10, 1))._arrays()) == 1
    with pytest.raises(ValueError, match="unary"):
        spec_of(TransformIterator(ReverseIterator(i8), "multiplies"), "int64")
    with pytest.raises(ValueError, match="indices must be"):
        spec_of(PermutationIterator(i8, ConstantIterator(np.float32(1))), "int64")
    with pytest.raises(TypeError, match="ZipIterator is not supported here"):
        PermutationIterator(ZipIterator(i8, i8), i4)


def test_transform_iterators_take_a_stateful_operators_state(fake):
    """A stateful Op in a TransformIterator or TransformOutputIterator: its layout in the
    spec text (name:SIZE/ALIGN) and key, its state carried by the iterator (copied when
    made), bad states refused naming the problem."""
    scale = Op("scale", "__device__ float scale(void* s, float x) { return x * *(float*)s; }", state_size=4)
    affine = Op("affine", "__device__ long long affine(void* s, long long i) { "
                "const long long* ab = (const long long*)s; return ab[0] * i + ab[1]; }", state_size=16,
                state_alignment=8)
    f4 = fake(typestr="<f4")
    it = TransformIterator(f4, scale, state=np.float32(2))
    assert spec_of(it).fields["input"] == "transform(scale:4/4,float32)"
    assert it._state == np.float32(2).tobytes()
    counts = TransformIterator(CountingIterator(np.int64(0)), affine, state=np.array([3, -7], np.int64))
    assert spec_of(counts, "int64").fields["input"] == "transform(affine:16/8,counting(int64))"
    assert counts._state == np.array([3, -7], np.int64).tobytes()
    # The state's bytes are a call value, its layout part of the key.
    assert spec_of(TransformIterator(f4, scale, state=np.float32(5))).key(90) == spec_of(it).key(90)
    wide = Op("scale", scale.source, state_size=8)
    assert spec_of(TransformIterator(f4, wide, state=bytes(8))).key(90) != spec_of(it).key(90)
    out = TransformOutputIterator(fake(typestr="<f8"), scale, state=bytearray(4))
    assert out._state == bytes(4)
    with pytest.raises(ValueError, match="8 bytes, but operator 'scale' has a state of 4 bytes"):
        TransformIterator(f4, scale, state=np.float64(2))
    with pytest.raises(ValueError, match="takes no state"):
        TransformIterator(f4, "negate", state=np.float32(2))
    with pytest.raises(TypeError, match="bytes-like"):
        TransformIterator(f4, scale, state=2.0)
