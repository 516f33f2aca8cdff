// CUB's DeviceMergeSort built by nvcc (sm_90), callable from plain C++.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace bench {

// Temp-storage query for float keys (int64 offsets, less): CUB's full host dispatch.
std::size_t cub_query_float_keys(std::int64_t n);
// In-place sorts; return cudaError_t values.
int cub_sort_float_keys(void* temp, std::size_t& temp_bytes, float* keys, std::int64_t n,
                        cudaStream_t stream);
int cub_sort_int64_pairs(void* temp, std::size_t& temp_bytes, std::int64_t* keys,
                         std::uint32_t* values, std::int64_t n, cudaStream_t stream);

}  // namespace bench
