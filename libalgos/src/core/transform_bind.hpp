// What a bind of CUB's transform kernel fills in, for every algorithm on it (transform,
// binary search). Private to libalgos.
#pragma once

#include <cstddef>
#include <span>

#include "cccl_cache/algos/types.hpp"
#include "core/executable_state.hpp"
#include "core/transform_dispatch.hpp"

namespace cccl_cache::algos::transform_kernel::detail {

// Sets `state`'s DispatchParams for a kernel of `policy` over inputs of element types
// `in` (1 or 2) and output `out`, then CUB's launch configuration (configure) in a dry
// run over the bound kernel. Error: the dry run's (core/executable_state.hpp).
template <class State>
[[nodiscard]] Result<void> bind_params(State& state, const Policy& policy,
                                       std::span<const ElementType> in, const ElementType& out) {
  DispatchParams& p = state.params;
  p.policy = policy;
  p.num_inputs = static_cast<int>(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) {
    p.in_size[i] = static_cast<int>(size_of(in[i]));
    p.in_align[i] = static_cast<int>(alignment_of(in[i]));
  }
  p.out_size = static_cast<int>(size_of(out));
  return algos::detail::dry_run(
      state, "bind: CUB's transform launch configuration",
      [&](const algos::detail::LaunchContext& dry) { return configure(p, dry); });
}

}  // namespace cccl_cache::algos::transform_kernel::detail
