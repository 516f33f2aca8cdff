// The bound executables as Python callables. Each call follows the reference
// library's two-phase convention: temp_storage=None returns the bytes a run needs and
// looks at nothing else (pure arithmetic, as CUB's size query); a run checks every
// array against the spec and the bound device, then launches with the GIL released.
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <utility>

#include "arrays.hpp"
#include "bound.hpp"
#include "errors.hpp"

namespace cccl_cache::python {

namespace {

using namespace nb::literals;
namespace ms = algos::merge_sort;
namespace rs = algos::radix_sort;
namespace rd = algos::reduce;
namespace sc = algos::scan;
namespace sr = algos::segmented_reduce;
namespace tf = algos::transform;
namespace ub = algos::unique_by_key;
namespace sk = algos::scan_by_key;
namespace se = algos::select;
namespace tw = algos::three_way_partition;
namespace he = algos::histogram_even;
namespace ss = algos::segmented_sort;
namespace bs = algos::binary_search;
namespace fe = algos::for_each;

struct Temp {
  void* data;
  std::size_t bytes;
};

// A run's operator state (op_state=): the buffer of a bytes-like object (bytes,
// bytearray, memoryview, a NumPy scalar or C-contiguous array), held for the run, its
// size checked against `op`'s state layout; None for a stateless operator. TypeError /
// ValueError naming op_state.
class HostOpState {
 public:
  HostOpState(nb::handle state, const algos::Operator& op) {
    const std::string want = std::to_string(op.state_size);
    if (state.is_none()) {
      if (op.stateful())
        throw nb::value_error(("op_state: operator '" + op.name + "' is stateful: give its " + want +
                               " bytes of state").c_str());
      return;
    }
    if (!op.stateful()) throw nb::value_error("op_state: the operator takes no state (give None)");
    if (PyObject_GetBuffer(state.ptr(), &view_, PyBUF_C_CONTIGUOUS) != 0) {
      PyErr_Clear();
      throw nb::type_error("op_state: expected a bytes-like object, a NumPy scalar or a C-contiguous array");
    }
    const auto have = static_cast<std::size_t>(view_.len);
    if (have != op.state_size) {
      PyBuffer_Release(&view_);
      throw nb::value_error(("op_state: " + std::to_string(have) + " bytes, but operator '" + op.name +
                             "' has a state of " + want + " bytes")
                                .c_str());
    }
    held_ = true;
    state_ = {view_.buf, have};
  }
  ~HostOpState() {
    if (held_) PyBuffer_Release(&view_);
  }
  HostOpState(const HostOpState&) = delete;
  HostOpState& operator=(const HostOpState&) = delete;
  algos::OpState get() const { return state_; }

