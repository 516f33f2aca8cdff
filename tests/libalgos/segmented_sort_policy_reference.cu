// CUB's own segmented-sort policy selectors (segmented_sort_policy_reference.hpp).
#include "core/launch.cuh"

#include <cub/device/dispatch/dispatch_segmented_sort.cuh>

#include "segmented_sort_policy_reference.hpp"

namespace test_support {

cccl_cache::algos::segmented_sort::Policy cub_segmented_sort_policy(
    const cccl_cache::algos::segmented_sort::Spec& spec, std::uint32_t cc) {
  namespace ss = cub::detail::segmented_sort;
  namespace twp = cub::detail::three_way_partition;
  using cccl_cache::algos::size_of;
  const ::cuda::compute_capability target{int(cc)};
  // keys-only sorts size their values as CUB's NullType (one byte).
  const int value_size = spec.keys_only() ? 1 : int(size_of(spec.value_type));
  const cub::SegmentedSortPolicy r =
      ss::policy_selector{int(size_of(spec.key_type)), value_size, spec.keys_only()}(target);
  const cub::ThreeWayPartitionPolicy t =
      twp::policy_selector_from_types<ss::local_segment_index_t, twp::per_partition_offset_t>{}(target);
  cccl_cache::algos::segmented_sort::Policy p;
  const auto& v = cccl_cache::algos::detail::policy_from_cub;
  CCCL_CACHE_SEGMENTED_SORT_POLICY(CCCL_CACHE_POLICY_MIRROR)
  {
    const auto& r = t;  // the partition's members
    CCCL_CACHE_SEGMENTED_SORT_PARTITION_POLICY(CCCL_CACHE_POLICY_MIRROR)
  }
  return p;
}

}  // namespace test_support
