// The C ABI's reductions and scans: reduce, segmented reduce, the scans, scan by key.
#include "calls.hpp"

namespace cccl_cache::capi {
namespace {

// An inclusive scan called in the form its spec does not take (seeded: the spec's init).
cccl_cache_status seeded_mismatch(const char* fn, bool seeded) noexcept {
  return guarded(fn, [&] {
    return set_error(CCCL_CACHE_ERROR_INVALID_ARGUMENT,
                     std::string(fn) + (seeded ? ": the spec has init=1 (use cccl_cache_inclusive_scan_init)"
                                               : ": the spec has no init (use cccl_cache_inclusive_scan)"));
  });
}

// Reduce and the seeded scans: an array in, an array out, an initial value on the host
// (Init: its address) or, for the scans, in device memory (Init: sc::FutureValue); an
// inclusive scan's spec must have init.
template <class Exe, class Init = const void*>
cccl_cache_status run_with_init(const cccl_cache_algorithm* algorithm, AlgorithmId kind,
                                const char* fn, void* d_temp_storage, size_t* temp_storage_bytes,
                                const void* d_in, void* d_out, uint64_t num_items, Init init,
                                void* stream, const cccl_cache_op_state* op_state) noexcept {
  CCCL_CACHE_C_TYPED(Exe, kind, fn);
  if (!arrays_only(fn, kind == AlgorithmId::reduce ? "cccl_cache_reduce_iterators" : "cccl_cache_scan_iterators",
                   exe->spec(), status_))
    return status_;
  if constexpr (std::is_same_v<Exe, sc::InclusiveExecutable>) {
    if (!exe->spec().init) return seeded_mismatch(fn, false);
  }
  constexpr bool on_device = std::is_same_v<Init, sc::FutureValue>;
  const void* address = nullptr;
  if constexpr (on_device) address = init.d_init; else address = init;
  if (address == nullptr && d_temp_storage != nullptr)
    return null_argument(fn, on_device ? "d_init" : "h_init");
  return result_of((*exe)(d_temp_storage, *temp_storage_bytes, d_in, d_out, num_items, init,
                          static_cast<CUstream>(stream), state_of(op_state)),
                   fn, kTempOrStateInvalid);
}

// A scan over the spec's input iterator into its output (`out`; NULL: the array d_out), in
// any of the scan's forms: no initial value (an inclusive scan without init), or one on
// the host (h_init) or in device memory (d_init).
template <class Exe>
cccl_cache_status scan_iterator(const char* fn, const cccl_cache_algorithm* algorithm, AlgorithmId kind,
                                void* d_temp_storage, size_t* temp_storage_bytes,
                                const cccl_cache_iterator_value* in,
                                const cccl_cache_iterator_value* out, void* d_out,
                                uint64_t num_items, const void* h_init, const void* d_init,
                                void* stream, const cccl_cache_op_state* op_state) noexcept {
  CCCL_CACHE_C_TYPED(Exe, kind, fn);
  CallValue value, out_value;
  if (!iterator_value(fn, "in", exe->spec().input, in, value, status_, true) ||
      !output_value(fn, "cccl_cache_scan_iterators", exe->spec().output, out, d_out, out_value,
                    status_))
    return status_;
  const bool takes_init = exe->spec().takes_init();
  const bool given = h_init != nullptr || d_init != nullptr;
  const char* wrong = h_init != nullptr && d_init != nullptr ? ": pass one of h_init and d_init, not both"
                      : !takes_init && given ? ": the spec takes no initial value (an inclusive scan "
                                               "without init=1): pass NULL h_init and d_init"
                      : takes_init && !given && d_temp_storage != nullptr
                          ? ": h_init and d_init are NULL (the spec takes an initial value)"
                          : nullptr;
  if (wrong != nullptr)
    return guarded(fn, [&] { return set_error(CCCL_CACHE_ERROR_INVALID_ARGUMENT, std::string(fn) + wrong); });
  const auto stream_ = static_cast<CUstream>(stream);
  CUresult r;
  if (d_init != nullptr) {
    r = (*exe)(d_temp_storage, *temp_storage_bytes, value.value, out_value.value, num_items,
               sc::FutureValue{d_init}, stream_, state_of(op_state));
  } else if (takes_init) {
    r = (*exe)(d_temp_storage, *temp_storage_bytes, value.value, out_value.value, num_items, h_init,
               stream_, state_of(op_state));
  } else {
    if constexpr (std::is_same_v<Exe, sc::InclusiveExecutable>)
      r = (*exe)(d_temp_storage, *temp_storage_bytes, value.value, out_value.value, num_items,
                 stream_, state_of(op_state));
    else
      r = CUDA_ERROR_INVALID_VALUE;  // an exclusive scan always takes its initial value
  }
  return result_of(r, fn, kTempOrStateInvalid);
}

// A reduction over the spec's input iterator into its output (`out`; NULL: the array d_out).
cccl_cache_status reduce_iterator(const char* fn, const cccl_cache_algorithm* algorithm,
                                  void* d_temp_storage, size_t* temp_storage_bytes,
                                  const cccl_cache_iterator_value* in,
                                  const cccl_cache_iterator_value* out, void* d_out,
                                  uint64_t num_items, const void* h_init, void* stream,
                                  const cccl_cache_op_state* op_state) noexcept {
  CCCL_CACHE_C_TYPED(rd::Executable, AlgorithmId::reduce, fn);
  CallValue value, out_value;
  if (!iterator_value(fn, "in", exe->spec().input, in, value, status_, true) ||
      !output_value(fn, "cccl_cache_reduce_iterators", exe->spec().output, out, d_out, out_value,
                    status_))
    return status_;
  if (h_init == nullptr && d_temp_storage != nullptr) return null_argument(fn, "h_init");
  return result_of((*exe)(d_temp_storage, *temp_storage_bytes, value.value, out_value.value,
                          num_items, h_init, static_cast<CUstream>(stream), state_of(op_state)),
                   fn, kTempOrStateInvalid);
}

}  // namespace
}  // namespace cccl_cache::capi

