// CUB's own policy selectors for a segmented sort, evaluated on the host (CCCL 3.5,
// compiled by nvcc in segmented_sort_policy_reference.cu): the policies a build's probe
// must read from the device compile for that CC.
#pragma once

#include <cstdint>

#include "cccl_cache/algos/segmented_sort/build_result.hpp"

namespace test_support {

// What DeviceSegmentedSort's sort selector (for the spec's key and value sizes) and its
// three-way partition's selector (segment indices, int per-partition offsets) pick on
// sm_<cc>, as the fields the host dispatch reads.
cccl_cache::algos::segmented_sort::Policy cub_segmented_sort_policy(
    const cccl_cache::algos::segmented_sort::Spec& spec, std::uint32_t cc);

}  // namespace test_support
