// Zip iterators without a GPU (reduce's and the scans' `input` and `output` over struct
// items): spec bytes, text and keys; refusals naming the field and the component; the
// generated struct (fields checked against the components); the call's packing.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "cccl_cache/algos/core/key.hpp"
#include "cccl_cache/algos/core/spec_codec.hpp"
#include "cccl_cache/algos/reduce/build_result.hpp"
#include "cccl_cache/algos/registry.hpp"
#include "cccl_cache/algos/scan/build_result.hpp"
#include "cccl_cache/algos/spec_text.hpp"
#include "core/iterator.hpp"
#include "iterator_specs.hpp"
#include "reduce/codegen.hpp"
#include "scan/codegen.hpp"
#include "zip_specs.hpp"

using namespace cccl_cache;
using namespace cccl_cache::algos;
using namespace test_support;

namespace {

const Operator kSquare = square_f();
const Operator kNegate = Operator::of(OpKind::negate);

Iterator zip(std::vector<Iterator> c) { return Iterator::zip(std::move(c)); }
Iterator f32() { return Iterator::array(ScalarType::float32); }

// An iterator refused as `spec`'s input (or its output): the code and what the message says,
// naming the field.
struct Refusal {
  Iterator it;
  bool output;
  ErrorCode code;
  const char* says;
};
template <class Spec>
void expect_refused(Spec spec, const Refusal& c) {
  SCOPED_TRACE(describe(c.it));
  spec.input = c.output ? Iterator{} : c.it;
  spec.output = c.output ? c.it : Iterator{};
  const auto ok = spec.validate();
  ASSERT_FALSE(ok);
  EXPECT_EQ(ok.error().code, c.code) << ok.error().message;
  EXPECT_NE(ok.error().message.find(c.output ? "field 'output'" : "field 'input'"), std::string::npos)
      << ok.error().message;
  EXPECT_NE(ok.error().message.find(c.says), std::string::npos) << ok.error().message;
}

// Zips into a {float, long long}, each different.
std::vector<Iterator> inputs() {
  return {values_and_positions64(),
          zip({f32(), Iterator::counting(ScalarType::uint64)}),
          zip({f32(), Iterator::array(ScalarType::int64)}),
          zip({Iterator::reverse(ScalarType::float32), Iterator::counting(ScalarType::int64)}),
          zip({Iterator::transform(kSquare, ScalarType::float32),
               Iterator::counting(ScalarType::int64)}),
          zip({Iterator::permutation(ScalarType::float32, ScalarType::int32),
               Iterator::transform(kNegate, ScalarType::int64, true)}),
          zip({Iterator::constant(ScalarType::float32), Iterator::counting(ScalarType::int64)})};
}

TEST(ZipIterator, EveryShapeRoundTripsThroughBytesAndTextAndKeysDiffer) {
  std::vector<CacheKey> keys;
  auto plain = zip_argmax64();
  plain.input = Iterator{};
  keys.push_back(cache_key(plain, 90, key_toolchain()));
  for (const auto& in : inputs()) {
    auto spec = zip_argmax64();
    spec.input = in;
    SCOPED_TRACE(spec_text(spec));
    ASSERT_TRUE(spec.validate()) << spec.validate().error().describe();
    auto back = decode_fields<reduce::Spec>(encode_fields(spec));
    ASSERT_TRUE(back) << back.error().describe();
    EXPECT_EQ(*back, spec);
    // Text, with the struct and the operators from a manifest's table.
    const OperatorTable ops = {{"vi64", argmax64_pair().layout.definition},
                               {"argmax64", argmax64_op().source},
                               {"square_f", kSquare.source}};
    auto parsed = parse_spec_text("reduce type=vi64:16/8 op=argmax64 input=" + describe(in), ops);
    ASSERT_TRUE(parsed) << parsed.error().describe();
    auto decoded = decode_fields<reduce::Spec>(parsed->fields);
    ASSERT_TRUE(decoded) << decoded.error().describe();
    EXPECT_EQ(*decoded, spec);
    keys.push_back(cache_key(spec, 90, key_toolchain()));
  }
  // The same zip as the output of a scan, and the running argmax, are other specs.
  auto scan = zip_running_argmax();
  keys.push_back(cache_key(scan, 90, key_toolchain()));
  scan.output = Iterator{};
  keys.push_back(cache_key(scan, 90, key_toolchain()));
  for (std::size_t i = 0; i < keys.size(); ++i)
    for (std::size_t j = i + 1; j < keys.size(); ++j) EXPECT_NE(keys[i], keys[j]) << i << " " << j;
  EXPECT_EQ(describe(values_and_positions64()), "zip(float32,counting(int64))");
  EXPECT_EQ(describe(zip({Iterator::transform(kSquare, ScalarType::float32),
                          Iterator::reverse(ScalarType::int8)})),
            "zip(transform(square_f,float32),reverse(int8))");
}

TEST(ZipIterator, AScanWritesThroughAZipAndItsTextRoundTrips) {
  const auto spec = zip_running_argmax();
  ASSERT_TRUE(spec.validate()) << spec.validate().error().describe();
  EXPECT_NE(spec_text(spec).find(" input=zip(float32,counting(int32)) output=zip(float32,int32)"),
            std::string::npos)
      << spec_text(spec);
  auto back = decode_fields<scan::InclusiveSpec>(encode_fields(spec));
  ASSERT_TRUE(back) << back.error().describe();
  EXPECT_EQ(*back, spec);
  // A discard component drops its field.
  auto dropped = spec;
  dropped.output = zip({Iterator::discard(), Iterator::reverse(ScalarType::int32)});
  ASSERT_TRUE(dropped.validate()) << dropped.validate().error().describe();
  EXPECT_EQ(describe(dropped.output), "zip(discard,reverse(int32))");
  auto again = decode_fields<scan::InclusiveSpec>(encode_fields(dropped));
  ASSERT_TRUE(again) << again.error().describe();
  EXPECT_EQ(*again, dropped);
}

// What a zip cannot be, refused naming the field (and the component).
TEST(ZipIterator, WhatCannotBeZippedIsRefusedByName) {
  const Refusal cases[] = {
      {zip({}), false, ErrorCode::invalid_argument, "1 to 8 components"},
      {zip(std::vector<Iterator>(9, f32())), false, ErrorCode::invalid_argument,
       "1 to 8 components"},
      {zip({f32(), zip({f32()})}), false, ErrorCode::unsupported,
       "zip component 1: a zip inside a zip"},
      {zip({f32(), Iterator::counting()}), false, ErrorCode::invalid_argument,
       "zip component 1: a component names its value type"},
      {zip({Iterator{IteratorKind::pointer}, f32()}), false, ErrorCode::invalid_argument,
       "zip component 0: an array"},
      {zip({f32(), Iterator::discard()}), false, ErrorCode::unsupported, "zip component 1"},
      {zip({f32(), Iterator::counting(ScalarType::int64)}), true, ErrorCode::unsupported,
       "zip component 1"},
      {zip({Iterator::constant(ScalarType::float32), Iterator::constant(ScalarType::int64)}), false,
       ErrorCode::invalid_argument, "neither constant nor discard"},
      {zip({Iterator::counting(ScalarType::float32), Iterator::counting(ScalarType::int64)}), false,
       ErrorCode::invalid_argument,
       "zip component 0: a counting iterator counts in an integer type"},
      {zip({Iterator::transform(kSquare, ScalarType::float32),
            Iterator::transform(
                Operator::custom("twice",
                                 "__device__ long long twice(long long x) { return 2 * x; }"),
                ScalarType::int64, true)}),
       false, ErrorCode::invalid_argument, "share one source"},
  };
  for (const auto& c : cases) expect_refused(zip_running_argmax(), c);
  // A zip's items are structs.
  reduce::Spec scalar;
  scalar.input = values_and_positions64();
  ASSERT_FALSE(scalar.validate());
  EXPECT_NE(
      scalar.validate().error().message.find("field 'input': a zip iterator's items are structs"),
      std::string::npos)
      << scalar.validate().error().message;
  // Other iterators over struct items are still refused.
  auto reversed = zip_argmax64();
  reversed.input = Iterator::reverse();
  ASSERT_FALSE(reversed.validate());
  EXPECT_EQ(reversed.validate().error().code, ErrorCode::unsupported);
  // Text that is not a zip.
  EXPECT_FALSE(
      parse_spec_text("reduce type=vi:8/4 struct.vi='struct vi { float v; int i; };' op=argmax "
                      "source='x' input=zip()"));
  EXPECT_FALSE(
      parse_spec_text("reduce type=vi:8/4 struct.vi='struct vi { float v; int i; };' op=argmax "
                      "source='x' input=zip(float32,bogus(int32))"));
}

// Struct items read as a custom transform's results: over a zip (the operator takes the
// fields' elements) or over counting(V); their text, bytes and keys; the generated
// iterator casting the operator's result to the struct; what cannot yield structs refused.
TEST(ZipIterator, StructItemsReadAsATransformsResults) {
  const auto over_zip = transform_argmax64();
  const auto over_counts = scored_running_argmax();
  ASSERT_TRUE(over_zip.validate()) << over_zip.validate().error().describe();
  ASSERT_TRUE(over_counts.validate()) << over_counts.validate().error().describe();
  EXPECT_NE(spec_text(over_zip).find(" input=transform(abs_at,zip(float32,counting(int64)))"), std::string::npos)
      << spec_text(over_zip);
  EXPECT_NE(spec_text(over_counts).find(" input=transform(scored,counting(int64))"), std::string::npos)
      << spec_text(over_counts);
  auto back = decode_fields<reduce::Spec>(encode_fields(over_zip));
  ASSERT_TRUE(back) << back.error().describe();
  EXPECT_EQ(*back, over_zip);
  auto parsed = parse_spec_text(spec_text(over_counts) + " struct.vi64='" + argmax64_pair().layout.definition + "'",
                                {{"argmax64", argmax64_op().source}, {"scored", scored().source}});
  ASSERT_TRUE(parsed) << parsed.error().describe();
  auto decoded = decode_fields<scan::InclusiveSpec>(parsed->fields);
  ASSERT_TRUE(decoded) << decoded.error().describe();
  EXPECT_EQ(*decoded, over_counts);
  EXPECT_NE(cache_key(over_zip, 90, key_toolchain()), cache_key(zip_argmax64(), 90, key_toolchain()));
  const auto src = detail::BuildSteps<Reduce>::source(over_zip).source;
  EXPECT_NE(src.find("static_cast<vi64>(cccl_cache_in_t_op{}(c0[i], c1[i]))"), std::string::npos) << src;
  // A well-known operator, a transform naming its own value type, one over an unnamed
  // array, and a transform output over struct items are refused by name.
  const Refusal cases[] = {
      {Iterator::transform_of(Operator::of(OpKind::plus), values_and_positions64()), false,
       ErrorCode::invalid_argument, "takes a custom operator returning the struct"},
      {Iterator::transform_of(abs_at(), values_and_positions64(), ScalarType::float32), false,
       ErrorCode::invalid_argument, "no value type of its own"},
      {Iterator::transform(scored()), false, ErrorCode::invalid_argument, "names its operand type"},
      {Iterator::transform(scored(), ScalarType::int64), true, ErrorCode::unsupported,
       "other than a zip of its fields or a transform yielding them"},
  };
  for (const auto& c : cases) expect_refused(zip_argmax64(), c);
}

// The generated zip: its components' structs, members c0.., read into the struct, each
// field checked against its component, the output written field by field.
TEST(ZipIterator, TheGeneratedZipChecksTheStructsFields) {
  const auto reduce = detail::BuildSteps<Reduce>::source(zip_argmax64());
  const std::string& src = reduce.source;
  EXPECT_NE(
      src.find(
          "// cccl-cache host packing 1: zip c0 float32 {V* p@0}@0, c1 int64 {V start@0}@8; 16 "
          "bytes aligned 16, the rest zero\n"),
      std::string::npos)
      << src;
  EXPECT_NE(src.find("struct cccl_cache_in_t_0 {"), std::string::npos);
  EXPECT_NE(src.find("struct cccl_cache_in_t_1 {"), std::string::npos);
  EXPECT_NE(src.find("  cccl_cache_in_t_0 c0;\n  cccl_cache_in_t_1 c1;\n"), std::string::npos);
  EXPECT_NE(src.find("return vi64{c0[i], c1[i]};"), std::string::npos);
  EXPECT_NE(src.find("\"zip component 1 is int64 but field 1 of vi64 is not\");"),
            std::string::npos)
      << src;
  EXPECT_NE(src.find("static_assert(::cuda::std::is_same_v<decltype(f0), float> || "),
            std::string::npos)
      << src;
  for (const auto& k : {reduce::single_tile_kernel, reduce::reduce_kernel})
    EXPECT_NE(reduce.kernels[k].find("cccl_cache_in_t,"), std::string::npos) << reduce.kernels[k];

  auto dropped = zip_running_argmax();
  dropped.output = zip({Iterator::discard(), Iterator::reverse(ScalarType::int32)});
  const auto scan = detail::BuildSteps<InclusiveScan>::source(dropped);
  EXPECT_NE(scan.source.find("    cccl_cache_out_t_1::reference r1;\n"), std::string::npos)
      << scan.source;
  EXPECT_NE(scan.source.find("      const auto& [x0, x1] = x;\n      (void)x0;\n      r1 = x1;\n"),
            std::string::npos)
      << scan.source;
  EXPECT_EQ(scan.source.find("cccl_cache_out_t_0"), std::string::npos)
      << "a discard component has no member";
  // A zip's custom operators are defined once.
  auto squares = zip_argmax64();
  squares.input = inputs()[4];
  const auto sq = detail::BuildSteps<Reduce>::source(squares);
  const auto first = sq.source.find(kSquare.source);
  ASSERT_NE(first, std::string::npos);
  EXPECT_EQ(sq.source.find(kSquare.source, first + 1), std::string::npos);
}

// The call's values: each component packed at its offset; a count or a component kind
// that is not the spec's is refused.
TEST(ZipIterator, ACallsComponentsArePackedAtTheirOffsets) {
  static const float values[4] = {};
  static const std::int32_t index[4] = {};
  const Iterator it =
      zip({Iterator::counting(ScalarType::int16),
           Iterator::permutation(ScalarType::float32, ScalarType::int32),
           Iterator::reverse(ScalarType::float32), Iterator::constant(ScalarType::int8)});
  EXPECT_EQ(detail::iterator_packing(it),
            "// cccl-cache host packing 1: zip c0 int16 {V start@0}@0, c1 float32 {V* values@0, I* "
            "idx@8}@8, "
            "c2 float32 {V* end@0 (first + num_items)}@24, c3 int8 {V value@0}@32; 40 bytes "
            "aligned 16, the "
            "rest zero\n");
  const IteratorValue parts[] = {
      IteratorValue::counting(std::int16_t{-3}), IteratorValue::permutation(values, index),
      IteratorValue::reverse(values), IteratorValue::constant(std::int8_t{7})};
  detail::IteratorArg packed;
  std::memset(packed.bytes, 0xab, sizeof packed.bytes);
  const void* address = nullptr;
  ASSERT_TRUE(detail::iterator_address(it, ScalarType::structure, IteratorValue::zip(parts, 4), 4,
                                       packed, address));
  EXPECT_EQ(address, static_cast<const void*>(packed.bytes));
  std::int16_t start = 0;
  std::memcpy(&start, packed.bytes, 2);
  EXPECT_EQ(start, -3);
  const void* p[3] = {};
  std::memcpy(p, packed.bytes + 8, sizeof p);
  EXPECT_EQ(p[0], static_cast<const void*>(values));
  EXPECT_EQ(p[1], static_cast<const void*>(index));
  EXPECT_EQ(p[2], static_cast<const void*>(values + 4));
  EXPECT_EQ(packed.bytes[32], 7);
  for (std::size_t k = 33; k < sizeof packed.bytes; ++k) EXPECT_EQ(packed.bytes[k], 0) << k;
  for (std::size_t k = 2; k < 8; ++k) EXPECT_EQ(packed.bytes[k], 0) << k;
  EXPECT_FALSE(detail::iterator_address(it, ScalarType::structure, IteratorValue::zip(parts, 3), 4,
                                        packed, address));
  EXPECT_FALSE(detail::iterator_address(it, ScalarType::structure, IteratorValue::zip(nullptr, 4),
                                        4, packed, address));
  const IteratorValue swapped[] = {parts[1], parts[0], parts[2], parts[3]};
  EXPECT_FALSE(detail::iterator_address(it, ScalarType::structure, IteratorValue::zip(swapped, 4),
                                        4, packed, address));
  EXPECT_FALSE(detail::iterator_address(it, ScalarType::structure, IteratorValue::array(values), 4,
                                        packed, address));
}

}  // namespace
