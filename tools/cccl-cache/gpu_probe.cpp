#include "gpu_probe.hpp"

#include <algorithm>

#include "cccl_cache/algos/device.hpp"

namespace cccl_cache::cli {

Result<std::vector<std::uint32_t>> local_device_ccs() {
  std::vector<std::uint32_t> ccs;
  // No driver or no device is a normal answer here (0 devices), not an error:
  // `prewarm --arch ...` must work on build machines without a driver.
  auto count = algos::device_count();
  if (!count) return tl::unexpected(count.error());
  for (int i = 0; i < *count; ++i) {
    auto cc = algos::device_cc(i);
    if (!cc) return tl::unexpected(cc.error());
    ccs.push_back(*cc);
  }
  std::sort(ccs.begin(), ccs.end());
  ccs.erase(std::unique(ccs.begin(), ccs.end()), ccs.end());
  return ccs;
}

}  // namespace cccl_cache::cli
