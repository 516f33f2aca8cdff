// The C ABI's sorts: merge sort, radix sort (plain, argsort, double buffer), segmented sort.
#include "calls.hpp"

namespace cccl_cache::capi {
namespace {

constexpr const char* kSegmentedSortInvalid =
    "temp storage smaller than the queried size, more items or segments than INT64_MAX, or an "
    "offset of another kind than the spec's";

// A radix sort's result: an invalid value names the bits where they are the cause.
cccl_cache_status radix_result(const rs::Executable& exe, CUresult r, const char* fn, int begin_bit,
                               int end_bit) noexcept {
  if (r != CUDA_ERROR_INVALID_VALUE) return result_of(r, fn, kTempInvalid);
  const bool argsort_call = std::string_view(fn) == "cccl_cache_radix_argsort";
  if (exe.spec().values_in.is_pointer() == argsort_call)
    return guarded(fn, [&] {
      return set_error(CCCL_CACHE_ERROR_INVALID_ARGUMENT,
                       std::string(fn) + (argsort_call ? ": the spec has no counting values_in "
                                                         "(use cccl_cache_radix_sort)"
                                                       : ": the spec's values_in is counting "
                                                         "(use cccl_cache_radix_argsort)"));
    });
  return guarded(fn, [&] {
    auto bits = exe.check_bits(begin_bit, end_bit);
    return bits ? result_of(r, fn, kTempInvalid)
                : set_error(CCCL_CACHE_ERROR_INVALID_ARGUMENT, std::string(fn) + ": " + bits.error().message);
  });
}

}  // namespace
}  // namespace cccl_cache::capi

using namespace cccl_cache;
using namespace cccl_cache::capi;

