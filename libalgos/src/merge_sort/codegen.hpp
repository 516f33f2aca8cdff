// CUDA C++ source generation for a merge sort spec, and the policy probe's
// decoding. Private to libalgos.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "cccl_cache/algos/merge_sort/build_result.hpp"
#include "cccl_cache/cache/error.hpp"

namespace cccl_cache::algos::merge_sort::detail {

// Indices into GeneratedSource::name_expressions.
inline constexpr std::size_t kBlockSortExpr = 0, kPartitionExpr = 1, kMergeExpr = 2,
                             kPolicyProbeExpr = 3;

// Name of the probe kernel whose template arguments carry the policy values.
inline constexpr std::string_view kPolicyProbeName = "cccl_cache_policy_probe";

struct GeneratedSource {
  std::string source;
  // Template-ids of DeviceMergeSortBlockSortKernel, DeviceMergeSortPartitionKernel,
  // DeviceMergeSortMergeKernel (with the template arguments of CCCL 3.5's
  // cub::detail::merge_sort::dispatch and DeviceMergeSort's default policy selector)
  // and of the policy probe, in the kExpr order above.
  std::vector<std::string> name_expressions;
};

// `spec` must be valid (validate()). The source static_asserts that NVRTC sees the
// pinned CCCL_VERSION (the host dispatch's), includes CUB's kernel header only,
// defines the empty comparator functor `cccl_cache_compare` and the probe.
GeneratedSource generate_source(const Spec& spec);

// XXH3-64 of generate_source()'s text and name expressions for the spec's shape (its
// types and comparator kind; a custom comparator's name and source replaced by fixed
// placeholders: the key carries both, and the source may be up to 1 MiB): what the key
// needs to change whenever our code generation does. `spec` must be valid. Memoized per
// process and shape (lock-free): the first call for a shape generates the text, later
// ones cost a load.
std::uint64_t codegen_digest(const Spec& spec);

// Decodes the probe's lowered name, e.g. "_Z23cccl_cache_policy_probeILi256ELi4352ELy0ELy0EEvv",
// by the Itanium grammar for a function template with four integer literal
// arguments. Error: internal (anything else, or implausible values).
Result<Policy> parse_policy_probe(std::string_view lowered);

}  // namespace cccl_cache::algos::merge_sort::detail
