// The shuffle iterator without a GPU: its spec text, the refusals that name their reason,
// the call's packed bytes (shuffle_state), the host permutation (shuffle_index, the GPU
// tests' reference) being a bijection of [0, n) fixed by the seed, advancing, and the
// generated struct (core/iterator.hpp).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "cccl_cache/algos/core/spec_fields.hpp"
#include "cccl_cache/algos/reduce/build_result.hpp"
#include "cccl_cache/algos/registry.hpp"
#include "cccl_cache/algos/segmented_reduce/build_result.hpp"
#include "cccl_cache/algos/spec_text.hpp"
#include "core/iterator.hpp"
#include "iterator_specs.hpp"
#include "reduce/codegen.hpp"

using namespace cccl_cache;
using namespace cccl_cache::algos;

namespace {

std::vector<std::uint64_t> permutation_of(std::uint64_t n, std::uint64_t seed) {
  const detail::ShuffleState s = detail::shuffle_state(n, seed);
  std::vector<std::uint64_t> p(n);
  for (std::uint64_t i = 0; i < n; ++i) p[i] = detail::shuffle_index(s, i);
  return p;
}

TEST(ShuffleIterator, SpecTextNamesIt) {
  auto s = parse_spec_text("reduce type=int64 input=shuffle(int64)");
  ASSERT_TRUE(s) << s.error().describe();
  reduce::Spec want;
  want.type = ScalarType::int64;
  want.input = Iterator::shuffle(ScalarType::int64);
  EXPECT_EQ(*s, to_any(want));
  EXPECT_EQ(spec_text(want), "reduce type=int64 op=plus offset=uint64 input=shuffle(int64)");
  EXPECT_EQ(describe(Iterator::shuffle()), "shuffle");
  for (const char* bad : {"shuffle()", "shuffle(int64,int64)", "shuffle(int77)"})
    EXPECT_FALSE(parse_spec_text(std::string("reduce type=int64 input=") + bad)) << bad;
}

TEST(ShuffleIterator, IsRefusedWhereItCannotServeNamingWhy) {
  auto says = [](const Result<void>& r, ErrorCode code, const std::string& what) {
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, code) << r.error().message;
    EXPECT_NE(r.error().message.find(what), std::string::npos) << r.error().message;
  };
  reduce::Spec floats = test_support::over<reduce::Spec>(ScalarType::float32,
                                                         Iterator::shuffle(ScalarType::float32));
  says(floats.validate(), ErrorCode::invalid_argument, "integer type");
  // A float algorithm reading int64 indices is fine.
  EXPECT_TRUE(test_support::over<reduce::Spec>(ScalarType::float32,
                                               Iterator::shuffle(ScalarType::int64))
                  .validate());
  reduce::Spec out;
  out.type = ScalarType::int64;
  out.output = Iterator::shuffle();
  says(out.validate(), ErrorCode::unsupported, "output");
  // Its domain is the call's length, which a segmented reduce's input does not have.
  segmented_reduce::Spec seg;
  seg.type = ScalarType::int64;
  seg.input = Iterator::shuffle();
  says(seg.validate(), ErrorCode::unsupported, "'input'");
  // 56 bytes of state: not a zip component.
  says(validate_zip_iterator(
           "zip", Iterator::zip({Iterator::array(ScalarType::int64), Iterator::shuffle(ScalarType::int64)}),
           false),
       ErrorCode::unsupported, "not a zip component");
}

TEST(ShuffleIterator, TheCallsSeedIsPackedAsItsState) {
  const Iterator it = Iterator::shuffle(ScalarType::int64);
  detail::IteratorArg packed;
  ASSERT_TRUE(detail::pack_iterator(it, ScalarType::int64, IteratorValue::shuffle(42), 1000, packed));
  const detail::ShuffleState want = detail::shuffle_state(1000, 42);
  EXPECT_EQ(std::memcmp(packed.bytes, &want, sizeof want), 0);
  EXPECT_EQ(want.pos, 0u);
  EXPECT_EQ(want.n, 1000u);
  EXPECT_EQ(want.half_bits, 5u);  // 1000 <= 2^10
  // The rest of the argument is zero.
  for (std::size_t k = sizeof want; k < sizeof packed.bytes; ++k) ASSERT_EQ(packed.bytes[k], 0) << k;
  // Another seed, other keys; another kind refused.
  EXPECT_NE(std::memcmp(detail::shuffle_state(1000, 43).keys, want.keys, sizeof want.keys), 0);
  EXPECT_FALSE(detail::pack_iterator(it, ScalarType::int64, IteratorValue::counting(std::int64_t{0}),
                                     1000, packed));
  EXPECT_EQ(detail::iterator_packing(it).rfind("// cccl-cache host packing 1: u64 pos@0", 0), 0u);
  EXPECT_NE(detail::iterator_packing(it).find("; 56 bytes aligned 16"), std::string::npos);
}

TEST(ShuffleIterator, IsAPermutationOfZeroToNThatTheSeedFixes) {
  for (const std::uint64_t n : {1ull, 2ull, 3ull, 255ull, 256ull, 257ull, 1000ull, 1025ull, 65537ull}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const auto p = permutation_of(n, 7);
    std::vector<bool> seen(n);
    for (const std::uint64_t x : p) {
      ASSERT_LT(x, n);
      ASSERT_FALSE(seen[x]) << x;
      seen[x] = true;
    }
    EXPECT_EQ(permutation_of(n, 7), p);  // the same seed, the same order
    if (n >= 256) {
      EXPECT_NE(permutation_of(n, 8), p);
      std::uint64_t fixed = 0;  // a shuffle, not the identity: few fixed points
      for (std::uint64_t i = 0; i < n; ++i) fixed += p[i] == i;
      EXPECT_LT(fixed, n / 16);
    }
  }
}

TEST(ShuffleIterator, AdvancingMovesItsPosition) {
  const Iterator it = Iterator::shuffle(ScalarType::int64);
  detail::IteratorArg packed;
  ASSERT_TRUE(detail::pack_iterator(it, ScalarType::int64, IteratorValue::shuffle(9), 500, packed));
  detail::advance_packed(it, ScalarType::int64, packed.bytes, 123);
  detail::ShuffleState moved;
  std::memcpy(&moved, packed.bytes, sizeof moved);
  EXPECT_EQ(moved.pos, 123u);
  const auto p = permutation_of(500, 9);
  for (std::uint64_t i = 0; i + 123 < 500; ++i) ASSERT_EQ(detail::shuffle_index(moved, i), p[i + 123]);
}

TEST(ShuffleIterator, TheGeneratedStructHoldsItsStateAndPermutes) {
  const auto spec =
      test_support::over<reduce::Spec>(ScalarType::int64, Iterator::shuffle(ScalarType::int64));
  const std::string src = detail::BuildSteps<Reduce>::source(spec).source;
  for (const char* part : {"struct cccl_cache_in_t", "u64 pos, n;", "unsigned int keys[8];",
                           "permuted(pos + static_cast<u64>(i))", "0xD2B74407B1CE6E93ull",
                           "pos += static_cast<u64>(n);"})
    EXPECT_NE(src.find(part), std::string::npos) << part;
}

}  // namespace