extern "C" {

cccl_cache_status cccl_cache_merge_sort(const cccl_cache_algorithm* algorithm, void* d_temp_storage,
                                        size_t* temp_storage_bytes, const void* d_keys_in,
                                        const void* d_values_in, void* d_keys_out,
                                        void* d_values_out, uint64_t num_items, void* stream) {
  return cccl_cache_merge_sort_with_state(algorithm, d_temp_storage, temp_storage_bytes, d_keys_in,
                                          d_values_in, d_keys_out, d_values_out, num_items, stream,
                                          nullptr);
}

cccl_cache_status cccl_cache_merge_sort_with_state(const cccl_cache_algorithm* algorithm,
                                                   void* d_temp_storage, size_t* temp_storage_bytes,
                                                   const void* d_keys_in, const void* d_values_in,
                                                   void* d_keys_out, void* d_values_out,
                                                   uint64_t num_items, void* stream,
                                                   const cccl_cache_op_state* op_state) {
  constexpr const char* fn = "cccl_cache_merge_sort";
  CCCL_CACHE_C_TYPED(ms::Executable, AlgorithmId::merge_sort, fn);
  const ms::Spec& s = exe->spec();
  if (s.iterators())
    return iterator_spec(fn, "cccl_cache_merge_sort_iterators",
                         !s.keys_in.is_pointer() ? "keys_in" : "values_in");
  return result_of(
      (*exe)(d_temp_storage, *temp_storage_bytes, d_keys_in, d_values_in, d_keys_out, d_values_out,
             num_items, static_cast<CUstream>(stream), state_of(op_state)),
      fn, kTempOrStateInvalid);
}

cccl_cache_status cccl_cache_radix_sort(const cccl_cache_algorithm* algorithm, void* d_temp_storage,
                                        size_t* temp_storage_bytes, const void* d_keys_in,
                                        void* d_keys_out, const void* d_values_in,
                                        void* d_values_out, uint64_t num_items, int begin_bit,
                                        int end_bit, void* stream) {
  constexpr const char* fn = "cccl_cache_radix_sort";
  CCCL_CACHE_C_TYPED(rs::Executable, AlgorithmId::radix_sort, fn);
  if (begin_bit == 0 && end_bit == 0) end_bit = exe->key_bits();
  return radix_result(*exe, (*exe)(d_temp_storage, *temp_storage_bytes, d_keys_in, d_keys_out,
                                   d_values_in, d_values_out, num_items, begin_bit, end_bit,
                                   static_cast<CUstream>(stream)),
                      fn, begin_bit, end_bit);
}

cccl_cache_status cccl_cache_radix_argsort(const cccl_cache_algorithm* algorithm, void* d_temp_storage,
                                           size_t* temp_storage_bytes, const void* d_keys_in,
                                           void* d_keys_out, int64_t start, void* d_values_out,
                                           uint64_t num_items, int begin_bit, int end_bit,
                                           void* stream) {
  constexpr const char* fn = "cccl_cache_radix_argsort";
  CCCL_CACHE_C_TYPED(rs::Executable, AlgorithmId::radix_sort, fn);
  if (begin_bit == 0 && end_bit == 0) end_bit = exe->key_bits();
  // Little-endian: the iterator's type takes start's low bytes (core/iterator.hpp).
  return radix_result(*exe, (*exe)(d_temp_storage, *temp_storage_bytes, d_keys_in, d_keys_out,
                                   algos::IteratorValue::counting(start), d_values_out, num_items,
                                   begin_bit, end_bit, static_cast<CUstream>(stream)),
                      fn, begin_bit, end_bit);
}

cccl_cache_status cccl_cache_radix_sort_double_buffer(const cccl_cache_algorithm* algorithm,
                                                      void* d_temp_storage,
                                                      size_t* temp_storage_bytes,
                                                      cccl_cache_double_buffer* buffers,
                                                      uint64_t num_items, int begin_bit,
                                                      int end_bit, void* stream) {
  constexpr const char* fn = "cccl_cache_radix_sort_double_buffer";
  CCCL_CACHE_C_TYPED(rs::Executable, AlgorithmId::radix_sort, fn);
  if (buffers == nullptr) return null_argument(fn, "buffers");
  const int selector = buffers->selector;
  if (selector != 0 && selector != 1) [[unlikely]] {
    return guarded(fn, [&] {
      return set_error(CCCL_CACHE_ERROR_INVALID_ARGUMENT, std::string(fn) + ": buffers->selector is " +
                                                              std::to_string(selector) + ", not 0 or 1");
    });
  }
  if (begin_bit == 0 && end_bit == 0) end_bit = exe->key_bits();
  rs::DoubleBuffers b{{buffers->keys[0], buffers->keys[1]}, {buffers->values[0], buffers->values[1]},
                      selector};
  const CUresult r = (*exe)(d_temp_storage, *temp_storage_bytes, b, num_items, begin_bit, end_bit,
                            static_cast<CUstream>(stream));
  buffers->selector = b.selector;
  return radix_result(*exe, r, fn, begin_bit, end_bit);
}

cccl_cache_status cccl_cache_merge_sort_iterators(
    const cccl_cache_algorithm* algorithm, void* d_temp_storage, size_t* temp_storage_bytes,
    const cccl_cache_iterator_value* keys_in, const cccl_cache_iterator_value* values_in,
    void* d_keys_out, void* d_values_out, uint64_t num_items, void* stream,
    const cccl_cache_op_state* op_state) {
  constexpr const char* fn = "cccl_cache_merge_sort_iterators";
  CCCL_CACHE_C_TYPED(ms::Executable, AlgorithmId::merge_sort, fn);
  const ms::Spec& s = exe->spec();
  // A keys-only sort reads no values: a NULL values_in is an empty array.
  const cccl_cache_iterator_value no_values{CCCL_CACHE_ITERATOR_POINTER, nullptr, nullptr, 0};
  if (s.keys_only() && values_in == nullptr) values_in = &no_values;
  CallValue v[2];
  if (!iterator_value(fn, "keys_in", s.keys_in, keys_in, v[0], status_, true) ||
      !iterator_value(fn, "values_in", s.values_in, values_in, v[1], status_, true))
    return status_;
  return result_of((*exe)(d_temp_storage, *temp_storage_bytes, v[0].value, v[1].value, d_keys_out,
                          d_values_out, num_items, static_cast<CUstream>(stream),
                          state_of(op_state)),
                   fn, kTempOrStateInvalid);
}

cccl_cache_status cccl_cache_segmented_sort(const cccl_cache_algorithm* algorithm, void* d_temp_storage,
                                            size_t* temp_storage_bytes, const void* d_keys_in,
                                            void* d_keys_out, const void* d_values_in, void* d_values_out,
                                            uint64_t num_items, uint64_t num_segments,
                                            const void* d_begin_offsets, const void* d_end_offsets,
                                            void* stream) {
  constexpr const char* fn = "cccl_cache_segmented_sort";
  CCCL_CACHE_C_TYPED(ss::Executable, AlgorithmId::segmented_sort, fn);
  if (exe->spec().iterators()) {
    status_ = iterator_spec(fn, "cccl_cache_segmented_sort_iterators", "begin or end offset");
    return status_;
  }
  return result_of((*exe)(d_temp_storage, *temp_storage_bytes, d_keys_in, d_keys_out, d_values_in,
                          d_values_out, num_items, num_segments, d_begin_offsets, d_end_offsets,
                          static_cast<CUstream>(stream)),
                   fn, kSegmentedSortInvalid);
}

cccl_cache_status cccl_cache_segmented_sort_iterators(
    const cccl_cache_algorithm* algorithm, void* d_temp_storage, size_t* temp_storage_bytes,
    const void* d_keys_in, void* d_keys_out, const void* d_values_in, void* d_values_out,
    uint64_t num_items, uint64_t num_segments, const cccl_cache_iterator_value* begin_offsets,
    const cccl_cache_iterator_value* end_offsets, void* stream) {
  constexpr const char* fn = "cccl_cache_segmented_sort_iterators";
  CCCL_CACHE_C_TYPED(ss::Executable, AlgorithmId::segmented_sort, fn);
  const ss::Spec& spec = exe->spec();
  CallValue values[2];
  if (!iterator_value(fn, "begin_offsets", spec.begin_offsets, begin_offsets, values[0], status_,
                      true) ||
      !iterator_value(fn, "end_offsets", spec.end_offsets, end_offsets, values[1], status_, true))
    return status_;
  return result_of((*exe)(d_temp_storage, *temp_storage_bytes, d_keys_in, d_keys_out, d_values_in,
                          d_values_out, num_items, num_segments, values[0].value, values[1].value,
                          static_cast<CUstream>(stream)),
                   fn, kSegmentedSortInvalid);
}

}  // extern "C"
