// --arch families: "8.x" / "sm_8x" resolve to the family's lowest CC this NVRTC compiles
// for (its entry serves the whole major through cc_fallback).
#include <gtest/gtest.h>

#include "context.hpp"

namespace cccl_cache::cli {
namespace {

using Ccs = std::vector<std::uint32_t>;

TEST(ArchFamily, ResolvesToTheLowestCcOfTheMajor) {
  EXPECT_EQ(resolve_archs("8.x").value(), (Ccs{80}));
  EXPECT_EQ(resolve_archs("sm_8x,sm_90").value(), (Ccs{80, 90}));
  EXPECT_EQ(resolve_archs("8.x sm_86").value(), (Ccs{80, 86}));
  EXPECT_EQ(resolve_archs("9.x").value(), (Ccs{90}));
  auto none = resolve_archs("3.x");
  ASSERT_FALSE(none);
  EXPECT_NE(none.error().message.find("family 3"), std::string::npos) << none.error().message;
  EXPECT_FALSE(resolve_archs("8.y"));
}

TEST(ArchFamily, FamilyFromListsTheHigherMinorsOfTheMajor) {
  const auto f = family_from(80);
  ASSERT_FALSE(f.empty());
  EXPECT_EQ(f.front(), 80u);
  for (auto cc : f) EXPECT_EQ(cc / 10, 8u);
  EXPECT_NE(std::find(f.begin(), f.end(), 86u), f.end()) << "NVRTC 13 compiles for sm_86";
  EXPECT_EQ(std::find(f.begin(), f.end(), 90u), f.end());
}

}  // namespace
}  // namespace cccl_cache::cli
