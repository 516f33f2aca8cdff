// The spec-text syntax shared by manifests and `why`.
#include <gtest/gtest.h>

#include "spec_text.hpp"

namespace cccl_cache::cli {
namespace {

using algos::ComparatorKind;
using algos::ScalarType;

TEST(SpecText, ParsesEveryFieldAndDefaults) {
  auto s = parse_spec_text("merge_sort keys=int32 values=float64 compare=greater offset=uint32");
  ASSERT_TRUE(s) << s.error().describe();
  EXPECT_EQ(s->algorithm, "merge_sort");
  EXPECT_EQ(s->merge_sort.key_type, ScalarType::int32);
  EXPECT_EQ(s->merge_sort.value_type, ScalarType::float64);
  EXPECT_EQ(s->merge_sort.comparator.kind, ComparatorKind::greater);
  EXPECT_EQ(s->merge_sort.offset_type, ScalarType::uint32);

  auto d = parse_spec_text("merge_sort keys=float32");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->merge_sort, algos::merge_sort::Spec{});  // values=none, less, int64
}

TEST(SpecText, RoundTripsThroughToSpecText) {
  for (const char* text : {"merge_sort keys=float32 values=none compare=less offset=int64",
                           "merge_sort keys=uint8 values=int16 compare=greater offset=int32"}) {
    auto s = parse_spec_text(text);
    ASSERT_TRUE(s) << text;
    EXPECT_EQ(to_spec_text(*s), text);
  }
}

TEST(SpecText, QuotedSourceKeepsSpaces) {
  auto s = parse_spec_text(
      "merge_sort keys=float32 compare=abs_less source='__device__ bool abs_less(float a, float b) "
      "{ return a < b; }'");
  ASSERT_TRUE(s) << s.error().describe();
  EXPECT_EQ(s->merge_sort.comparator.kind, ComparatorKind::custom);
  EXPECT_EQ(s->merge_sort.comparator.name, "abs_less");
  EXPECT_EQ(s->merge_sort.comparator.source,
            "__device__ bool abs_less(float a, float b) { return a < b; }");
  EXPECT_EQ(to_spec_text(*s), "merge_sort keys=float32 values=none compare=abs_less offset=int64");
}

TEST(SpecText, CustomOperatorFromTheTableOrCustomPrefix) {
  OperatorTable ops{{"by_abs", "__device__ bool by_abs(int a, int b) { return abs(a) < abs(b); }"}};
  auto s = parse_spec_tokens({"merge_sort", "keys=int32", "cmp=custom:by_abs"}, ops);
  ASSERT_TRUE(s) << s.error().describe();
  EXPECT_EQ(s->merge_sort.comparator, algos::Comparator::custom("by_abs", ops["by_abs"]));
}

TEST(SpecText, RejectsBadInputWithAReason) {
  struct Case {
    const char* text;
    const char* says;
  };
  for (const Case& c : {Case{"", "empty"}, Case{"reduce keys=int32", "unknown algorithm"},
                        Case{"merge_sort values=int32", "'keys' is required"},
                        Case{"merge_sort keys=float16", "not a type"},
                        Case{"merge_sort keys=int32 colour=red", "unknown field"},
                        Case{"merge_sort keys=int32 keys=int64", "given twice"},
                        Case{"merge_sort keys", "not field=value"},
                        Case{"merge_sort keys=int32 compare=mine", "no source"},
                        Case{"merge_sort keys=int32 compare=less source=x", "built-in"},
                        Case{"merge_sort keys=int32 source='open", "unterminated"},
                        Case{"merge_sort keys=int32 offset=float32", "merge_sort: "}}) {
    auto s = parse_spec_text(c.text);
    ASSERT_FALSE(s) << c.text;
    EXPECT_EQ(s.error().code, ErrorCode::invalid_argument);
    EXPECT_NE(s.error().message.find(c.says), std::string::npos)
        << c.text << ": " << s.error().message;
  }
}

}  // namespace
}  // namespace cccl_cache::cli
