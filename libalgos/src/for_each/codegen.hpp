// CUDA C++ source generation for a for_each spec: its build steps. Private to libalgos.
#pragma once

#include "cccl_cache/algos/for_each/build_result.hpp"
#include "core/build.hpp"
#include "core/iterator.hpp"

template <>
struct cccl_cache::algos::detail::BuildSteps<cccl_cache::algos::ForEach> {
  // `spec` must be valid. Includes CUB's for-each kernel header, defines the items'
  // argument type (T* for an array, so the operator gets the item itself), the operator
  // `cccl_cache_op` (calling the user's function, its state first where stateful) and
  // DeviceFor's wrapper {items, op} (DeviceFor::__op_wrapper_t's members and call), whose
  // layout the source static_asserts to be wrapper_layout's, and names the one kernel
  // DeviceFor::ForEachN launches for them (static_kernel over the wrapper). The policy
  // probe: CUB's ForPolicy for the CC compiled for.
  static GeneratedSource source(const for_each::Spec& spec);
};

namespace cccl_cache::algos::for_each::detail {

// The kernel's operator argument (DeviceFor's wrapper: the items' argument, then the
// operator, each at its natural alignment) for `spec`: its size and alignment, and where
// the operator's state starts. What a call packs (and the generated source asserts).
struct WrapperLayout {
  algos::detail::ArgumentExtent extent;
  algos::detail::ArgumentExtent items;  // at offset 0
  algos::detail::ArgumentExtent op;     // the state's, or one byte (an empty operator)
  std::size_t op_offset = 0;
};
WrapperLayout wrapper_layout(const Spec& spec) noexcept;

}  // namespace cccl_cache::algos::for_each::detail
