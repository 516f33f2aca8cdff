// The C ABI's selections and searches: unique_by_key, select, three-way partition,
// histogram_even, binary search.
#include "calls.hpp"

namespace cccl_cache::capi {
namespace {

constexpr const char* kHistogramInvalid =
    "temp storage smaller than the queried size, more samples than the spec's offset type "
    "holds, fewer than 2 levels, NULL bounds, lower not below upper, or bounds whose bin "
    "arithmetic overflows";
constexpr const char* kBinarySearchInvalid =
    "temp storage smaller than the queried size, a null pointer with a nonzero count, more "
    "values than int64 holds or more items than the spec's out type indexes"
    CCCL_CACHE_C_STATE_INVALID;



}  // namespace
}  // namespace cccl_cache::capi

using namespace cccl_cache;
using namespace cccl_cache::capi;

extern "C" {

cccl_cache_status cccl_cache_unique_by_key(const cccl_cache_algorithm* algorithm,
                                           void* d_temp_storage, size_t* temp_storage_bytes,
                                           const void* d_keys_in, const void* d_values_in,
                                           void* d_keys_out, void* d_values_out,
                                           void* d_num_selected_out, uint64_t num_items,
                                           void* stream) {
  return cccl_cache_unique_by_key_with_state(algorithm, d_temp_storage, temp_storage_bytes,
                                             d_keys_in, d_values_in, d_keys_out, d_values_out,
                                             d_num_selected_out, num_items, stream, nullptr);
}

cccl_cache_status cccl_cache_unique_by_key_with_state(
    const cccl_cache_algorithm* algorithm, void* d_temp_storage, size_t* temp_storage_bytes,
    const void* d_keys_in, const void* d_values_in, void* d_keys_out, void* d_values_out,
    void* d_num_selected_out, uint64_t num_items, void* stream,
    const cccl_cache_op_state* op_state) {
  constexpr const char* fn = "cccl_cache_unique_by_key";
  CCCL_CACHE_C_TYPED(ub::Executable, AlgorithmId::unique_by_key, fn);
  const ub::Spec& s = exe->spec();
  if (s.iterators())
    return iterator_spec(fn, "cccl_cache_unique_by_key_iterators",
                         !s.keys_in.is_pointer()     ? "keys_in"
                         : !s.values_in.is_pointer() ? "values_in"
                         : !s.keys_out.is_pointer()  ? "keys_out"
                                                     : "values_out");
  return result_of(
      (*exe)(d_temp_storage, *temp_storage_bytes, d_keys_in, d_values_in, d_keys_out, d_values_out,
             d_num_selected_out, num_items, static_cast<CUstream>(stream), state_of(op_state)),
      fn, kTempOrStateInvalid);
}

cccl_cache_status cccl_cache_unique_by_key_iterators(
    const cccl_cache_algorithm* algorithm, void* d_temp_storage, size_t* temp_storage_bytes,
    const cccl_cache_iterator_value* keys_in, const cccl_cache_iterator_value* values_in,
    const cccl_cache_iterator_value* keys_out, const cccl_cache_iterator_value* values_out,
    void* d_num_selected_out, uint64_t num_items, void* stream,
    const cccl_cache_op_state* op_state) {
  constexpr const char* fn = "cccl_cache_unique_by_key_iterators";
  CCCL_CACHE_C_TYPED(ub::Executable, AlgorithmId::unique_by_key, fn);
  const ub::Spec& s = exe->spec();
  CallValue v[4];
  if (!iterator_value(fn, "keys_in", s.keys_in, keys_in, v[0], status_, true) ||
      !iterator_value(fn, "values_in", s.values_in, values_in, v[1], status_, true) ||
      !iterator_value(fn, "keys_out", s.keys_out, keys_out, v[2], status_, false) ||
      !iterator_value(fn, "values_out", s.values_out, values_out, v[3], status_, false))
    return status_;
  return result_of((*exe)(d_temp_storage, *temp_storage_bytes, v[0].value, v[1].value, v[2].value,
                          v[3].value, d_num_selected_out, num_items, static_cast<CUstream>(stream),
                          state_of(op_state)),
                   fn, kTempOrStateInvalid);
}

cccl_cache_status cccl_cache_select(const cccl_cache_algorithm* algorithm, void* d_temp_storage,
                                    size_t* temp_storage_bytes, const void* d_in, void* d_out,
                                    void* d_num_selected_out, uint64_t num_items, void* stream) {
  return cccl_cache_select_with_state(algorithm, d_temp_storage, temp_storage_bytes, d_in, d_out,
                                      d_num_selected_out, num_items, stream, nullptr);
}

cccl_cache_status cccl_cache_select_with_state(const cccl_cache_algorithm* algorithm,
                                               void* d_temp_storage, size_t* temp_storage_bytes,
                                               const void* d_in, void* d_out,
                                               void* d_num_selected_out, uint64_t num_items,
                                               void* stream, const cccl_cache_op_state* op_state) {
  constexpr const char* fn = "cccl_cache_select";
  CCCL_CACHE_C_TYPED(se::Executable, AlgorithmId::select, fn);
  if (!arrays_only(fn, "cccl_cache_select_iterators", exe->spec(), status_)) return status_;
  return result_of((*exe)(d_temp_storage, *temp_storage_bytes, d_in, d_out, d_num_selected_out,
                          num_items, static_cast<CUstream>(stream), state_of(op_state)),
                   fn, kTempOrStateInvalid);
}

cccl_cache_status cccl_cache_select_iterators(const cccl_cache_algorithm* algorithm,
                                              void* d_temp_storage, size_t* temp_storage_bytes,
                                              const cccl_cache_iterator_value* in,
                                              const cccl_cache_iterator_value* out,
                                              void* d_num_selected_out, uint64_t num_items,
                                              void* stream, const cccl_cache_op_state* op_state) {
  constexpr const char* fn = "cccl_cache_select_iterators";
  CCCL_CACHE_C_TYPED(se::Executable, AlgorithmId::select, fn);
  CallValue values[2];
  if (!iterator_value(fn, "in", exe->spec().input, in, values[0], status_, true) ||
      !iterator_value(fn, "out", exe->spec().output, out, values[1], status_, false))
    return status_;
  return result_of(
      (*exe)(d_temp_storage, *temp_storage_bytes, values[0].value, values[1].value,
             d_num_selected_out, num_items, static_cast<CUstream>(stream), state_of(op_state)),
      fn, kTempOrStateInvalid);
}

cccl_cache_status cccl_cache_three_way_partition(const cccl_cache_algorithm* algorithm,
                                                 void* d_temp_storage, size_t* temp_storage_bytes,
                                                 const void* d_in, void* d_first_part_out,
                                                 void* d_second_part_out, void* d_unselected_out,
                                                 void* d_num_selected_out, uint64_t num_items,
                                                 void* stream) {
  return cccl_cache_three_way_partition_with_state(
      algorithm, d_temp_storage, temp_storage_bytes, d_in, d_first_part_out, d_second_part_out,
      d_unselected_out, d_num_selected_out, num_items, stream, nullptr, nullptr);
}

cccl_cache_status cccl_cache_three_way_partition_with_state(
    const cccl_cache_algorithm* algorithm, void* d_temp_storage, size_t* temp_storage_bytes,
    const void* d_in, void* d_first_part_out, void* d_second_part_out, void* d_unselected_out,
    void* d_num_selected_out, uint64_t num_items, void* stream,
    const cccl_cache_op_state* first_op_state, const cccl_cache_op_state* second_op_state) {
  constexpr const char* fn = "cccl_cache_three_way_partition";
  CCCL_CACHE_C_TYPED(tw::Executable, AlgorithmId::three_way_partition, fn);
  if (exe->spec().iterators())
    return iterator_spec(fn, "cccl_cache_three_way_partition_iterators",
                         exe->spec().input.is_pointer() ? "output" : "input");
  return result_of(
      (*exe)(d_temp_storage, *temp_storage_bytes, d_in, d_first_part_out, d_second_part_out,
             d_unselected_out, d_num_selected_out, num_items, static_cast<CUstream>(stream),
             state_of(first_op_state), state_of(second_op_state)),
      fn, kTempOrStateInvalid);
}

cccl_cache_status cccl_cache_three_way_partition_iterators(
    const cccl_cache_algorithm* algorithm, void* d_temp_storage, size_t* temp_storage_bytes,
    const cccl_cache_iterator_value* in, const cccl_cache_iterator_value* first_out,
    const cccl_cache_iterator_value* second_out, const cccl_cache_iterator_value* unselected_out,
    void* d_num_selected_out, uint64_t num_items, void* stream,
    const cccl_cache_op_state* first_op_state, const cccl_cache_op_state* second_op_state) {
  constexpr const char* fn = "cccl_cache_three_way_partition_iterators";
  CCCL_CACHE_C_TYPED(tw::Executable, AlgorithmId::three_way_partition, fn);
  const tw::Spec& s = exe->spec();
  CallValue v[4];
  if (!iterator_value(fn, "in", s.input, in, v[0], status_, true) ||
      !iterator_value(fn, "first_out", s.first_output, first_out, v[1], status_, false) ||
      !iterator_value(fn, "second_out", s.second_output, second_out, v[2], status_, false) ||
      !iterator_value(fn, "unselected_out", s.unselected_output, unselected_out, v[3], status_,
                      false))
    return status_;
  return result_of((*exe)(d_temp_storage, *temp_storage_bytes, v[0].value, v[1].value, v[2].value,
                          v[3].value, d_num_selected_out, num_items, static_cast<CUstream>(stream),
                          state_of(first_op_state), state_of(second_op_state)),
                   fn, kTempOrStateInvalid);
}

cccl_cache_status cccl_cache_histogram_even(const cccl_cache_algorithm* algorithm, void* d_temp_storage,
                                            size_t* temp_storage_bytes, const void* d_samples,
                                            void* d_histogram, int num_levels, const void* h_lower,
                                            const void* h_upper, uint64_t num_samples, void* stream) {
  constexpr const char* fn = "cccl_cache_histogram_even";
  CCCL_CACHE_C_TYPED(he::Executable, AlgorithmId::histogram_even, fn);
  if (!exe->spec().samples.is_pointer())
    return iterator_spec(fn, "cccl_cache_histogram_even_iterators", "samples");
  return result_of((*exe)(d_temp_storage, *temp_storage_bytes, d_samples, d_histogram, num_levels, h_lower,
                          h_upper, num_samples, static_cast<CUstream>(stream)),
                   fn, kHistogramInvalid);
}

cccl_cache_status cccl_cache_histogram_even_iterators(
    const cccl_cache_algorithm* algorithm, void* d_temp_storage, size_t* temp_storage_bytes,
    const cccl_cache_iterator_value* samples, void* d_histogram, int num_levels,
    const void* h_lower, const void* h_upper, uint64_t num_samples, void* stream) {
  constexpr const char* fn = "cccl_cache_histogram_even_iterators";
  CCCL_CACHE_C_TYPED(he::Executable, AlgorithmId::histogram_even, fn);
  CallValue v;
  if (!iterator_value(fn, "samples", exe->spec().samples, samples, v, status_, true)) return status_;
  return result_of((*exe)(d_temp_storage, *temp_storage_bytes, v.value, d_histogram, num_levels, h_lower,
                          h_upper, num_samples, static_cast<CUstream>(stream)),
                   fn, kHistogramInvalid);
}

cccl_cache_status cccl_cache_binary_search(const cccl_cache_algorithm* algorithm, void* d_temp_storage,
                                           size_t* temp_storage_bytes, const void* d_data,
                                           uint64_t num_items, const void* d_values, uint64_t num_values,
                                           void* d_out, void* stream) {
  return cccl_cache_binary_search_with_state(algorithm, d_temp_storage, temp_storage_bytes, d_data,
                                             num_items, d_values, num_values, d_out, stream, nullptr);
}

cccl_cache_status cccl_cache_binary_search_with_state(
    const cccl_cache_algorithm* algorithm, void* d_temp_storage, size_t* temp_storage_bytes,
    const void* d_data, uint64_t num_items, const void* d_values, uint64_t num_values, void* d_out,
    void* stream, const cccl_cache_op_state* op_state) {
  constexpr const char* fn = "cccl_cache_binary_search";
  CCCL_CACHE_C_TYPED(bs::Executable, AlgorithmId::binary_search, fn);
  if (!exe->spec().data_in.is_pointer())
    return iterator_spec(fn, "cccl_cache_binary_search_range_iterator", "data_in");
  if (!exe->spec().values_in.is_pointer() || !exe->spec().output.is_pointer())
    return iterator_spec(fn, "cccl_cache_binary_search_iterators",
                         exe->spec().values_in.is_pointer() ? "output" : "values_in");
  return result_of((*exe)(d_temp_storage, *temp_storage_bytes, d_data, num_items, d_values, num_values,
                          d_out, static_cast<CUstream>(stream), state_of(op_state)),
                   fn, kBinarySearchInvalid);
}

cccl_cache_status cccl_cache_binary_search_iterators(
    const cccl_cache_algorithm* algorithm, void* d_temp_storage, size_t* temp_storage_bytes,
    const void* d_data, uint64_t num_items, const cccl_cache_iterator_value* values,
    uint64_t num_values, const cccl_cache_iterator_value* out, void* stream) {
  return cccl_cache_binary_search_iterators_with_state(algorithm, d_temp_storage,
                                                       temp_storage_bytes, d_data, num_items,
                                                       values, num_values, out, stream, nullptr);
}

cccl_cache_status cccl_cache_binary_search_iterators_with_state(
    const cccl_cache_algorithm* algorithm, void* d_temp_storage, size_t* temp_storage_bytes,
    const void* d_data, uint64_t num_items, const cccl_cache_iterator_value* values,
    uint64_t num_values, const cccl_cache_iterator_value* out, void* stream,
    const cccl_cache_op_state* op_state) {
  constexpr const char* fn = "cccl_cache_binary_search_iterators";
  CCCL_CACHE_C_TYPED(bs::Executable, AlgorithmId::binary_search, fn);
  if (!exe->spec().data_in.is_pointer())
    return iterator_spec(fn, "cccl_cache_binary_search_range_iterator", "data_in");
  CallValue v[2];
  if (!iterator_value(fn, "values", exe->spec().values_in, values, v[0], status_, true) ||
      !iterator_value(fn, "out", exe->spec().output, out, v[1], status_, false))
    return status_;
  return result_of((*exe)(d_temp_storage, *temp_storage_bytes, d_data, num_items, v[0].value,
                          num_values, v[1].value, static_cast<CUstream>(stream), state_of(op_state)),
                   fn, kBinarySearchInvalid);
}

cccl_cache_status cccl_cache_binary_search_range_iterator(
    const cccl_cache_algorithm* algorithm, void* d_temp_storage, size_t* temp_storage_bytes,
    const cccl_cache_iterator_value* data, uint64_t num_items,
    const cccl_cache_iterator_value* values, uint64_t num_values,
    const cccl_cache_iterator_value* out, void* stream, const cccl_cache_op_state* op_state) {
  constexpr const char* fn = "cccl_cache_binary_search_range_iterator";
  CCCL_CACHE_C_TYPED(bs::Executable, AlgorithmId::binary_search, fn);
  CallValue v[3];
  if (!iterator_value(fn, "data", exe->spec().data_in, data, v[0], status_, true) ||
      !iterator_value(fn, "values", exe->spec().values_in, values, v[1], status_, true) ||
      !iterator_value(fn, "out", exe->spec().output, out, v[2], status_, false))
    return status_;
  return result_of((*exe)(d_temp_storage, *temp_storage_bytes, v[0].value, num_items, v[1].value,
                          num_values, v[2].value, static_cast<CUstream>(stream), state_of(op_state)),
                   fn, kBinarySearchInvalid);
}

}  // extern "C"
