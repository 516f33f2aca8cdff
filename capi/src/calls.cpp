// The C ABI's call plumbing (calls.hpp).
#include "calls.hpp"

#include <cstring>
#include <iterator>

namespace cccl_cache::capi {

// The C header's iterator kinds are the library's.
static_assert(CCCL_CACHE_ITERATOR_COUNTING == static_cast<int>(algos::IteratorKind::counting));
static_assert(CCCL_CACHE_ITERATOR_PERMUTATION == static_cast<int>(algos::IteratorKind::permutation));
static_assert(CCCL_CACHE_ITERATOR_DISCARD == static_cast<int>(algos::IteratorKind::discard));
static_assert(CCCL_CACHE_ITERATOR_ZIP == static_cast<int>(algos::IteratorKind::zip));
static_assert(CCCL_CACHE_ITERATOR_SHUFFLE == static_cast<int>(algos::IteratorKind::shuffle));
static_assert(CCCL_CACHE_ITERATOR_CACHE_MODIFIED ==
              static_cast<int>(algos::IteratorKind::cache_modified));
static_assert(sizeof(cccl_cache_iterator_kind) == sizeof(int));

// The CUresult as a status with a message (calls.hpp result_of passes success inline).
cccl_cache_status failed_result(CUresult r, const char* function, const char* invalid_means) noexcept {
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

// A call on a spec whose input or output (`role`) is an iterator the call cannot pass: it
// takes `iterator_fn`.
cccl_cache_status iterator_spec(const char* fn, const char* iterator_fn,
                                const char* role) noexcept {
  return guarded(fn, [&] {
    return set_error(CCCL_CACHE_ERROR_INVALID_ARGUMENT, std::string(fn) + ": the spec's " + role +
                                                            " is an iterator (use " + iterator_fn + ")");
  });
}
namespace {

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

}  // namespace

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

}  // namespace cccl_cache::capi
