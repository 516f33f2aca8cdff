// Table-driven spec validation for the dispatch tests: each spec, whether it is valid,
// and the field an invalid one's error names.
#pragma once

#include <gtest/gtest.h>

#include <span>
#include <string>

#include "cccl_cache/algos/registry.hpp"

namespace test_support {

template <class Spec>
struct SpecCase {
  Spec spec;
  bool ok;
  const char* field;  // the field an invalid spec's error names ("field 'op'")
};

// Every valid case validates; every other fails with invalid_argument naming its field.
template <class Spec>
void expect_validation(std::span<const SpecCase<Spec>> cases) {
  for (const auto& c : cases) {
    const auto r = c.spec.validate();
    EXPECT_EQ(static_cast<bool>(r), c.ok) << cccl_cache::algos::spec_text(c.spec);
    if (r) continue;
    EXPECT_EQ(r.error().code, cccl_cache::ErrorCode::invalid_argument);
    EXPECT_NE(r.error().message.find("field '" + std::string(c.field) + "'"), std::string::npos)
        << r.error().message;
  }
}

}  // namespace test_support
