// The host dispatches' side of the kernel interface, for keys and fingerprints: every
// algorithm's description (A::dispatch_abi(), built with core/abi_text.cuh's AbiText) and
// its digest, one per algorithm. A change of an algorithm's parameter layout, stand-in
// types or CUB version changes that algorithm's keys, with no hand-bumped version, and
// no other algorithm's. Private to libalgos.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace cccl_cache::algos::detail {

// One algorithm's dispatch ABI: its name and its "cub=300500 cccl=3005000 params@0:32 ..."
struct AbiLine {
  std::string algorithm;
  std::string text;
};

// Every registered algorithm's line, in id order (cached, thread-safe).
const std::vector<AbiLine>& dispatch_abi_lines();

// XXH3-64 of one algorithm's ABI text.
std::uint64_t dispatch_abi_digest(std::string_view text) noexcept;

// Each line's digest by algorithm name (Toolchain::dispatch_abi): an algorithm's digest
// is that of its own text alone, whatever else `lines` holds. A name given twice keeps
// its last line.
std::map<std::string, std::uint64_t, std::less<>> dispatch_abi_digests(std::span<const AbiLine> lines);

}  // namespace cccl_cache::algos::detail
