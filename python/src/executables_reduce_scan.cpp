// The reductions and scans as Python callables: reduce, segmented reduce, scan by key,
// the inclusive and exclusive scans.
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

}  // namespace

void bind_reductions_and_scans(nb::module_& m) {
  const auto none = nb::none();
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
}

}  // namespace cccl_cache::python
