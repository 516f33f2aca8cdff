// The Python calls' plumbing shared by the executables' bindings (executables_*.cpp):
// temp storage, operator state and sort arrays checked against the spec and device,
// cccl_cache.iterators objects as the executables take them, a launch with the GIL
// released, and each class's common properties.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "arrays.hpp"
#include "bound.hpp"
#include "errors.hpp"

namespace cccl_cache::python {

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
Temp temp_array(nb::handle temp, std::size_t need, int device);

void require_none(nb::handle obj, const char* what, const char* why);

// A keys-only sort's value arguments: both must be None.
void require_no_values(nb::handle values_in, nb::handle values_out);

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
                                    int dev, ZipParts& parts);

// The call's input: the d_in array of the spec's type, or for a spec with an input
// iterator its values from the cccl_cache.iterators object.
algos::Input call_input(nb::handle in, const algos::Iterator& it, const algos::ElementType& type,
                        std::uint64_t n, int dev, ZipParts& parts, const char* arg = "d_in");

// The call's output of n items, likewise.
algos::Output call_output(nb::handle out, const algos::Iterator& it, const algos::ElementType& type,
                          std::uint64_t n, int dev, ZipParts& parts, const char* arg = "d_out");

// The executables' classes by family (executables_*.cpp), each registering its own.
void bind_sorts(nb::module_& m);
void bind_reductions_and_scans(nb::module_& m);
void bind_selections(nb::module_& m);
void bind_elementwise(nb::module_& m);

}  // namespace cccl_cache::python
