// What the algorithms on CUB's agent-select kernels (select, unique_by_key) share on the
// build side: the checks of their policy and kernels, and the refusal of a policy their
// dispatch cannot run. Private to libalgos.
#pragma once

#include <string_view>

#include "cccl_cache/algos/core/agent_select.hpp"
#include "cccl_cache/algos/core/build_record.hpp"
#include "cccl_cache/cache/error.hpp"

namespace cccl_cache::algos::detail {

// A plausible policy (whole warps, 1..256 items, no virtual shared memory), and the two
// kernels in their roles (core/check.hpp): the init kernel (CUB's
// DeviceCompactInitKernel: no launch bounds, launched with kInitBlockThreads) and the
// sweep kernel, whose template's mangled source name is `sweep_mangled`, compiled with
// __launch_bounds__(threads) and keeping its tile in static shared memory. Error corrupt
// naming `algorithm`.
[[nodiscard]] Result<void> check_agent_select(std::string_view algorithm,
                                              const agent_select::Policy& policy,
                                              const BuildRecordView& record,
                                              std::string_view sweep_mangled);

// Refuses (unsupported) a policy whose sweep kernel needs virtual shared memory, which
// the dispatch, with run-time policies, does not allocate.
[[nodiscard]] Result<void> accept_agent_select(std::string_view algorithm,
                                               const agent_select::Policy& policy);

}  // namespace cccl_cache::algos::detail
