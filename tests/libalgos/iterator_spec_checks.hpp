// What the iterator tests of each algorithm check of its specs without a GPU: each spec
// with iterators is valid, round-trips through its bytes and its spec text, and keys
// differently from the array spec and from every other.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "cccl_cache/algos/core/key.hpp"
#include "cccl_cache/algos/core/spec_codec.hpp"
#include "cccl_cache/algos/spec_text.hpp"
#include "iterator_specs.hpp"

namespace test_support {

// Where the iterator field of an encoding of `Spec` starts (the encoding of a default
// spec, which has none), after checking that every truncation of `bytes` inside that field
// is rejected (its end is a spec without it).
template <class Spec>
std::size_t expect_iterator_truncations_rejected(const std::vector<std::byte>& bytes) {
  const std::size_t field = cccl_cache::algos::encode_fields(Spec{}).size();
  for (std::size_t n = field + 1; n < bytes.size(); ++n)
    EXPECT_FALSE(cccl_cache::algos::decode_fields<Spec>(std::span(bytes).first(n))) << n;
  return field;
}

// The decoding of `bytes` with its byte `at` set to `v`.
template <class Spec>
auto decode_with_byte(std::vector<std::byte> bytes, std::size_t at, std::uint8_t v) {
  bytes.at(at) = std::byte{v};
  return cccl_cache::algos::decode_fields<Spec>(bytes);
}

// `specs`: specs of one algorithm with iterators, all different; `ops`: the sources of
// their custom operators by name (a manifest's table); `structs`: the definitions of
// their struct types by name (added to the text of a spec naming one).
template <class Spec>
void check_iterator_specs(const std::vector<Spec>& specs,
                          const cccl_cache::algos::OperatorTable& ops,
                          const std::map<std::string, std::string>& structs = {}) {
  using namespace cccl_cache::algos;
  const Spec plain{};
  SCOPED_TRACE(spec_text(plain));
  // An array spec: no iterator field in text or bytes.
  EXPECT_EQ(spec_text(plain).find("input"), std::string::npos);
  EXPECT_EQ(spec_text(plain).find("output"), std::string::npos);
  std::vector<cccl_cache::CacheKey> keys = {cache_key(plain, 90, key_toolchain())};
  for (const Spec& spec : specs) {
    SCOPED_TRACE(spec_text(spec));
    ASSERT_TRUE(spec.validate()) << spec.validate().error().describe();
    auto back = decode_fields<Spec>(encode_fields(spec));
    ASSERT_TRUE(back) << back.error().describe();
    EXPECT_EQ(*back, spec);
    std::string text = spec_text(spec);
    for (const auto& [name, definition] : structs)
      if (text.find("=" + name + ":") != std::string::npos)
        text += " " + std::string(kStructPrefix) + name + "='" + definition + "'";
    auto parsed = parse_spec_text(text, ops);
    ASSERT_TRUE(parsed) << parsed.error().describe();
    auto again = decode_fields<Spec>(parsed->fields);
    ASSERT_TRUE(again) << again.error().describe();
    EXPECT_EQ(*again, spec);
    keys.push_back(cache_key(spec, 90, key_toolchain()));
  }
  for (std::size_t i = 0; i < keys.size(); ++i)
    for (std::size_t j = i + 1; j < keys.size(); ++j) EXPECT_NE(keys[i], keys[j]) << i << " " << j;
}

// A spec an algorithm must refuse: the field its error names (e.g. "'input'") and the
// error's code.
template <class Spec>
struct Refusal {
  Spec spec;
  const char* field;
  cccl_cache::ErrorCode code;
};
template <class Spec>
void expect_refused_by_field(const std::vector<Refusal<Spec>>& cases) {
  for (const Refusal<Spec>& c : cases) {
    SCOPED_TRACE(cccl_cache::algos::spec_text(c.spec));
    auto r = c.spec.validate();
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, c.code) << r.error().message;
    EXPECT_NE(r.error().message.find(std::string("field ") + c.field), std::string::npos)
        << r.error().message;
  }
}

}  // namespace test_support
