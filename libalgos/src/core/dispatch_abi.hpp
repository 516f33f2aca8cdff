// The host dispatches' side of the kernel interface, for the toolchain fingerprint:
// every algorithm's description (A::dispatch_abi(), built with core/launch.cuh's
// AbiText), one line each in id order, and its digest. A change of any dispatch's
// parameter layout, stand-in types or CUB version changes every key, with no
// hand-bumped version. Private to libalgos.
#pragma once

#include <cstdint>
#include <string>

namespace cccl_cache::algos::detail {

// "merge_sort: cub=300500 cccl=3005000 params@0:32 ...\n..." (cached).
const std::string& dispatch_abi_text();
// XXH3-64 of dispatch_abi_text() (cached).
std::uint64_t dispatch_abi_digest() noexcept;

}  // namespace cccl_cache::algos::detail
