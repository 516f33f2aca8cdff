// A Policy whose values mirror members of CUB's own policy struct, written once as a
// list macro of `X(ours, cubs)` entries: `ours` the Policy member (std::uint32_t),
// `cubs` its member path in CUB's policy (e.g. single_tile.threads_per_block). These
// expansions of one list give what would otherwise be four copies of it: the members,
// the field visitor (Policy::fields, with `p` the policy and `v` the visitor), the paths
// the build's policy probe reads from the kernels' own compile (codegen.cpp), and the
// mirror between ours and CUB's (`p` ours, `r` CUB's, `v(ours, cubs)`; the dispatch
// writes the bound values into CUB's policy).
#pragma once

#include <cstdint>

#define CCCL_CACHE_POLICY_MEMBER(ours, cubs) std::uint32_t ours = 0;
#define CCCL_CACHE_POLICY_FIELD(ours, cubs) v(#ours, p.ours);
#define CCCL_CACHE_POLICY_PATH(ours, cubs) #cubs,
#define CCCL_CACHE_POLICY_MIRROR(ours, cubs) v(p.ours, r.cubs);

namespace cccl_cache::algos::detail {
// The two visitors of CCCL_CACHE_POLICY_MIRROR: ours into CUB's (int) member, and back.
inline constexpr auto policy_to_cub = [](std::uint32_t ours, int& cubs) { cubs = static_cast<int>(ours); };
inline constexpr auto policy_from_cub = [](std::uint32_t& ours, int cubs) {
  ours = static_cast<std::uint32_t>(cubs);
};
}  // namespace cccl_cache::algos::detail
