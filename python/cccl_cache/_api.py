"""Factories and one-shot functions over cccl_cache._core (see the package doc)."""

from __future__ import annotations

import threading

from . import _core
from . import structs as _structs

_TYPES = frozenset(("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                    "float16", "bfloat16", "float32", "float64", "bool"))

_lock = threading.Lock()
_default = None


def default_cache() -> _core.Cache:
    """The process's one Cache (opened on first use from the C++ configuration)."""
    global _default
    if _default is None:
        with _lock:
            if _default is None:
                _default = _core.Cache()
    return _default


class Op:
    """A custom operator: a CUDA C++ device function `name` defined in `source`, e.g.
    Op("abs_less", "__device__ bool abs_less(float a, float b) { return fabsf(a) < fabsf(b); }").

    A stateful one gives its state's layout: `state_size` bytes aligned to
    `state_alignment` (a power of two up to 16; default: the largest that divides the
    size); its function takes `void* state` first, and each call passes the bytes
    (`op_state=`: bytes-like, a NumPy scalar or array), e.g.
    Op("scaled_plus", "__device__ float scaled_plus(void* s, float a, float b) "
       "{ return a + b * *(float*)s; }", state_size=4)."""

    __slots__ = ("name", "source", "state_size", "state_alignment")

    def __init__(self, name: str, source: str, state_size: int = 0, state_alignment: int | None = None):
        self.name, self.source = name, source
        self.state_size = int(state_size)
        if state_alignment is None:
            state_alignment = 0
            if self.state_size > 0:
                state_alignment = 16
                while self.state_size % state_alignment:
                    state_alignment //= 2
        self.state_alignment = int(state_alignment)

    def __repr__(self):
        if self.state_size:
            return f"Op({self.name!r}, state_size={self.state_size}, state_alignment={self.state_alignment})"
        return f"Op({self.name!r})"


class DoubleBuffer:
    """CUB's DoubleBuffer, shaped as cuda.compute's: two device arrays of one element type
    and size. A radix sort given DoubleBuffers reads current(), may overwrite both arrays,
    and sets `selector` so that current() holds the sorted result; it needs less temp
    storage than a sort into separate outputs."""

    __slots__ = ("d_buffers", "selector")

    def __init__(self, d_current, d_alternate):
        self.d_buffers = [d_current, d_alternate]
        self.selector = 0

    def current(self):
        return self.d_buffers[self.selector]

    def alternate(self):
        return self.d_buffers[self.selector ^ 1]

    def __repr__(self):
        return f"DoubleBuffer(selector={self.selector})"


def _current(x):
    """The array a sort reads: a DoubleBuffer's current(), else `x`."""
    return x.current() if isinstance(x, DoubleBuffer) else x


def _op_text(op, operators: dict) -> str:
    if isinstance(op, str):
        return op
    if isinstance(op, Op):
        operators[op.name] = op.source
        if op.state_size or op.state_alignment:
            return f"{op.name}:{op.state_size}/{op.state_alignment}"
        return op.name
    name = getattr(op, "name", None)  # enums such as cuda.compute's OpKind.LESS
    if isinstance(name, str):
        return name.lower()
    raise TypeError(f"op: expected an operator name, an Op or an OpKind, got {type(op).__name__}")


def _same_as(t: str, x, what: str, ref: str) -> None:
    got = _type_of(x, what)
    if got != t:
        raise TypeError(f"{what}: {got}, but {ref} is {t} (they must match)")


def _is_array(x) -> bool:
    return hasattr(x, "__cuda_array_interface__") or hasattr(x, "__dlpack__")


def _type_of(x, what: str) -> str:
    """Our element type name of a device array or a dtype-like (str, NumPy dtype), or a
    registered struct's spec text (cccl_cache.gpu_struct)."""
    if _is_array(x):
        t = _core.array_info(x, what)[0]
        if t is None:
            s = _structs.struct_of(x)
            if s is not None:
                return s.text
            raise TypeError(f"{what}: element type not supported (supported: {', '.join(sorted(_TYPES))}, "
                            "or a struct made by cccl_cache.gpu_struct)")
        return t
    if isinstance(x, str) and x in _TYPES:
        return x
    s = _structs.struct_of(x)
    if s is not None:
        return s.text
    name = getattr(x, "name", None) or getattr(x, "__name__", None)
    if name is None:
        import numpy
        try:
            name = numpy.dtype(x).name
        except TypeError:
            name = None
    if name not in _TYPES:
        raise TypeError(f"{what}: expected a device array or an element type, got {x!r}")
    return name


def _size_of(x, what: str) -> int:
    return _core.array_info(x, what)[1]


def _device_of(device, arrays) -> int:
    """`device` if given, else the device holding the first of `arrays` that names
    memory (an empty CuPy array has no address), else 0."""
    if device is not None:
        return int(device)
    for array in arrays:
        if _is_array(array):
            ordinal = _core.array_device(array, "array")
            if ordinal is not None:
                return ordinal
    return 0


_specs: dict = {}
_memo: dict = {}


def _acquire(algorithm: str, fields: dict, operators: dict, device, arrays, cache):
    """The bound executable of a spec from fields on `device` (else `arrays`'). The spec
    is checked before any device is asked for. Memoized per process for the default
    cache, so that one-shot calls skip the spec parse (the AlgorithmCache keeps the
    executable bound anyway)."""
    _structs.definitions(fields, operators)
    what = (algorithm, tuple(fields.items()), tuple(operators.items()))
    spec = _specs.get(what)
    if spec is None:
        spec = _core.Spec.from_fields(algorithm, fields, operators)
        if len(_specs) < 4096:
            _specs[what] = spec
    device = _device_of(device, arrays)
    if cache is not None:
        return cache.acquire(spec, device)
    exe = _memo.get((what, device))
    if exe is None:
        exe = default_cache().acquire(spec, device)
        if len(_memo) < 4096:
            _memo[(what, device)] = exe
    return exe


# --- factories --------------------------------------------------------------------

def _sort_types(d_in_keys, d_out_keys, d_in_values, d_out_values):
    """(key type, value type or "none") of a sort's arrays, inputs and outputs matching."""
    keys = _type_of(d_in_keys, "d_in_keys")
    _same_as(keys, d_out_keys, "d_out_keys", "d_in_keys")
    values = "none"
    if d_in_values is not None or d_out_values is not None:
        values = _type_of(d_in_values, "d_in_values")
        _same_as(values, d_out_values, "d_out_values", "d_in_values")
    return keys, values


def make_merge_sort(d_in_keys, d_in_values, d_out_keys, d_out_values, op="less", *,
                    offset="int64", device=None, cache=None) -> _core.MergeSort:
    """A merge sort of d_in_keys' element type (and d_in_values', or keys only for None).
    Arrays may be element types instead. The inputs may be iterators (cccl_cache.iterators),
    e.g. a CountingIterator as the values (an argsort) or a TransformIterator as the keys;
    the keys' and values' types are then the outputs'. Returns a reusable MergeSort
    callable."""
    keys = _items_type((("d_in_keys", d_in_keys), ("d_out_keys", d_out_keys)))
    values = "none"
    if d_in_values is not None or d_out_values is not None:
        values = _items_type((("d_in_values", d_in_values), ("d_out_values", d_out_values)))
    ops: dict = {}
    fields = {"keys": keys, "values": values, "compare": _op_text(op, ops), "offset": offset}
    held = _iterator_fields(fields, ops, (("keys_in", d_in_keys), ("values_in", d_in_values)))
    return _acquire("merge_sort", fields, ops, device, held + (d_out_keys, d_out_values), cache)


def make_radix_sort(d_in_keys, d_out_keys, d_in_values=None, d_out_values=None, order="ascending", *,
                    offset="uint32", device=None, cache=None) -> _core.RadixSort:
    """A radix sort (order "ascending" / "descending", or cuda.compute's SortOrder).
    d_in_keys (and d_in_values) may be DoubleBuffers, the outputs then None."""
    if isinstance(d_in_keys, DoubleBuffer):
        if d_out_keys is not None or d_out_values is not None:
            raise ValueError("d_out_keys, d_out_values: must be None when d_in_keys is a DoubleBuffer "
                             "(the result stays in it)")
        if d_in_values is not None and not isinstance(d_in_values, DoubleBuffer):
            raise TypeError("d_in_values: a DoubleBuffer, as d_in_keys is one")
        d_in_keys, d_out_keys = d_in_keys.current(), d_in_keys.alternate()
        if d_in_values is not None:
            d_in_values, d_out_values = d_in_values.current(), d_in_values.alternate()
    elif isinstance(d_in_values, DoubleBuffer):
        raise TypeError("d_in_values: a DoubleBuffer only when d_in_keys is one")
    keys, values = _sort_types(d_in_keys, d_out_keys, d_in_values, d_out_values)
    fields = {"keys": keys, "values": values, "descending": _descending(order), "offset": offset}
    return _acquire("radix_sort", fields, {}, device,
                    (d_in_keys, d_out_keys, d_in_values, d_out_values), cache)


def make_radix_argsort(d_in_keys, d_out_indices, order="ascending", *, offset="uint32", device=None,
                       cache=None) -> _core.RadixSort:
    """An argsort: a radix sort of d_in_keys' element type whose values are the indices
    start, start + 1, ... (spec values_in=counting) of d_out_indices' integer type, so that
    the sorted values are the keys' stable sort permutation. Arrays may be element types.
    The RadixSort it returns takes d_in_values=None (indices from 0) or the first index, and
    d_out_keys=None keeps the sorted keys in its temp storage."""
    fields = {"keys": _type_of(d_in_keys, "d_in_keys"), "values": _type_of(d_out_indices, "d_out_indices"),
              "descending": _descending(order), "offset": offset, "values_in": "counting"}
    return _acquire("radix_sort", fields, {}, device, (d_in_keys, d_out_indices), cache)


def _descending(order) -> str:
    """A radix sort spec's descending field of `order`."""
    order = _op_text(order, {})
    if order not in ("ascending", "descending"):
        raise ValueError(f"order: 'ascending' or 'descending', got {order!r}")
    return str(order == "descending").lower()


def _same_type(d_in, d_out) -> str:
    t = _type_of(d_in, "d_in")
    _same_as(t, d_out, "d_out", "d_in")
    return t


def make_reduce_into(d_in, d_out, op="plus", h_init=None, *, offset="uint64", device=None,
                     cache=None) -> _core.Reduce:
    """A reduction d_out[0] = op(h_init, d_in...). h_init is given at call time
    (accepted here for cuda.compute's signature). d_in may be an iterator and d_out an
    output iterator (cccl_cache.iterators: their kinds and value types join the spec; the
    reduction is in the type of the array among them, _input_fields)."""
    ops: dict = {}
    fields, arrays = _input_fields(d_in, d_out, ops)
    fields.update(op=_op_text(op, ops), offset=offset)
    return _acquire("reduce", fields, ops, device, arrays, cache)


def _is_iterator(x) -> bool:
    return hasattr(x, "_iterator_kind")


def _input_fields(d_in, d_out, ops: dict):
    """The spec fields and arrays of one input and one output, each an array or an
    iterator (cccl_cache.iterators, named by the spec's `input` / `output`). The items'
    type: the arrays' common one; beside an iterator, the array's; between two
    iterators, the output's array type, else the input's value type."""
    fields: dict = {}
    if not _is_iterator(d_in) and not _is_iterator(d_out):
        return {"type": _same_type(d_in, d_out)}, (d_in, d_out)
    if not _is_iterator(d_in):
        fields["type"] = _type_of(d_in, "d_in")
    elif not _is_iterator(d_out):
        fields["type"] = _type_of(d_out, "d_out")
    else:
        t = getattr(d_out, "_type", None) or getattr(d_in, "_type", None)
        if t is None:
            raise TypeError("d_in, d_out: an input and an output iterator without an element type between them "
                            "(give one of them as an array)")
        fields["type"] = t
    return fields, _iterator_fields(fields, ops, (("input", d_in), ("output", d_out)))


def _items_type(named) -> str:
    """The element type of arguments that share one ((name, array or iterator) pairs): the
    first array's, the other arrays checked against it; among iterators alone, the first
    one's value type."""
    arrays = [(name, x) for name, x in named if not _is_iterator(x)]
    if arrays:
        t = _type_of(arrays[0][1], arrays[0][0])
        for name, x in arrays[1:]:
            _same_as(t, x, name, arrays[0][0])
        return t
    t = next((x._type for _, x in named if getattr(x, "_type", None)), None)
    if t is None:
        raise TypeError(f"{', '.join(name for name, _ in named)}: iterators without an element type among "
                        "them (give one of them as an array)")
    return t


def _iterator_fields(fields: dict, ops: dict, named) -> tuple:
    """Adds each iterator among `named` ((field, array or iterator) pairs) to `fields` as
    its spec text; returns the arrays of all of them."""
    arrays: tuple = ()
    for name, x in named:
        if _is_iterator(x):
            fields[name] = x._spec(ops)
            arrays += x._arrays()
        else:
            arrays += (x,)
    return arrays


def _like(*args):
    """A device array of the call (for its stream and temp storage): the last array among
    args (d_in, d_out: d_out, else d_in), else an iterator's array."""
    for x in reversed(args):
        if not _is_iterator(x):
            return x
    for x in reversed(args):
        if x._arrays():
            return x._arrays()[0]
    return None


def _input_count(num_items, d_in, d_out, out_items, out_name="d_out", in_name="d_in",
                 count_name="num_items") -> int:
    """The item count of a call over d_in (an array, or an iterator: num_items required
    where it has no length), d_out (an array, or an iterator writing to one) holding
    out_items(n) items; the names are the caller's arguments'."""
    if _is_iterator(d_in):
        n = d_in._length(in_name) if num_items is None else int(num_items)
        if n is None:
            raise ValueError(f"{count_name}: required for a {d_in._iterator_kind} iterator (it has no end)")
    else:
        n = _size_of(d_in, in_name) if num_items is None else int(num_items)
    if n < 0:
        raise ValueError(f"{count_name}: {n} is negative")
    if _is_iterator(d_out):
        have = d_out._length(out_name)
        if have is not None and have < out_items(n):
            raise ValueError(f"{out_name}: {have} items, needs {out_items(n)}")
        return n
    return _count(n, d_out, out_name, (out_name, d_out, out_items))


def make_segmented_reduce(d_in, d_out, start_offsets_in, end_offsets_in, op="plus", h_init=None, *,
                          device=None, cache=None) -> _core.SegmentedReduce:
    """A segmented reduction d_out[i] = op(h_init, d_in[start_offsets_in[i]:end_offsets_in[i]]...).
    The offset arrays (or their element type) give the spec's offset type (int32, uint32,
    int64 or uint64); h_init is given at call time (accepted here for cuda.compute's
    signature). Any argument may be an iterator (cccl_cache.iterators; d_out an output
    one, d_in not a ReverseIterator), e.g. fixed-size segments from
    TransformIterator(CountingIterator(np.int64(0)), times8) offsets."""
    ops: dict = {}
    fields, arrays = _input_fields(d_in, d_out, ops)
    fields.update(op=_op_text(op, ops), offset=_offset_type(start_offsets_in, end_offsets_in))
    arrays += _iterator_fields(fields, ops, (("begin_offsets", start_offsets_in), ("end_offsets", end_offsets_in)))
    return _acquire("segmented_reduce", fields, ops, device, arrays, cache)


def _offset_type(start, end) -> str:
    """The offset type of begin and end offsets, each an array or an iterator: the arrays'
    (the same), else an iterator's value type (a transform over counting: the count's)."""
    def value_type(x):
        t = getattr(x, "_type", None)
        counting = getattr(x, "_counting", None)
        return t if t is not None else (counting._type if counting is not None else None)

    arrays = [(name, x) for name, x in (("start_offsets_in", start), ("end_offsets_in", end)) if not _is_iterator(x)]
    if arrays:
        t = _type_of(arrays[0][1], arrays[0][0])
        for name, x in arrays[1:]:
            _same_as(t, x, name, arrays[0][0])
        return t
    t = value_type(start) or value_type(end)
    if t is None:
        raise TypeError("start_offsets_in, end_offsets_in: iterators without an offset type (give one as an array)")
    return t


def make_segmented_sort(d_in_keys, d_out_keys, d_in_values, d_out_values, start_offsets_in, end_offsets_in,
                        order="ascending", *, device=None, cache=None) -> _core.SegmentedSort:
    """A segmented sort (cub::DeviceSegmentedSort; order "ascending" / "descending", or
    cuda.compute's SortOrder): each segment [start_offsets_in[i], end_offsets_in[i]) of the
    keys (and values; None for keys only) sorted stably into the same positions of the
    outputs. The offset arrays (or their element type) give the spec's offset type
    (int32, uint32, int64 or uint64). The offsets may be iterators (cccl_cache.iterators),
    e.g. rows of 64 from TransformIterator(CountingIterator(np.int64(0)), times64) begins
    and the same from 1 as ends: no offset arrays."""
    keys, values = _sort_types(d_in_keys, d_out_keys, d_in_values, d_out_values)
    order = _op_text(order, {})
    if order not in ("ascending", "descending"):
        raise ValueError(f"order: 'ascending' or 'descending', got {order!r}")
    fields = {"keys": keys, "values": values, "descending": str(order == "descending").lower(),
              "offset": _offset_type(start_offsets_in, end_offsets_in)}
    ops: dict = {}
    offsets = _iterator_fields(fields, ops, (("begin_offsets", start_offsets_in), ("end_offsets", end_offsets_in)))
    return _acquire("segmented_sort", fields, ops, device,
                    (d_in_keys, d_out_keys, d_in_values, d_out_values) + offsets, cache)


def make_unique_by_key(d_in_keys, d_in_items, d_out_keys, d_out_items, d_out_num_selected, op="equal_to",
                       *, offset="uint64", device=None, cache=None) -> _core.UniqueByKey:
    """Keeps the first key and item of each run of keys `op` calls equal ("equal_to" or an
    Op naming a __device__ bool function of two keys); the number of runs goes to
    d_out_num_selected[0] (its integer type is the spec's `selected`). offset: "uint64"
    (CUB's offset for 64-bit counts) or "uint32". The inputs may be iterators and the
    outputs output iterators (cccl_cache.iterators), e.g. a CountingIterator's indices as
    the items (each run's first position) or the keys into a DiscardIterator; the keys' and
    items' types are their first arrays', else the iterators'."""
    ops: dict = {}
    fields = {"keys": _items_type((("d_in_keys", d_in_keys), ("d_out_keys", d_out_keys))),
              "values": _items_type((("d_in_items", d_in_items), ("d_out_items", d_out_items))),
              "op": _op_text(op, ops), "offset": offset,
              "selected": _type_of(d_out_num_selected, "d_out_num_selected")}
    held = _iterator_fields(fields, ops, (("keys_in", d_in_keys), ("values_in", d_in_items),
                                          ("keys_out", d_out_keys), ("values_out", d_out_items)))
    return _acquire("unique_by_key", fields, ops, device, held + (d_out_num_selected,), cache)


def make_scan_by_key(d_keys_in, d_values_in, d_values_out, op="plus", *, exclusive=False,
                     equality="equal_to", offset="uint64", device=None, cache=None) -> _core.ScanByKey:
    """Scans the values with `op` ("plus", "maximum", ... or an Op naming a __device__
    function of two values), restarting at every run of consecutive keys `equality` calls
    equal ("equal_to" or an Op naming a __device__ bool function of two keys); exclusive:
    each run starts at the call's h_init. CUB's DeviceScan::InclusiveScanByKey /
    ExclusiveScanByKey, with CUB's accumulator. offset: "uint64" (CUB's offset for 64-bit
    counts) or "uint32". The inputs may be iterators and the output an output iterator
    (cccl_cache.iterators), e.g. a ConstantIterator(1) as the values (each item's rank in
    its run) or keys a TransformIterator computes from a CountingIterator; the values' type
    is their first array's, else the iterators'."""
    ops: dict = {}
    fields = {"keys": _items_type((("d_keys_in", d_keys_in),)),
              "values": _items_type((("d_values_in", d_values_in), ("d_values_out", d_values_out))),
              "equality": _op_text(equality, ops), "op": _op_text(op, ops),
              "exclusive": str(bool(exclusive)).lower(), "offset": offset}
    held = _iterator_fields(fields, ops, (("keys_in", d_keys_in), ("values_in", d_values_in),
                                          ("values_out", d_values_out)))
    return _acquire("scan_by_key", fields, ops, device, held, cache)


def make_select(d_in, d_out, d_num_selected_out, cond="identity", *, device=None, cache=None) -> _core.Select:
    """Keeps the items for which `cond` holds ("identity": nonzero items, or an Op naming a
    __device__ bool function of one item), in order; their number goes to
    d_num_selected_out[0] (its integer type is the spec's `selected`). CUB's
    DeviceSelect::If: an int64 count. d_in may be an iterator and d_out an output iterator
    (cccl_cache.iterators), e.g. the indices where cond holds from a CountingIterator, or
    only their number into a DiscardIterator."""
    ops: dict = {}
    fields, arrays = _input_fields(d_in, d_out, ops)
    fields.update(op=_op_text(cond, ops), selected=_type_of(d_num_selected_out, "d_num_selected_out"))
    return _acquire("select", fields, ops, device, arrays + (d_num_selected_out,), cache)


def make_three_way_partition(d_in, d_first_part_out, d_second_part_out, d_unselected_out,
                             d_num_selected_out, select_first_part_op="identity",
                             select_second_part_op="identity", *, offset="int64", device=None,
                             cache=None) -> _core.ThreeWayPartition:
    """Splits the items into those select_first_part_op selects, of the others those
    select_second_part_op selects, and the rest, each in order ("identity": nonzero items,
    or an Op naming a __device__ bool function of one item); the first two parts' sizes go
    to d_num_selected_out[0] and [1] (its integer type is the spec's `selected`). CUB's
    DevicePartition::If with two predicates; `offset` its count type (int32 or int64).
    d_in may be an iterator and each output an output iterator (cccl_cache.iterators),
    e.g. the indices of each part from a CountingIterator, or the rest not written into a
    DiscardIterator; the items' type is the first array's, else the iterators'."""
    ops: dict = {}
    t = _items_type((("d_in", d_in), ("d_first_part_out", d_first_part_out),
                     ("d_second_part_out", d_second_part_out), ("d_unselected_out", d_unselected_out)))
    fields = {"type": t, "first_op": _op_text(select_first_part_op, ops),
              "second_op": _op_text(select_second_part_op, ops), "offset": offset,
              "selected": _type_of(d_num_selected_out, "d_num_selected_out")}
    held = _iterator_fields(fields, ops, (("input", d_in), ("first_output", d_first_part_out),
                                          ("second_output", d_second_part_out),
                                          ("unselected_output", d_unselected_out)))
    return _acquire("three_way_partition", fields, ops, device, held + (d_num_selected_out,), cache)


def make_histogram_even(d_samples, d_histogram, h_num_output_levels=None, h_lower_level=None,
                        h_upper_level=None, num_samples=None, *, level=None, offset="int32", device=None,
                        cache=None) -> _core.HistogramEven:
    """Counts samples in h_num_output_levels - 1 equal-width bins over [h_lower_level,
    h_upper_level) (samples outside are not counted); the levels, bounds and count are
    given at call time (accepted here for cuda.compute's signature). CUB's
    DeviceHistogram::HistogramEven; the bins' type is d_histogram's (int32, uint32 or
    uint64), the bounds' `level` (default: h_lower_level's dtype where it has one, else the
    samples' type), `offset` the kernels' count type (int32 or int64). d_samples may be an
    iterator (cccl_cache.iterators), e.g. a TransformIterator binning a function of each
    array item; the samples' type is then its value type."""
    ops: dict = {}
    if level is None:
        level = _type_of(h_lower_level, "h_lower_level") if hasattr(h_lower_level, "dtype") else "none"
    fields = {"type": _element_type(d_samples, "d_samples"), "level": level,
              "counter": _type_of(d_histogram, "d_histogram"), "offset": offset}
    arrays = _iterator_fields(fields, ops, (("samples", d_samples),))
    return _acquire("histogram_even", fields, ops, device, arrays + (d_histogram,), cache)


def _make_binary_search(upper, d_data, d_values, d_out, comp, device, cache) -> _core.BinarySearch:
    ops: dict = {}
    t = _element_type(d_data, "d_data")
    if _is_iterator(d_values):
        if _element_type(d_values, "d_values", t) != t:
            raise TypeError(f"d_values: the values are read as d_data's type {t}: give an iterator of {t}")
    else:
        _same_as(t, d_values, "d_values", "d_data")
    fields = {"type": t, "out": _element_type(d_out, "d_out", "int64"), "compare": _op_text(comp, ops),
              "upper": "true" if upper else "false"}
    arrays = _iterator_fields(fields, ops, (("data_in", d_data), ("values_in", d_values), ("output", d_out)))
    return _acquire("binary_search", fields, ops, device, arrays, cache)


def make_lower_bound(d_data, d_values, d_out, comp="less", *, device=None, cache=None) -> _core.BinarySearch:
    """For each value, the index of the first item of d_data (sorted by comp: "less",
    "greater" or an Op naming a __device__ bool function of two items, stateful or not) not
    ordered before it, written to d_out as its integer type (int32, uint32, int64 or uint64). CUB's
    DeviceFind::LowerBound; d_data and d_values have one element type. d_values may be an
    iterator of that type and d_out an output iterator (cccl_cache.iterators; a
    DiscardIterator's indices are int64), e.g. where each of a CountingIterator's
    integers would go; d_data may be an input iterator too, e.g. a TransformIterator of a
    CountingIterator: where each value falls among f(0), f(1), ... (f monotone)."""
    return _make_binary_search(False, d_data, d_values, d_out, comp, device, cache)


def make_upper_bound(d_data, d_values, d_out, comp="less", *, device=None, cache=None) -> _core.BinarySearch:
    """As make_lower_bound, the index of the first item ordered after each value (CUB's
    DeviceFind::UpperBound)."""
    return _make_binary_search(True, d_data, d_values, d_out, comp, device, cache)


def make_inclusive_scan(d_in, d_out, op="plus", *, init=False, offset="uint64", device=None,
                        cache=None) -> _core.InclusiveScan:
    """init=True: a scan seeded with an initial value, given as h_init at each call
    (cub::DeviceScan::InclusiveScanInit): a host value, or a one-element device array that
    the kernels read when they run (CUB's FutureValue). d_in may be an iterator and d_out
    an output iterator (cccl_cache.iterators: their kinds and value types join the spec;
    the scan is in the type of the array among them, _input_fields)."""
    ops: dict = {}
    fields, arrays = _input_fields(d_in, d_out, ops)
    fields.update(op=_op_text(op, ops), offset=offset)
    if init:
        fields["init"] = "true"
    return _acquire("inclusive_scan", fields, ops, device, arrays, cache)


def make_exclusive_scan(d_in, d_out, op="plus", h_init=None, *, offset="uint64", device=None,
                        cache=None) -> _core.ExclusiveScan:
    """d_in and d_out may be iterators, as for make_inclusive_scan."""
    ops: dict = {}
    fields, arrays = _input_fields(d_in, d_out, ops)
    fields.update(op=_op_text(op, ops), offset=offset)
    return _acquire("exclusive_scan", fields, ops, device, arrays, cache)


def _element_type(x, what: str, default=None) -> str:
    """The element type of a transform's argument: an array's, or an iterator's value type
    (a DiscardIterator has none: `default`)."""
    if not _is_iterator(x):
        return _type_of(x, what)
    t = x._value_type() or default
    if t is None:
        raise TypeError(f"{what}: a {x._iterator_kind} iterator has no element type here")
    return t


def _transform_fields(ins, d_out, op, ops: dict):
    """A transform's spec fields and arrays: each input's and the output's element type
    (an output without one, a DiscardIterator: the first input's), the operator and any
    iterator (input / input1, input2, output)."""
    one = len(ins) == 1
    names = [("in", "input", "d_in")] if one else [(f"in{k}", f"input{k}", f"d_in{k}") for k in (1, 2)]
    fields = {field: _element_type(x, arg) for (field, _, arg), x in zip(names, ins)}
    first = fields[names[0][0]]
    fields.update(out=_element_type(d_out, "d_out", first), op=_op_text(op, ops))
    arrays = _iterator_fields(fields, ops, [(it, x) for (_, it, _), x in zip(names, ins)] + [("output", d_out)])
    return fields, arrays


def make_unary_transform(d_in, d_out, op="identity", *, device=None, cache=None) -> _core.UnaryTransform:
    """out[i] = op(in[i]). d_in may be an iterator and d_out an output iterator
    (cccl_cache.iterators; their value types are the spec's in and out)."""
    ops: dict = {}
    fields, arrays = _transform_fields((d_in,), d_out, op, ops)
    return _acquire("unary_transform", fields, ops, device, arrays, cache)


def make_binary_transform(d_in1, d_in2, d_out, op="plus", *, device=None, cache=None) -> _core.BinaryTransform:
    """out[i] = op(in1[i], in2[i]). Any argument may be an iterator (d_out an output one),
    e.g. each item's index from CountingIterator(np.int64(0))."""
    ops: dict = {}
    fields, arrays = _transform_fields((d_in1, d_in2), d_out, op, ops)
    return _acquire("binary_transform", fields, ops, device, arrays, cache)


def make_for_each(d_in, op, *, offset="int64", device=None, cache=None) -> _core.ForEach:
    """op(item) for every item of d_in (cub::DeviceFor::ForEachN). op: a custom Op naming a
    __device__ function of one item, `f(T& x)` to change an array's items in place; a
    stateful Op gets its state first (e.g. a device pointer to write through). d_in: an
    array, or an iterator (cccl_cache.iterators) whose value type is the spec's type.
    offset: the count type (int32, uint32, int64 or uint64)."""
    ops: dict = {}
    fields = {"type": _element_type(d_in, "d_in"), "op": _op_text(op, ops), "offset": offset}
    arrays = _iterator_fields(fields, ops, [("input", d_in)])
    return _acquire("for_each", fields, ops, device, arrays, cache)


_NO_OUTPUT = object()


def _transform_count(num_items, ins, d_out) -> int:
    """A transform's item count: num_items, else the length of the first argument with one
    (an array, or an iterator over one); every one with a length must hold that many.
    d_out: _NO_OUTPUT for a call without one (for_each)."""
    named = [(f"d_in{k + 1}" if len(ins) > 1 else "d_in", x) for k, x in enumerate(ins)]
    named += [] if d_out is _NO_OUTPUT else [("d_out", d_out)]
    lengths = [(name, x._length(name) if _is_iterator(x) else _size_of(x, name)) for name, x in named]
    n = num_items
    if n is None:
        n = next((length for _, length in lengths if length is not None), None)
        if n is None:
            raise ValueError("num_items: required where no argument has a length")
    n = int(n)
    if n < 0:
        raise ValueError(f"num_items: {n} is negative")
    for name, length in lengths:
        if length is not None and length < n:
            raise ValueError(f"{name}: {length} items, needs {n}")
    return n


# --- one-shot functions -----------------------------------------------------------

def _library(a) -> str:
    return type(a).__module__.split(".", 1)[0]


def _default_stream(like):
    lib = _library(like)
    if lib == "cupy":
        import cupy
        return cupy.cuda.get_current_stream().ptr
    if lib == "torch":
        import torch
        return torch.cuda.current_stream(like.device).cuda_stream
    return None


def _allocate(nbytes: int, like, device: int, stream):
    """A device byte buffer from the allocator of `like`'s library. CuPy's pool hands a
    freed block to later allocations on the stream current at allocation: allocate
    with the run's stream current, so the block is not reused while the run may be
    in flight."""
    lib = _library(like)
    if lib == "torch":
        import torch
        return torch.empty(max(nbytes, 1), dtype=torch.uint8, device=like.device)
    if lib == "numba":
        from numba import cuda
        return cuda.device_array(max(nbytes, 1), dtype="uint8")
    try:
        import cupy
    except ImportError:
        raise TypeError("no allocator for temp storage: pass temp_allocator=f(nbytes) returning a "
                        "device array (CuPy, PyTorch and Numba arrays get their own)") from None
    with cupy.cuda.Device(device), _cupy_stream(cupy, _core.stream_handle(stream), device):
        return cupy.empty(max(nbytes, 1), dtype=cupy.uint8)


class _StreamProtocol:
    """A raw stream handle in the CUDA stream protocol (`__cuda_stream__`)."""
    __slots__ = ("handle",)

    def __init__(self, handle: int):
        self.handle = handle

    def __cuda_stream__(self):
        return (0, self.handle)


def _cupy_stream(cupy, handle: int, device: int):
    """CuPy's view of a stream it does not own: `Stream.from_external` (the stream
    protocol) where CuPy has it, `ExternalStream` (deprecated there) before."""
    from_external = getattr(cupy.cuda.Stream, "from_external", None)
    if from_external is not None:
        return from_external(_StreamProtocol(handle))
    return cupy.cuda.ExternalStream(handle, device)


def _count(num_items, d_in, what, *outs) -> int:
    n = _size_of(d_in, what) if num_items is None else int(num_items)
    if n < 0:
        raise ValueError(f"num_items: {n} is negative")
    for name, out, want in outs:
        if out is not None and _size_of(out, name) < want(n):
            raise ValueError(f"{name}: {_size_of(out, name)} items, needs {want(n)}")
    return n


def _run_two_phase(exe, like, temp_allocator, stream, args_before, args_after, op_state=None, **states):
    if stream is None:
        stream = _default_stream(like)
    state = {k: v for k, v in states.items() if v is not None}
    if op_state is not None:
        state["op_state"] = op_state
    nbytes = exe(None, *args_before, *args_after, stream=stream)
    temp = temp_allocator(nbytes) if temp_allocator else _allocate(nbytes, like, exe.device, stream)
    exe(temp, *args_before, *args_after, stream=stream, **state)


_same = (lambda n: n)


def merge_sort(d_in_keys, d_in_values, d_out_keys, d_out_values, op="less", num_items=None,
               stream=None, *, temp_allocator=None, cache=None, op_state=None):
    """Sorts d_in_keys (and d_in_values) into d_out_keys (and d_out_values); they may alias.
    op_state: a stateful comparator's state. The inputs may be iterators (make_merge_sort);
    num_items is then required where d_in_keys has no length."""
    exe = make_merge_sort(d_in_keys, d_in_values, d_out_keys, d_out_values, op, cache=cache)
    n = _input_count(num_items, d_in_keys, d_out_keys, _same, "d_out_keys", "d_in_keys")
    if d_in_values is not None or d_out_values is not None:
        _input_count(n, d_in_values, d_out_values, _same, "d_out_values", "d_in_values")
    _run_two_phase(exe, d_out_keys, temp_allocator, stream,
                   (d_in_keys, d_in_values, d_out_keys, d_out_values, n), (), op_state)


def radix_sort(d_in_keys, d_out_keys, d_in_values=None, d_out_values=None, order="ascending",
               num_items=None, begin_bit=None, end_bit=None, stream=None, *, temp_allocator=None,
               cache=None):
    """Radix-sorts d_in_keys (and d_in_values) into d_out_keys (and d_out_values), stably;
    or, given DoubleBuffers (outputs None), within them: their current() then holds the result."""
    exe = make_radix_sort(d_in_keys, d_out_keys, d_in_values, d_out_values, order, cache=cache)
    if isinstance(d_in_keys, DoubleBuffer):
        keys, values = d_in_keys, d_in_values
        n = _count(num_items, keys.current(), "d_in_keys.current()",
                   ("d_in_keys.alternate()", keys.alternate(), _same),
                   *(() if values is None else (("d_in_values.current()", values.current(), _same),
                                                ("d_in_values.alternate()", values.alternate(), _same))))
    else:
        n = _count(num_items, d_in_keys, "d_in_keys", ("d_out_keys", d_out_keys, _same),
                   ("d_in_values", d_in_values, _same), ("d_out_values", d_out_values, _same))
    _run_two_phase(exe, _current(d_in_keys), temp_allocator, stream,
                   (d_in_keys, d_out_keys, d_in_values, d_out_values, n), (begin_bit, end_bit))


def argsort(d_in_keys, d_out_indices, order="ascending", num_items=None, begin_bit=None, end_bit=None,
            stream=None, *, d_out_keys=None, temp_allocator=None, cache=None):
    """d_out_indices[i] = the input position of the i-th key of the stable radix sort of
    d_in_keys by bits [begin_bit, end_bit) (ascending: numpy.argsort(kind="stable")); the
    indices are d_out_indices' integer type. d_out_keys: where the sorted keys go too (None:
    temp storage only)."""
    exe = make_radix_argsort(d_in_keys, d_out_indices, order, cache=cache)
    n = _count(num_items, d_in_keys, "d_in_keys", ("d_out_indices", d_out_indices, _same),
               ("d_out_keys", d_out_keys, _same))
    _run_two_phase(exe, d_in_keys, temp_allocator, stream, (d_in_keys, d_out_keys, None, d_out_indices, n),
                   (begin_bit, end_bit))


def reduce_into(d_in, d_out, op="plus", h_init=0, num_items=None, stream=None, *,
                temp_allocator=None, cache=None, op_state=None):
    """d_out[0] = op(h_init, d_in[0], ..., d_in[num_items - 1]). op_state: a stateful
    operator's state. d_in may be an iterator and d_out an output iterator
    (cccl_cache.iterators); num_items is then required where d_in has no length (counting,
    constant)."""
    n = _input_count(num_items, d_in, d_out, lambda n: 1)
    exe = make_reduce_into(d_in, d_out, op, cache=cache)
    h_init = _structs.host_init(exe.spec.fields["type"], h_init)
    _run_two_phase(exe, _like(d_in, d_out), temp_allocator, stream, (d_in, d_out, n, h_init), (), op_state)


def segmented_reduce(d_in, d_out, start_offsets_in, end_offsets_in, op="plus", h_init=0,
                     num_segments=None, stream=None, *, temp_allocator=None, cache=None, op_state=None):
    """d_out[i] = op(h_init, d_in[start_offsets_in[i]], ..., d_in[end_offsets_in[i] - 1]) for
    i < num_segments (default: the length of the first offsets that have one). op_state: a
    stateful operator's state. Any argument may be an iterator (make_segmented_reduce)."""
    n = _segment_count(num_segments, start_offsets_in, end_offsets_in)
    have = d_out._length("d_out") if _is_iterator(d_out) else _size_of(d_out, "d_out")
    if have is not None and have < n:
        raise ValueError(f"d_out: {have} items, needs {n}")
    exe = make_segmented_reduce(d_in, d_out, start_offsets_in, end_offsets_in, op, cache=cache)
    _run_two_phase(exe, _like(d_in, d_out), temp_allocator, stream,
                   (d_in, d_out, n, start_offsets_in, end_offsets_in, h_init), (), op_state)


def _segment_count(num_segments, start_offsets_in, end_offsets_in) -> int:
    """num_segments, or the length of the first offsets that have one (an array, or an
    iterator with an end); each offsets' length at least that."""
    n = num_segments
    for name, x in (("start_offsets_in", start_offsets_in), ("end_offsets_in", end_offsets_in)):
        have = x._length(name) if _is_iterator(x) else _size_of(x, name)
        if n is None:
            n = have
        elif have is not None and have < int(n):
            raise ValueError(f"{name}: {have} items, needs {int(n)}")
    if n is None:
        raise ValueError("num_segments: required where no offsets have a length (both iterators without an end)")
    n = int(n)
    if n < 0:
        raise ValueError(f"num_segments: {n} is negative")
    return n


def segmented_sort(d_in_keys, d_out_keys, d_in_values, d_out_values, num_items, num_segments,
                   start_offsets_in, end_offsets_in, order="ascending", stream=None, *, temp_allocator=None,
                   cache=None):
    """Sorts each segment [start_offsets_in[i], end_offsets_in[i]), i < num_segments, of
    d_in_keys (and d_in_values) into d_out_keys (and d_out_values), stably
    (make_segmented_sort). num_items / num_segments None: the keys' length / that of the
    offsets that have one (required where both are iterators without an end)."""
    n = _count(num_items, d_in_keys, "d_in_keys", ("d_out_keys", d_out_keys, _same),
               ("d_in_values", d_in_values, _same), ("d_out_values", d_out_values, _same))
    segments = _segment_count(num_segments, start_offsets_in, end_offsets_in)
    exe = make_segmented_sort(d_in_keys, d_out_keys, d_in_values, d_out_values, start_offsets_in,
                              end_offsets_in, order, cache=cache)
    _run_two_phase(exe, d_in_keys, temp_allocator, stream,
                   (d_in_keys, d_out_keys, d_in_values, d_out_values, n, segments, start_offsets_in,
                    end_offsets_in), ())


def unique_by_key(d_in_keys, d_in_items, d_out_keys, d_out_items, d_out_num_selected, op="equal_to",
                  num_items=None, stream=None, *, temp_allocator=None, cache=None, op_state=None):
    """The first key and item of each run of equal keys of d_in_keys[:num_items] (default:
    its length) to d_out_keys / d_out_items; the number of runs to d_out_num_selected[0].
    op_state: a stateful equality's state. The inputs and outputs may be iterators
    (make_unique_by_key); num_items is then required where d_in_keys has no length."""
    exe = make_unique_by_key(d_in_keys, d_in_items, d_out_keys, d_out_items, d_out_num_selected, op,
                             cache=cache)
    n = _input_count(num_items, d_in_keys, d_out_keys, _same, "d_out_keys", "d_in_keys")
    _input_count(n, d_in_items, d_out_items, _same, "d_out_items", "d_in_items")
    _count(n, d_out_num_selected, "d_out_num_selected", ("d_out_num_selected", d_out_num_selected, lambda n: 1))
    _run_two_phase(exe, _like(d_in_keys, d_in_items, d_out_keys, d_out_items), temp_allocator, stream,
                   (d_in_keys, d_in_items, d_out_keys, d_out_items, d_out_num_selected, n), (), op_state)


def select(d_in, d_out, d_num_selected_out, cond="identity", num_items=None, stream=None, *,
           temp_allocator=None, cache=None, op_state=None):
    """The items of d_in[:num_items] (default: its length) for which `cond` holds to d_out,
    in order; their number to d_num_selected_out[0]. op_state: a stateful predicate's state.
    d_in may be an iterator and d_out an output iterator (make_select); num_items is then
    required where d_in has no length."""
    n = _input_count(num_items, d_in, d_out, _same)
    exe = make_select(d_in, d_out, d_num_selected_out, cond, cache=cache)
    if _size_of(d_num_selected_out, "d_num_selected_out") < 1:
        raise ValueError("d_num_selected_out: 0 items, needs 1")
    _run_two_phase(exe, d_num_selected_out, temp_allocator, stream, (d_in, d_out, d_num_selected_out, n), (),
                   op_state)


def three_way_partition(d_in, d_first_part_out, d_second_part_out, d_unselected_out, d_num_selected_out,
                        select_first_part_op="identity", select_second_part_op="identity", num_items=None,
                        stream=None, *, temp_allocator=None, cache=None, first_op_state=None,
                        second_op_state=None):
    """Splits d_in[:num_items] (default: its length) three ways (make_three_way_partition);
    the first two parts' sizes to d_num_selected_out[0] and [1]. first_op_state,
    second_op_state: each stateful predicate's own state. d_in may be an iterator and the
    outputs output iterators (make_three_way_partition); num_items is then required where
    d_in has no length."""
    n = _input_count(num_items, d_in, d_first_part_out, _same, "d_first_part_out")
    for name, out in (("d_second_part_out", d_second_part_out), ("d_unselected_out", d_unselected_out)):
        _input_count(n, d_in, out, _same, name)
    _count(n, d_num_selected_out, "d_num_selected_out", ("d_num_selected_out", d_num_selected_out, lambda n: 2))
    exe = make_three_way_partition(d_in, d_first_part_out, d_second_part_out, d_unselected_out,
                                   d_num_selected_out, select_first_part_op, select_second_part_op,
                                   cache=cache)
    _run_two_phase(exe, _like(d_in, d_first_part_out, d_second_part_out, d_unselected_out), temp_allocator,
                   stream, (d_in, d_first_part_out, d_second_part_out, d_unselected_out, d_num_selected_out, n),
                   (), first_op_state=first_op_state, second_op_state=second_op_state)


def histogram_even(d_samples, d_histogram, num_output_levels, lower_level, upper_level, num_samples=None,
                   stream=None, *, temp_allocator=None, cache=None):
    """Counts d_samples[:num_samples] (default: its length) in num_output_levels - 1
    equal-width bins over [lower_level, upper_level) into d_histogram (make_histogram_even).
    d_samples may be an iterator; num_samples is then required where it has no length."""
    exe = make_histogram_even(d_samples, d_histogram, num_output_levels, lower_level, upper_level, cache=cache)
    n = _input_count(num_samples, d_samples, d_histogram, lambda n: num_output_levels - 1, "d_histogram",
                     "d_samples", "num_samples")
    _run_two_phase(exe, _like(d_samples, d_histogram), temp_allocator, stream,
                   (d_samples, d_histogram, num_output_levels, lower_level, upper_level, n), ())


def _binary_search(make, d_data, d_values, d_out, comp, num_items, num_values, stream, temp_allocator, cache,
                   op_state):
    if _is_iterator(d_data):
        n = d_data._length("d_data") if num_items is None else int(num_items)
        if n is None:
            raise ValueError(f"num_items: required for a {d_data._iterator_kind} iterator (it has no end)")
        if n < 0:
            raise ValueError(f"num_items: {n} is negative")
    else:
        n = _count(num_items, d_data, "d_data")
    m = _input_count(num_values, d_values, d_out, _same, "d_out", "d_values", "num_values")
    exe = make(d_data, d_values, d_out, comp, cache=cache)
    _run_two_phase(exe, _like(d_data, d_values, d_out), temp_allocator, stream,
                   (d_data, n, d_values, m, d_out), (), op_state)


def lower_bound(d_data, d_values, d_out, comp="less", num_items=None, num_values=None, stream=None, *,
                temp_allocator=None, cache=None, op_state=None):
    """d_out[i] = the lower bound of d_values[i] in d_data[:num_items] (make_lower_bound);
    counts default to the arrays' lengths. op_state: a stateful comparator's state."""
    _binary_search(make_lower_bound, d_data, d_values, d_out, comp, num_items, num_values, stream,
                   temp_allocator, cache, op_state)


def upper_bound(d_data, d_values, d_out, comp="less", num_items=None, num_values=None, stream=None, *,
                temp_allocator=None, cache=None, op_state=None):
    """d_out[i] = the upper bound of d_values[i] in d_data[:num_items] (make_upper_bound)."""
    _binary_search(make_upper_bound, d_data, d_values, d_out, comp, num_items, num_values, stream,
                   temp_allocator, cache, op_state)


def inclusive_scan(d_in, d_out, op="plus", num_items=None, stream=None, *, h_init=None,
                   temp_allocator=None, cache=None, op_state=None):
    """d_out[i] = d_in[0] op ... op d_in[i]; with h_init, d_out[i] = h_init op d_in[0] op ...
    op d_in[i]; d_out may be d_in. h_init: a host value or a one-element device array.
    op_state: a stateful operator's state. d_in may be an iterator and d_out an output
    iterator (cccl_cache.iterators); num_items is then required where d_in has no length
    (counting, constant)."""
    n = _input_count(num_items, d_in, d_out, _same)
    exe = make_inclusive_scan(d_in, d_out, op, init=h_init is not None, cache=cache)
    if h_init is not None:
        h_init = _structs.host_init(exe.spec.fields["type"], h_init)
    _run_two_phase(exe, _like(d_in, d_out), temp_allocator, stream, (d_in, d_out, n), (), op_state,
                   h_init=h_init)


def exclusive_scan(d_in, d_out, op="plus", h_init=0, num_items=None, stream=None, *,
                   temp_allocator=None, cache=None, op_state=None):
    """d_out[0] = h_init, d_out[i] = h_init op d_in[0] op ... op d_in[i - 1]. h_init: a host
    value, or a one-element device array that the kernels read when they run (CUB's
    FutureValue). op_state: a stateful operator's state. d_in and d_out may be iterators,
    as for inclusive_scan."""
    n = _input_count(num_items, d_in, d_out, _same)
    exe = make_exclusive_scan(d_in, d_out, op, cache=cache)
    h_init = _structs.host_init(exe.spec.fields["type"], h_init)
    _run_two_phase(exe, _like(d_in, d_out), temp_allocator, stream, (d_in, d_out, n, h_init), (), op_state)


def inclusive_scan_by_key(d_keys_in, d_values_in, d_values_out, op="plus", num_items=None, stream=None, *,
                          equality="equal_to", temp_allocator=None, cache=None):
    """d_values_out[i] = op over d_values_in[j..i], j the start of i's run of equal keys.
    The inputs and output may be iterators (make_scan_by_key); num_items is then required
    where d_keys_in has no length."""
    _scan_by_key(d_keys_in, d_values_in, d_values_out, op, False, None, num_items, stream, equality,
                 temp_allocator, cache)


def exclusive_scan_by_key(d_keys_in, d_values_in, d_values_out, op="plus", h_init=0, num_items=None,
                          stream=None, *, equality="equal_to", temp_allocator=None, cache=None):
    """d_values_out[i] = h_init op d_values_in[j] op ... op d_values_in[i - 1], j the start of
    i's run of equal keys (h_init at the run's start)."""
    _scan_by_key(d_keys_in, d_values_in, d_values_out, op, True, h_init, num_items, stream, equality,
                 temp_allocator, cache)


def _scan_by_key(d_keys_in, d_values_in, d_values_out, op, exclusive, h_init, num_items, stream, equality,
                 temp_allocator, cache):
    exe = make_scan_by_key(d_keys_in, d_values_in, d_values_out, op, exclusive=exclusive, equality=equality,
                           cache=cache)
    n = _input_count(num_items, d_keys_in, d_values_out, _same, "d_values_out", "d_keys_in")
    _input_count(n, d_values_in, d_values_out, _same, "d_values_out", "d_values_in")
    _run_two_phase(exe, _like(d_keys_in, d_values_in, d_values_out), temp_allocator, stream,
                   (d_keys_in, d_values_in, d_values_out, n, h_init), ())


def unary_transform(d_in, d_out, op="identity", num_items=None, stream=None, *, cache=None, op_state=None):
    """d_out[i] = op(d_in[i]). op_state: a stateful operator's state. d_in may be an
    iterator and d_out an output iterator (cccl_cache.iterators); num_items is then
    required where no argument has a length."""
    n = _transform_count(num_items, (d_in,), d_out)
    exe = make_unary_transform(d_in, d_out, op, cache=cache)
    stream = _default_stream(_like(d_in, d_out)) if stream is None else stream
    exe(d_in, d_out, n, stream=stream, op_state=op_state)


def for_each(d_in, op, num_items=None, stream=None, *, cache=None, op_state=None):
    """op(item) for every item of d_in (make_for_each). op_state: a stateful operator's
    state. num_items: required where d_in has no length (an iterator over none)."""
    n = _transform_count(num_items, (d_in,), _NO_OUTPUT)
    exe = make_for_each(d_in, op, cache=cache)
    stream = _default_stream(_like(d_in)) if stream is None else stream
    exe(d_in, n, stream=stream, op_state=op_state)


def binary_transform(d_in1, d_in2, d_out, op="plus", num_items=None, stream=None, *, cache=None,
                     op_state=None):
    """d_out[i] = op(d_in1[i], d_in2[i]). op_state: a stateful operator's state. Any argument
    may be an iterator (make_binary_transform)."""
    n = _transform_count(num_items, (d_in1, d_in2), d_out)
    exe = make_binary_transform(d_in1, d_in2, d_out, op, cache=cache)
    stream = _default_stream(_like(d_in2, d_in1, d_out)) if stream is None else stream
    exe(d_in1, d_in2, d_out, n, stream=stream, op_state=op_state)