"""Iterators as the input and output of a reduction, a scan, a segmented reduction or a
transform (each of a binary transform's inputs), under cuda.compute.iterators' names.

An iterator is part of the spec (its kind, value type and, for a transform, its operator:
spec text `input=counting(int64)`, ...) and carries the call's values (a start, a constant,
device arrays), which are never in the key: one build serves every start and array.

    cccl_cache.reduce_into(CountingIterator(np.int64(1)), d_out, "plus", num_items=n)
    cccl_cache.reduce_into(TransformIterator(d_x, square), d_out)  # a sum of squares
    cccl_cache.binary_transform(d_x, CountingIterator(np.int64(0)), d_out, scale_by_index)

The element i of each: CountingIterator(start) start + i (start a NumPy integer scalar, or
an int: int64), ConstantIterator(value) value, ReverseIterator(a) a[n - 1 - i] (of the
first n; a a device array or an input iterator), PermutationIterator(values, indices) values[indices[i]], TransformIterator(base,
op) op(base[i]) with op a unary well-known operator ("negate", ...) or an Op (a stateful one
with its state: TransformIterator(a, scale, state=np.float32(2))), ShuffleIterator(n, seed) a pseudo-random
permutation of 0 .. n-1 (int64; read over exactly n items), CacheModifiedInputIterator(a,
"stream") a[i] read with a PTX cache load modifier. The reduction converts each element to
its own type.

As d_out, element i of ReverseIterator(a) is a[n - 1 - i], of PermutationIterator(values,
indices) values[indices[i]] (a scatter), of TransformOutputIterator(a, op) a[i] written
as op(x) (op applied to each result, stored in a's type), and DiscardIterator() drops
what is written:

    cccl_cache.reduce_into(TransformIterator(d_x, square), TransformOutputIterator(d_norm, root))
    cccl_cache.inclusive_scan(d_x, ReverseIterator(d_out))  # running sums, last first

Iterators nest: TransformIterator(base, op) takes any input iterator as its base, and over a
ZipIterator calls op with the components' elements (TransformIterator(ZipIterator(a, b),
"multiplies"): the products of pairs, whose reduction is a dot product);
PermutationIterator(values, indices) takes an input iterator as either
(PermutationIterator(a, ShuffleIterator(n, seed)): a in a random order).

ZipIterator(a, b, ...) reads element i as a struct of a[i], b[i], ... (each component a
device array or one of the iterators above), and as d_out writes field k of each result
through component k (a device array or an output iterator). Its items are a struct
(cccl_cache.gpu_struct) whose fields are the components' types in order: the array of
that struct among d_in and d_out names it, or `value_type=` does between two iterators:

    vi = cccl_cache.gpu_struct("vi", [("value", "float32"), ("index", "int64")])
    cccl_cache.reduce_into(ZipIterator(d_x, CountingIterator(np.int64(0))), d_best, argmax, h_init=...)
"""

from ._api import Op, _is_array, _op_text, _size_of, _type_of


def _scalar(value, what: str):
    """A NumPy scalar of `value` (a bool becomes bool, an int int64, a float float64), and
    its type."""
    import numpy

    if not isinstance(value, numpy.generic):
        if isinstance(value, bool):
            value = numpy.bool_(value)
        elif isinstance(value, (int, float)):
            value = numpy.int64(value) if isinstance(value, int) else numpy.float64(value)
        else:
            raise TypeError(f"{what}: expected a NumPy scalar or a Python bool/int/float, got {type(value).__name__}")
    return value, _type_of(value.dtype, what)


def _array(a, what: str):
    if not _is_array(a):
        raise TypeError(f"{what}: expected a device array, got {type(a).__name__}")
    return a


