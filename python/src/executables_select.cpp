// The selections and searches as Python callables: unique_by_key, select, three-way
// partition, histogram_even, binary search.
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

}  // namespace

void bind_selections(nb::module_& m) {
  const auto none = nb::none();
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
}

}  // namespace cccl_cache::python
