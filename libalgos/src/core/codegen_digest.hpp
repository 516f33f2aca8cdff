// The digest of an algorithm's code generation for a spec, which every key covers:
// any change of a source template, kernel name expression or policy probe changes
// every key it affects, with no hand-bumped version. Private to libalgos.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <type_traits>
#include <vector>

#include "cccl_cache/algos/core/spec_codec.hpp"
#include "core/jit.hpp"

namespace cccl_cache::algos::detail {

// XXH3-64 of the source, each kernel's and the probe's name expression (delimited).
std::uint64_t digest_of(const GeneratedSource& gen);

// `spec` with every custom operator's (iterators' included) name and source replaced by fixed
// placeholders (its state layout kept: the generated operator struct holds the state): the key
// carries both itself, and a source may be up to 1 MiB.
template <class Spec>
Spec codegen_shape(Spec spec) {
  Spec::fields(spec, [](const Field&, auto& value) {
    auto placeholder = [](Operator& op) {
      if (op.kind == OpKind::custom)
        op = Operator::custom("user_op", "/* user source */", op.state_size, op.state_alignment);
    };
    if constexpr (std::is_same_v<std::decay_t<decltype(value)>, Operator>) placeholder(value);
    if constexpr (std::is_same_v<std::decay_t<decltype(value)>, Iterator>) placeholder(value.op);
  });
  return spec;
}

// digest_of(generate(codegen_shape(spec))), memoized per process and shape: generating
// the text costs microseconds on a path (a store hit's key) that is otherwise a few.
template <class Spec, class Generate>
std::uint64_t codegen_digest(const Spec& spec, Generate&& generate) {
  static std::mutex mutex;
  static std::map<std::vector<std::byte>, std::uint64_t> memo;
  const Spec shape = codegen_shape(spec);
  auto bytes = encode_fields(shape);
  {
    std::lock_guard lock(mutex);
    if (auto it = memo.find(bytes); it != memo.end()) return it->second;
  }
  const std::uint64_t digest = digest_of(generate(shape));
  std::lock_guard lock(mutex);
  if (memo.size() < 4096) memo.emplace(std::move(bytes), digest);
  return digest;
}

}  // namespace cccl_cache::algos::detail
