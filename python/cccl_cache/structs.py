"""Struct element types from NumPy structured dtypes.

``gpu_struct(name, fields)`` makes the struct ``name`` with the fields of a NumPy dtype
laid out as C lays them out (``align=True``): its CUDA C++ definition is generated from
the fields, and its size and alignment are the dtype's. Device arrays of that dtype
(``cupy.asarray(numpy_structured_array)``, or anything whose __cuda_array_interface__
has typestr ``|V<size>`` and a ``dtype`` attribute equal to it) then stand for arrays of
the struct in the factories and one-shot functions that take structs (reduce_into,
merge_sort, select); a custom operator's source names the struct by ``name``. The name,
definition, size and alignment are part of the spec and its key. NumPy's complex64 and
complex128 are predefined as the structs ``complex64`` and ``complex128`` of ``real`` and
``imag``.
"""

from __future__ import annotations

# The CUDA C++ spelling of each field type a struct may hold.
_CUDA_NAMES = {
    "int8": "signed char", "int16": "short", "int32": "int", "int64": "long long",
    "uint8": "unsigned char", "uint16": "unsigned short", "uint32": "unsigned int",
    "uint64": "unsigned long long", "float32": "float", "float64": "double", "bool": "bool",
}

_by_dtype: dict = {}  # registered structs by their NumPy dtype
_by_text: dict = {}   # and by their spec text "name:size/alignment" (one per name)

# NumPy's complex types as structs of two fields (C's and CUDA's layout of a complex):
# arrays of complex64 / complex128 are arrays of these, for the algorithms that take
# structs with a custom operator, e.g.
#   __device__ complex64 cadd(complex64 a, complex64 b) { return {a.real + b.real, a.imag + b.imag}; }
# Initial values are NumPy scalars of the type (np.complex64(0)); the one-shot calls take
# Python numbers too (host_init).
_COMPLEX = {"complex64": "float32", "complex128": "float64"}


class Struct:
    """A struct element type: `name`, its NumPy `dtype` (C layout), `definition` (CUDA
    C++), `text` (spec text "name:size/alignment")."""

    def __init__(self, name: str, fields):
        import numpy as np

        if not isinstance(name, str) or not name.isidentifier():
            raise ValueError(f"gpu_struct: the name {name!r} is not an identifier")
        dtype = np.dtype(fields, align=True) if not isinstance(fields, np.dtype) else fields
        if dtype.fields is None:
            raise TypeError(f"gpu_struct: {dtype} is not a structured dtype")
        members = []
        offset, align = 0, 1
        for field, (ftype, at, *_) in sorted(dtype.fields.items(), key=lambda kv: kv[1][1]):
            if ftype.name not in _CUDA_NAMES or ftype.shape:
                raise TypeError(f"gpu_struct: field {field!r} is {ftype}; fields are integer, float or bool scalars")
            offset = -(-offset // ftype.alignment) * ftype.alignment
            if at != offset:
                raise ValueError(f"gpu_struct: field {field!r} is at byte {at}, C puts it at {offset}: "
                                 "give the dtype with align=True")
            members.append(f"{_CUDA_NAMES[ftype.name]} {field};")
            offset += ftype.itemsize
            align = max(align, ftype.alignment)
        size = -(-offset // align) * align
        if dtype.itemsize != size or dtype.alignment != align:
            raise ValueError(f"gpu_struct: {dtype} is {dtype.itemsize} bytes aligned to {dtype.alignment}, "
                             f"C's layout of its fields is {size} aligned to {align}: give align=True")
        self.name = name
        self.dtype = dtype
        self.definition = f"struct {name} {{ {' '.join(members)} }};"
        self.text = f"{name}:{size}/{align}"

    def __repr__(self) -> str:
        return f"Struct({self.text}: {self.definition})"


def gpu_struct(name: str, fields) -> Struct:
    """The struct `name` of `fields` (a list of (field, type) pairs, or a NumPy structured
    dtype in C layout), registered so that arrays of its dtype are arrays of it."""
    s = Struct(name, fields)
    if name in _COMPLEX and s.dtype != _complex_fields(name):
        raise ValueError(f"gpu_struct: {name!r} is NumPy's complex type, the struct (real, imag)")
    other = _by_dtype.get(s.dtype)
    if other is not None and other.name != name:
        raise ValueError(f"gpu_struct: {s.dtype} is already the struct {other.name!r}")
    # A name names one layout: the spec text (name:size/alignment) finds its definition.
    same_name = next((t for t in _by_text.values() if t.name == name), None)
    if same_name is not None and same_name.dtype != s.dtype:
        raise ValueError(f"gpu_struct: {name!r} is already the struct of {same_name.dtype}")
    _by_dtype[s.dtype] = s
    _by_text[s.text] = s
    return s


def _complex_fields(name: str):
    import numpy as np

    return np.dtype([("real", _COMPLEX[name]), ("imag", _COMPLEX[name])], align=True)


def _register_complex() -> None:
    """Registers complex64 and complex128 (see _COMPLEX) on first use."""
    import numpy as np

    for name, part in _COMPLEX.items():
        if np.dtype(name) not in _by_dtype:
            s = gpu_struct(name, [("real", part), ("imag", part)])
            _by_dtype[np.dtype(name)] = s


def struct_of(x) -> Struct | None:
    """The registered struct of a Struct, a dtype or an array's dtype (complex64 and
    complex128 among them); None if none."""
    if isinstance(x, Struct):
        return x
    _register_complex()
    import numpy as np

    dtype = x if isinstance(x, type) else getattr(x, "dtype", x)  # np.complex64, or its arrays
    try:
        return _by_dtype.get(np.dtype(dtype))
    except TypeError:
        return None


def host_init(type_text: str, value):
    """An initial value for items of `type_text` as the one-shot calls take it: a Python
    number for a complex struct becomes that NumPy complex scalar (reduce_into's default
    0 included); any other value as given."""
    s = _by_text.get(type_text)
    if s is None or s.name not in _COMPLEX or isinstance(value, bool) or \
            not isinstance(value, (int, float, complex)):
        return value
    import numpy as np

    return np.dtype(s.name).type(value)


def definitions(fields: dict, operators: dict) -> None:
    """Adds the definition of every struct named among a spec's field values to
    `operators` (where spec text takes a struct's definition)."""
    _register_complex()
    for value in fields.values():
        s = _by_text.get(value)
        if s is not None:
            operators.setdefault(s.name, s.definition)
