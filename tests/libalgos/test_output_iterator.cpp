// Output iterators without a GPU (reduce's and the scans' `output`): left out of the
// encoding as a pointer, named in spec text, in every key, validated with errors that
// name the field, written by the kernels in place of the array, and packed per call.
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
#include "struct_specs.hpp"
#include "reduce/codegen.hpp"
#include "scan/codegen.hpp"

using namespace cccl_cache;
using namespace cccl_cache::algos;

namespace {

const char* kSqrt = "__device__ float root(float x) { return sqrtf(x); }";
const Operator kRoot = Operator::custom("root", kSqrt);

template <class Spec>
Spec into(Iterator output, ScalarType type = ScalarType::float32, Iterator input = {}) {
  Spec s;
  s.type = type;
  s.input = std::move(input);
  s.output = std::move(output);
  return s;
}

// One output per supported kind and shape, all different.
std::vector<Iterator> outputs() {
  return {Iterator::reverse(),
          Iterator::reverse(ScalarType::float64),
          Iterator::permutation(ScalarType::none, ScalarType::int32),
          Iterator::permutation(ScalarType::int16, ScalarType::uint64),
          Iterator::transform(Operator::of(OpKind::negate)),
          Iterator::transform(kRoot),
          Iterator::transform(kRoot, ScalarType::float64),
          Iterator::discard()};
}

template <class Spec>
void check_outputs(const char* name) {
  SCOPED_TRACE(name);
  const Spec plain{into<Spec>(Iterator{})};
  EXPECT_EQ(spec_text(plain).find("output"), std::string::npos);
  EXPECT_EQ(encode_fields(plain), encode_fields(Spec{plain}));
  std::vector<CacheKey> keys = {cache_key(plain, 90, test_support::key_toolchain())};
  for (const auto& out : outputs()) {
    const Spec spec = into<Spec>(out);
    SCOPED_TRACE(spec_text(spec));
    ASSERT_TRUE(spec.validate()) << spec.validate().error().describe();
    auto back = decode_fields<Spec>(encode_fields(spec));
    ASSERT_TRUE(back) << back.error().describe();
    EXPECT_EQ(*back, spec);
    EXPECT_NE(spec_text(spec).find(" output=" + describe(out)), std::string::npos);
    SpecFields fields = {{"type", "float32"}, {"output", field_text(out)}};
    if (out.op.kind == OpKind::custom) fields["source"] = out.op.source;
    auto parsed = spec_from_fields(name, fields);
    ASSERT_TRUE(parsed) << parsed.error().describe();
    EXPECT_EQ(*parsed, to_any(spec));
    keys.push_back(cache_key(spec, 90, test_support::key_toolchain()));
  }
  // The same iterator as the input is another spec.
  keys.push_back(cache_key(into<Spec>(Iterator{}, ScalarType::float32, Iterator::reverse()), 90,
                           test_support::key_toolchain()));
  for (std::size_t i = 0; i < keys.size(); ++i)
    for (std::size_t j = i + 1; j < keys.size(); ++j) EXPECT_NE(keys[i], keys[j]) << i << " " << j;
}

TEST(OutputIterator, EveryKindRoundTripsThroughBytesAndTextAndKeysDiffer) {
  check_outputs<reduce::Spec>("reduce");
  check_outputs<scan::InclusiveSpec>("inclusive_scan");
  check_outputs<scan::ExclusiveSpec>("exclusive_scan");
}

TEST(OutputIterator, AManifestLineNamesInputAndOutputOperators) {
  const OperatorTable ops = {{"square", "__device__ float square(float x) { return x * x; }"},
                             {"root", kSqrt}};
  auto parsed = parse_spec_text(
      "reduce type=float32 input=transform(square) output=transform(root,float64)", ops);
  ASSERT_TRUE(parsed) << parsed.error().describe();
  auto spec = decode_fields<reduce::Spec>(parsed->fields);
  ASSERT_TRUE(spec) << spec.error().describe();
  EXPECT_EQ(spec->input.op.name, "square");
  EXPECT_EQ(spec->output, Iterator::transform(kRoot, ScalarType::float64));
}

// Kinds that are not outputs, and outputs' own rules, refused naming the field.
TEST(OutputIterator, WhatCannotBeWrittenIsRefusedByName) {
  struct Case {
    Iterator output;
    ErrorCode code;
    ScalarType type = ScalarType::float32;
  };
  const Case cases[] = {
      {Iterator::counting(ScalarType::int32), ErrorCode::unsupported},
      {Iterator::constant(), ErrorCode::unsupported},
      {Iterator::transform(Operator::of(OpKind::negate), ScalarType::int32, true),
       ErrorCode::invalid_argument},
      {Iterator{IteratorKind::discard, ScalarType::int32}, ErrorCode::invalid_argument},
      // bit_not applies to the scanned float values, whatever the array's type.
      {Iterator::transform(Operator::of(OpKind::bit_not), ScalarType::int32),
       ErrorCode::invalid_argument},
      {Iterator::transform(Operator::of(OpKind::plus)), ErrorCode::invalid_argument},
      {Iterator::permutation(ScalarType::float32, ScalarType::float32), ErrorCode::invalid_argument},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(describe(c.output));
    for (const auto& ok : {into<reduce::Spec>(c.output, c.type).validate(),
                           into<scan::InclusiveSpec>(c.output, c.type).validate()}) {
      ASSERT_FALSE(ok);
      EXPECT_EQ(ok.error().code, c.code) << ok.error().message;
      EXPECT_NE(ok.error().message.find("'output'"), std::string::npos) << ok.error().message;
    }
  }
  // Struct items are written to arrays only.
  auto argmax = test_support::reduce_argmax();
  argmax.output = Iterator::discard();
  auto stats = test_support::scan_stats3();
  stats.output = Iterator::reverse();
  for (const auto& ok : {argmax.validate(), stats.validate()}) {
    ASSERT_FALSE(ok);
    EXPECT_EQ(ok.error().code, ErrorCode::unsupported);
    EXPECT_NE(ok.error().message.find("field 'output': iterators over struct items"), std::string::npos)
        << ok.error().message;
  }
  // Discard is an output only.
  const auto discard_in = into<reduce::Spec>(Iterator{}, ScalarType::float32, Iterator::discard());
  ASSERT_FALSE(discard_in.validate());
  EXPECT_EQ(discard_in.validate().error().code, ErrorCode::unsupported);
  EXPECT_NE(discard_in.validate().error().message.find("'input'"), std::string::npos);
  // Text that is not an output iterator.
  EXPECT_FALSE(parse_spec_text("inclusive_scan type=int32 output=discard(int32)"));
  EXPECT_FALSE(parse_spec_text("inclusive_scan type=int32 output=sink"));
}

// The kernels that write the output take the generated output iterator; an operator
// used by input and output is defined once.
TEST(OutputIterator, TheWritingKernelsTakeTheOutputIterator) {
  using ScanSteps = detail::BuildSteps<InclusiveScan>;
  const auto plain = ScanSteps::source(into<scan::InclusiveSpec>(Iterator{}));
  EXPECT_EQ(plain.source.find("cccl_cache_out_t"), std::string::npos);
  const auto scan = ScanSteps::source(
      into<scan::InclusiveSpec>(Iterator::transform(kRoot), ScalarType::float32, Iterator::transform(kRoot)));
  EXPECT_NE(scan.source.find("struct cccl_cache_out_t {"), std::string::npos);
  EXPECT_NE(scan.source.find("struct reference {"), std::string::npos);
  const auto first = scan.source.find(kSqrt);
  ASSERT_NE(first, std::string::npos);
  EXPECT_EQ(scan.source.find(kSqrt, first + 1), std::string::npos) << "defined twice";
  EXPECT_NE(scan.source.find("policy_selector_from_types<\n    cccl_cache_in_t, cccl_cache_out_t,"),
            std::string::npos);
  for (const auto& k : scan.kernels)
    EXPECT_NE(k.find("cccl_cache_in_t, cccl_cache_out_t,"), std::string::npos) << k;

  // Reduce: the single-tile and second-pass kernels write the result; the first pass
  // writes partials to temp storage as before.
  const auto reduce = detail::BuildSteps<Reduce>::source(into<reduce::Spec>(Iterator::discard()));
  ASSERT_EQ(reduce.kernels.size(), 3u);
  EXPECT_NE(reduce.kernels[reduce::single_tile_kernel].find("cccl_cache_out_t"), std::string::npos);
  EXPECT_EQ(reduce.kernels[reduce::reduce_kernel].find("cccl_cache_out_t"), std::string::npos);
  EXPECT_NE(reduce.kernels[reduce::second_pass_kernel].find("cccl_cache_out_t"), std::string::npos);
}

// A call's output: the array for a pointer spec, else the spec's kind packed (a discard
// packs zeros, a transform its array, a reverse its end); another kind is refused.
TEST(OutputIterator, ACallsOutputIsTheArrayOrTheSpecsKindPacked) {
  static float values[4] = {};
  detail::IteratorArg packed;
  std::memset(packed.bytes, 0xab, sizeof packed.bytes);
  const void* address = nullptr;
  ASSERT_TRUE(detail::iterator_address(Iterator::discard(), ScalarType::float32,
                                       Output(IteratorValue::discard()).value, 4, packed, address));
  EXPECT_EQ(address, static_cast<const void*>(packed.bytes));
  for (unsigned char b : packed.bytes) EXPECT_EQ(b, 0);
  ASSERT_TRUE(detail::iterator_address(Iterator::transform(kRoot, ScalarType::float64),
                                       ScalarType::float32,
                                       Output(IteratorValue::transform(values)).value, 4, packed,
                                       address));
  const void* p = nullptr;
  std::memcpy(&p, packed.bytes, sizeof p);
  EXPECT_EQ(p, static_cast<const void*>(values));
  ASSERT_TRUE(detail::iterator_address(Iterator::reverse(ScalarType::float64), ScalarType::float32,
                                       Output(IteratorValue::reverse(values)).value, 2, packed,
                                       address));
  std::memcpy(&p, packed.bytes, sizeof p);
  EXPECT_EQ(p, static_cast<const void*>(reinterpret_cast<unsigned char*>(values) + 16))
      << "the end of two float64 values";
  EXPECT_FALSE(detail::iterator_address(Iterator::discard(), ScalarType::float32,
                                        Output(values).value, 4, packed, address));
  EXPECT_FALSE(detail::iterator_address(Iterator{}, ScalarType::float32,
                                        Output(IteratorValue::discard()).value, 4, packed, address));
}

// The packing line heads the generated struct, so the key covers the host packing.
TEST(OutputIterator, TheDiscardPackingIsPinned) {
  EXPECT_EQ(detail::iterator_packing(Iterator::discard()),
            "// cccl-cache host packing 1: ptrdiff_t pos@0 (0); 16 bytes aligned 16, the rest zero\n");
  EXPECT_EQ(detail::output_iterator_struct("o", Iterator::discard(), ScalarType::int32)
                .rfind(detail::iterator_packing(Iterator::discard()), 0),
            0u);
}

}  // namespace