class _Iterator:
    """What every iterator gives the reduction: its kind (`_iterator_kind`), its spec text
    (`_spec`), the call's values (`_value`: a NumPy scalar; `_base`, `_index`: device
    arrays; `_state`: an operator's state) and, for array-backed ones, a length (the default num_items)."""

    _iterator_kind = ""
    _value = None
    _base = None
    _index = None
    _state = None  # a transform's stateful operator's state (bytes)

    def _spec(self, operators: dict) -> str:
        raise NotImplementedError

    def _arrays(self) -> tuple:
        return tuple(a for a in (self._base, self._index) if a is not None)

    def _value_type(self):
        """The type V its elements have, or None (a discard, a zip without value_type)."""
        return getattr(self, "_type", None)

    def _length(self, what: str):
        """The number of elements, or None where it has no end (counting, constant)."""
        if self._index is not None:
            return _size_of(self._index, what)
        if self._base is not None:
            return _size_of(self._base, what)
        return None

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._spec({})})"


class CountingIterator(_Iterator):
    """start, start + 1, ... in start's integer type."""

    _iterator_kind = "counting"

    def __init__(self, start):
        self._value, self._type = _scalar(start, "CountingIterator start")
        if self._type.startswith("float") or self._type in ("bfloat16", "bool"):
            raise TypeError(f"CountingIterator start: an integer, got {self._type}")

    def _spec(self, operators: dict) -> str:
        return f"counting({self._type})"


class ConstantIterator(_Iterator):
    """value, value, ..."""

    _iterator_kind = "constant"

    def __init__(self, value):
        self._value, self._type = _scalar(value, "ConstantIterator value")

    def _spec(self, operators: dict) -> str:
        return f"constant({self._type})"




class CacheModifiedInputIterator(_Iterator):
    """The elements of a device array, each read with a PTX cache load modifier: "stream"
    (cuda.compute's name; CUB's LOAD_CS, for data read once) or CUB's own names "ca",
    "cg", "cs", "cv", "ldg", "volatile"."""

    _iterator_kind = "cache_modified"
    _loads = {"stream": "cs", "ca": "ca", "cg": "cg", "cs": "cs", "cv": "cv", "ldg": "ldg",
              "volatile": "volatile"}

    def __init__(self, device_array, modifier):
        if modifier not in self._loads:
            raise ValueError(f"CacheModifiedInputIterator modifier: one of {', '.join(self._loads)}, "
                             f"got {modifier!r}")
        self._base = _array(device_array, "CacheModifiedInputIterator array")
        self._type = _type_of(device_array, "CacheModifiedInputIterator array")
        self._load = self._loads[modifier]

    def _spec(self, operators: dict) -> str:
        return f"cache_modified({self._load},{self._type})"


def _state_bytes(op, state, what: str):
    """A stateful operator's state as bytes (from a bytes-like object, a NumPy scalar or a
    C-contiguous array) of the size its Op declares; None for a stateless one."""
    stateful = isinstance(op, Op) and (op.state_size or op.state_alignment)
    if state is None:
        if stateful:
            raise ValueError(f"{what}: operator '{op.name}' is stateful: give its {op.state_size} bytes "
                             f"of state (state=)")
        return None
    if not stateful:
        raise ValueError(f"{what}: the operator takes no state (give None)")
    try:
        data = bytes(memoryview(state))
    except TypeError:
        raise TypeError(f"{what}: expected a bytes-like object, a NumPy scalar or a C-contiguous array, "
                        f"got {type(state).__name__}") from None
    if len(data) != op.state_size:
        raise ValueError(f"{what}: {len(data)} bytes, but operator '{op.name}' has a state of "
                         f"{op.state_size} bytes")
    return data


def _component_spec(c, operators: dict, what: str) -> str:
    """A component's spec text: an iterator's, or an array's element type."""
    return c._spec(operators) if isinstance(c, _Iterator) else _type_of(c, what)


class _Nested(_Iterator):
    """An iterator over other iterators (`_components`, each a device array or an
    iterator): their arrays and their shortest length are its."""

    _components: tuple = ()

    def _arrays(self) -> tuple:
        if not self._components:  # a transform over an array, a permutation of two
            return super()._arrays()
        return tuple(a for c in self._components for a in (c._arrays() if isinstance(c, _Iterator) else (c,)))

    def _length(self, what: str):
        if not self._components:
            return super()._length(what)
        lengths = [c._length(f"{what} component {k}") if isinstance(c, _Iterator)
                   else _size_of(c, f"{what} component {k}") for k, c in enumerate(self._components)]
        lengths = [n for n in lengths if n is not None]
        return min(lengths) if lengths else None


