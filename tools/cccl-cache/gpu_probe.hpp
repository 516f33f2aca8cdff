// Compute capabilities of the local GPUs, through libalgos (device.hpp).
#pragma once

#include <cstdint>
#include <vector>

#include "cccl_cache/cache/error.hpp"

namespace cccl_cache::cli {

// The distinct CCs (major*10+minor) of the visible devices, ascending, through
// libalgos' device queries (the driver is loaded at run time, so that a machine
// without one gets an empty list, not a crash). Empty when there is no driver or
// no device (algos::driver_status() says why). Error driver only when the driver
// is present but a query fails unexpectedly.
Result<std::vector<std::uint32_t>> local_device_ccs();

}  // namespace cccl_cache::cli
