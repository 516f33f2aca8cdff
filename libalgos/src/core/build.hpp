// The typed build every algorithm's build() is: validate the spec, generate its
// source, run the one pipeline (core/jit.hpp), decode and check the runtime values.
// Private to libalgos.
#pragma once

#include <string>
#include <string_view>

#include "cccl_cache/algos/core/built.hpp"
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

}  // namespace cccl_cache::algos::detail
