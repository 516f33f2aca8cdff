#include "core/dispatch_abi.hpp"

#include <xxhash.h>

#include "cccl_cache/algos/algorithm_list.hpp"

namespace cccl_cache::algos::detail {

const std::string& dispatch_abi_text() {
  static const std::string text = [] {
    std::string out;
#define CCCL_CACHE_ABI_LINE(A)                                                  \
  out += std::string(algorithm_name(A::Spec::kAlgorithm)) + ": " + A::dispatch_abi() + "\n";
    CCCL_CACHE_ALGORITHMS(CCCL_CACHE_ABI_LINE)
#undef CCCL_CACHE_ABI_LINE
    return out;
  }();
  return text;
}

std::uint64_t dispatch_abi_digest() noexcept {
  static const std::uint64_t digest = XXH3_64bits(dispatch_abi_text().data(), dispatch_abi_text().size());
  return digest;
}

}  // namespace cccl_cache::algos::detail
