// Algorithm identities: the number is part of every blob and key, the name part of
// spec text and entry metadata. Never reuse a number.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace cccl_cache::algos {

enum class AlgorithmId : std::uint8_t {
  merge_sort = 1,
  reduce = 2,
  inclusive_scan = 3,
  exclusive_scan = 4,
  unary_transform = 5,
  binary_transform = 6,
  radix_sort = 7,
  segmented_reduce = 8,
  unique_by_key = 9,
  select = 10,
  three_way_partition = 11,
  histogram_even = 12,
  binary_search = 13,  // lower_bound and upper_bound
  segmented_sort = 14,
  scan_by_key = 15,  // inclusive and exclusive
  for_each = 16,
};

// "merge_sort"; "unknown" for a number no algorithm has.
std::string_view algorithm_name(AlgorithmId id) noexcept;
// Inverse of algorithm_name(); nullopt if unknown.
std::optional<AlgorithmId> parse_algorithm(std::string_view name) noexcept;

}  // namespace cccl_cache::algos
