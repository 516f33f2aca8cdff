// The checks of a build record every algorithm runs on what the cubin says of its
// kernels (core/build_record.hpp KernelFacts), before anything is bound: each kernel's
// lowered name names the role it is used for, and its launch bounds and static shared
// memory agree with how the dispatch launches it. Private to libalgos.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "cccl_cache/algos/core/build_record.hpp"
#include "cccl_cache/cache/error.hpp"

namespace cccl_cache::algos::detail {

// How the dispatch launches one kernel, for the checks.
struct KernelRole {
  std::string_view role;     // for people: "block sort"
  std::string_view mangled;  // its template's <source-name> as Itanium spells it:
                             // "30DeviceMergeSortBlockSortKernel"
  std::uint32_t threads = 0;  // block size it is launched with (0: not checked)
  // The kernel is compiled with __launch_bounds__(threads): the cubin must record
  // exactly that bound. Otherwise a recorded bound must allow `threads`.
  bool bounded = false;
  // The kernel keeps its tile in static shared memory: it must declare some.
  bool needs_static_smem = false;
  // Tells two roles of one template apart (e.g. "Lb1E", a `true` template argument): the
  // name must spell it and no other marker of its template's roles. Empty: none.
  std::string_view marker = {};
};

// Every name is a mangled kernel name ("_Z...") that spells its own role's source
// name and marker and no other role's (no swapped kernels). With the cubin's facts (parse_record
// read them), launch bounds, required thread counts and static shared memory (at most
// 48 KiB) agree with `roles`. Error corrupt naming the kernel and what disagrees.
[[nodiscard]] Result<void> check_kernels(const BuildRecordView& record,
                                         std::span<const KernelRole> roles,
                                         std::string_view algorithm);

// A block of whole warps the hardware can run: 32..1024 threads, a multiple of 32.
constexpr bool warp_block(std::uint32_t threads) noexcept {
  return threads >= 32 && threads <= 1024 && threads % 32 == 0;
}

// lo <= v <= hi.
constexpr bool in_range(std::uint32_t v, std::uint32_t lo, std::uint32_t hi) noexcept {
  return v >= lo && v <= hi;
}

// Error corrupt "implausible <algorithm> policy (name=value ...)" with every value of
// `policy` (Policy::fields).
template <class Policy>
[[nodiscard]] tl::unexpected<Error> implausible_policy(std::string_view algorithm,
                                                       const Policy& policy) {
  std::string values;
  Policy::fields(policy, [&](std::string_view name, const auto& v) {
    values += (values.empty() ? "" : " ") + std::string(name) + "=" + std::to_string(v);
  });
  return fail(ErrorCode::corrupt,
              "implausible " + std::string(algorithm) + " policy (" + values + ")");
}

}  // namespace cccl_cache::algos::detail
