// Table-driven record checks: a build record that disagrees with its cubin (a changed
// policy, swapped or foreign kernel names) passes the blob grammar and must still be
// refused as corrupt, with a message naming what disagrees; and the build errors every
// algorithm with a custom operator shares (NVRTC's log, refused specs).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <span>
#include <string>

#include "cccl_cache/algos/core/built.hpp"
#include "cccl_cache/algos/types.hpp"
#include "cccl_cache/cache/error.hpp"

namespace test_support {

template <class A>
struct CorruptCase {
  const char* what;
  std::function<void(cccl_cache::algos::Built<A>&)> change;
  std::string error;  // a part of the error message
};

// For each case: a copy of `good` changed by it (its record's values kept in step with
// the policy), serialized, must fail deserialize_view for `cc` as corrupt naming c.error.
template <class A>
void expect_corrupt(const cccl_cache::algos::Built<A>& good, std::span<const CorruptCase<A>> cases,
                    std::uint32_t cc = 90) {
  using namespace cccl_cache::algos;
  ASSERT_TRUE(deserialize_view<A>(serialize(good), cc));
  for (const auto& c : cases) {
    Built<A> copy = good;
    c.change(copy);
    copy.record.values = policy_values(copy.policy);
    const auto blob = serialize(copy);
    auto r = deserialize_view<A>(blob, cc);
    ASSERT_FALSE(r) << c.what;
    EXPECT_EQ(r.error().code, cccl_cache::ErrorCode::corrupt) << c.what;
    EXPECT_NE(r.error().message.find(c.error), std::string::npos) << c.what << ": " << r.error().message;
  }
}

// A custom binary predicate on int that does not compile: NVRTC's error is in line 1 of
// the operator's own source.
inline cccl_cache::algos::Operator bad_int_predicate() {
  return cccl_cache::algos::Operator::custom("f",
                                             "__device__ bool f(int a, int b) { return a ==* b; }");
}

// build(spec, 90) fails with a compile error carrying NVRTC's log for the operator's line.
template <class Spec>
void expect_nvrtc_log(const Spec& spec) {
  auto r = cccl_cache::algos::build(spec, 90);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, cccl_cache::ErrorCode::compile) << r.error().describe();
  EXPECT_NE(r.error().message.find("operator(1): error: operand of \"*\" must be a pointer"),
            std::string::npos)
      << r.error().message;
}

// Every spec of `invalid` is refused at build as invalid_argument; the default spec for
// CC 4.9 as unsupported.
template <class Spec>
void expect_build_refuses(std::initializer_list<Spec> invalid) {
  for (const Spec& s : invalid)
    EXPECT_EQ(cccl_cache::algos::build(s, 90).error().code, cccl_cache::ErrorCode::invalid_argument)
        << cccl_cache::algos::summary(s);
  EXPECT_EQ(cccl_cache::algos::build(Spec{}, 49).error().code, cccl_cache::ErrorCode::unsupported);
}

}  // namespace test_support
