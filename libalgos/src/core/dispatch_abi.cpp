#include "core/dispatch_abi.hpp"

#include <xxhash.h>

#include "cccl_cache/algos/algorithm_list.hpp"

namespace cccl_cache::algos::detail {

const std::vector<AbiLine>& dispatch_abi_lines() {
  static const std::vector<AbiLine> lines = [] {
    std::vector<AbiLine> out;
#define CCCL_CACHE_ABI_LINE(A) \
  out.push_back({std::string(algorithm_name(A::Spec::kAlgorithm)), A::dispatch_abi()});
    CCCL_CACHE_ALGORITHMS(CCCL_CACHE_ABI_LINE)
#undef CCCL_CACHE_ABI_LINE
    return out;
  }();
  return lines;
}

std::uint64_t dispatch_abi_digest(std::string_view text) noexcept {
  return XXH3_64bits(text.data(), text.size());
}

std::map<std::string, std::uint64_t, std::less<>> dispatch_abi_digests(std::span<const AbiLine> lines) {
  std::map<std::string, std::uint64_t, std::less<>> out;
  for (const auto& line : lines) out[line.algorithm] = dispatch_abi_digest(line.text);
  return out;
}

}  // namespace cccl_cache::algos::detail
