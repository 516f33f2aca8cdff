// Mixed fleets: which entries a device may use. A cubin built for sm_XY runs on a device
// of the same major X and a minor at least Y (NVIDIA's binary compatibility: an sm_80
// cubin runs on 8.6 and 8.9, never on 9.0 or 7.5). CCs are major*10+minor (sm_86 -> 86);
// this project builds no arch-specific targets (sm_90a), whose cubins run on their exact
// CC only.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace cccl_cache {

// Whether a cubin built for `entry_cc` runs on a device of `device_cc`.
constexpr bool runs_on(std::uint32_t entry_cc, std::uint32_t device_cc) {
  return entry_cc / 10 == device_cc / 10 && entry_cc % 10 <= device_cc % 10;
}

// The CCs whose entries may serve a device of `device_cc`, best first: `device_cc`
// itself (an exact entry always wins), then, when `lower_minor` (config cc_fallback),
// the lower minors of its major from the highest down (8.9: 89, 88, ..., 80).
std::vector<std::uint32_t> serving_ccs(std::uint32_t device_cc, bool lower_minor);

// A CC family: "8.x", "sm_8x", "8x" -> 8 (the major); nullopt otherwise. Prewarming a
// family builds for its lowest CC the toolchain supports, whose entry serves every
// device of that major (with cc_fallback on).
std::optional<std::uint32_t> parse_cc_family(std::string_view text);

}  // namespace cccl_cache
