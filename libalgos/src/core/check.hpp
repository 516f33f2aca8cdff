// The checks of a build record every algorithm runs on what the cubin says of its
// kernels (core/build_record.hpp KernelFacts), before anything is bound: each kernel's
// lowered name names the role it is used for, and its launch bounds and static shared
// memory agree with how the dispatch launches it. Private to libalgos.
#pragma once

#include <cstdint>
#include <span>
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
};

// Every name is a mangled kernel name ("_Z...") that spells its own role's source
// name and no other role's (no swapped kernels). With the cubin's facts (parse_record
// read them), launch bounds, required thread counts and static shared memory (at most
// 48 KiB) agree with `roles`. Error corrupt naming the kernel and what disagrees.
[[nodiscard]] Result<void> check_kernels(const BuildRecordView& record,
                                         std::span<const KernelRole> roles,
                                         std::string_view algorithm);

}  // namespace cccl_cache::algos::detail
