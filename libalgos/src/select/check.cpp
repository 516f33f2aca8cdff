// select's checks of a build record (Select::check): a plausible policy, and what the
// cubin says of its kernels agreeing with the record (core/agent_select.hpp). Every
// stored entry and every fresh build goes through them.
#include "cccl_cache/algos/select/build_result.hpp"
#include "core/agent_select.hpp"

namespace cccl_cache::algos {

Result<void> Select::check(const Spec&, const Policy& p, const BuildRecordView& record) {
  return detail::check_agent_select("select", p, record, "23DeviceSelectSweepKernel");
}

}  // namespace cccl_cache::algos
