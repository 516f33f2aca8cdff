#include "core/agent_select.hpp"

#include <string>

#include "core/check.hpp"

namespace cccl_cache::algos::detail {

Result<void> check_agent_select(std::string_view algorithm, const agent_select::Policy& p,
                                const BuildRecordView& record, std::string_view sweep_mangled) {
  if (!warp_block(p.threads) || !in_range(p.items, 1, 256) || p.vsmem_per_block != 0)
    return implausible_policy(algorithm, p);
  const KernelRole roles[2] = {
      {"init", "23DeviceCompactInitKernel", agent_select::kInitBlockThreads, false, false},
      {"sweep", sweep_mangled, p.threads, true, true}};
  return check_kernels(record, roles, algorithm);
}

Result<void> accept_agent_select(std::string_view algorithm, const agent_select::Policy& p) {
  if (p.vsmem_per_block == 0) return {};
  return fail(ErrorCode::unsupported,
              "this " + std::string(algorithm) +
                  " kernel needs virtual shared memory, which CCCL 3.5's dispatch with run-time "
                  "policies does not allocate");
}

}  // namespace cccl_cache::algos::detail