using namespace cccl_cache;
using namespace cccl_cache::capi;

extern "C" {

cccl_cache_status cccl_cache_reduce(const cccl_cache_algorithm* algorithm, void* d_temp_storage,
                                    size_t* temp_storage_bytes, const void* d_in, void* d_out,
                                    uint64_t num_items, const void* h_init, void* stream) {
  return cccl_cache_reduce_with_state(algorithm, d_temp_storage, temp_storage_bytes, d_in, d_out,
                                      num_items, h_init, stream, nullptr);
}

cccl_cache_status cccl_cache_reduce_with_state(const cccl_cache_algorithm* algorithm,
                                               void* d_temp_storage, size_t* temp_storage_bytes,
                                               const void* d_in, void* d_out, uint64_t num_items,
                                               const void* h_init, void* stream,
                                               const cccl_cache_op_state* op_state) {
  return run_with_init<rd::Executable>(algorithm, AlgorithmId::reduce, "cccl_cache_reduce",
                                       d_temp_storage, temp_storage_bytes, d_in, d_out, num_items,
                                       h_init, stream, op_state);
}

cccl_cache_status cccl_cache_reduce_iterator(const cccl_cache_algorithm* algorithm,
                                             void* d_temp_storage, size_t* temp_storage_bytes,
                                             const cccl_cache_iterator_value* in, void* d_out,
                                             uint64_t num_items, const void* h_init, void* stream) {
  return cccl_cache_reduce_iterator_with_state(algorithm, d_temp_storage, temp_storage_bytes, in,
                                               d_out, num_items, h_init, stream, nullptr);
}

cccl_cache_status cccl_cache_reduce_iterator_with_state(
    const cccl_cache_algorithm* algorithm, void* d_temp_storage, size_t* temp_storage_bytes,
    const cccl_cache_iterator_value* in, void* d_out, uint64_t num_items, const void* h_init,
    void* stream, const cccl_cache_op_state* op_state) {
  return reduce_iterator("cccl_cache_reduce_iterator", algorithm, d_temp_storage, temp_storage_bytes,
                         in, nullptr, d_out, num_items, h_init, stream, op_state);
}

cccl_cache_status cccl_cache_reduce_iterators(const cccl_cache_algorithm* algorithm,
                                              void* d_temp_storage, size_t* temp_storage_bytes,
                                              const cccl_cache_iterator_value* in,
                                              const cccl_cache_iterator_value* out,
                                              uint64_t num_items, const void* h_init, void* stream,
                                              const cccl_cache_op_state* op_state) {
  constexpr const char* fn = "cccl_cache_reduce_iterators";
  if (out == nullptr) return null_argument(fn, "out");
  return reduce_iterator(fn, algorithm, d_temp_storage, temp_storage_bytes, in, out, nullptr,
                         num_items, h_init, stream, op_state);
}

cccl_cache_status cccl_cache_segmented_reduce(const cccl_cache_algorithm* algorithm,
                                              void* d_temp_storage, size_t* temp_storage_bytes,
                                              const void* d_in, void* d_out, uint64_t num_segments,
                                              const void* d_begin_offsets, const void* d_end_offsets,
                                              const void* h_init, uint64_t max_segment_size,
                                              void* stream) {
  return cccl_cache_segmented_reduce_with_state(algorithm, d_temp_storage, temp_storage_bytes, d_in,
                                                d_out, num_segments, d_begin_offsets, d_end_offsets,
                                                h_init, max_segment_size, stream, nullptr);
}

cccl_cache_status cccl_cache_segmented_reduce_with_state(
    const cccl_cache_algorithm* algorithm, void* d_temp_storage, size_t* temp_storage_bytes,
    const void* d_in, void* d_out, uint64_t num_segments, const void* d_begin_offsets,
    const void* d_end_offsets, const void* h_init, uint64_t max_segment_size, void* stream,
    const cccl_cache_op_state* op_state) {
  constexpr const char* fn = "cccl_cache_segmented_reduce";
  CCCL_CACHE_C_TYPED(sr::Executable, AlgorithmId::segmented_reduce, fn);
  if (exe->spec().iterators()) {
    status_ =
        iterator_spec(fn, "cccl_cache_segmented_reduce_iterators", "input, output or an offset");
    return status_;
  }
  if (h_init == nullptr && d_temp_storage != nullptr) return null_argument(fn, "h_init");
  return result_of((*exe)(d_temp_storage, *temp_storage_bytes, d_in, d_out, num_segments,
                          d_begin_offsets, d_end_offsets, h_init, static_cast<CUstream>(stream),
                          max_segment_size, state_of(op_state)),
                   fn, "more than INT64_MAX segments" CCCL_CACHE_C_STATE_INVALID);
}

cccl_cache_status cccl_cache_segmented_reduce_iterators(
    const cccl_cache_algorithm* algorithm, void* d_temp_storage, size_t* temp_storage_bytes,
    const cccl_cache_iterator_value* in, const cccl_cache_iterator_value* out,
    uint64_t num_segments, const cccl_cache_iterator_value* begin_offsets,
    const cccl_cache_iterator_value* end_offsets, const void* h_init, uint64_t max_segment_size,
    void* stream, const cccl_cache_op_state* op_state) {
  constexpr const char* fn = "cccl_cache_segmented_reduce_iterators";
  CCCL_CACHE_C_TYPED(sr::Executable, AlgorithmId::segmented_reduce, fn);
  const sr::Spec& spec = exe->spec();
  CallValue values[4];
  if (!iterator_value(fn, "in", spec.input, in, values[0], status_, true) ||
      !iterator_value(fn, "out", spec.output, out, values[1], status_, false) ||
      !iterator_value(fn, "begin_offsets", spec.begin_offsets, begin_offsets, values[2], status_,
                      true) ||
      !iterator_value(fn, "end_offsets", spec.end_offsets, end_offsets, values[3], status_, true))
    return status_;
  if (h_init == nullptr && d_temp_storage != nullptr) return null_argument(fn, "h_init");
  return result_of((*exe)(d_temp_storage, *temp_storage_bytes, values[0].value, values[1].value,
                          num_segments, values[2].value, values[3].value, h_init,
                          static_cast<CUstream>(stream), max_segment_size, state_of(op_state)),
                   fn, "more than INT64_MAX segments" CCCL_CACHE_C_STATE_INVALID);
}

cccl_cache_status cccl_cache_scan_by_key(const cccl_cache_algorithm* algorithm, void* d_temp_storage,
                                         size_t* temp_storage_bytes, const void* d_keys_in,
                                         const void* d_values_in, void* d_values_out,
                                         uint64_t num_items, const void* h_init, void* stream) {
  constexpr const char* fn = "cccl_cache_scan_by_key";
  CCCL_CACHE_C_TYPED(sk::Executable, AlgorithmId::scan_by_key, fn);
  const sk::Spec& s = exe->spec();
  if (s.iterators())
    return iterator_spec(fn, "cccl_cache_scan_by_key_iterators",
                         !s.keys_in.is_pointer()     ? "keys_in"
                         : !s.values_in.is_pointer() ? "values_in"
                                                     : "values_out");
  return result_of((*exe)(d_temp_storage, *temp_storage_bytes, d_keys_in, d_values_in, d_values_out,
                          num_items, h_init, static_cast<CUstream>(stream)),
                   fn, kScanByKeyInvalid);
}

cccl_cache_status cccl_cache_scan_by_key_iterators(
    const cccl_cache_algorithm* algorithm, void* d_temp_storage, size_t* temp_storage_bytes,
    const cccl_cache_iterator_value* keys_in, const cccl_cache_iterator_value* values_in,
    const cccl_cache_iterator_value* values_out, uint64_t num_items, const void* h_init,
    void* stream) {
  constexpr const char* fn = "cccl_cache_scan_by_key_iterators";
  CCCL_CACHE_C_TYPED(sk::Executable, AlgorithmId::scan_by_key, fn);
  const sk::Spec& s = exe->spec();
  CallValue v[3];
  if (!iterator_value(fn, "keys_in", s.keys_in, keys_in, v[0], status_, true) ||
      !iterator_value(fn, "values_in", s.values_in, values_in, v[1], status_, true) ||
      !iterator_value(fn, "values_out", s.values_out, values_out, v[2], status_, false))
    return status_;
  return result_of((*exe)(d_temp_storage, *temp_storage_bytes, v[0].value, v[1].value, v[2].value,
                          num_items, h_init, static_cast<CUstream>(stream)),
                   fn, kScanByKeyInvalid);
}

cccl_cache_status cccl_cache_inclusive_scan(const cccl_cache_algorithm* algorithm,
                                            void* d_temp_storage, size_t* temp_storage_bytes,
                                            const void* d_in, void* d_out, uint64_t num_items,
                                            void* stream) {
  return cccl_cache_inclusive_scan_with_state(algorithm, d_temp_storage, temp_storage_bytes, d_in,
                                              d_out, num_items, stream, nullptr);
}

cccl_cache_status cccl_cache_inclusive_scan_with_state(const cccl_cache_algorithm* algorithm,
                                                       void* d_temp_storage,
                                                       size_t* temp_storage_bytes, const void* d_in,
                                                       void* d_out, uint64_t num_items,
                                                       void* stream,
                                                       const cccl_cache_op_state* op_state) {
  constexpr const char* fn = "cccl_cache_inclusive_scan";
  CCCL_CACHE_C_TYPED(sc::InclusiveExecutable, AlgorithmId::inclusive_scan, fn);
  if (!arrays_only(fn, "cccl_cache_scan_iterators", exe->spec(), status_)) return status_;
  if (exe->spec().init) return seeded_mismatch(fn, true);
  return result_of((*exe)(d_temp_storage, *temp_storage_bytes, d_in, d_out, num_items,
                          static_cast<CUstream>(stream), state_of(op_state)),
                   fn, kTempOrStateInvalid);
}

cccl_cache_status cccl_cache_inclusive_scan_init(const cccl_cache_algorithm* algorithm,
                                                 void* d_temp_storage, size_t* temp_storage_bytes,
                                                 const void* d_in, void* d_out, uint64_t num_items,
                                                 const void* h_init, void* stream) {
  return cccl_cache_inclusive_scan_init_with_state(algorithm, d_temp_storage, temp_storage_bytes,
                                                   d_in, d_out, num_items, h_init, stream, nullptr);
}

cccl_cache_status cccl_cache_inclusive_scan_init_with_state(
    const cccl_cache_algorithm* algorithm, void* d_temp_storage, size_t* temp_storage_bytes,
    const void* d_in, void* d_out, uint64_t num_items, const void* h_init, void* stream,
    const cccl_cache_op_state* op_state) {
  return run_with_init<sc::InclusiveExecutable>(
      algorithm, AlgorithmId::inclusive_scan, "cccl_cache_inclusive_scan_init", d_temp_storage,
      temp_storage_bytes, d_in, d_out, num_items, h_init, stream, op_state);
}

cccl_cache_status cccl_cache_exclusive_scan(const cccl_cache_algorithm* algorithm,
                                            void* d_temp_storage, size_t* temp_storage_bytes,
                                            const void* d_in, void* d_out, uint64_t num_items,
                                            const void* h_init, void* stream) {
  return cccl_cache_exclusive_scan_with_state(algorithm, d_temp_storage, temp_storage_bytes, d_in,
                                              d_out, num_items, h_init, stream, nullptr);
}

cccl_cache_status cccl_cache_exclusive_scan_with_state(const cccl_cache_algorithm* algorithm,
                                                       void* d_temp_storage,
                                                       size_t* temp_storage_bytes, const void* d_in,
                                                       void* d_out, uint64_t num_items,
                                                       const void* h_init, void* stream,
                                                       const cccl_cache_op_state* op_state) {
  return run_with_init<sc::ExclusiveExecutable>(
      algorithm, AlgorithmId::exclusive_scan, "cccl_cache_exclusive_scan", d_temp_storage,
      temp_storage_bytes, d_in, d_out, num_items, h_init, stream, op_state);
}

cccl_cache_status cccl_cache_scan_device_init(const cccl_cache_algorithm* algorithm,
                                              void* d_temp_storage, size_t* temp_storage_bytes,
                                              const void* d_in, void* d_out, uint64_t num_items,
                                              const void* d_init, void* stream) {
  return cccl_cache_scan_device_init_with_state(algorithm, d_temp_storage, temp_storage_bytes, d_in,
                                                d_out, num_items, d_init, stream, nullptr);
}

cccl_cache_status cccl_cache_scan_device_init_with_state(
    const cccl_cache_algorithm* algorithm, void* d_temp_storage, size_t* temp_storage_bytes,
    const void* d_in, void* d_out, uint64_t num_items, const void* d_init, void* stream,
    const cccl_cache_op_state* op_state) {
  constexpr const char* fn = "cccl_cache_scan_device_init";
  const sc::FutureValue init{d_init};
  if (algorithm != nullptr && algorithm->kind == AlgorithmId::exclusive_scan)
    return run_with_init<sc::ExclusiveExecutable>(algorithm, AlgorithmId::exclusive_scan, fn,
                                                  d_temp_storage, temp_storage_bytes, d_in, d_out,
                                                  num_items, init, stream, op_state);
  return run_with_init<sc::InclusiveExecutable>(algorithm, AlgorithmId::inclusive_scan, fn,
                                                d_temp_storage, temp_storage_bytes, d_in, d_out,
                                                num_items, init, stream, op_state);
}

cccl_cache_status cccl_cache_scan_iterator(const cccl_cache_algorithm* algorithm,
                                           void* d_temp_storage, size_t* temp_storage_bytes,
                                           const cccl_cache_iterator_value* in, void* d_out,
                                           uint64_t num_items, const void* h_init,
                                           const void* d_init, void* stream) {
  return cccl_cache_scan_iterator_with_state(algorithm, d_temp_storage, temp_storage_bytes, in,
                                             d_out, num_items, h_init, d_init, stream, nullptr);
}

cccl_cache_status cccl_cache_scan_iterator_with_state(
    const cccl_cache_algorithm* algorithm, void* d_temp_storage, size_t* temp_storage_bytes,
    const cccl_cache_iterator_value* in, void* d_out, uint64_t num_items, const void* h_init,
    const void* d_init, void* stream, const cccl_cache_op_state* op_state) {
  constexpr const char* fn = "cccl_cache_scan_iterator";
  if (algorithm != nullptr && algorithm->kind == AlgorithmId::exclusive_scan)
    return scan_iterator<sc::ExclusiveExecutable>(fn, algorithm, AlgorithmId::exclusive_scan,
                                                  d_temp_storage, temp_storage_bytes, in, nullptr,
                                                  d_out, num_items, h_init, d_init, stream, op_state);
  return scan_iterator<sc::InclusiveExecutable>(fn, algorithm, AlgorithmId::inclusive_scan,
                                                d_temp_storage, temp_storage_bytes, in, nullptr,
                                                d_out, num_items, h_init, d_init, stream, op_state);
}

cccl_cache_status cccl_cache_scan_iterators(const cccl_cache_algorithm* algorithm,
                                            void* d_temp_storage, size_t* temp_storage_bytes,
                                            const cccl_cache_iterator_value* in,
                                            const cccl_cache_iterator_value* out, uint64_t num_items,
                                            const void* h_init, const void* d_init, void* stream,
                                            const cccl_cache_op_state* op_state) {
  constexpr const char* fn = "cccl_cache_scan_iterators";
  if (out == nullptr) return null_argument(fn, "out");
  if (algorithm != nullptr && algorithm->kind == AlgorithmId::exclusive_scan)
    return scan_iterator<sc::ExclusiveExecutable>(fn, algorithm, AlgorithmId::exclusive_scan,
                                                  d_temp_storage, temp_storage_bytes, in, out,
                                                  nullptr, num_items, h_init, d_init, stream, op_state);
  return scan_iterator<sc::InclusiveExecutable>(fn, algorithm, AlgorithmId::inclusive_scan,
                                                d_temp_storage, temp_storage_bytes, in, out,
                                                nullptr, num_items, h_init, d_init, stream, op_state);
}

}  // extern "C"
