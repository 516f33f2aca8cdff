#include "arrays.hpp"

#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include <nanobind/ndarray.h>

#include "cccl_cache/algos/device.hpp"

namespace cccl_cache::python {

namespace {

using algos::name;
using algos::size_of;

[[noreturn]] void type_error(const char* what, const std::string& msg) {
  throw nb::type_error((std::string(what) + ": " + msg).c_str());
}
[[noreturn]] void value_error(const char* what, const std::string& msg) {
  throw nb::value_error((std::string(what) + ": " + msg).c_str());
}

std::string type_name_of(nb::handle obj) {
  return nb::borrow<nb::str>(nb::handle(reinterpret_cast<PyObject*>(Py_TYPE(obj.ptr()))).attr("__qualname__")).c_str();
}

// NumPy's kind letter and byte size -> ours.
std::optional<ScalarType> type_of(char kind, std::size_t bytes) {
  switch (kind) {
    case 'i':
      switch (bytes) { case 1: return ScalarType::int8; case 2: return ScalarType::int16;
                       case 4: return ScalarType::int32; case 8: return ScalarType::int64; }
      break;
    case 'u':
      switch (bytes) { case 1: return ScalarType::uint8; case 2: return ScalarType::uint16;
                       case 4: return ScalarType::uint32; case 8: return ScalarType::uint64; }
      break;
    case 'f':
      switch (bytes) { case 2: return ScalarType::float16; case 4: return ScalarType::float32;
                       case 8: return ScalarType::float64; }
      break;
    case 'b':
      if (bytes == 1) return ScalarType::boolean;
      break;
  }
  return std::nullopt;
}

// The number of elements of `shape` (a sequence of non-negative ints) and whether
// `strides` (None or byte strides) are C-contiguous for it.
std::uint64_t checked_extent(nb::handle shape, nb::handle strides, std::size_t itemsize,
                             const char* what) {
  if (!nb::isinstance<nb::tuple>(shape) && !nb::isinstance<nb::list>(shape))
    value_error(what, "__cuda_array_interface__['shape'] is not a tuple");
  const std::size_t ndim = nb::len(shape);
  std::uint64_t dims[64];
  if (ndim > 64) value_error(what, "more than 64 dimensions");
  std::uint64_t size = 1;
  for (std::size_t i = 0; i < ndim; ++i) {
    std::int64_t d = 0;
    if (!nb::try_cast(shape[i], d) || d < 0)
      value_error(what, "__cuda_array_interface__['shape'] holds a value that is not a size");
    dims[i] = static_cast<std::uint64_t>(d);
    if (d != 0 && size > std::numeric_limits<std::uint64_t>::max() / dims[i])
      value_error(what, "shape too large");
    size *= dims[i];
  }
  if (strides.is_none() || size == 0) return size;
  if (!nb::isinstance<nb::tuple>(strides) || nb::len(strides) != ndim)
    value_error(what, "__cuda_array_interface__['strides'] does not match its shape");
  std::int64_t expect = static_cast<std::int64_t>(itemsize);
  for (std::size_t i = ndim; i-- > 0;) {
    std::int64_t s = 0;
    if (!nb::try_cast(strides[i], s)) value_error(what, "malformed strides");
    if (dims[i] != 1 && s != expect)
      value_error(what, std::string("not C-contiguous (strides ") + nb::repr(strides).c_str() +
                            std::string("); pass a contiguous copy"));
    expect *= static_cast<std::int64_t>(dims[i]);
  }
  return size;
}

// The interface's keys, interned once and kept for the process (never released: no
// Python call after the interpreter's end), so that reading an interface allocates nothing.
struct CaiKeys {
  PyObject* mask = PyUnicode_InternFromString("mask");
  PyObject* typestr = PyUnicode_InternFromString("typestr");
  PyObject* shape = PyUnicode_InternFromString("shape");
  PyObject* strides = PyUnicode_InternFromString("strides");
  PyObject* data = PyUnicode_InternFromString("data");
};

// d[key] borrowed, or a null handle when absent.
nb::handle item(nb::handle d, PyObject* key) {
  PyObject* v = PyDict_GetItemWithError(d.ptr(), key);
  if (v == nullptr && PyErr_Occurred()) throw nb::python_error();
  return v;
}

DeviceArray from_cai(nb::handle cai, const char* what, bool writable) {
  static const CaiKeys keys;  // first call holds the GIL
  if (!nb::isinstance<nb::dict>(cai)) value_error(what, "__cuda_array_interface__ is not a dict");
  nb::handle mask = item(cai, keys.mask);
  if (mask.is_valid() && !mask.is_none()) type_error(what, "masked arrays are not supported");
  nb::handle typestr_obj = item(cai, keys.typestr), shape = item(cai, keys.shape),
             data = item(cai, keys.data), strides = item(cai, keys.strides);
  if (!typestr_obj.is_valid() || !shape.is_valid() || !data.is_valid())
    value_error(what, "__cuda_array_interface__ lacks typestr, shape or data");
  if (!strides.is_valid()) strides = Py_None;
  const char* typestr = nullptr;
  if (!nb::try_cast(typestr_obj, typestr) || std::strlen(typestr) < 3)
    value_error(what, "__cuda_array_interface__['typestr'] is not a type string");
  DeviceArray a;
  a.type_name = nullptr;
  const char order = typestr[0], kind = typestr[1];
  char* end = nullptr;
  const unsigned long bytes = std::strtoul(typestr + 2, &end, 10);
  if (end == typestr + 2 || *end != '\0' || bytes == 0 || bytes > 64)
    value_error(what, std::string("__cuda_array_interface__['typestr'] '") + typestr + "' is malformed");
  a.itemsize = bytes;
  if (order != '>' || bytes == 1) a.type = type_of(kind, bytes);
  a.type_name = kind == 'b' ? "bool" : kind == 'c' ? "complex" : kind == 'V' ? "void" : "other";
  if (a.type) a.type_name = name(*a.type).data();
  a.size = checked_extent(shape, strides, a.itemsize, what);
  std::uintptr_t ptr = 0;
  bool readonly = false;
  if (!nb::isinstance<nb::tuple>(data) || nb::len(data) != 2 || !nb::try_cast(data[0], ptr) ||
      !nb::try_cast(data[1], readonly))
    value_error(what, "__cuda_array_interface__['data'] is not (pointer, read_only)");
  if (writable && readonly) value_error(what, "the array is read-only");
  a.data = reinterpret_cast<void*>(ptr);
  return a;
}

DeviceArray from_dlpack(nb::handle obj, const char* what) {
  nb::ndarray<> t;
  if (!nb::try_cast(obj, t, /*convert=*/false))
    type_error(what, "expected a device array (an object with __cuda_array_interface__ or "
                     "__dlpack__), got " + type_name_of(obj));
  const int dev = t.device_type();
  if (dev != nb::device::cuda::value && dev != nb::device::cuda_managed::value)
    type_error(what, "a host array (" + type_name_of(obj) +
                         "); cccl_cache runs on device memory (CuPy, PyTorch CUDA, Numba device arrays)");
  DeviceArray a;
  a.device = t.device_id();
  const auto dt = t.dtype();
  a.itemsize = (dt.bits * dt.lanes + 7) / 8;
  if (dt.lanes == 1) {
    using Code = nb::dlpack::dtype_code;
    switch (static_cast<Code>(dt.code)) {
      case Code::Int: a.type = type_of('i', a.itemsize); break;
      case Code::UInt: a.type = type_of('u', a.itemsize); break;
      case Code::Float: a.type = type_of('f', a.itemsize); break;
      case Code::Bfloat: if (dt.bits == 16) a.type = ScalarType::bfloat16; break;
      case Code::Bool: a.type = type_of('b', a.itemsize); break;
      default: break;
    }
  }
  a.type_name = a.type ? name(*a.type).data()
                : dt.code == static_cast<std::uint8_t>(nb::dlpack::dtype_code::Bool) ? "bool" : "other";
  std::uint64_t size = 1;
  std::int64_t expect = 1;
  for (std::size_t i = t.ndim(); i-- > 0;) {
    if (t.shape(i) != 1 && t.stride(i) != expect)
      value_error(what, "not C-contiguous; pass a contiguous copy");
    expect *= static_cast<std::int64_t>(t.shape(i));
    size *= t.shape(i);
  }
  a.size = size;
  a.data = t.data();
  return a;
}

std::string cuda_error_text(const Error& e) { return e.message; }

}  // namespace

std::optional<ScalarType> type_of_typestr(const char* typestr) {
  if (std::strlen(typestr) < 3) return std::nullopt;
  char* end = nullptr;
  const unsigned long bytes = std::strtoul(typestr + 2, &end, 10);
  if (*end != '\0' || (typestr[0] == '>' && bytes != 1)) return std::nullopt;
  return type_of(typestr[1], bytes);
}

DeviceArray device_array(nb::handle obj, const char* what, bool writable) {
  static PyObject* const cai_name = PyUnicode_InternFromString("__cuda_array_interface__");
  if (obj.is_none()) type_error(what, "expected a device array, got None");
  if (PyObject* cai = PyObject_GetAttr(obj.ptr(), cai_name); cai != nullptr) {
    nb::object owned = nb::steal(cai);
    if (!owned.is_none()) return from_cai(owned, what, writable);
  } else {
    // Producers refuse the interface for what it cannot describe (PyTorch: CPU tensors,
    // bfloat16) but may still offer DLPack.
    nb::python_error refused;  // takes the pending exception
    if (!refused.matches(PyExc_AttributeError) && !nb::hasattr(obj, "__dlpack__")) throw refused;
  }
  return from_dlpack(obj, what);
}

bool is_device_value(nb::handle obj) {
  if (obj.is_none()) return false;
  if (nb::hasattr(obj, "__cuda_array_interface__")) return true;
  if (!nb::hasattr(obj, "__dlpack_device__")) return false;
  int type = 0;
  nb::object where = obj.attr("__dlpack_device__")();
  if (!nb::isinstance<nb::tuple>(where) || nb::len(where) < 1 || !nb::try_cast(where[0], type)) return false;
  return type == nb::device::cuda::value || type == nb::device::cuda_managed::value;
}

void check_type(const DeviceArray& a, ScalarType want, const char* what) {
  if (a.type == want) return;
  type_error(what, std::string(a.type_name) + " array, the spec needs " + std::string(name(want)));
}

void check_size(const DeviceArray& a, std::uint64_t n, const char* what) {
  if (a.size >= n) return;
  value_error(what, std::to_string(a.size) + " items, needs at least " + std::to_string(n));
}

void check_device(const DeviceArray& a, int device, const char* what) {
  if (a.size == 0) return;
  int on = 0;
  if (a.device) {
    on = *a.device;
  } else {
    auto d = algos::pointer_device(a.data);
    if (!d) value_error(what, cuda_error_text(d.error()));
    on = *d;
  }
  if (on != device)
    value_error(what, "memory of device " + std::to_string(on) + ", the executable is bound to device " +
                          std::to_string(device));
}

DeviceArray checked_array(nb::handle obj, const char* what, bool writable, ScalarType want,
                          std::uint64_t n, int device) {
  DeviceArray a = device_array(obj, what, writable);
  check_type(a, want, what);
  check_size(a, n, what);
  check_device(a, device, what);
  return a;
}

DeviceArray checked_array(nb::handle obj, const char* what, bool writable,
                          const algos::ElementType& want, std::uint64_t n, int device) {
  if (!want.is_struct()) return checked_array(obj, what, writable, want.scalar, n, device);
  DeviceArray a = device_array(obj, what, writable);
  if (a.type || a.itemsize != want.layout.size)
    type_error(what, std::string(a.type_name) + " array of " + std::to_string(a.itemsize) +
                         "-byte items, the spec needs struct " + want.layout.name + " (" +
                         std::to_string(want.layout.size) +
                         " bytes): an array of its structured dtype (cccl_cache.gpu_struct)");
  check_size(a, n, what);
  check_device(a, device, what);
  return a;
}

CUstream stream_handle(nb::handle obj) {
  if (obj.is_none()) return nullptr;
  std::uintptr_t h = 0;
  if (nb::isinstance<nb::int_>(obj) && nb::try_cast(obj, h)) return reinterpret_cast<CUstream>(h);
  if (nb::hasattr(obj, "__cuda_stream__")) {
    nb::object p = obj.attr("__cuda_stream__");
    if (PyCallable_Check(p.ptr())) p = p();
    if (nb::isinstance<nb::tuple>(p) && nb::len(p) == 2 && nb::try_cast(p[1], h))
      return reinterpret_cast<CUstream>(h);
    throw nb::type_error("stream: __cuda_stream__ did not give (version, handle)");
  }
  for (const char* attr : {"cuda_stream", "ptr"}) {
    if (nb::hasattr(obj, attr) && nb::try_cast(obj.attr(attr), h)) return reinterpret_cast<CUstream>(h);
  }
  throw nb::type_error(("stream: expected None, an int handle or an object with __cuda_stream__, got " +
                        type_name_of(obj)).c_str());
}

namespace {

template <class T>
void put(HostScalar& s, T v) {
  std::memcpy(s.bytes, &v, sizeof v);
}

std::uint16_t to_bfloat16(float f) {
  std::uint32_t u = 0;
  std::memcpy(&u, &f, 4);
  if (std::isnan(f)) return static_cast<std::uint16_t>((u >> 16) | 0x40);
  u += 0x7fff + ((u >> 16) & 1);  // round to nearest even
  return static_cast<std::uint16_t>(u >> 16);
}

void put_float(HostScalar& s, ScalarType t, double v) {
  switch (t) {
    case ScalarType::float64: put(s, v); break;
    case ScalarType::float32: put(s, static_cast<float>(v)); break;
    case ScalarType::float16: put(s, static_cast<_Float16>(v)); break;
    case ScalarType::bfloat16: put(s, to_bfloat16(static_cast<float>(v))); break;
    default: break;
  }
}

template <class T>
bool put_int(HostScalar& s, long long v, unsigned long long u, bool negative) {
  if constexpr (std::is_signed_v<T>) {
    if (negative ? v < std::numeric_limits<T>::min() : u > static_cast<unsigned long long>(std::numeric_limits<T>::max()))
      return false;
    put(s, static_cast<T>(negative ? v : static_cast<long long>(u)));
  } else {
    if (negative || u > std::numeric_limits<T>::max()) return false;
    put(s, static_cast<T>(u));
  }
  return true;
}

}  // namespace

HostScalar host_scalar(nb::handle obj, ScalarType type, const char* what) {
  HostScalar s;
  if (obj.is_none()) type_error(what, "expected a value of type " + std::string(name(type)) + ", got None");
  if (nb::hasattr(obj, "dtype") && nb::hasattr(obj, "tobytes") && !nb::hasattr(obj, "__cuda_array_interface__")) {
    nb::object dtype = obj.attr("dtype");
    const char* typestr = "";
    nb::object ts = nb::getattr(dtype, "str", nb::none());
    if (!nb::try_cast(ts, typestr)) type_error(what, "unknown dtype " + std::string(nb::repr(dtype).c_str()));
    auto t = type_of_typestr(typestr);
    const bool bf16 = std::string(nb::str(dtype).c_str()) == "bfloat16";  // ml_dtypes
    if (!(t == type || (bf16 && type == ScalarType::bfloat16)))
      type_error(what, std::string(nb::str(dtype).c_str()) + " value, the spec needs " + std::string(name(type)));
    nb::bytes b = nb::borrow<nb::bytes>(obj.attr("tobytes")());
    if (b.size() != size_of(type)) value_error(what, "expected one element");
    std::memcpy(s.bytes, b.c_str(), b.size());
    return s;
  }
  // A bool value: True or False, or the ints 1 and 0 (reduce_into's default h_init is 0).
  if (type == ScalarType::boolean) {
    long long v = -1;
    if (nb::isinstance<nb::bool_>(obj)) {
      v = nb::cast<bool>(obj) ? 1 : 0;
    } else if (!nb::isinstance<nb::int_>(obj)) {
      type_error(what, "expected True or False for a bool value, got " + type_name_of(obj));
    } else if (!nb::try_cast(obj, v) || (v != 0 && v != 1)) {
      value_error(what, std::string(nb::repr(obj).c_str()) + " is not a bool value (0 or 1)");
    }
    put(s, v == 1);
    return s;
  }
  if (nb::isinstance<nb::float_>(obj)) {
    if (!algos::is_float(type))
      type_error(what, "a float for an " + std::string(name(type)) + " value");
    put_float(s, type, nb::cast<double>(obj));
    return s;
  }
  if (nb::isinstance<nb::int_>(obj)) {
    if (algos::is_float(type)) {
      put_float(s, type, nb::cast<double>(nb::float_(obj)));
      return s;
    }
    long long v = 0;
    unsigned long long u = 0;
    bool ok = nb::try_cast(obj, v);
    const bool negative = ok && v < 0;
    if (ok && !negative) u = static_cast<unsigned long long>(v);
    if (!ok) ok = nb::try_cast(obj, u);  // above INT64_MAX
    if (ok) {
      switch (type) {
        case ScalarType::int8: ok = put_int<std::int8_t>(s, v, u, negative); break;
        case ScalarType::int16: ok = put_int<std::int16_t>(s, v, u, negative); break;
        case ScalarType::int32: ok = put_int<std::int32_t>(s, v, u, negative); break;
        case ScalarType::int64: ok = put_int<std::int64_t>(s, v, u, negative); break;
        case ScalarType::uint8: ok = put_int<std::uint8_t>(s, v, u, negative); break;
        case ScalarType::uint16: ok = put_int<std::uint16_t>(s, v, u, negative); break;
        case ScalarType::uint32: ok = put_int<std::uint32_t>(s, v, u, negative); break;
        case ScalarType::uint64: ok = put_int<std::uint64_t>(s, v, u, negative); break;
        default: ok = false; break;
      }
    }
    if (!ok) {
      PyErr_SetString(PyExc_OverflowError, (std::string(what) + ": " + nb::repr(obj).c_str() +
                                            " does not fit " + std::string(name(type))).c_str());
      throw nb::python_error();
    }
    return s;
  }
  type_error(what, "expected a number or a NumPy scalar, got " + type_name_of(obj));
}

HostValue host_value(nb::handle obj, const algos::ElementType& type, const char* what) {
  HostValue s;
  if (!type.is_struct()) {
    const HostScalar scalar = host_scalar(obj, type.scalar, what);
    std::memcpy(s.bytes, scalar.bytes, sizeof scalar.bytes);
    return s;
  }
  const std::string want = "struct " + type.layout.name + " (" + std::to_string(type.layout.size) + " bytes)";
  if (obj.is_none() || !nb::hasattr(obj, "tobytes") || nb::hasattr(obj, "__cuda_array_interface__"))
    type_error(what, "expected a host value of " + want + " (a NumPy structured scalar), got " + type_name_of(obj));
  nb::object raw = obj.attr("tobytes")();
  if (!nb::isinstance<nb::bytes>(raw)) type_error(what, "tobytes() gave no bytes");
  nb::bytes b = nb::borrow<nb::bytes>(raw);
  if (b.size() != type.layout.size)
    value_error(what, std::to_string(b.size()) + " bytes, expected one " + want);
  std::memcpy(s.bytes, b.c_str(), b.size());
  return s;
}

}  // namespace cccl_cache::python
