// unique_by_key's checks of a build record (UniqueByKey::check): a plausible policy, and
// what the cubin says of its kernels agreeing with the record (core/agent_select.hpp).
// Every stored entry and every fresh build goes through them.
#include "cccl_cache/algos/unique_by_key/build_result.hpp"
#include "core/agent_select.hpp"

namespace cccl_cache::algos {

Result<void> UniqueByKey::check(const Spec&, const Policy& p, const BuildRecordView& record) {
  return detail::check_agent_select("unique_by_key", p, record, "28DeviceUniqueByKeySweepKernel");
}

}  // namespace cccl_cache::algos
