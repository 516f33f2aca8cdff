// The hot path through the C ABI: a kind check and a call of the bound executable. A
// successful call touches nothing but the executable (no allocation, no query); only a
// failure records a message.
#include <cuda.h>

#include <cstring>
#include <iterator>
#include <string>

#include "handles.hpp"

namespace cccl_cache::capi {
namespace {

using algos::AlgorithmId;
namespace ms = algos::merge_sort;
namespace rs = algos::radix_sort;
namespace rd = algos::reduce;
namespace sc = algos::scan;
namespace sr = algos::segmented_reduce;
namespace tf = algos::transform;
namespace ub = algos::unique_by_key;
namespace se = algos::select;
namespace tw = algos::three_way_partition;
namespace he = algos::histogram_even;
namespace bs = algos::binary_search;
namespace ss = algos::segmented_sort;
namespace sk = algos::scan_by_key;
namespace fe = algos::for_each;

// The executable `a` holds, if it is of `kind`; else nullptr and `status` set.
template <class Exe>
const Exe* typed(const cccl_cache_algorithm* a, AlgorithmId kind, const char* function,
                 cccl_cache_status& status) noexcept {
  if (a == nullptr) {
    status = null_argument(function, "algorithm");
    return nullptr;
  }
  if (a->kind != kind) [[unlikely]] {
    status = guarded(function, [&] {
      return set_error(CCCL_CACHE_ERROR_INVALID_ARGUMENT,
                       std::string(function) + ": the algorithm is a " +
                           std::string(algos::algorithm_name(a->kind)) + ", not a " +
                           std::string(algos::algorithm_name(kind)));
    });
    return nullptr;
  }
  return static_cast<const Exe*>(a->exe);
}

// OK, or the CUresult as a status with a message.
cccl_cache_status result_of(CUresult r, const char* function, const char* invalid_means) noexcept {
  if (r == CUDA_SUCCESS) [[likely]] return CCCL_CACHE_OK;
  return guarded(function, [&] {
    if (r == CUDA_ERROR_INVALID_VALUE)
      return set_error(CCCL_CACHE_ERROR_INVALID_ARGUMENT,
                       std::string(function) + ": invalid value (" + invalid_means + ")");
    std::string why = r == CUDA_ERROR_NOT_INITIALIZED
                          ? " (in a fork()ed child of the process that bound it, or no driver)"
                          : r == CUDA_ERROR_INVALID_HANDLE ? " (a released or moved-from executable)" : "";
    return set_error(CCCL_CACHE_ERROR_DRIVER,
                     std::string(function) + ": CUresult " + std::to_string(static_cast<int>(r)) + why);
  });
}

// A radix sort's result: an invalid value names the bits where they are the cause.
cccl_cache_status radix_result(const rs::Executable& exe, CUresult r, const char* fn, int begin_bit,
                               int end_bit) noexcept;

constexpr const char* kTempInvalid =
    "temp storage smaller than the queried size, or more items than the spec's offset type holds";

// The invalid values of a call with an operator: kTempInvalid's, or its state.
#define CCCL_CACHE_C_STATE_INVALID                                                       \
  ", or an op_state that does not fit the operator's state layout (none for a stateful " \
  "operator, one for a stateless operator, or another size)"
constexpr const char* kTempOrStateInvalid =
    "temp storage smaller than the queried size, more items than the spec's offset type "
    "holds" CCCL_CACHE_C_STATE_INVALID;
constexpr const char* kScanByKeyInvalid =
    "temp storage smaller than the queried size, too many items for the offset type, or an "
    "exclusive scan without h_init";

// A C call's operator state as the executables take it: empty for NULL.
algos::OpState state_of(const cccl_cache_op_state* s) noexcept {
  return s == nullptr ? algos::OpState{} : algos::OpState{s->data, s->size};
}

constexpr const char* kHistogramInvalid =
    "temp storage smaller than the queried size, more samples than the spec's offset type "
    "holds, fewer than 2 levels, NULL bounds, lower not below upper, or bounds whose bin "
    "arithmetic overflows";
constexpr const char* kBinarySearchInvalid =
    "temp storage smaller than the queried size, a null pointer with a nonzero count, more "
    "values than int64 holds or more items than the spec's out type indexes"
    CCCL_CACHE_C_STATE_INVALID;

// An inclusive scan called in the form its spec does not take (seeded: the spec's init).
cccl_cache_status seeded_mismatch(const char* fn, bool seeded) noexcept {
  return guarded(fn, [&] {
    return set_error(CCCL_CACHE_ERROR_INVALID_ARGUMENT,
                     std::string(fn) + (seeded ? ": the spec has init=1 (use cccl_cache_inclusive_scan_init)"
                                               : ": the spec has no init (use cccl_cache_inclusive_scan)"));
  });
}

// A call on a spec whose input or output (`role`) is an iterator the call cannot pass: it
// takes `iterator_fn`.
cccl_cache_status iterator_spec(const char* fn, const char* iterator_fn,
                                const char* role = "input") noexcept {
  return guarded(fn, [&] {
    return set_error(CCCL_CACHE_ERROR_INVALID_ARGUMENT, std::string(fn) + ": the spec's " + role +
                                                            " is an iterator (use " + iterator_fn + ")");
  });
}
// The array calls' check: a spec with an input or output iterator takes `iterator_fn`.
template <class Spec>
bool arrays_only(const char* fn, const char* iterator_fn, const Spec& spec, cccl_cache_status& status) noexcept {
  if (spec.input.is_pointer() && spec.output.is_pointer()) return true;
  status = iterator_spec(fn, iterator_fn, spec.input.is_pointer() ? "output" : "input");
  return false;
}

// A call's iterator value as the executables take it, with the values of a zip's or a
// nested iterator's components, depth first (which the values' pointers point at for the
// call).
struct CallValue {
  algos::IteratorValue value;
  algos::IteratorValue parts[64];
  std::size_t used = 0;
};

// One C iterator value (`arg`, e.g. "in" or "in->pointer[1]") of the spec's kind `it` as
// the executables take it; a zip's or nested iterator's components into `call`'s parts.
// INVALID_ARGUMENT, set in `status`, where `v` is NULL or a kind or a component count is
// not the spec's.
bool convert_value(const char* fn, const std::string& arg, bool input, const algos::Iterator& it,
                   const cccl_cache_iterator_value* v, algos::IteratorValue& value,
                   CallValue& call, cccl_cache_status& status) noexcept {
  if (v == nullptr) {
    status = guarded(fn, [&] {
      return set_error(CCCL_CACHE_ERROR_INVALID_ARGUMENT,
                       std::string(fn) + ": " + arg + " is NULL");
    });
    return false;
  }
  int kind = 0;  // the int the caller stored (any int may be in a C enum)
  std::memcpy(&kind, &v->kind, sizeof kind);
  if (kind != static_cast<int>(it.kind)) {
    status = guarded(fn, [&] {
      return set_error(CCCL_CACHE_ERROR_INVALID_ARGUMENT,
                       std::string(fn) + ": " + arg + "->kind " + std::to_string(kind) +
                           " is not the spec's " + (input ? "input" : "output") + " kind (" +
                           std::string(algos::iterator_kind_name(it.kind)) + ")");
    });
    return false;
  }
  if (it.kind == algos::IteratorKind::transform && it.op.stateful() && v->index == nullptr) {
    status = guarded(fn, [&] {
      return set_error(CCCL_CACHE_ERROR_INVALID_ARGUMENT,
                       std::string(fn) + ": " + arg + "->index is NULL: the spec's transform operator '" +
                           it.op.name + "' is stateful (give its " + std::to_string(it.op.state_size) +
                           " bytes of state)");
    });
    return false;
  }
  value = algos::IteratorValue{it.kind, v->pointer, v->index};
  std::memcpy(value.value, &v->value, sizeof value.value);
  const std::size_t count = it.components.size();
  if (count == 0) return true;
  if (v->value != count || v->pointer == nullptr || call.used + count > std::size(call.parts)) {
    status = guarded(fn, [&] {
      return set_error(
          CCCL_CACHE_ERROR_INVALID_ARGUMENT,
          std::string(fn) + ": " + arg + " is a " + std::string(algos::iterator_kind_name(it.kind)) +
              " of " + std::to_string(count) + (count == 1 ? " component" : " components") +
              ": pointer must point to that many values and value be their number (" +
              std::to_string(v->value) + ")");
    });
    return false;
  }
  algos::IteratorValue* parts = call.parts + call.used;
  call.used += count;
  const auto* given = static_cast<const cccl_cache_iterator_value*>(v->pointer);
  for (std::size_t k = 0; k < count; ++k) {
    // A nested permutation's values are written where the permutation is an output.
    const bool read = input || (it.kind == algos::IteratorKind::permutation && k == 1);
    if (!convert_value(fn, arg + "->pointer[" + std::to_string(k) + "]", read, it.components[k],
                       &given[k], parts[k], call, status))
      return false;
  }
  value.pointer = parts;
  return true;
}

// A C call's iterator values (`arg`: its name, e.g. "in"; the spec's `it` for that role,
// read where `input`, else written) as the
// executables take them (iterator.hpp IteratorValue). INVALID_ARGUMENT, set in `status`,
// where `v` is NULL or v->kind (or a zip's component's) is not the spec's kind.
bool iterator_value(const char* fn, const char* arg, const algos::Iterator& it,
                    const cccl_cache_iterator_value* v, CallValue& value, cccl_cache_status& status,
                    bool input) noexcept {
  if (v == nullptr) {
    status = null_argument(fn, arg);
    return false;
  }
  value.used = 0;
  return convert_value(fn, arg, input, it, v, value.value, value, status);
}

// The output of an iterator call: `out` (cccl_cache_*_iterators), or the array `d_out` of
// the one-iterator calls (`out` NULL), which a spec with an output iterator refuses.
bool output_value(const char* fn, const char* iterators_fn, const algos::Iterator& spec_out,
                  const cccl_cache_iterator_value* out, void* d_out, CallValue& value,
                  cccl_cache_status& status) noexcept {
  if (out != nullptr) return iterator_value(fn, "out", spec_out, out, value, status, false);
  if (!spec_out.is_pointer()) {
    status = iterator_spec(fn, iterators_fn, "output");
    return false;
  }
  value.value = algos::IteratorValue::array(d_out);
  return true;
}

// An array as the iterator calls take one.
cccl_cache_iterator_value array_value(const void* d) noexcept {
  cccl_cache_iterator_value v{};
  v.kind = CCCL_CACHE_ITERATOR_POINTER;
  v.pointer = d;
  return v;
}

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

#define CCCL_CACHE_C_TYPED(Exe, kind, fn)                         \
  cccl_cache_status status_ = CCCL_CACHE_OK;                      \
  const auto* exe = typed<Exe>(algorithm, kind, fn, status_);     \
  if (exe == nullptr) return status_;                             \
  if (temp_storage_bytes == nullptr) return null_argument(fn, "temp_storage_bytes")

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

cccl_cache_status cccl_cache_temp_storage_bytes(const cccl_cache_algorithm* algorithm,
                                                uint64_t num_items, size_t* bytes) {
  constexpr const char* fn = "cccl_cache_temp_storage_bytes";
  if (algorithm == nullptr) return null_argument(fn, "algorithm");
  if (bytes == nullptr) return null_argument(fn, "bytes");
  const void* e = algorithm->exe;
  switch (algorithm->kind) {
    case AlgorithmId::merge_sort:
      *bytes = static_cast<const ms::Executable*>(e)->temp_storage_bytes(num_items);
      break;
    case AlgorithmId::radix_sort:
      *bytes = static_cast<const rs::Executable*>(e)->temp_storage_bytes(num_items);
      break;
    case AlgorithmId::reduce:
      *bytes = static_cast<const rd::Executable*>(e)->temp_storage_bytes(num_items);
      break;
    case AlgorithmId::inclusive_scan:
      *bytes = static_cast<const sc::InclusiveExecutable*>(e)->temp_storage_bytes(num_items);
      break;
    case AlgorithmId::exclusive_scan:
      *bytes = static_cast<const sc::ExclusiveExecutable*>(e)->temp_storage_bytes(num_items);
      break;
    case AlgorithmId::segmented_reduce:
      *bytes = static_cast<const sr::Executable*>(e)->temp_storage_bytes(num_items);
      break;
    case AlgorithmId::unique_by_key:
      *bytes = static_cast<const ub::Executable*>(e)->temp_storage_bytes(num_items);
      break;
    case AlgorithmId::select:
      *bytes = static_cast<const se::Executable*>(e)->temp_storage_bytes(num_items);
      break;
    case AlgorithmId::three_way_partition:
      *bytes = static_cast<const tw::Executable*>(e)->temp_storage_bytes(num_items);
      break;
    case AlgorithmId::binary_search:
      *bytes = static_cast<const bs::Executable*>(e)->temp_storage_bytes();
      break;
    case AlgorithmId::unary_transform:
    case AlgorithmId::binary_transform:
    case AlgorithmId::for_each:
      *bytes = 0;
      break;
    case AlgorithmId::histogram_even:
      return guarded(fn, [&] {
        return set_error(CCCL_CACHE_ERROR_INVALID_ARGUMENT,
                         std::string(fn) + ": a histogram_even's temp storage depends on its number of "
                                           "levels: call cccl_cache_histogram_even with d_temp_storage NULL");
      });
    case AlgorithmId::scan_by_key:
      *bytes = static_cast<const sk::Executable*>(e)->temp_storage_bytes(num_items);
      break;
    case AlgorithmId::segmented_sort:
      return guarded(fn, [&] {
        return set_error(CCCL_CACHE_ERROR_INVALID_ARGUMENT,
                         std::string(fn) + ": a segmented_sort's temp storage depends on its number of "
                                           "segments: call cccl_cache_segmented_sort with d_temp_storage NULL");
      });
  }
  return CCCL_CACHE_OK;
}

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

static_assert(CCCL_CACHE_ITERATOR_COUNTING == static_cast<int>(algos::IteratorKind::counting));
static_assert(CCCL_CACHE_ITERATOR_PERMUTATION == static_cast<int>(algos::IteratorKind::permutation));
static_assert(CCCL_CACHE_ITERATOR_DISCARD == static_cast<int>(algos::IteratorKind::discard));
static_assert(CCCL_CACHE_ITERATOR_ZIP == static_cast<int>(algos::IteratorKind::zip));
static_assert(CCCL_CACHE_ITERATOR_SHUFFLE == static_cast<int>(algos::IteratorKind::shuffle));
static_assert(CCCL_CACHE_ITERATOR_CACHE_MODIFIED ==
              static_cast<int>(algos::IteratorKind::cache_modified));
static_assert(sizeof(cccl_cache_iterator_kind) == sizeof(int));

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

constexpr const char* kSegmentedSortInvalid =
    "temp storage smaller than the queried size, more items or segments than INT64_MAX, or an "
    "offset of another kind than the spec's";

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

}  // extern "C"

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
