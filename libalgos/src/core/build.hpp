// The typed build every algorithm's build() is: validate the spec, generate its
// source, run the one pipeline (core/jit.hpp), decode and check the runtime values;
// and the definitions of AlgorithmBase (core/built.hpp). An algorithm supplies only its
// BuildSteps and instantiates AlgorithmBase in its codegen.cpp. Private to libalgos.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "cccl_cache/algos/core/built.hpp"
#include "cccl_cache/algos/toolchain.hpp"
#include "core/codegen_digest.hpp"
#include "core/jit.hpp"

namespace cccl_cache::algos::detail {

template <class A>
struct BuildReport {
  Built<A> result;
  std::size_t ltoir_bytes = 0;  // NVRTC's output, before nvJitLink
  std::string nvrtc_log;        // warnings of a successful compile
};

// `generate(spec)` returns the algorithm's GeneratedSource.
template <class A, class Generate>
[[nodiscard]] Result<BuildReport<A>> build_algorithm(const typename A::Spec& spec, std::uint32_t cc,
                                       std::string_view program_name, Generate&& generate) {
  CCCL_CACHE_CHECK(spec.validate());
  CCCL_CACHE_CHECK(check_target(cc));
  CCCL_CACHE_TRY(JitBuild jit, jit_build(generate(spec), program_name, cc));
  BuildReport<A> report;
  report.ltoir_bytes = jit.ltoir_bytes;
  report.nvrtc_log = std::move(jit.nvrtc_log);
  BuildRecord& record = jit.record;
  record.algorithm = A::Spec::kAlgorithm;
  record.spec = encode_fields(spec);
  record.toolchain = Toolchain::current().fingerprint(algorithm_name(A::Spec::kAlgorithm));
  auto policy = policy_from_values<typename A::Policy>(record.values);
  if (!policy) return fail(ErrorCode::internal, "the policy probe: " + policy.error().message);
  // Our own build must pass the checks every stored entry gets (with the cubin's own
  // facts about its kernels, as parse_record reads them).
  const auto blob = serialize_record(record);
  auto stored = parse_record(blob, cc);
  if (!stored) return fail(ErrorCode::internal, "the build failed its own check: " + stored.error().message);
  if (auto ok = A::check(spec, *policy, *stored); !ok)
    return fail(ErrorCode::internal, "the build failed its own check: " + ok.error().message);
  report.result = Built<A>{spec, *policy, std::move(record)};
  return report;
}

// What an algorithm's build needs of it, specialized in its private codegen.hpp:
//   static GeneratedSource source(const Spec&);  // the kernels of every form the key's
//                                                // codegen digest covers
// and where they differ from the defaults:
//   static GeneratedSource source_for(const Spec&, std::uint32_t cc);  // the build's
//                                                // source for a target (default: source)
//   static Result<void> accept(const Policy&);  // refuse what the host dispatch cannot
//                                               // run (default: anything goes), or
//   static Result<void> accept(const Spec&, const Policy&);  // where it depends on the spec
template <class A>
struct BuildSteps;

// A's build with its report, in the program "cccl_cache_<algorithm>.cu".
template <class A>
[[nodiscard]] Result<BuildReport<A>> build_with_report(const typename A::Spec& spec,
                                                       std::uint32_t cc) {
  using Steps = BuildSteps<A>;
  const std::string program =
      "cccl_cache_" + std::string(algorithm_name(A::Spec::kAlgorithm)) + ".cu";
  CCCL_CACHE_TRY(BuildReport<A> report,
                 build_algorithm<A>(spec, cc, program, [cc](const typename A::Spec& s) {
                   if constexpr (requires { Steps::source_for(s, cc); })
                     return Steps::source_for(s, cc);
                   else
                     return Steps::source(s);
                 }));
  if constexpr (requires { Steps::accept(report.result.policy); })
    CCCL_CACHE_CHECK(Steps::accept(report.result.policy));
  else if constexpr (requires { Steps::accept(spec, report.result.policy); })
    CCCL_CACHE_CHECK(Steps::accept(spec, report.result.policy));
  return report;
}

// A's source for `spec` (BuildSteps<A>::source) compiled by NVRTC straight to a cubin
// (every module-scope variable kept), to measure what the LTO link saves. Not used by
// build(). Errors: as spec.validate(), jit_build_naive.
template <class A>
[[nodiscard]] Result<std::vector<std::byte>> build_naive_cubin(const typename A::Spec& spec,
                                                               std::uint32_t cc) {
  CCCL_CACHE_CHECK(spec.validate());
  const std::string program =
      "cccl_cache_" + std::string(algorithm_name(A::Spec::kAlgorithm)) + ".cu";
  return jit_build_naive(BuildSteps<A>::source(spec), program, cc);
}

}  // namespace cccl_cache::algos::detail

namespace cccl_cache::algos {

template <class A, class SpecT>
Result<Built<A>> AlgorithmBase<A, SpecT>::build(const SpecT& spec, std::uint32_t cc) {
  CCCL_CACHE_TRY(detail::BuildReport<A> report, detail::build_with_report<A>(spec, cc));
  return std::move(report.result);
}

template <class A, class SpecT>
std::uint64_t AlgorithmBase<A, SpecT>::codegen_digest(const SpecT& spec) {
  return detail::codegen_digest(spec, &detail::BuildSteps<A>::source);
}

}  // namespace cccl_cache::algos
