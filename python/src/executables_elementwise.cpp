// The elementwise calls as Python callables: the unary and binary transforms, for_each.
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

void bind_elementwise(nb::module_& m) {
  const auto none = nb::none();
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