 private:
  Py_buffer view_{};
  bool held_ = false;
  algos::OpState state_;
};

// The temp-storage array (any element type), checked against what the run needs.
Temp temp_array(nb::handle temp, std::size_t need, int device) {
  DeviceArray t = device_array(temp, "temp_storage", true);
  const std::size_t have = t.size * t.itemsize;
  if (have < need)
    throw nb::value_error(("temp_storage: " + std::to_string(have) + " bytes, the run needs " +
                           std::to_string(need))
                              .c_str());
  check_device(t, device, "temp_storage");
  return {t.data, have};
}

void require_none(nb::handle obj, const char* what, const char* why) {
  if (!obj.is_none()) throw nb::value_error((std::string(what) + ": must be None (" + why + ")").c_str());
}

// A keys-only sort's value arguments: both must be None.
void require_no_values(nb::handle values_in, nb::handle values_out) {
  require_none(values_in, "d_in_values", "the spec sorts keys only");
  require_none(values_out, "d_out_values", "the spec sorts keys only");
}

struct SortArrays {
  void* keys_in;
  void* keys_out;
  void* values_in;   // null for keys-only
  void* values_out;
};

// A sort's arrays checked against its spec (keys, and values unless keys-only).
template <class Spec>
SortArrays sort_arrays(const Spec& spec, int dev, std::uint64_t n, nb::handle keys_in, nb::handle keys_out,
                       nb::handle values_in, nb::handle values_out) {
  SortArrays a{checked_array(keys_in, "d_in_keys", false, spec.key_type, n, dev).data,
               checked_array(keys_out, "d_out_keys", true, spec.key_type, n, dev).data, nullptr, nullptr};
  if (spec.keys_only()) {
    require_no_values(values_in, values_out);
  } else {
    a.values_in = checked_array(values_in, "d_in_values", false, spec.value_type, n, dev).data;
    a.values_out = checked_array(values_out, "d_out_values", true, spec.value_type, n, dev).data;
  }
  return a;
}

// `launch(stream)` on the CUstream of `stream` with the GIL released; a failure raised
// as `what`'s error.
template <class Launch>
void run_unlocked(nb::handle stream, const char* what, Launch&& launch) {
  const CUstream s = stream_handle(stream);
  CUresult rc;
  {
    nb::gil_scoped_release unlocked;
    rc = launch(s);
  }
  check_cuda(rc, what);
}

// A sort's run: temp storage and arrays checked, then `launch(d_temp, bytes, arrays,
// stream)` with the GIL released.
template <class Exe, class Launch>
void run_sort(const Exe& e, std::size_t need, std::uint64_t n, nb::handle temp, nb::handle keys_in,
              nb::handle keys_out, nb::handle values_in, nb::handle values_out, nb::handle stream,
              const char* what, Launch&& launch) {
  const int dev = e.device();
  auto [d_temp, have] = temp_array(temp, need, dev);
  SortArrays a = sort_arrays(e.spec(), dev, n, keys_in, keys_out, values_in, values_out);
  run_unlocked(stream, what, [&](CUstream s) -> CUresult {
    return launch(d_temp, have, a, s);
  });
}

template <class Exe>
nb::class_<Bound<Exe>> common(nb::module_& m, const char* name, const char* doc) {
  return nb::class_<Bound<Exe>>(m, name, doc)
      .def_prop_ro("spec", [](const Bound<Exe>& b) { return PySpec{algos::to_any(b.exe->spec())}; })
      .def_prop_ro("device", [](const Bound<Exe>& b) { return b.exe->device(); })
      .def_prop_ro("cc", [](const Bound<Exe>& b) { return b.exe->cc(); })
      .def("__repr__", [name](const Bound<Exe>& b) {
        return std::string("<cccl_cache.") + name + " '" + algos::spec_text(algos::to_any(b.exe->spec())) +
               "' on device " + std::to_string(b.exe->device()) + ">";
      });
}

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

// --- input and output iterators (cccl_cache.iterators) ---------------------------
// The values of one argument's zip or nested iterators' components, depth first (which
// the values' pointers point at for the call).
struct ZipParts {
  std::array<algos::IteratorValue, 64> values;
  std::size_t used = 0;
};

// The call's values for the spec's iterator `it` (of `arg`, e.g. "d_in" or "d_out", or a
// component "d_in[1]"; written where `output`) from the Python iterator `obj`: its kind
// must be the spec's; a start or constant (`_value`) in the iterator's type, device
// arrays (`_base`, `_index`) of its value and index types on the executable's device (an
// output's `_base` written); a zip's or nested iterator's components (`_components`)
// into `parts`, which the value points at.
algos::IteratorValue iterator_value(nb::handle obj, const std::string& arg, bool output,
                                    const algos::Iterator& it, ScalarType element, std::uint64_t n,
                                    int dev, ZipParts& parts) {
  const std::string want(algos::iterator_kind_name(it.kind));
  if (!nb::hasattr(obj, "_iterator_kind") || nb::cast<std::string>(obj.attr("_iterator_kind")) != want)
    throw nb::type_error((arg + ": the spec's " + (output ? "output" : "input") + " is a " + want +
                          " iterator: give a cccl_cache.iterators one, got " +
                          nb::cast<std::string>(obj.type().attr("__qualname__")))
                             .c_str());
  const ScalarType v = it.type == ScalarType::none ? element : it.type;
  algos::IteratorValue out{it.kind};
  if (it.kind == algos::IteratorKind::discard) return out;
  // A transform's stateful operator: its state, the bytes the Python iterator holds.
  const void* state = nullptr;
  if (it.kind == algos::IteratorKind::transform && it.op.stateful()) {
    const nb::object held = nb::getattr(obj, "_state", nb::none());
    if (!nb::isinstance<nb::bytes>(held) || nb::cast<nb::bytes>(held).size() != it.op.state_size)
      throw nb::value_error((arg + ": the spec's transform operator '" + it.op.name + "' is stateful: give the " +
                             "iterator its " + std::to_string(it.op.state_size) + " bytes of state (state=)")
                                .c_str());
    state = nb::cast<nb::bytes>(held).c_str();
  }
  if (!it.components.empty()) {
    const auto components = nb::hasattr(obj, "_components") ? nb::cast<nb::tuple>(obj.attr("_components"))
                                                             : nb::tuple();
    const std::size_t count = it.components.size();
    if (components.size() != count)
      throw nb::type_error((arg + ": the spec's " + want + " has " + std::to_string(count) +
                            " components, the " + nb::cast<std::string>(obj.type().attr("__qualname__")) +
                            " " + std::to_string(components.size()))
                               .c_str());
    if (parts.used + count > parts.values.size())
      throw nb::value_error((arg + ": more than " + std::to_string(parts.values.size()) +
                             " iterator components")
                                .c_str());
    algos::IteratorValue* values = parts.values.data() + parts.used;
    parts.used += count;
    // A permutation's values are read (written) at its indices: any length; its indices
    // are read.
    const bool permutation = it.kind == algos::IteratorKind::permutation;
    for (std::size_t k = 0; k < count; ++k) {
      const algos::Iterator& c = it.components[k];
      const std::string ck = arg + "[" + std::to_string(k) + "]";
      const bool written = output && !(permutation && k == 1);
      values[k] = c.is_pointer()
                      ? algos::IteratorValue::array(
                            checked_array(components[k], ck.c_str(), written, c.type,
                                          permutation && k == 0 ? 0 : n, dev)
                                .data)
                      : iterator_value(components[k], ck, written, c,
                                       algos::component_value_type(c), n, dev, parts);
    }
    return algos::IteratorValue::of(it.kind, std::uint64_t{count}, values).with_state(state);
  }
  if (it.kind == algos::IteratorKind::shuffle) {
    // Its domain is the call's length: reading past it would never end.
    const auto num_items = nb::cast<std::uint64_t>(obj.attr("_num_items"));
    if (num_items != n)
      throw nb::value_error((arg + ": ShuffleIterator(num_items=" + std::to_string(num_items) +
                             ") is read over " + std::to_string(n) + " items; they must agree")
                                .c_str());
    return algos::IteratorValue::shuffle(nb::cast<std::uint64_t>(obj.attr("_seed")));
  }
  const bool by_value = it.kind == algos::IteratorKind::counting || it.kind == algos::IteratorKind::constant ||
                        (it.kind == algos::IteratorKind::transform && it.counting_base);
  if (by_value) {
    const HostScalar value = host_scalar(obj.attr("_value"), v, arg.c_str());
    std::memcpy(out.value, value.bytes, sizeof out.value);
    return out.with_state(state);
  }
  // A permutation's values are read (written) at its indices: any length; the others n.
  const bool permutation = it.kind == algos::IteratorKind::permutation;
  out.pointer =
      checked_array(obj.attr("_base"), arg.c_str(), output, v, permutation ? 0 : n, dev).data;
  if (permutation)
    out.index =
        checked_array(obj.attr("_index"), (arg + " indices").c_str(), false, it.index_type, n, dev)
            .data;
  return state != nullptr ? out.with_state(state) : out;
}

// The call's input: the d_in array of the spec's type, or for a spec with an input
// iterator its values from the cccl_cache.iterators object.
algos::Input call_input(nb::handle in, const algos::Iterator& it, const algos::ElementType& type,
                        std::uint64_t n, int dev, ZipParts& parts, const char* arg = "d_in") {
  if (it.is_pointer()) return checked_array(in, arg, false, type, n, dev).data;
  return iterator_value(in, arg, false, it, type.scalar, n, dev, parts);
}

// The call's output of n items, likewise.
algos::Output call_output(nb::handle out, const algos::Iterator& it, const algos::ElementType& type,
                          std::uint64_t n, int dev, ZipParts& parts, const char* arg = "d_out") {
  if (it.is_pointer()) return checked_array(out, arg, true, type, n, dev).data;
  return iterator_value(out, arg, true, it, type.scalar, n, dev, parts);
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

// --- reduce and scans: one input and one output (each an array or an iterator), an optional
// initial value ---------------------------------------------------------------------
template <class Exe>
std::size_t single_pass_call(const Exe& e, const char* what, nb::handle temp, nb::handle in,
                             nb::handle out, std::uint64_t n, nb::handle h_init, bool has_init,
                             std::uint64_t out_items, nb::handle stream, nb::handle op_state = nb::none()) {
  std::size_t bytes = e.temp_storage_bytes(n);
  if (temp.is_none()) return bytes;
  const HostOpState state(op_state, e.spec().op);
  const auto type = e.spec().type;
  const int dev = e.device();
  auto [d_temp, have] = temp_array(temp, bytes, dev);
  ZipParts in_parts, out_parts;
  const algos::Input i = call_input(in, e.spec().input, type, n, dev, in_parts);
  const algos::Output o = call_output(out, e.spec().output, type, out_items, dev, out_parts);
  // A scan's initial value may be a one-element device array, read when the kernels run.
  constexpr bool kScan = !std::is_same_v<Exe, rd::Executable>;
  const bool on_device = kScan && has_init && is_device_value(h_init);
  HostValue init;
  const void* d_init = nullptr;
  if (on_device) d_init = checked_array(h_init, "h_init", false, type, 1, dev).data;
  else if (has_init) init = host_value(h_init, type, "h_init");
  run_unlocked(stream, what, [&](CUstream s) -> CUresult {
    if constexpr (std::is_same_v<Exe, sc::InclusiveExecutable>) {
      if (!has_init) return e(d_temp, have, i, o, n, s, state.get());
    }
    if constexpr (kScan) {
      if (on_device) return e(d_temp, have, i, o, n, sc::FutureValue{d_init}, s, state.get());
    }
    return e(d_temp, have, i, o, n, init.bytes, s, state.get());
  });
  return bytes;
}

// --- segmented reduce: segments of one input given by begin/end offset arrays ------
std::size_t segmented_reduce_call(const Bound<sr::Executable>& b, nb::handle temp, nb::handle in,
                                  nb::handle out, std::uint64_t num_segments, nb::handle begin,
                                  nb::handle end, nb::handle h_init, nb::handle stream,
                                  std::uint64_t max_segment_size, nb::handle op_state) {
  const sr::Executable& e = *b.exe;
  std::size_t bytes = e.temp_storage_bytes(num_segments);
  if (temp.is_none()) return bytes;
  const auto& spec = e.spec();
  const int dev = e.device();
  auto [d_temp, have] = temp_array(temp, bytes, dev);
  // Each an array or, for a spec with that iterator, its values. The input's length is
  // what the offsets say (device memory, not read here).
  ZipParts parts[4];
  const algos::Input i = call_input(in, spec.input, spec.type, 0, dev, parts[0]);
  const algos::Output o = call_output(out, spec.output, spec.type, num_segments, dev, parts[1]);
  const algos::Input first = call_input(begin, spec.begin_offsets, spec.offset_type, num_segments,
                                        dev, parts[2], "start_offsets_in");
  const algos::Input last = call_input(end, spec.end_offsets, spec.offset_type, num_segments, dev,
                                       parts[3], "end_offsets_in");
  const HostValue init = host_value(h_init, spec.type, "h_init");
  const HostOpState state(op_state, spec.op);
  run_unlocked(stream, "segmented reduce", [&](CUstream s) -> CUresult {
    return e(d_temp, have, i, o, num_segments, first, last, init.bytes, s, max_segment_size,
             state.get());
  });
  return bytes;
}

// --- unique_by_key: first key and value of each run, the count to device memory -----
std::size_t unique_by_key_call(const Bound<ub::Executable>& b, nb::handle temp, nb::handle keys_in,
                               nb::handle values_in, nb::handle keys_out, nb::handle values_out,
                               nb::handle num_selected, std::uint64_t n, nb::handle stream,
                               nb::handle op_state) {
  const ub::Executable& e = *b.exe;
  std::size_t bytes = e.temp_storage_bytes(n);
  if (temp.is_none()) return bytes;
  const auto& spec = e.spec();
  const int dev = e.device();
  auto [d_temp, have] = temp_array(temp, bytes, dev);
  ZipParts parts[4];
  const algos::Input ki = call_input(keys_in, spec.keys_in, spec.key_type, n, dev, parts[0], "d_in_keys");
  const algos::Input vi =
      call_input(values_in, spec.values_in, spec.value_type, n, dev, parts[1], "d_in_items");
  const algos::Output ko =
      call_output(keys_out, spec.keys_out, spec.key_type, n, dev, parts[2], "d_out_keys");
  const algos::Output vo =
      call_output(values_out, spec.values_out, spec.value_type, n, dev, parts[3], "d_out_items");
  auto sel = checked_array(num_selected, "d_out_num_selected", true, spec.selected_type, 1, dev);
  const HostOpState state(op_state, spec.op);
  run_unlocked(stream, "unique_by_key", [&](CUstream s) -> CUresult {
    return e(d_temp, have, ki, vi, ko, vo, sel.data, n, s, state.get());
  });
  return bytes;
}

// --- scan_by_key: a scan of the values restarting at every run of equal keys ---------
std::size_t scan_by_key_call(const Bound<sk::Executable>& b, nb::handle temp, nb::handle keys_in,
                             nb::handle values_in, nb::handle values_out, std::uint64_t n,
                             nb::handle h_init, nb::handle stream) {
  const sk::Executable& e = *b.exe;
  std::size_t bytes = e.temp_storage_bytes(n);
  if (temp.is_none()) return bytes;
  const auto& spec = e.spec();
  const int dev = e.device();
  auto [d_temp, have] = temp_array(temp, bytes, dev);
  ZipParts parts[3];
  const algos::Input ki = call_input(keys_in, spec.keys_in, spec.key_type, n, dev, parts[0], "d_keys_in");
  const algos::Input vi =
      call_input(values_in, spec.values_in, spec.value_type, n, dev, parts[1], "d_values_in");
  const algos::Output vo =
      call_output(values_out, spec.values_out, spec.value_type, n, dev, parts[2], "d_values_out");
  if (!spec.exclusive && !h_init.is_none())
    throw nb::value_error("h_init: an inclusive scan_by_key takes no initial value (give None)");
  const HostValue init = spec.exclusive ? host_value(h_init, spec.value_type, "h_init") : HostValue{};
  run_unlocked(stream, "scan_by_key", [&](CUstream s) -> CUresult {
    return e(d_temp, have, ki, vi, vo, n, spec.exclusive ? init.bytes : nullptr, s);
  });
  return bytes;
}

// --- select: the items a predicate keeps, the count to device memory -------------------
std::size_t select_call(const Bound<se::Executable>& b, nb::handle temp, nb::handle in, nb::handle out,
                        nb::handle num_selected, std::uint64_t n, nb::handle stream, nb::handle op_state) {
  const se::Executable& e = *b.exe;
  std::size_t bytes = e.temp_storage_bytes(n);
  if (temp.is_none()) return bytes;
  const auto& spec = e.spec();
  const int dev = e.device();
  auto [d_temp, have] = temp_array(temp, bytes, dev);
  ZipParts in_parts, out_parts;
  const algos::Input i = call_input(in, spec.input, spec.type, n, dev, in_parts);
  const algos::Output o = call_output(out, spec.output, spec.type, n, dev, out_parts);
  auto sel = checked_array(num_selected, "d_num_selected_out", true, spec.selected_type, 1, dev);
  const HostOpState state(op_state, spec.op);
  run_unlocked(stream, "select", [&](CUstream s) -> CUresult {
    return e(d_temp, have, i, o, sel.data, n, s, state.get());
  });
  return bytes;
}

// --- three-way partition: three parts, the first two's sizes to device memory ---------
std::size_t three_way_partition_call(const Bound<tw::Executable>& b, nb::handle temp, nb::handle in,
                                     nb::handle first, nb::handle second, nb::handle unselected,
                                     nb::handle num_selected, std::uint64_t n, nb::handle stream,
                                     nb::handle first_op_state, nb::handle second_op_state) {
  const tw::Executable& e = *b.exe;
  std::size_t bytes = e.temp_storage_bytes(n);
  if (temp.is_none()) return bytes;
  const auto& spec = e.spec();
  const int dev = e.device();
  auto [d_temp, have] = temp_array(temp, bytes, dev);
  ZipParts parts[4];
  const algos::Input i = call_input(in, spec.input, spec.type, n, dev, parts[0]);
  const algos::Output f =
      call_output(first, spec.first_output, spec.type, n, dev, parts[1], "d_first_part_out");
  const algos::Output s2 =
      call_output(second, spec.second_output, spec.type, n, dev, parts[2], "d_second_part_out");
  const algos::Output u =
      call_output(unselected, spec.unselected_output, spec.type, n, dev, parts[3], "d_unselected_out");
  auto sel = checked_array(num_selected, "d_num_selected_out", true, spec.selected_type, 2, dev);
  const HostOpState state1(first_op_state, spec.first_op);
  const HostOpState state2(second_op_state, spec.second_op);
  run_unlocked(stream, "three_way_partition", [&](CUstream s) -> CUresult {
    return e(d_temp, have, i, f, s2, u, sel.data, n, s, state1.get(), state2.get());
  });
  return bytes;
}

// --- histogram_even: counts of samples in equal-width bins ---------------------------
std::size_t histogram_even_call(const Bound<he::Executable>& b, nb::handle temp, nb::handle samples,
                                nb::handle histogram, int num_levels, nb::handle lower, nb::handle upper,
                                std::uint64_t n, nb::handle stream) {
  const he::Executable& e = *b.exe;
  const auto& spec = e.spec();
  const HostScalar lo = host_scalar(lower, spec.levels(), "h_lower_level");
  const HostScalar hi = host_scalar(upper, spec.levels(), "h_upper_level");
  std::size_t bytes = 0;
  if (e(nullptr, bytes, nullptr, nullptr, num_levels, lo.bytes, hi.bytes, n, nullptr) == CUDA_ERROR_INVALID_VALUE)
    throw nb::value_error(("histogram_even: " + std::to_string(num_levels) + " levels over the bounds given for " +
                           std::to_string(n) + " samples: needs at least 2 levels, lower below upper, bounds "
                           "whose bin arithmetic does not overflow ((upper - lower) * bins) and a count the "
                           "spec's offset type holds")
                              .c_str());
  if (temp.is_none()) return bytes;
  const int dev = e.device();
  auto [d_temp, have] = temp_array(temp, bytes, dev);
  ZipParts parts;
  const algos::Input i = call_input(samples, spec.samples, spec.type, n, dev, parts, "d_samples");
  auto h = checked_array(histogram, "d_histogram", true, spec.counter_type,
                         static_cast<std::uint64_t>(num_levels - 1), dev);
  run_unlocked(stream, "histogram_even", [&](CUstream s) -> CUresult {
    return e(d_temp, have, i, h.data, num_levels, lo.bytes, hi.bytes, n, s);
  });
  return bytes;
}

// --- binary search: an index per value, into the sorted data ----------------------------
std::size_t binary_search_call(const Bound<bs::Executable>& b, nb::handle temp, nb::handle data,
                               std::uint64_t n, nb::handle values, std::uint64_t m, nb::handle out,
                               nb::handle stream, nb::handle op_state) {
  const bs::Executable& e = *b.exe;
  std::size_t bytes = e.temp_storage_bytes();
  if (temp.is_none()) return bytes;
  const auto& spec = e.spec();
  const int dev = e.device();
  auto [d_temp, have] = temp_array(temp, bytes, dev);
  ZipParts parts[3];
  const algos::Input d = call_input(data, spec.data_in, spec.type, n, dev, parts[2], "d_data");
  const algos::Input v = call_input(values, spec.values_in, spec.type, m, dev, parts[0], "d_values");
  const algos::Output o = call_output(out, spec.output, spec.out_type, m, dev, parts[1]);
  const HostOpState state(op_state, spec.comparator);
  run_unlocked(stream, spec.upper ? "upper_bound" : "lower_bound", [&](CUstream s) -> CUresult {
    return e(d_temp, have, d, n, v, m, o, s, state.get());
  });
  return bytes;
}

// --- transforms -------------------------------------------------------------------
template <int N>
void transform_call(const tf::Executable<N>& e, const nb::handle* ins, nb::handle out, std::uint64_t n,
                    nb::handle stream, nb::handle op_state) {
  const auto& spec = e.spec();
  const int dev = e.device();
  static constexpr const char* kNames[2][2] = {{"d_in", ""}, {"d_in1", "d_in2"}};
  // Each an array or, for a spec with an iterator there, its values.
  ZipParts parts[N + 1];
  std::array<algos::Input, N> in = [&]<std::size_t... K>(std::index_sequence<K...>) {
    return std::array<algos::Input, N>{
        call_input(ins[K], spec.inputs[K], spec.in[K], n, dev, parts[K], kNames[N - 1][K])...};
  }(std::make_index_sequence<N>{});
  const algos::Output o = call_output(out, spec.output, spec.out, n, dev, parts[N]);
  const HostOpState state(op_state, spec.op);
  run_unlocked(stream, N == 1 ? "unary transform" : "binary transform", [&](CUstream s) -> CUresult {
    if constexpr (N == 1) return e(in[0], o, n, s, state.get());
    else return e(in[0], in[1], o, n, s, state.get());
  });
}

void for_each_call(const Bound<fe::Executable>& b, nb::handle in, std::uint64_t n, nb::handle stream,
                   nb::handle op_state) {
  const fe::Executable& e = *b.exe;
  const auto& spec = e.spec();
  ZipParts parts;
  const algos::Input i = call_input(in, spec.input, spec.type, n, e.device(), parts, "d_in");
  const HostOpState state(op_state, spec.op);
  run_unlocked(stream, "for_each", [&](CUstream s) -> CUresult { return e(i, n, s, state.get()); });
}

}  // namespace

void bind_executables(nb::module_& m) {
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

  common<rd::Executable>(m, "Reduce", "A reduction bound to a device (cub::DeviceReduce::Reduce).")
      .def("__call__",
           [](const Bound<rd::Executable>& b, nb::handle temp, nb::handle in, nb::handle out, std::uint64_t n,
              nb::handle h_init, nb::handle stream, nb::handle op_state) {
             return single_pass_call(*b.exe, "reduce", temp, in, out, n, h_init, true, 1, stream, op_state);
           },
           "temp_storage"_a.none(), "d_in"_a.none(), "d_out"_a.none(), "num_items"_a, "h_init"_a.none(),
           "stream"_a.none() = none, "op_state"_a.none() = none,
           "temp_storage=None: returns the bytes a run needs. Else writes op(h_init, d_in[:num_items]) "
           "to d_out[0]; returns the bytes. d_in: an array, or for a spec with an input iterator a "
           "cccl_cache.iterators one of that kind. op_state: a stateful operator's state.")
      .def("temp_storage_bytes", [](const Bound<rd::Executable>& b, std::uint64_t n) { return b.exe->temp_storage_bytes(n); },
           "num_items"_a);

  common<sr::Executable>(m, "SegmentedReduce",
                         "A segmented reduction bound to a device (cub::DeviceSegmentedReduce::Reduce).")
      .def("__call__", &segmented_reduce_call, "temp_storage"_a.none(), "d_in"_a.none(), "d_out"_a.none(),
           "num_segments"_a, "start_offsets_in"_a.none(), "end_offsets_in"_a.none(), "h_init"_a.none(),
           "stream"_a.none() = none, "max_segment_size"_a = 0, "op_state"_a.none() = none,
           "temp_storage=None: returns the bytes a run needs. Else writes op(h_init, "
           "d_in[start_offsets_in[i]:end_offsets_in[i]]) to d_out[i] for i < num_segments "
           "(h_init for an empty segment); max_segment_size: 0, or a bound on every segment's "
           "length (CUB then reduces short segments per thread or warp). Returns the bytes. "
           "op_state: a stateful operator's state.")
      .def("temp_storage_bytes", [](const Bound<sr::Executable>& b, std::uint64_t n) { return b.exe->temp_storage_bytes(n); },
           "num_segments"_a);

  common<ub::Executable>(m, "UniqueByKey",
                         "A unique_by_key bound to a device (cub::DeviceSelect::UniqueByKey).")
      .def("__call__", &unique_by_key_call, "temp_storage"_a.none(), "d_in_keys"_a.none(),
           "d_in_items"_a.none(), "d_out_keys"_a.none(), "d_out_items"_a.none(),
           "d_out_num_selected"_a.none(), "num_items"_a, "stream"_a.none() = none,
           "op_state"_a.none() = none,
           "temp_storage=None: returns the bytes a run needs. Else copies the first key and item "
           "of each run of equal keys to d_out_keys / d_out_items and the number of runs to "
           "d_out_num_selected[0]. Returns the bytes. op_state: a stateful equality's state.")
      .def("temp_storage_bytes", [](const Bound<ub::Executable>& b, std::uint64_t n) { return b.exe->temp_storage_bytes(n); },
           "num_items"_a);

  common<sk::Executable>(m, "ScanByKey",
                         "A scan by key bound to a device (cub::DeviceScan::InclusiveScanByKey / "
                         "ExclusiveScanByKey).")
      .def("__call__", &scan_by_key_call, "temp_storage"_a.none(), "d_keys_in"_a.none(),
           "d_values_in"_a.none(), "d_values_out"_a.none(), "num_items"_a, "h_init"_a.none() = none,
           "stream"_a.none() = none,
           "temp_storage=None: returns the bytes a run needs. Else scans d_values_in into "
           "d_values_out with the spec's op, restarting at every run of consecutive equal keys of "
           "d_keys_in; an exclusive spec seeds each run with h_init (required), an inclusive one "
           "takes none. Returns the bytes.")
      .def("temp_storage_bytes", [](const Bound<sk::Executable>& b, std::uint64_t n) { return b.exe->temp_storage_bytes(n); },
           "num_items"_a);

  common<se::Executable>(m, "Select", "A select bound to a device (cub::DeviceSelect::If).")
      .def("__call__", &select_call, "temp_storage"_a.none(), "d_in"_a.none(), "d_out"_a.none(),
           "d_num_selected_out"_a.none(), "num_items"_a, "stream"_a.none() = none,
           "op_state"_a.none() = none,
           "temp_storage=None: returns the bytes a run needs. Else copies the items of d_in the "
           "predicate keeps to d_out, in order, and their number to d_num_selected_out[0]. "
           "d_in and d_out: arrays or, for a spec with an iterator there, cccl_cache.iterators "
           "ones of that kind. Returns the bytes. op_state: a stateful predicate's state.")
      .def("temp_storage_bytes", [](const Bound<se::Executable>& b, std::uint64_t n) { return b.exe->temp_storage_bytes(n); },
           "num_items"_a);

  common<tw::Executable>(m, "ThreeWayPartition",
                         "A three-way partition bound to a device (cub::DevicePartition::If, two predicates).")
      .def("__call__", &three_way_partition_call, "temp_storage"_a.none(), "d_in"_a.none(),
           "d_first_part_out"_a.none(), "d_second_part_out"_a.none(), "d_unselected_out"_a.none(),
           "d_num_selected_out"_a.none(), "num_items"_a, "stream"_a.none() = none,
           "first_op_state"_a.none() = none, "second_op_state"_a.none() = none,
           "temp_storage=None: returns the bytes a run needs. Else copies the items of d_in the first "
           "predicate selects to d_first_part_out, of the others those the second selects to "
           "d_second_part_out and the rest to d_unselected_out, each in order, and the first two "
           "parts' sizes to d_num_selected_out[0] and [1]. d_in and the outputs: arrays or, for a "
           "spec with an iterator there, cccl_cache.iterators ones of that kind. Returns the "
           "bytes. first_op_state, second_op_state: each stateful predicate's own state.")
      .def("temp_storage_bytes", [](const Bound<tw::Executable>& b, std::uint64_t n) { return b.exe->temp_storage_bytes(n); },
           "num_items"_a);

  common<he::Executable>(m, "HistogramEven",
                         "A histogram over equal-width bins bound to a device (cub::DeviceHistogram::HistogramEven).")
      .def("__call__", &histogram_even_call, "temp_storage"_a.none(), "d_samples"_a.none(), "d_histogram"_a.none(),
           "num_levels"_a, "h_lower_level"_a, "h_upper_level"_a, "num_samples"_a, "stream"_a.none() = none,
           "temp_storage=None: returns the bytes a run needs. Else counts the samples of "
           "d_samples[:num_samples] in num_levels - 1 equal-width bins over [h_lower_level, h_upper_level) "
           "into d_histogram[:num_levels - 1]; samples outside are not counted. Returns the bytes.")
      .def("temp_storage_bytes",
           [](const Bound<he::Executable>& b, std::uint64_t n, int num_levels) {
             return b.exe->temp_storage_bytes(n, num_levels);
           },
           "num_samples"_a, "num_levels"_a);

  common<bs::Executable>(m, "BinarySearch",
                         "A lower or upper bound search bound to a device (cub::DeviceFind::LowerBound / "
                         "UpperBound).")
      .def("__call__", &binary_search_call, "temp_storage"_a.none(), "d_data"_a.none(), "num_items"_a,
           "d_values"_a.none(), "num_values"_a, "d_out"_a.none(), "stream"_a.none() = none,
           "op_state"_a.none() = none,
           "temp_storage=None: returns the bytes a run needs (1). Else writes, for each of the "
           "num_values values, the lower (upper) bound of it in d_data[:num_items] (an array, or for a "
           "spec with a range iterator a cccl_cache.iterators one of that kind), sorted by the "
           "spec's comparator, to d_out. op_state: a stateful comparator's state. Returns the "
           "bytes.")
      .def("temp_storage_bytes", [](const Bound<bs::Executable>& b) { return b.exe->temp_storage_bytes(); });

  common<sc::InclusiveExecutable>(m, "InclusiveScan", "An inclusive scan bound to a device (cub::DeviceScan).")
      .def("__call__",
           [](const Bound<sc::InclusiveExecutable>& b, nb::handle temp, nb::handle in, nb::handle out,
              std::uint64_t n, nb::handle stream, nb::handle op_state, nb::handle h_init) {
             const bool seeded = b.exe->spec().init;
             if (!temp.is_none() && seeded == h_init.is_none())
               throw nb::value_error(seeded ? "h_init: this inclusive scan was made with init=True: give its "
                                              "initial value"
                                            : "h_init: an inclusive scan made without init takes no initial "
                                              "value (give None)");
             return single_pass_call(*b.exe, "inclusive scan", temp, in, out, n, h_init,
                                     seeded && !temp.is_none(), n, stream, op_state);
           },
           "temp_storage"_a.none(), "d_in"_a.none(), "d_out"_a.none(), "num_items"_a, "stream"_a.none() = none,
           "op_state"_a.none() = none, "h_init"_a.none() = none,
           "temp_storage=None: returns the bytes a run needs. Else scans d_in (an array, or for a spec "
           "with an input iterator a cccl_cache.iterators one of that kind) into d_out (may alias); "
           "made with init=True, seeded with h_init (d_out[i] = h_init op d_in[0] op ... op d_in[i]): "
           "a host value, or a one-element device array read when the kernels run. "
           "op_state: a stateful operator's state.")
      .def("temp_storage_bytes",
           [](const Bound<sc::InclusiveExecutable>& b, std::uint64_t n) { return b.exe->temp_storage_bytes(n); },
           "num_items"_a);

  common<sc::ExclusiveExecutable>(m, "ExclusiveScan", "An exclusive scan bound to a device (cub::DeviceScan).")
      .def("__call__",
           [](const Bound<sc::ExclusiveExecutable>& b, nb::handle temp, nb::handle in, nb::handle out,
              std::uint64_t n, nb::handle h_init, nb::handle stream, nb::handle op_state) {
             return single_pass_call(*b.exe, "exclusive scan", temp, in, out, n, h_init, true, n, stream,
                                     op_state);
           },
           "temp_storage"_a.none(), "d_in"_a.none(), "d_out"_a.none(), "num_items"_a, "h_init"_a.none(),
           "stream"_a.none() = none, "op_state"_a.none() = none,
           "temp_storage=None: returns the bytes a run needs. Else scans d_in (an array or, for a spec "
           "with an input iterator, a cccl_cache.iterators one) into d_out starting at h_init: "
           "a host value, or a one-element device array read when the kernels run. "
           "op_state: a stateful operator's state.")
      .def("temp_storage_bytes",
           [](const Bound<sc::ExclusiveExecutable>& b, std::uint64_t n) { return b.exe->temp_storage_bytes(n); },
           "num_items"_a);

  common<tf::Executable<1>>(m, "UnaryTransform", "out[i] = op(in[i]) bound to a device (cub::DeviceTransform).")
      .def("__call__",
           [](const Bound<tf::Executable<1>>& b, nb::handle in, nb::handle out, std::uint64_t n, nb::handle stream,
              nb::handle op_state) {
             const nb::handle ins[1] = {in};
             transform_call<1>(*b.exe, ins, out, n, stream, op_state);
           },
           "d_in"_a.none(), "d_out"_a.none(), "num_items"_a, "stream"_a.none() = none, "op_state"_a.none() = none,
           "Writes op(d_in[i]) to d_out[i] for i < num_items (no temp storage). d_in and d_out: "
           "arrays or, for a spec with an iterator there, cccl_cache.iterators ones of that kind. "
           "op_state: a stateful operator's state.");

  common<tf::Executable<2>>(m, "BinaryTransform",
                            "out[i] = op(in1[i], in2[i]) bound to a device (cub::DeviceTransform).")
      .def("__call__",
           [](const Bound<tf::Executable<2>>& b, nb::handle in1, nb::handle in2, nb::handle out, std::uint64_t n,
              nb::handle stream, nb::handle op_state) {
             const nb::handle ins[2] = {in1, in2};
             transform_call<2>(*b.exe, ins, out, n, stream, op_state);
           },
           "d_in1"_a.none(), "d_in2"_a.none(), "d_out"_a.none(), "num_items"_a, "stream"_a.none() = none,
           "op_state"_a.none() = none,
           "Writes op(d_in1[i], d_in2[i]) to d_out[i] for i < num_items (no temp storage). Each "
           "argument an array or, for a spec with an iterator there, a cccl_cache.iterators one of "
           "that kind. op_state: a stateful operator's state.");

  common<fe::Executable>(m, "ForEach", "op(item) for every item, bound to a device (cub::DeviceFor::ForEachN).")
      .def("__call__", &for_each_call, "d_in"_a.none(), "num_items"_a, "stream"_a.none() = none,
           "op_state"_a.none() = none,
           "Calls op on d_in[i] for i < num_items, in no particular order (no temp storage): an "
           "array's items by reference (op may change them), or for a spec with an input iterator "
           "a cccl_cache.iterators one's values. op_state: a stateful operator's state.");
}

}  // namespace cccl_cache::python
