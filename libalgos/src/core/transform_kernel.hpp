// What the algorithms on CUB's transform kernel (transform, binary search) share on the
// build side: the kernel's source for any operator, and the checks of its policy and
// kernel. Private to libalgos.
#pragma once

#include <span>
#include <string_view>

#include "cccl_cache/algos/core/build_record.hpp"
#include "cccl_cache/algos/core/transform_kernel.hpp"
#include "cccl_cache/algos/types.hpp"
#include "cccl_cache/cache/error.hpp"
#include "core/jit.hpp"

namespace cccl_cache::algos::transform_kernel::detail {

// The source naming CUB's transform_kernel as cub::DeviceTransform instantiates it for
// raw pointers (transform_kernel<policy_selector_from_types<false, true, tuple<const
// In*...>, Out*>, int64_t, always_true, cccl_cache_op, Out*, const In*...>) and the
// policy probe (values in Policy's field order). `op_definition` defines the functor
// type `cccl_cache_op`; `header`, if not empty, is included before it.
algos::detail::GeneratedSource kernel_source(std::span<const ScalarType> in, ScalarType out,
                                             std::string_view op_definition,
                                             std::string_view header = {});

// A plausible policy for the record's CC, and one kernel that is CUB's transform kernel
// compiled with the policy's block size as its launch bounds (core/check.hpp). Error
// corrupt naming "transform".
[[nodiscard]] Result<void> check(const Policy& policy, const BuildRecordView& record);

}  // namespace cccl_cache::algos::transform_kernel::detail
