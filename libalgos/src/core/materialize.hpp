// An iterator materialized into a device array by one generated kernel, for an
// algorithm whose CUB dispatch reads that input from a pointer only (radix sort's
// counting values: an argsort). The kernel joins the algorithm's own source and record;
// a call launches it on its stream through the bound launch context before the
// algorithm's dispatch. Private to libalgos.
#pragma once

#include <cuda.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "cccl_cache/algos/iterator.hpp"
#include "core/check.hpp"
#include "core/launch.hpp"

namespace cccl_cache::algos::detail {

// The materialize kernel's block size (its __launch_bounds__) and the items each thread
// writes per block tile (a block writes 1024 items per step: a large fill takes a quarter
// of the blocks one item per thread would; docs/benchmarks.md, argsort).
inline constexpr std::uint32_t kMaterializeThreads = 256;
inline constexpr std::uint32_t kMaterializeItems = 4;

// The kernel's role for check_kernels: `out[i] = in[i]`, launched with 256 threads.
inline constexpr KernelRole kMaterializeRole = {.role = "materialize",
                                                .mangled = "22cccl_cache_materialize",
                                                .threads = kMaterializeThreads,
                                                .bounded = true};

// Device code for a generated source (inside the prelude): the iterator struct of a
// valid non-pointer `it` over `element` (core/iterator.hpp) and the kernel template
// `cccl_cache_materialize<It, T>(T* out, It in, unsigned long long n)`, out[i] = in[i]
// for i < n, a grid-stride loop over tiles of kMaterializeThreads x kMaterializeItems
// (each of a thread's items a block apart, so that every store of a warp is coalesced).
std::string materialize_source(const Iterator& it, ScalarType element);
// The kernel's name expression for materialize_source's iterator over `element`.
std::string materialize_kernel(ScalarType element);

// The bytes n elements of `element` take at the start of temp storage, a multiple of 256
// (CUB's allocation alignment, so that what follows is aligned as CUB's own start).
// nullopt where that does not fit in size_t.
std::optional<std::size_t> materialized_bytes(std::uint64_t num_items, ScalarType element) noexcept;

// Launches the bound materialize kernel `kernel` of `ctx` on `stream`: out[i] = the
// spec's iterator `it` over `element` with the call's `value`, i < num_items (none for
// 0). No allocation, no query. Returns CUDA_ERROR_INVALID_VALUE where `value` is not of
// the spec's kind or `kernel` is not bound, CUDA_ERROR_NOT_INITIALIZED without a launch
// entry point, else the launch's result.
CUresult materialize(const LaunchContext& ctx, std::size_t kernel, const Iterator& it,
                     ScalarType element, const IteratorValue& value, void* out,
                     std::uint64_t num_items, CUstream stream) noexcept;

// A call whose input is materialized into a buffer of the caller's (a DoubleBuffer's
// current values) before the dispatch reads it from there. Nothing where `it` is a pointer
// (the dispatch reads it as is) or the call only sizes (`launches` false). Otherwise
// `usable()` (the executable's check that it may launch, a CUresult), then materialize
// (as above) into `buffer`; the first failure is returned.
template <class Usable>
CUresult materialize_into(const LaunchContext& ctx, std::size_t kernel, const Iterator& it,
                          ScalarType element, const IteratorValue& value, bool launches,
                          void* buffer, std::uint64_t num_items, CUstream stream,
                          Usable&& usable) noexcept {
  if (it.is_pointer() || !launches) return CUDA_SUCCESS;
  if (const CUresult rc = usable(); rc != CUDA_SUCCESS) return rc;
  return materialize(ctx, kernel, it, element, value, buffer, num_items, stream);
}

// A call whose input is materialized at the start of its temp storage: [values:
// materialized_bytes | the dispatch's]. `dispatch(void* d_temp, std::size_t& bytes, void*
// d_values)` runs the algorithm's dispatch over the values at d_values, or sizes it
// (d_temp and d_values null). d_temp_storage null: temp_storage_bytes = the values' bytes +
// the dispatch's. Otherwise materialize (as above) into d_temp_storage, then the dispatch
// with the rest; CUDA_ERROR_INVALID_VALUE, before any launch, for too little temp storage
// or a start not aligned to the element. The caller checks that its executable may launch.
template <class Dispatch>
CUresult materialized_call(const LaunchContext& ctx, std::size_t kernel, const Iterator& it,
                           ScalarType element, const IteratorValue& value, void* d_temp_storage,
                           std::size_t& temp_storage_bytes, std::uint64_t num_items,
                           CUstream stream, Dispatch&& dispatch) noexcept {
  const auto values = materialized_bytes(num_items, element);
  if (!values) return CUDA_ERROR_INVALID_VALUE;
  auto* temp = static_cast<unsigned char*>(d_temp_storage);
  std::size_t rest = temp_storage_bytes - std::min(temp_storage_bytes, *values);
  if (temp == nullptr) {
    const CUresult rc = dispatch(nullptr, rest, nullptr);
    if (rc == CUDA_SUCCESS) temp_storage_bytes = *values + rest;
    return rc;
  }
  // Sized first (the dispatch's closed form), so that too little temp storage is refused
  // before the fill writes into it.
  std::size_t needed = 0;
  if (const CUresult rc = dispatch(nullptr, needed, nullptr); rc != CUDA_SUCCESS) return rc;
  if (temp_storage_bytes < *values || rest < needed ||
      reinterpret_cast<std::uintptr_t>(temp) % size_of(element) != 0)
    return CUDA_ERROR_INVALID_VALUE;
  const CUresult rc = materialize(ctx, kernel, it, element, value, temp, num_items, stream);
  return rc != CUDA_SUCCESS ? rc : dispatch(temp + *values, rest, temp);
}

}  // namespace cccl_cache::algos::detail
