// Mixed fleets' selection rule: which CCs' entries serve a device, best first.
#include "cccl_cache/cache/cc_family.hpp"

#include <gtest/gtest.h>

namespace cccl_cache {
namespace {

using Ccs = std::vector<std::uint32_t>;

TEST(CcFamily, ExactFirstThenLowerMinorsOfTheSameMajor) {
  EXPECT_EQ(serving_ccs(86, true), (Ccs{86, 85, 84, 83, 82, 81, 80}));
  EXPECT_EQ(serving_ccs(89, true).front(), 89u) << "an exact entry always wins";
  EXPECT_EQ(serving_ccs(80, true), (Ccs{80}));
  EXPECT_EQ(serving_ccs(90, true), (Ccs{90})) << "never another major: 8.x does not serve 9.0";
  EXPECT_EQ(serving_ccs(120, true), (Ccs{120}));
  EXPECT_EQ(serving_ccs(121, true), (Ccs{121, 120}));
  EXPECT_EQ(serving_ccs(86, false), (Ccs{86})) << "cc_fallback off: exact only";
}

TEST(CcFamily, RunsOnLowerOrEqualMinorOfTheSameMajorOnly) {
  struct Case {
    std::uint32_t entry, device;
    bool runs;
  } cases[] = {{80, 80, true},  {80, 86, true},  {80, 89, true},  {86, 89, true},
               {86, 80, false}, {89, 86, false}, {80, 90, false}, {90, 80, false},
               {75, 80, false}, {90, 100, false}, {100, 103, true}, {120, 121, true}};
  for (const auto& c : cases)
    EXPECT_EQ(runs_on(c.entry, c.device), c.runs) << c.entry << " on " << c.device;
}

TEST(CcFamily, FamiliesParse) {
  EXPECT_EQ(parse_cc_family("8.x"), 8u);
  EXPECT_EQ(parse_cc_family("sm_8x"), 8u);
  EXPECT_EQ(parse_cc_family("sm8x"), 8u);
  EXPECT_EQ(parse_cc_family("12.x"), 12u);
  for (const char* bad : {"8", "sm_80", "x", ".x", "0.x", "8.y", "123.x", "a.x", ""})
    EXPECT_FALSE(parse_cc_family(bad)) << bad;
}

}  // namespace
}  // namespace cccl_cache
