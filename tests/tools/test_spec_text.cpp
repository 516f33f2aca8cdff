// The spec-text syntax shared by manifests and `why`.
#include <gtest/gtest.h>

#include <utility>

#include "cccl_cache/algos/merge_sort/spec.hpp"
#include "cccl_cache/algos/reduce/spec.hpp"
#include "cccl_cache/algos/segmented_reduce/spec.hpp"
#include "spec_text.hpp"

namespace cccl_cache::cli {
namespace {

// The merge sort spec an AnySpec holds.
algos::merge_sort::Spec ms_of(const AnySpec& any) {
  auto s = algos::decode_fields<algos::merge_sort::Spec>(any.fields);
  EXPECT_TRUE(s) << (s ? "" : s.error().describe());
  return s ? *s : algos::merge_sort::Spec{};
}

using algos::ComparatorKind;
using algos::ScalarType;

TEST(SpecText, ParsesEveryFieldAndDefaults) {
  auto s = parse_spec_text("merge_sort keys=int32 values=float64 compare=greater offset=uint32");
  ASSERT_TRUE(s) << s.error().describe();
  EXPECT_EQ(s->algorithm, algos::AlgorithmId::merge_sort);
  EXPECT_EQ(ms_of(*s).key_type, ScalarType::int32);
  EXPECT_EQ(ms_of(*s).value_type, ScalarType::float64);
  EXPECT_EQ(ms_of(*s).comparator.kind, ComparatorKind::greater);
  EXPECT_EQ(ms_of(*s).offset_type, ScalarType::uint32);

  auto d = parse_spec_text("merge_sort keys=float32");
  ASSERT_TRUE(d);
  EXPECT_EQ(ms_of(*d), algos::merge_sort::Spec{});  // values=none, less, int64
}

TEST(SpecText, RoundTripsThroughToSpecText) {
  for (const char* text : {"merge_sort keys=float32 values=none compare=less offset=int64",
                           "merge_sort keys=uint8 values=int16 compare=greater offset=int32"}) {
    auto s = parse_spec_text(text);
    ASSERT_TRUE(s) << text;
    EXPECT_EQ(to_spec_text(*s), text);
  }
}

// lower_bound and upper_bound are binary_search with the side from the name.
TEST(SpecText, LowerAndUpperBoundNameBinarySearch) {
  for (const auto& [text, want] :
       {std::pair{"lower_bound type=int32", "binary_search type=int32 out=int64 compare=less upper=false"},
        std::pair{"upper_bound type=float32 out=uint32 compare=greater",
                  "binary_search type=float32 out=uint32 compare=greater upper=true"}}) {
    auto s = parse_spec_text(text);
    ASSERT_TRUE(s) << text << ": " << s.error().describe();
    EXPECT_EQ(to_spec_text(*s), want);
  }
  auto both = parse_spec_text("lower_bound type=int32 upper=true");
  ASSERT_FALSE(both);
  EXPECT_NE(both.error().message.find("the name gives the side"), std::string::npos) << both.error().message;
}

TEST(SpecText, QuotedSourceKeepsSpaces) {
  auto s = parse_spec_text(
      "merge_sort keys=float32 compare=abs_less source='__device__ bool abs_less(float a, float b) "
      "{ return a < b; }'");
  ASSERT_TRUE(s) << s.error().describe();
  EXPECT_EQ(ms_of(*s).comparator.kind, ComparatorKind::custom);
  EXPECT_EQ(ms_of(*s).comparator.name, "abs_less");
  EXPECT_EQ(ms_of(*s).comparator.source,
            "__device__ bool abs_less(float a, float b) { return a < b; }");
  EXPECT_EQ(to_spec_text(*s), "merge_sort keys=float32 values=none compare=abs_less offset=int64");
}

TEST(SpecText, CustomOperatorFromTheTable) {
  OperatorTable ops{{"by_abs", "__device__ bool by_abs(int a, int b) { return abs(a) < abs(b); }"}};
  auto s = parse_spec_tokens({"merge_sort", "keys=int32", "compare=by_abs"}, ops);
  ASSERT_TRUE(s) << s.error().describe();
  EXPECT_EQ(ms_of(*s).comparator, algos::Comparator::custom("by_abs", ops["by_abs"]));
}

TEST(SpecText, StatefulOperatorFromTheTableKeepsItsLayout) {
  OperatorTable ops{
      {"by_mod", "__device__ bool by_mod(void* s, int a, int b) { return a % *(int*)s < b % *(int*)s; }"}};
  auto s = parse_spec_tokens({"merge_sort", "keys=int32", "compare=by_mod:4/4"}, ops);
  ASSERT_TRUE(s) << s.error().describe();
  EXPECT_EQ(ms_of(*s).comparator, algos::Comparator::custom("by_mod", ops["by_mod"], 4, 4));
  EXPECT_EQ(to_spec_text(*s), "merge_sort keys=int32 values=none compare=by_mod:4/4 offset=int64");
}

// An iterator field (input or output): written where it is not a pointer, its transform
// operator's source from the table like an operator field's; a bad iterator is named.
TEST(SpecText, ReduceAndScanIterators) {
  OperatorTable ops{
      {"square", "__device__ float square(float x) { return x * x; }"},
      {"vi", "struct vi { float value; int index; };"},
      {"argmax", "__device__ vi argmax(vi a, vi b) { return a.value >= b.value ? a : b; }"}};
  for (const char* text :
       {"reduce type=float32 op=plus offset=uint64",
        "reduce type=int64 op=plus offset=uint64 input=counting(int32)",
        "reduce type=float32 op=plus offset=uint64 input=transform(square)",
        "reduce type=uint32 op=maximum offset=uint32 input=permutation(none,int64)",
        "reduce type=float64 op=plus offset=uint64 input=reverse",
        "reduce type=float32 op=plus offset=uint64 input=transform(square) "
        "output=transform(square,float64)",
        "inclusive_scan type=int32 op=plus offset=uint64 output=reverse",
        "exclusive_scan type=int64 op=plus offset=uint64 input=counting output=discard",
        "reduce type=vi:8/4 op=argmax offset=uint64 input=zip(float32,counting(int32))",
        "inclusive_scan type=vi:8/4 op=argmax offset=uint64 "
        "input=zip(transform(square,float32),counting(int32)) "
        "output=zip(discard,reverse(int32))"}) {
    auto s = parse_spec_text(text, ops);
    ASSERT_TRUE(s) << text << ": " << s.error().describe();
    EXPECT_EQ(to_spec_text(*s), text);
  }
  auto sq = parse_spec_text("reduce type=float32 input=transform(square)", ops);
  ASSERT_TRUE(sq);
  auto spec = algos::decode_fields<algos::reduce::Spec>(sq->fields);
  ASSERT_TRUE(spec);
  EXPECT_EQ(spec->input,
            algos::Iterator::transform(algos::Operator::custom("square", ops["square"])));
  for (const auto& [text, says] :
       {std::pair{"reduce type=float32 input=counting", "integer type"},
        std::pair{"reduce type=float32 input=zip(float32)", "items are structs"},
        std::pair{"reduce type=vi:8/4 op=argmax input=zip(float32,int32", "not an iterator"},
        std::pair{"reduce type=vi:8/4 op=argmax input=zip(float32,counting)",
                  "names its value type"},
        std::pair{"reduce type=float32 input=transform(cube)", "no source"},
        std::pair{"inclusive_scan type=int32 output=counting", "not an output"},
        std::pair{"reduce type=float32 input=discard", "not supported here"}}) {
    auto r = parse_spec_text(text, ops);
    ASSERT_FALSE(r) << text;
    EXPECT_NE(r.error().message.find(says), std::string::npos) << r.error().message;
  }
}

// Segmented reduce's iterator fields; one source= for one operator that both offsets name.
TEST(SpecText, SegmentedReduceIteratorsShareOneSource) {
  const std::string times8 = "__device__ long long times8(long long i) { return 8 * i; }";
  const std::string text =
      "segmented_reduce type=float32 op=plus offset=int64 begin_offsets=transform(times8,counting(int64)) "
      "end_offsets=transform(times8,counting(int64))";
  auto s = parse_spec_text(text + " source='" + times8 + "'");
  ASSERT_TRUE(s) << s.error().describe();
  EXPECT_EQ(to_spec_text(*s), text);
  auto spec = algos::decode_fields<algos::segmented_reduce::Spec>(s->fields);
  ASSERT_TRUE(spec) << spec.error().describe();
  EXPECT_EQ(spec->end_offsets.op, algos::Operator::custom("times8", times8));
  auto reversed = parse_spec_text("segmented_reduce type=float32 input=reverse");
  ASSERT_FALSE(reversed);
  EXPECT_NE(reversed.error().message.find("'input'"), std::string::npos) << reversed.error().message;
}

// A struct element type: NAME:SIZE/ALIGN, its definition in struct.NAME=... or the
// operator table; spec text prints the layout, not the definition.
TEST(SpecText, StructKeysTakeTheirDefinitionAndPrintTheirLayout) {
  const std::string def = "struct pair { int k; float v; };";
  const std::string cmp = "__device__ bool by_k(const pair& a, const pair& b) { return a.k < b.k; }";
  auto s = parse_spec_text("merge_sort keys=pair:8/4 struct.pair='" + def + "' compare=by_k source='" +
                           cmp + "'");
  ASSERT_TRUE(s) << s.error().describe();
  EXPECT_EQ(ms_of(*s).key_type, algos::ElementType::structure("pair", def, 8, 4));
  EXPECT_EQ(to_spec_text(*s), "merge_sort keys=pair:8/4 values=none compare=by_k offset=int64");
  OperatorTable ops{{"pair", def}, {"by_k", cmp}};
  auto t = parse_spec_tokens({"merge_sort", "keys=pair:8/4", "values=pair:8/4", "compare=by_k"}, ops);
  ASSERT_TRUE(t) << t.error().describe();
  EXPECT_EQ(ms_of(*t).value_type, ms_of(*s).key_type);
  auto less = parse_spec_tokens({"merge_sort", "keys=pair:8/4", "compare=less"}, ops);
  ASSERT_FALSE(less);
  EXPECT_NE(less.error().message.find("custom comparator"), std::string::npos) << less.error().message;
  auto bad = parse_spec_tokens({"merge_sort", "keys=pair:8/3", "compare=by_k"}, ops);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("power of two"), std::string::npos) << bad.error().message;
}

TEST(SpecText, RejectsBadInputWithAReason) {
  struct Case {
    const char* text;
    const char* says;
  };
  for (const Case& c : {Case{"", "empty"}, Case{"histogram keys=int32", "unknown algorithm"},
                        Case{"merge_sort values=int32", "'keys' is required"},
                        Case{"merge_sort keys=float128", "not a type"},
                        Case{"merge_sort keys=float16", "merge sort spec: key type"},
                        Case{"merge_sort keys=int32 colour=red", "unknown field"},
                        Case{"merge_sort keys=int32 keys=int64", "given twice"},
                        Case{"merge_sort keys", "not field=value"},
                        Case{"merge_sort keys=int32 compare=mine", "no source"},
                        Case{"merge_sort keys=int32 compare=less source=x", "exactly one custom operator"},
                        Case{"three_way_partition type=int32 first_op=f second_op=g source=x", "found 2 in 2 fields"},
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