class ReverseIterator(_Nested):
    """The first num_items elements of a device array or an input iterator, last first
    (element i is base[num_items - 1 - i]). Over a ZipIterator, reverse its components
    instead: ZipIterator(ReverseIterator(a), ReverseIterator(b))."""

    _iterator_kind = "reverse"

    def __init__(self, base):
        if isinstance(base, ZipIterator):
            raise TypeError("ReverseIterator base: a ZipIterator is not supported here; reverse its "
                            "components instead (ZipIterator(ReverseIterator(a), ReverseIterator(b)))")
        if isinstance(base, _Iterator):
            self._components = (base,)
            self._type = base._value_type()
            return
        self._base = _array(base, "ReverseIterator array")
        self._type = _type_of(base, "ReverseIterator array")

    def _spec(self, operators: dict) -> str:
        if self._components:
            return f"reverse({self._components[0]._spec(operators)})"
        return f"reverse({self._type})"


class PermutationIterator(_Nested):
    """values[indices[i]]: values a device array or an input iterator, indices a device
    array or an input iterator of int32, uint32, int64 or uint64 (e.g. a ShuffleIterator:
    the values in a random order)."""

    _iterator_kind = "permutation"

    def __init__(self, values, indices):
        if not isinstance(values, _Iterator) and not isinstance(indices, _Iterator):
            self._base = _array(values, "PermutationIterator values")
            self._index = _array(indices, "PermutationIterator indices")
            self._type = _type_of(values, "PermutationIterator values")
            self._index_type = _type_of(indices, "PermutationIterator indices")
            return
        for what, x in (("values", values), ("indices", indices)):
            if isinstance(x, ZipIterator):
                raise TypeError(f"PermutationIterator {what}: a ZipIterator is not supported here")
            if not isinstance(x, _Iterator):
                _array(x, f"PermutationIterator {what}")
        self._components = (values, indices)
        self._type = values._value_type() if isinstance(values, _Iterator) else _type_of(values, "values")

    def _spec(self, operators: dict) -> str:
        if not self._components:
            return f"permutation({self._type},{self._index_type})"
        parts = [_component_spec(c, operators, f"PermutationIterator {w}")
                 for w, c in zip(("values", "indices"), self._components)]
        return f"permutation({','.join(parts)})"

    def _length(self, what: str):
        if not self._components:
            return _Iterator._length(self, what)
        indices = self._components[1]
        return indices._length(f"{what} indices") if isinstance(indices, _Iterator) else \
            _size_of(indices, f"{what} indices")


class TransformIterator(_Nested):
    """op(base[i]): base a device array or an input iterator, op unary, or over a
    ZipIterator of its components' elements (a binary kind such as "multiplies" over two,
    or an Op of that many arguments). A stateful Op takes its state here (`state`: bytes-
    like, a NumPy scalar or array, copied now), which the iterator carries into each call.
    value_type: its element type where it is a component and the base is a zip."""

    _iterator_kind = "transform"

    def __init__(self, base, op, value_type=None, state=None):
        self._state = _state_bytes(op, state, "TransformIterator state")
        self._op = op
        self._counting = None
        if value_type is not None:
            self._type = _type_of(value_type, "TransformIterator value_type")
        if isinstance(base, CountingIterator) and value_type is None:
            self._counting = base
            self._value = base._value
        elif isinstance(base, _Iterator):
            self._components = (base,)
            if value_type is None and not isinstance(base, ZipIterator):
                self._type = base._value_type()
        else:
            if value_type is not None:
                raise ValueError("TransformIterator value_type: only over an iterator (over an array it is the array's)")
            self._base = _array(base, "TransformIterator base")
            self._type = _type_of(base, "TransformIterator base")

    def _value_type(self):
        return self._counting._type if self._counting is not None else getattr(self, "_type", None)

    def _spec(self, operators: dict) -> str:
        op = _op_text(self._op, operators)
        if self._counting is not None:
            return f"transform({op},{self._counting._spec(operators)})"
        if self._components:
            base = self._components[0]
            named = getattr(self, "_type", None)
            if not isinstance(base, ZipIterator) and named == base._value_type():
                named = None
            return f"transform({op},{self._components[0]._spec(operators)}" + (f",{named})" if named else ")")
        return f"transform({op},{self._type})"



