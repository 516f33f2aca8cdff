// Table-driven record checks: a build record that disagrees with its cubin (a changed
// policy, swapped or foreign kernel names) passes the blob grammar and must still be
// refused as corrupt, with a message naming what disagrees.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <span>
#include <string>

#include "cccl_cache/algos/core/built.hpp"

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

}  // namespace test_support
