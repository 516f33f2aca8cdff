// The C ABI's call plumbing shared by the algorithms' calls (run*.cpp): the kind check
// that gives a call its executable, CUresults as statuses, and the C iterator values as
// the executables take them. A successful call touches nothing but the executable (no
// allocation, no query); only a failure records a message.
#pragma once

#include <cuda.h>

#include <cstddef>
#include <string>

#include "handles.hpp"

namespace cccl_cache::capi {

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

// A failed CUresult as a status with a message (invalid_means: what an invalid value is).
cccl_cache_status failed_result(CUresult r, const char* function, const char* invalid_means) noexcept;
// OK, or failed_result's: a successful call records nothing.
inline cccl_cache_status result_of(CUresult r, const char* function, const char* invalid_means) noexcept {
  if (r == CUDA_SUCCESS) [[likely]] return CCCL_CACHE_OK;
  return failed_result(r, function, invalid_means);
}

inline constexpr const char* kTempInvalid =
    "temp storage smaller than the queried size, or more items than the spec's offset type holds";

// The invalid values of a call with an operator: kTempInvalid's, or its state.
#define CCCL_CACHE_C_STATE_INVALID                                                       \
  ", or an op_state that does not fit the operator's state layout (none for a stateful " \
  "operator, one for a stateless operator, or another size)"
inline constexpr const char* kTempOrStateInvalid =
    "temp storage smaller than the queried size, more items than the spec's offset type "
    "holds" CCCL_CACHE_C_STATE_INVALID;
inline constexpr const char* kScanByKeyInvalid =
    "temp storage smaller than the queried size, too many items for the offset type, or an "
    "exclusive scan without h_init";

// A C call's operator state as the executables take it: empty for NULL.
inline algos::OpState state_of(const cccl_cache_op_state* s) noexcept {
  return s == nullptr ? algos::OpState{} : algos::OpState{s->data, s->size};
}

// A call on a spec whose input or output (`role`) is an iterator the call cannot pass: it
// takes `iterator_fn`.
cccl_cache_status iterator_spec(const char* fn, const char* iterator_fn,
                                const char* role = "input") noexcept;
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

// A C call's iterator values (`arg`: its name, e.g. "in"; the spec's `it` for that role,
// read where `input`, else written) as the
// executables take them (iterator.hpp IteratorValue). INVALID_ARGUMENT, set in `status`,
// where `v` is NULL or v->kind (or a zip's component's) is not the spec's kind.
bool iterator_value(const char* fn, const char* arg, const algos::Iterator& it,
                    const cccl_cache_iterator_value* v, CallValue& value, cccl_cache_status& status,
                    bool input) noexcept;

// The output of an iterator call: `out` (cccl_cache_*_iterators), or the array `d_out` of
// the one-iterator calls (`out` NULL), which a spec with an output iterator refuses.
bool output_value(const char* fn, const char* iterators_fn, const algos::Iterator& spec_out,
                  const cccl_cache_iterator_value* out, void* d_out, CallValue& value,
                  cccl_cache_status& status) noexcept;

// An array as the iterator calls take one.
cccl_cache_iterator_value array_value(const void* d) noexcept;

// The start of a two-phase call: `exe`, the executable of `kind` (else its status
// returned), and a non-null temp_storage_bytes.
#define CCCL_CACHE_C_TYPED(Exe, kind, fn)                         \
  cccl_cache_status status_ = CCCL_CACHE_OK;                      \
  const auto* exe = typed<Exe>(algorithm, kind, fn, status_);     \
  if (exe == nullptr) return status_;                             \
  if (temp_storage_bytes == nullptr) return null_argument(fn, "temp_storage_bytes")

}  // namespace cccl_cache::capi
