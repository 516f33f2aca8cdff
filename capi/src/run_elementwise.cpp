// The C ABI's elementwise calls: the transforms and for_each.
#include "calls.hpp"

namespace cccl_cache::capi {
namespace {

// A transform of N inputs: through the array calls (`arrays`: a spec with an iterator is
// refused, naming the iterator call) or the iterator calls (each argument of the spec's
// kind).
template <int N>
cccl_cache_status transform_call(const char* fn, const cccl_cache_algorithm* algorithm,
                                 const cccl_cache_iterator_value* const* in,
                                 const cccl_cache_iterator_value* out, uint64_t num_items,
                                 void* stream, const cccl_cache_op_state* op_state,
                                 bool arrays) noexcept {
  cccl_cache_status status = CCCL_CACHE_OK;
  const auto* exe = typed<algos::transform::Executable<N>>(
      algorithm, N == 1 ? AlgorithmId::unary_transform : AlgorithmId::binary_transform, fn, status);
  if (exe == nullptr) return status;
  const auto& spec = exe->spec();
  if (arrays && spec.iterators())
    return iterator_spec(
        fn,
        N == 1 ? "cccl_cache_unary_transform_iterators" : "cccl_cache_binary_transform_iterators",
        "input or output");
  const char* names[2] = {N == 1 ? "in" : "in1", "in2"};
  CallValue values[N + 1];
  for (int k = 0; k < N; ++k)
    if (!iterator_value(fn, names[k], spec.inputs[k], in[k], values[k], status, true))
      return status;
  if (!iterator_value(fn, "out", spec.output, out, values[N], status, false)) return status;
  const auto s = static_cast<CUstream>(stream);
  CUresult rc;
  if constexpr (N == 1)
    rc = (*exe)(values[0].value, values[1].value, num_items, s, state_of(op_state));
  else
    rc =
        (*exe)(values[0].value, values[1].value, values[2].value, num_items, s, state_of(op_state));
  return result_of(rc, fn, "more than INT64_MAX items" CCCL_CACHE_C_STATE_INVALID);
}

// for_each: through the array call (`arrays`: a spec with an input iterator is refused,
// naming the iterator call) or the iterator call.
cccl_cache_status for_each_call(const char* fn, const cccl_cache_algorithm* algorithm,
                                const cccl_cache_iterator_value* in, uint64_t num_items,
                                void* stream, const cccl_cache_op_state* op_state,
                                bool arrays) noexcept {
  cccl_cache_status status = CCCL_CACHE_OK;
  const auto* exe = typed<fe::Executable>(algorithm, AlgorithmId::for_each, fn, status);
  if (exe == nullptr) return status;
  if (arrays && !exe->spec().input.is_pointer())
    return iterator_spec(fn, "cccl_cache_for_each_iterators", "input");
  CallValue value;
  if (!iterator_value(fn, "in", exe->spec().input, in, value, status, true)) return status;
  const CUresult rc =
      (*exe)(value.value, num_items, static_cast<CUstream>(stream), state_of(op_state));
  return result_of(rc, fn, "more items than the offset type holds" CCCL_CACHE_C_STATE_INVALID);
}

}  // namespace
}  // namespace cccl_cache::capi

using namespace cccl_cache;
using namespace cccl_cache::capi;

extern "C" {

cccl_cache_status cccl_cache_unary_transform(const cccl_cache_algorithm* algorithm,
                                             const void* d_in, void* d_out, uint64_t num_items,
                                             void* stream) {
  return cccl_cache_unary_transform_with_state(algorithm, d_in, d_out, num_items, stream, nullptr);
}

cccl_cache_status cccl_cache_unary_transform_with_state(const cccl_cache_algorithm* algorithm,
                                                        const void* d_in, void* d_out,
                                                        uint64_t num_items, void* stream,
                                                        const cccl_cache_op_state* op_state) {
  const cccl_cache_iterator_value in = array_value(d_in), out = array_value(d_out);
  const cccl_cache_iterator_value* ins[1] = {&in};
  return transform_call<1>("cccl_cache_unary_transform", algorithm, ins, &out, num_items, stream,
                           op_state, true);
}

cccl_cache_status cccl_cache_unary_transform_iterators(const cccl_cache_algorithm* algorithm,
                                                       const cccl_cache_iterator_value* in,
                                                       const cccl_cache_iterator_value* out,
                                                       uint64_t num_items, void* stream,
                                                       const cccl_cache_op_state* op_state) {
  const cccl_cache_iterator_value* ins[1] = {in};
  return transform_call<1>("cccl_cache_unary_transform_iterators", algorithm, ins, out, num_items,
                           stream, op_state, false);
}

cccl_cache_status cccl_cache_binary_transform(const cccl_cache_algorithm* algorithm,
                                              const void* d_in1, const void* d_in2, void* d_out,
                                              uint64_t num_items, void* stream) {
  return cccl_cache_binary_transform_with_state(algorithm, d_in1, d_in2, d_out, num_items, stream,
                                                nullptr);
}

cccl_cache_status cccl_cache_binary_transform_with_state(const cccl_cache_algorithm* algorithm,
                                                         const void* d_in1, const void* d_in2,
                                                         void* d_out, uint64_t num_items,
                                                         void* stream,
                                                         const cccl_cache_op_state* op_state) {
  const cccl_cache_iterator_value in1 = array_value(d_in1), in2 = array_value(d_in2),
                                  out = array_value(d_out);
  const cccl_cache_iterator_value* ins[2] = {&in1, &in2};
  return transform_call<2>("cccl_cache_binary_transform", algorithm, ins, &out, num_items, stream,
                           op_state, true);
}

cccl_cache_status cccl_cache_binary_transform_iterators(const cccl_cache_algorithm* algorithm,
                                                        const cccl_cache_iterator_value* in1,
                                                        const cccl_cache_iterator_value* in2,
                                                        const cccl_cache_iterator_value* out,
                                                        uint64_t num_items, void* stream,
                                                        const cccl_cache_op_state* op_state) {
  const cccl_cache_iterator_value* ins[2] = {in1, in2};
  return transform_call<2>("cccl_cache_binary_transform_iterators", algorithm, ins, out, num_items,
                           stream, op_state, false);
}

cccl_cache_status cccl_cache_for_each(const cccl_cache_algorithm* algorithm, void* d_in,
                                      uint64_t num_items, void* stream,
                                      const cccl_cache_op_state* op_state) {
  const cccl_cache_iterator_value in = array_value(d_in);
  return for_each_call("cccl_cache_for_each", algorithm, &in, num_items, stream, op_state, true);
}

cccl_cache_status cccl_cache_for_each_iterators(const cccl_cache_algorithm* algorithm,
                                                const cccl_cache_iterator_value* in,
                                                uint64_t num_items, void* stream,
                                                const cccl_cache_op_state* op_state) {
  return for_each_call("cccl_cache_for_each_iterators", algorithm, in, num_items, stream, op_state,
                       false);
}

}  // extern "C"
