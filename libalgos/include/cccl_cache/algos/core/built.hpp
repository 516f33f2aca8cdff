// An algorithm's build result, typed: the generic BuildRecord plus its spec and
// runtime values decoded. An algorithm is a traits type `A` (see ARCHITECTURE.md,
// "Adding an algorithm") deriving from AlgorithmBase<A, Spec> (below: build and
// codegen_digest, the core's) with
//   using Spec = ...;       // spec_fields.hpp's field list, validate()
//   using Policy = ...;     // runtime values: `fields(self, v)` calls v("name", member) each
//   using Executable = ...; // what bind makes
//   static constexpr std::size_t kKernels;          // kernel count
//   static constexpr std::array<std::string_view, kKernels> kKernelRoles;  // in kernel order
//   static std::size_t kernel_count(const Spec&);   // optional: where a spec's shape adds
//                                                   // kernels after the kKernels (roles too)
//   static Result<void> check(const Spec&, const Policy&, const BuildRecordView&);
//   static const std::string& dispatch_abi();       // its dispatch.cu
//   static Result<Executable> bind(const BuiltView<A>&, int device);
// and the spec names it back: `using Algorithm = A;`.
#pragma once

#include <cstdint>
#include <limits>
#include <span>
#include <string_view>
#include <type_traits>
#include <vector>

#include "cccl_cache/algos/core/blob.hpp"
#include "cccl_cache/algos/core/build_record.hpp"
#include "cccl_cache/algos/core/spec_codec.hpp"

namespace cccl_cache::algos {

template <class A>
struct Built {  // owns its bytes
  typename A::Spec spec;
  typename A::Policy policy;
  BuildRecord record;
};

template <class A>
struct BuiltView {  // borrows the record's long fields
  typename A::Spec spec;
  typename A::Policy policy;
  BuildRecordView record;
};

// The runtime values of `policy`, in field order.
template <class Policy>
std::vector<std::uint64_t> policy_values(const Policy& policy) {
  std::vector<std::uint64_t> out;
  Policy::fields(policy, [&](std::string_view, const auto& v) { out.push_back(static_cast<std::uint64_t>(v)); });
  return out;
}

// The names of a policy's values, in field order.
template <class Policy>
std::vector<std::string_view> policy_names() {
  std::vector<std::string_view> out;
  const Policy policy{};
  Policy::fields(policy, [&](std::string_view name, const auto&) { out.push_back(name); });
  return out;
}

// The policy those values encode. Error corrupt: another count, or a value that does
// not fit its field.
template <class Policy>
[[nodiscard]] Result<Policy> policy_from_values(std::span<const std::uint64_t> values) {
  Policy policy;
  std::size_t i = 0;
  bool fits = true;
  Policy::fields(policy, [&](std::string_view, auto& v) {
    using T = std::decay_t<decltype(v)>;
    if (i < values.size()) {
      fits = fits && values[i] <= static_cast<std::uint64_t>(std::numeric_limits<T>::max());
      v = static_cast<T>(values[i]);
    }
    ++i;
  });
  if (i != values.size() || !fits)
    return fail(ErrorCode::corrupt, "build record: " + std::to_string(values.size()) +
                                        " runtime values do not match the algorithm's " +
                                        std::to_string(i));
  return policy;
}

// The kernel count of `spec`'s records: A::kernel_count(spec) where the algorithm has
// one, else A::kKernels.
template <class A>
std::size_t kernel_count(const typename A::Spec& spec) {
  if constexpr (requires { A::kernel_count(spec); })
    return A::kernel_count(spec);
  else
    return A::kKernels;
}

// Decodes and checks what is the algorithm's in a parsed record: its id, spec fields,
// kernel count, runtime values and A::check. Errors: corrupt.
template <class A>
[[nodiscard]] Result<BuiltView<A>> typed_view(const BuildRecordView& record) {
  auto corrupt = [](const std::string& what) {
    return fail(ErrorCode::corrupt, std::string(algorithm_name(A::Spec::kAlgorithm)) +
                                        " build record: " + what +
                                        "; rebuild it (the entry can be evicted)");
  };
  if (record.algorithm != A::Spec::kAlgorithm)
    return corrupt(std::string("holds another algorithm (") +
                   std::string(algorithm_name(record.algorithm)) + ")");
  auto spec = decode_fields<typename A::Spec>(record.spec);
  if (!spec) return corrupt("invalid spec: " + spec.error().message);
  if (record.num_kernels != kernel_count<A>(*spec)) return corrupt("wrong kernel count");
  auto policy = policy_from_values<typename A::Policy>(record.values());
  if (!policy) return corrupt(policy.error().message);
  if (auto ok = A::check(*spec, *policy, record); !ok) return corrupt(ok.error().message);
  return BuiltView<A>{std::move(*spec), *policy, record};
}

// parse_record + typed_view: a blob read without copying, every check run.
template <class A>
[[nodiscard]] Result<BuiltView<A>> deserialize_view(std::span<const std::byte> blob,
                                      std::optional<std::uint32_t> expected_cc = std::nullopt) {
  CCCL_CACHE_TRY(const BuildRecordView record, parse_record(blob, expected_cc));
  return typed_view<A>(record);
}

// The same, owning its bytes.
template <class A>
[[nodiscard]] Result<Built<A>> deserialize(std::span<const std::byte> blob,
                             std::optional<std::uint32_t> expected_cc = std::nullopt) {
  CCCL_CACHE_TRY(BuiltView<A> v, deserialize_view<A>(blob, expected_cc));
  return Built<A>{std::move(v.spec), v.policy, to_owned(v.record)};
}

template <class A>
BuiltView<A> view_of(const Built<A>& b) noexcept {
  return {b.spec, b.policy, view_of(b.record)};
}

template <class A>
[[nodiscard]] std::vector<std::byte> serialize(const Built<A>& b) {
  return serialize_record(b.record);
}

// What the core defines for every algorithm A, over A's private BuildSteps<A> (the
// definitions are src/core/build.hpp's; A's codegen.cpp instantiates them with
// `template struct AlgorithmBase<A, Spec>;`).
template <class A, class SpecT>
struct AlgorithmBase {
  // Builds `spec` for sm_<cc> with NVRTC + nvJitLink: its kernels into a lean cubin and
  // the policy they were compiled with. Needs no GPU and no driver; thread-safe. Errors:
  // invalid_argument (bad spec), unsupported (CC outside 50..120; what the algorithm's
  // host dispatch cannot run), compile (the message carries the NVRTC / nvJitLink log).
  [[nodiscard]] static Result<Built<A>> build(const SpecT& spec, std::uint32_t cc);
  // Digest of the source generated for the spec's shape, which every key covers
  // (src/core/codegen_digest.hpp).
  static std::uint64_t codegen_digest(const SpecT& spec);
};

// Spec::Algorithm::build. Each algorithm's namespace names it (`merge_sort::build`).
template <class Spec>
[[nodiscard]] Result<Built<typename Spec::Algorithm>> build(const Spec& spec, std::uint32_t cc) {
  return Spec::Algorithm::build(spec, cc);
}

}  // namespace cccl_cache::algos