class TransformOutputIterator(_Iterator):
    """As d_out: writes op(x) to array[i] for the i-th result x (op unary, applied to the
    algorithm's values; its result stored in the array's type). A stateful Op takes its
    state here (`state`, as TransformIterator's)."""

    _iterator_kind = "transform"

    def __init__(self, array, op, state=None):
        self._state = _state_bytes(op, state, "TransformOutputIterator state")
        self._op = op
        self._base = _array(array, "TransformOutputIterator array")
        self._type = _type_of(array, "TransformOutputIterator array")

    def _spec(self, operators: dict) -> str:
        return f"transform({_op_text(self._op, operators)},{self._type})"


class DiscardIterator(_Iterator):
    """As d_out: drops every result (e.g. a reduction run for its side effects). The
    argument, cuda.compute's reference iterator, is accepted and not needed."""

    _iterator_kind = "discard"

    def __init__(self, reference=None):
        del reference

    def _spec(self, operators: dict) -> str:
        return "discard"


class ShuffleIterator(_Iterator):
    """A pseudo-random permutation of 0 .. num_items - 1 that `seed` fixes (the same seed
    gives the same order): element i is P(i), as int64. Read over exactly num_items
    items (its length, the default num_items)."""

    _iterator_kind = "shuffle"

    def __init__(self, num_items, seed):
        import numpy

        if isinstance(num_items, bool) or not isinstance(num_items, (int, numpy.integer)) or num_items < 0:
            raise ValueError(f"ShuffleIterator num_items: a non-negative integer, got {num_items!r}")
        if isinstance(seed, bool) or not isinstance(seed, (int, numpy.integer)) or not 0 <= seed < 2**64:
            raise ValueError(f"ShuffleIterator seed: an integer in [0, 2**64), got {seed!r}")
        self._num_items = int(num_items)
        self._seed = int(seed)
        self._type = "int64"

    def _length(self, what: str):
        return self._num_items

    def _spec(self, operators: dict) -> str:
        return f"shuffle({self._type})"


class ZipIterator(_Nested):
    """Element i: the struct of its components' elements i (each a device array or an
    iterator; at most 8). As d_out, component k takes field k of each result.
    value_type: the struct (cccl_cache.gpu_struct or its dtype), needed only where no
    array of it is beside the zip (a zip read into a zip)."""

    _iterator_kind = "zip"

    def __init__(self, *components, value_type=None):
        if len(components) == 1 and isinstance(components[0], (list, tuple)):
            components = tuple(components[0])  # cuda.compute also takes one sequence
        if not components:
            raise ValueError("ZipIterator: give at least one component")
        for k, c in enumerate(components):
            if isinstance(c, ZipIterator):
                raise TypeError(f"ZipIterator component {k}: a zip inside a zip (list its components instead)")
            if not isinstance(c, _Iterator):
                _array(c, f"ZipIterator component {k}")
        self._components = tuple(components)
        if value_type is not None:
            self._type = _type_of(value_type, "ZipIterator value_type")

    def _spec(self, operators: dict) -> str:
        parts = [_component_spec(c, operators, f"ZipIterator component {k}") for k, c in enumerate(self._components)]
        return f"zip({','.join(parts)})"


__all__ = ["ConstantIterator", "CountingIterator", "DiscardIterator", "PermutationIterator", "ReverseIterator",
           "ShuffleIterator", "TransformIterator", "TransformOutputIterator", "ZipIterator"]
