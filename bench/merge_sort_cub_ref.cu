// CUB's own DeviceMergeSort, compiled by nvcc: the reference the merge-sort
// benchmarks compare against.
#include <cstddef>
#include <cstdint>
#include <cub/device/device_merge_sort.cuh>
#include <cuda/std/functional>

#include "merge_sort_cub_ref.hpp"

namespace bench {

std::size_t cub_query_float_keys(std::int64_t n) {
  std::size_t bytes = 0;
  cub::DeviceMergeSort::SortKeys(nullptr, bytes, static_cast<float*>(nullptr), n,
                                 ::cuda::std::less<float>{});
  return bytes;
}

int cub_sort_float_keys(void* temp, std::size_t& temp_bytes, float* keys, std::int64_t n,
                        cudaStream_t stream) {
  return static_cast<int>(cub::DeviceMergeSort::SortKeys(temp, temp_bytes, keys, n,
                                                         ::cuda::std::less<float>{}, stream));
}

int cub_sort_int64_pairs(void* temp, std::size_t& temp_bytes, std::int64_t* keys,
                         std::uint32_t* values, std::int64_t n, cudaStream_t stream) {
  return static_cast<int>(cub::DeviceMergeSort::SortPairs(
      temp, temp_bytes, keys, values, n, ::cuda::std::less<std::int64_t>{}, stream));
}

}  // namespace bench
