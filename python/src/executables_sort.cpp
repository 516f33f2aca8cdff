// The sorts as Python callables: merge sort, radix sort (plain, argsort, DoubleBuffers),
// segmented sort.
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <utility>

#include "calls.hpp"

namespace cccl_cache::python {

namespace {

using namespace nb::literals;

// --- radix sort -------------------------------------------------------------------
std::pair<int, int> bits_of(const rs::Executable& e, nb::handle begin, nb::handle end) {
  int b = begin.is_none() ? 0 : nb::cast<int>(begin);
  int x = end.is_none() ? e.key_bits() : nb::cast<int>(end);
  take(e.check_bits(b, x));
  return {b, x};
}

// A DoubleBuffer argument (cccl_cache.DoubleBuffer, or any object shaped as cuda.compute's:
// `d_buffers` holding two arrays, an int `selector`). Asked on every call, size queries
// too, mostly of plain arrays, where a missing attribute may cost an AttributeError raised
// and cleared (CuPy's ndarray gets attributes through Cython's own lookup). Instances of a
// type without a __dict__ (CuPy's ndarray) have only their type's attributes, so the
// answer "not a DoubleBuffer" is kept for the last such type (a reference held and never
// dropped, so that no static destructor runs after the interpreter; the GIL guards it).
bool is_double_buffer(nb::handle obj) {
  static PyTypeObject* plain_type = nullptr;
  if (obj.is_none()) return false;
  PyTypeObject* type = Py_TYPE(obj.ptr());
  if (type == plain_type) return false;
  const bool db = nb::hasattr(obj, "d_buffers") && nb::hasattr(obj, "selector");
  if (!db && type->tp_dictoffset == 0) {
    Py_INCREF(reinterpret_cast<PyObject*>(type));
    Py_XDECREF(reinterpret_cast<PyObject*>(plain_type));
    plain_type = type;
  }
  return db;
}

struct DoubleBufferArg {
  nb::handle obj;
  nb::object buffers[2];
  int selector;
};

DoubleBufferArg double_buffer_arg(nb::handle obj, const char* what) {
  DoubleBufferArg d{obj, {}, 0};
  nb::object list = nb::getattr(obj, "d_buffers");
  if (!nb::isinstance<nb::sequence>(list) || nb::len(list) != 2)
    throw nb::type_error((std::string(what) + ": d_buffers must hold two arrays").c_str());
  d.buffers[0] = list[0];
  d.buffers[1] = list[1];
  nb::object sel = nb::getattr(obj, "selector");
  if (!nb::isinstance<nb::int_>(sel))
    throw nb::type_error((std::string(what) + ": selector must be an int").c_str());
  d.selector = nb::cast<int>(sel);  // OverflowError beyond int
  if (d.selector != 0 && d.selector != 1)
    throw nb::value_error((std::string(what) + ": selector is " + std::to_string(d.selector) +
                           ", not 0 or 1").c_str());
  return d;
}

// The double-buffer form: d_in_keys (and d_in_values) DoubleBuffers, the outputs None;
// both buffers of each pair checked (the sort writes either); sets the selectors.
void radix_sort_double_buffer(const rs::Executable& e, std::size_t need, std::uint64_t n, nb::handle temp,
                              nb::handle keys, nb::handle keys_out, nb::handle values, nb::handle values_out,
                              int lo, int hi, nb::handle stream) {
  const auto& spec = e.spec();
  const int dev = e.device();
  require_none(keys_out, "d_out_keys", "d_in_keys is a DoubleBuffer: the result stays in it");
  require_none(values_out, "d_out_values", "d_in_keys is a DoubleBuffer: the result stays in it");
  auto [d_temp, have] = temp_array(temp, need, dev);
  const DoubleBufferArg k = double_buffer_arg(keys, "d_in_keys");
  rs::DoubleBuffers b;
  b.selector = k.selector;
  static constexpr const char* kKeyNames[2] = {"d_in_keys.d_buffers[0]", "d_in_keys.d_buffers[1]"};
  static constexpr const char* kValueNames[2] = {"d_in_values.d_buffers[0]", "d_in_values.d_buffers[1]"};
  for (int i = 0; i < 2; ++i) b.keys[i] = checked_array(k.buffers[i], kKeyNames[i], true, spec.key_type, n, dev).data;
  std::optional<DoubleBufferArg> v;
  if (spec.keys_only()) {
    require_none(values, "d_in_values", "the spec sorts keys only");
  } else {
    if (!is_double_buffer(values))
      throw nb::type_error("d_in_values: a DoubleBuffer, as d_in_keys is one");
    v = double_buffer_arg(values, "d_in_values");
    if (v->selector != k.selector)
      throw nb::value_error("d_in_values: selector differs from d_in_keys' (they sort together)");
    for (int i = 0; i < 2; ++i)
      b.values[i] = checked_array(v->buffers[i], kValueNames[i], true, spec.value_type, n, dev).data;
  }
  // An argsort (values_in=counting) writes the indices 0, 1, ... into d_in_values' current
  // buffer first.
  run_unlocked(stream, "radix sort", [&](CUstream s) -> CUresult {
    if (spec.values_in.is_pointer()) return e(d_temp, have, b, n, lo, hi, s);
    return e(d_temp, have, b, algos::IteratorValue::counting(std::int64_t{0}), n, lo, hi, s);
  });
  nb::setattr(keys, "selector", nb::int_(b.selector));
  if (v) nb::setattr(values, "selector", nb::int_(b.selector));
}

// The plain form of an argsort (values_in=counting): d_in_values None (indices from 0) or
// the first index; d_out_keys None puts the sorted keys at the front of temp storage:
// [keys: n * key size rounded up to 256 | the sort's].
std::size_t radix_argsort_call(const rs::Executable& e, std::size_t sort_bytes, nb::handle temp,
                               nb::handle keys_in, nb::handle keys_out, nb::handle start,
                               nb::handle indices_out, std::uint64_t n, nb::handle begin_bit,
                               nb::handle end_bit, nb::handle stream) {
  const auto& spec = e.spec();
  std::size_t keys_bytes = 0;
  if (keys_out.is_none()) {
    const std::size_t size = algos::size_of(spec.key_type);
    if (n > (SIZE_MAX - 255) / size) throw nb::value_error("num_items: the keys do not fit in temp storage");
    keys_bytes = (n * size + 255) / 256 * 256;
  }
  const std::size_t bytes = keys_bytes + sort_bytes;
  if (temp.is_none()) return bytes;
  const auto [lo, hi] = bits_of(e, begin_bit, end_bit);
  const int dev = e.device();
  auto [d_temp, have] = temp_array(temp, bytes, dev);
  void* ki = checked_array(keys_in, "d_in_keys", false, spec.key_type, n, dev).data;
  void* ko = keys_out.is_none() ? d_temp
                                : checked_array(keys_out, "d_out_keys", true, spec.key_type, n, dev).data;
  void* io = checked_array(indices_out, "d_out_values", true, spec.value_type, n, dev).data;
  const HostScalar first = start.is_none() ? HostScalar{} : host_scalar(start, spec.value_type.scalar, "d_in_values");
  run_unlocked(stream, "radix argsort", [&](CUstream s) -> CUresult {
    std::size_t rest = have - keys_bytes;
    return e(static_cast<unsigned char*>(d_temp) + keys_bytes, rest, ki, ko,
             algos::IteratorValue::counting(first), io, n, lo, hi, s);
  });
  return bytes;
}

std::size_t radix_sort_call(const Bound<rs::Executable>& b, nb::handle temp, nb::handle keys_in,
                            nb::handle keys_out, nb::handle values_in, nb::handle values_out,
                            std::uint64_t n, nb::handle begin_bit, nb::handle end_bit, nb::handle stream) {
  const rs::Executable& e = *b.exe;
  const bool double_buffer = is_double_buffer(keys_in);
  std::size_t bytes = (begin_bit.is_none() && end_bit.is_none() && !double_buffer)
                          ? e.temp_storage_bytes(n)
                          : [&] { auto [lo, hi] = bits_of(e, begin_bit, end_bit);
                                  return e.temp_storage_bytes(n, lo, hi, double_buffer); }();
  if (!e.spec().values_in.is_pointer() && !double_buffer)
    return radix_argsort_call(e, bytes, temp, keys_in, keys_out, values_in, values_out, n, begin_bit,
                              end_bit, stream);
  if (temp.is_none()) return bytes;
  const auto [lo, hi] = bits_of(e, begin_bit, end_bit);
  if (double_buffer) {
    radix_sort_double_buffer(e, bytes, n, temp, keys_in, keys_out, values_in, values_out, lo, hi, stream);
    return bytes;
  }
  run_sort(e, bytes, n, temp, keys_in, keys_out, values_in, values_out, stream, "radix sort",
           [&, lo = lo, hi = hi](void* d_temp, std::size_t& have, const SortArrays& a, CUstream s) {
             return e(d_temp, have, a.keys_in, a.keys_out, a.values_in, a.values_out, n, lo, hi, s);
           });
  return bytes;
}

// --- segmented sort: each segment of keys (and values) sorted in place of the output ---
std::size_t segmented_sort_call(const Bound<ss::Executable>& b, nb::handle temp, nb::handle keys_in,
                                nb::handle keys_out, nb::handle values_in, nb::handle values_out,
                                std::uint64_t n, std::uint64_t num_segments, nb::handle begin, nb::handle end,
                                nb::handle stream) {
  const ss::Executable& e = *b.exe;
  const std::size_t bytes = e.temp_storage_bytes(n, num_segments);
  if (temp.is_none()) return bytes;
  const int dev = e.device();
  const auto& spec = e.spec();
  // Each offset an array or, for a spec with that iterator, its values.
  ZipParts parts[2];
  const algos::Input first = call_input(begin, spec.begin_offsets, spec.offset_type, num_segments,
                                        dev, parts[0], "start_offsets_in");
  const algos::Input last = call_input(end, spec.end_offsets, spec.offset_type, num_segments, dev,
                                       parts[1], "end_offsets_in");
  run_sort(e, bytes, n, temp, keys_in, keys_out, values_in, values_out, stream, "segmented sort",
           [&](void* d_temp, std::size_t& have, const SortArrays& a, CUstream s) {
             return e(d_temp, have, a.keys_in, a.keys_out, a.values_in, a.values_out, n, num_segments,
                      first, last, s);
           });
  return bytes;
}

// --- merge sort: the inputs arrays or iterators, the outputs arrays ------------------
std::size_t merge_sort_call(const Bound<ms::Executable>& b, nb::handle temp, nb::handle keys_in,
                            nb::handle values_in, nb::handle keys_out, nb::handle values_out,
                            std::uint64_t n, nb::handle stream, nb::handle op_state) {
  const ms::Executable& e = *b.exe;
  std::size_t bytes = e.temp_storage_bytes(n);
  if (temp.is_none()) return bytes;
  const auto& spec = e.spec();
  const int dev = e.device();
  auto [d_temp, have] = temp_array(temp, bytes, dev);
  ZipParts parts[2];
  const algos::Input ki = call_input(keys_in, spec.keys_in, spec.key_type, n, dev, parts[0], "d_in_keys");
  void* ko = checked_array(keys_out, "d_out_keys", true, spec.key_type, n, dev).data;
  algos::Input vi = static_cast<const void*>(nullptr);
  void* vo = nullptr;
  if (spec.keys_only()) {
    require_no_values(values_in, values_out);
  } else {
    vi = call_input(values_in, spec.values_in, spec.value_type, n, dev, parts[1], "d_in_values");
    vo = checked_array(values_out, "d_out_values", true, spec.value_type, n, dev).data;
  }
  const HostOpState state(op_state, spec.comparator);
  run_unlocked(stream, "merge sort", [&](CUstream s) -> CUresult {
    return e(d_temp, have, ki, vi, ko, vo, n, s, state.get());
  });
  return bytes;
}

}  // namespace

void bind_sorts(nb::module_& m) {
  const auto none = nb::none();
  common<ms::Executable>(m, "MergeSort", "A merge sort bound to a device (cub::DeviceMergeSort).")
      .def("__call__", &merge_sort_call, "temp_storage"_a.none(), "d_in_keys"_a.none(), "d_in_values"_a.none(),
           "d_out_keys"_a.none(), "d_out_values"_a.none(), "num_items"_a, "stream"_a.none() = none,
           "op_state"_a.none() = none,
           "temp_storage=None: returns the bytes a run needs. Else sorts num_items keys (and "
           "values) into the outputs (in place if they alias) on `stream`; returns the same bytes. "
           "op_state: a stateful comparator's state (bytes-like, NumPy scalar or array).")
      .def("temp_storage_bytes", [](const Bound<ms::Executable>& b, std::uint64_t n) { return b.exe->temp_storage_bytes(n); },
           "num_items"_a);

  common<rs::Executable>(m, "RadixSort", "A radix sort bound to a device (cub::DeviceRadixSort).")
      .def("__call__", &radix_sort_call, "temp_storage"_a.none(), "d_in_keys"_a.none(), "d_out_keys"_a.none(),
           "d_in_values"_a.none(), "d_out_values"_a.none(), "num_items"_a, "begin_bit"_a.none() = none,
           "end_bit"_a.none() = none, "stream"_a.none() = none,
           "temp_storage=None: returns the bytes a run needs. Else sorts num_items keys (and "
           "values) by bits [begin_bit, end_bit) into the outputs (inputs unchanged); returns the bytes. "
           "With DoubleBuffers for d_in_keys (and d_in_values) and None for the outputs, sorts within "
           "them (less temp storage) and sets their selector to the buffer holding the result. "
           "An argsort spec (values_in=counting) sorts the indices d_in_values, d_in_values + 1, ... "
           "(None: from 0) with the keys; d_out_keys None keeps its sorted keys in temp storage "
           "(counted in the bytes); with DoubleBuffers the indices start at 0 in d_in_values.current().")
      .def("temp_storage_bytes",
           [](const Bound<rs::Executable>& b, std::uint64_t n, nb::handle begin_bit, nb::handle end_bit,
              bool double_buffer) {
             const auto [lo, hi] = bits_of(*b.exe, begin_bit, end_bit);
             return b.exe->temp_storage_bytes(n, lo, hi, double_buffer);
           },
           "num_items"_a, "begin_bit"_a.none() = none, "end_bit"_a.none() = none, "double_buffer"_a = false,
           "The bytes a sort of num_items by bits [begin_bit, end_bit) needs; double_buffer: in DoubleBuffers.")
      .def_prop_ro("key_bits", [](const Bound<rs::Executable>& b) { return b.exe->key_bits(); });

  common<ss::Executable>(m, "SegmentedSort",
                         "A segmented sort bound to a device (cub::DeviceSegmentedSort).")
      .def("__call__", &segmented_sort_call, "temp_storage"_a.none(), "d_in_keys"_a.none(),
           "d_out_keys"_a.none(), "d_in_values"_a.none(), "d_out_values"_a.none(), "num_items"_a,
           "num_segments"_a, "start_offsets_in"_a.none(), "end_offsets_in"_a.none(), "stream"_a.none() = none,
           "temp_storage=None: returns the bytes a run needs. Else sorts each segment "
           "[start_offsets_in[i], end_offsets_in[i]) of the keys (and values), i < num_segments, "
           "stably into the same positions of the outputs (inputs unchanged, items outside every "
           "segment unwritten); returns the bytes.")
      .def("temp_storage_bytes",
           [](const Bound<ss::Executable>& b, std::uint64_t n, std::uint64_t num_segments) {
             return b.exe->temp_storage_bytes(n, num_segments);
           },
           "num_items"_a, "num_segments"_a);
}

}  // namespace cccl_cache::python
