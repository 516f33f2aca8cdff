// Scan policies the scan tests drive CUB's dispatch with. Header-only.
#pragma once

#include <cstdint>

#include "cccl_cache/algos/scan/build_result.hpp"

namespace test_support {

// CUB's float scan policy on sm_100: look-ahead, 352 threads x 87 items.
inline cccl_cache::algos::scan::Policy scan_lookahead_policy() {
  cccl_cache::algos::scan::Policy p;
  p.algorithm = 1;
  p.block_threads = 352;
  p.items_per_thread = 87;
  p.reduce_and_scan_warps = 4;
  p.lookahead_items_per_thread = 3;
  p.lookahead_stages = 2;
  p.block_idx_stages = static_cast<std::uint32_t>(-1);
  return p;
}

}  // namespace test_support
