// The one build pipeline: an algorithm's generated source -> NVRTC (LTO IR) ->
// nvJitLink (lean cubin keeping only the algorithm's kernels) -> a BuildRecord,
// with the runtime values read from the kernels' own compile through a policy probe.
// Private to libalgos. Needs no GPU and no driver.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "cccl_cache/algos/core/build_record.hpp"
#include "cccl_cache/cache/error.hpp"

namespace cccl_cache::algos::detail {

// A probe kernel whose template arguments carry values the device compile chose (a
// policy's tile shape, ...): generated sources declare it with kPolicyProbeDecl and
// name `cccl_cache_policy_probe<v0, v1, ...>`; the lowered name gives the values back.
inline constexpr std::string_view kPolicyProbeName = "cccl_cache_policy_probe";
inline constexpr std::string_view kPolicyProbeDecl =
    "template <unsigned long long... V>\n__global__ void cccl_cache_policy_probe() {}\n";

// What an algorithm's codegen produces.
struct GeneratedSource {
  std::string source;
  std::vector<std::string> kernels;  // template-ids, in the algorithm's kernel order
  std::string policy_probe;          // template-id of the probe; empty: no runtime values
  // NVRTC options this source needs beyond the common ones (e.g. "-default-device" for
  // kernels whose generic lambdas NVRTC would otherwise take for host code); part of
  // the codegen digest, hence of every key.
  std::vector<std::string> nvrtc_options;
};

struct JitBuild {
  BuildRecord record;         // algorithm, spec and toolchain left for the caller to fill
  std::size_t ltoir_bytes = 0;
  std::string nvrtc_log;      // warnings of a successful compile
};

// Errors: unsupported (CC outside 50..120, or one this NVRTC cannot target).
[[nodiscard]] Result<void> check_target(std::uint32_t cc);

// Compiles and links `gen` for sm_<cc>. Errors: unsupported (check_target), compile
// (message carries the NVRTC / nvJitLink log), internal (a probe name not understood).
[[nodiscard]] Result<JitBuild> jit_build(const GeneratedSource& gen, std::string_view program_name,
                           std::uint32_t cc);

// The same source compiled by NVRTC straight to a cubin (every module-scope variable
// kept), to measure what the LTO link saves. Not used by builds.
[[nodiscard]] Result<std::vector<std::byte>> jit_build_naive(const GeneratedSource& gen,
                                               std::string_view program_name, std::uint32_t cc);

// Decodes the probe's lowered name ("_Z23cccl_cache_policy_probeIJLy256ELy4352EEEvv")
// by the Itanium grammar for a function template over non-negative integer literals.
// Error: internal (anything else).
[[nodiscard]] Result<std::vector<std::uint64_t>> parse_policy_probe(std::string_view lowered);

}  // namespace cccl_cache::algos::detail
