// The C ABI's size query for any algorithm (calls: run_*.cpp).
#include "calls.hpp"

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

}  // extern "C"
