// Unary and binary transform over iterators without a GPU: an array spec encodes, keys
// and generates as before; each input and the output take iterators, named in spec text,
// in every key, validated with errors naming the field; the kernel reads and writes them
// in place of the arrays; builds for sm_80 and sm_90 pass the records' checks with a
// policy CUB's host dispatch over our iterator stand-ins can launch.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "build_cache.hpp"
#include "cccl_cache/algos/core/key.hpp"
#include "cccl_cache/algos/core/spec_codec.hpp"
#include "cccl_cache/algos/registry.hpp"
#include "cccl_cache/algos/spec_text.hpp"
#include "cccl_cache/algos/transform/build_result.hpp"
#include "iterator_spec_checks.hpp"
#include "iterator_specs.hpp"
#include "transform/codegen.hpp"

using namespace cccl_cache;
using namespace cccl_cache::algos;
using transform::BinarySpec;
using transform::UnarySpec;

namespace {

const Operator kSquare = test_support::square_f();
const Operator kHalve =
    Operator::custom("halve_f", "__device__ float halve_f(float x) { return x * 0.5f; }");

UnarySpec unary(Iterator input, Iterator output = {}, Operator op = Operator::of(OpKind::negate)) {
  UnarySpec s{{ScalarType::float32}, ScalarType::float32, std::move(op)};
  s.inputs[0] = std::move(input);
  s.output = std::move(output);
  return s;
}
BinarySpec binary(Iterator input1, Iterator input2, Iterator output = {}) {
  BinarySpec s{{ScalarType::float32, ScalarType::int64}, ScalarType::float32, Operator::plus()};
  s.inputs = {std::move(input1), std::move(input2)};
  s.output = std::move(output);
  return s;
}

// One spec per place and kind (unary input and output, both binary inputs and its output).
std::vector<UnarySpec> unary_specs() {
  return {unary(Iterator::counting(ScalarType::int64)),
          unary(Iterator::constant()),
          unary(Iterator::reverse()),
          unary(Iterator::permutation(ScalarType::none, ScalarType::int32)),
          unary(Iterator::transform(kSquare)),
          unary(Iterator::transform(Operator::of(OpKind::negate), ScalarType::int32, true)),
          unary({}, Iterator::reverse()),
          unary({}, Iterator::permutation(ScalarType::float64, ScalarType::uint64)),
          unary({}, Iterator::transform(kHalve, ScalarType::float64)),
          unary({}, Iterator::discard()),
          unary(Iterator::reverse(), Iterator::reverse())};
}
std::vector<BinarySpec> binary_specs() {
  return {binary(Iterator::reverse(), {}), binary({}, Iterator::counting()),
          binary(Iterator::transform(kSquare), Iterator::counting(ScalarType::int32)),
          binary({}, {}, Iterator::permutation(ScalarType::none, ScalarType::int64)),
          binary(Iterator::constant(), Iterator::reverse(), Iterator::discard())};
}

TEST(TransformIterator, EveryPlaceAndKindRoundTripsAndKeysDiffer) {
  const OperatorTable ops = {{"square_f", kSquare.source}, {"halve_f", kHalve.source}};
  test_support::check_iterator_specs(unary_specs(), ops);
  test_support::check_iterator_specs(binary_specs(), ops);
}

TEST(TransformIterator, SpecTextNamesEachInputAndTheOutput) {
  EXPECT_EQ(spec_text(binary({}, Iterator::counting(), Iterator::reverse())),
            "binary_transform in1=float32 in2=int64 out=float32 op=plus input2=counting "
            "output=reverse");
  auto parsed = parse_spec_text(
      "unary_transform in=float32 out=float32 op=negate input=transform(square_f) source='" +
      kSquare.source + "'");
  ASSERT_TRUE(parsed) << parsed.error().describe();
  auto spec = decode_fields<UnarySpec>(parsed->fields);
  ASSERT_TRUE(spec) << spec.error().describe();
  EXPECT_EQ(*spec, unary(Iterator::transform(kSquare)));
  // The operator's and an iterator's custom operators in one spec: a manifest's table.
  auto both =
      parse_spec_text("unary_transform in=float32 out=float32 op=halve_f input=transform(square_f)",
                      {{"square_f", kSquare.source}, {"halve_f", kHalve.source}});
  ASSERT_TRUE(both) << both.error().describe();
  auto both_spec = decode_fields<UnarySpec>(both->fields);
  ASSERT_TRUE(both_spec) << both_spec.error().describe();
  EXPECT_EQ(both_spec->op, kHalve);
  EXPECT_EQ(both_spec->inputs[0], Iterator::transform(kSquare));
}

TEST(TransformIterator, WhatATransformCannotTakeIsRefusedByField) {
  struct Case {
    UnarySpec unary_spec;
    BinarySpec binary_spec;
    bool use_binary;
    const char* field;
    ErrorCode code;
  };
  const Case cases[] = {
      {unary(Iterator::discard()), {}, false, "'input'", ErrorCode::unsupported},
      // A zip's items are structs: not over a scalar input.
      {unary(Iterator::zip({Iterator::array(ScalarType::float32)})),
       {},
       false,
       "'input'",
       ErrorCode::invalid_argument},
      {unary({}, Iterator::counting(ScalarType::int32)),
       {},
       false,
       "'output'",
       ErrorCode::unsupported},
      {unary({}, Iterator::constant()), {}, false, "'output'", ErrorCode::unsupported},
      {unary(Iterator::counting(ScalarType::float32)),
       {},
       false,
       "'input'",
       ErrorCode::invalid_argument},
      {unary(Iterator::permutation(ScalarType::none, ScalarType::float32)),
       {},
       false,
       "'input'",
       ErrorCode::invalid_argument},
      {{},
       binary({}, Iterator::transform(Operator::of(OpKind::bit_not), ScalarType::float32)),
       true,
       "'input2'",
       ErrorCode::invalid_argument},
      {{},
       binary(Iterator::counting(ScalarType::int32), Iterator::discard()),
       true,
       "'input2'",
       ErrorCode::unsupported},
      {{},
       binary({}, {}, Iterator::transform(kSquare, ScalarType::int32, true)),
       true,
       "'output'",
       ErrorCode::invalid_argument},
  };
  for (const Case& c : cases) {
    auto r = c.use_binary ? c.binary_spec.validate() : c.unary_spec.validate();
    SCOPED_TRACE(c.use_binary ? spec_text(c.binary_spec) : spec_text(c.unary_spec));
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, c.code) << r.error().message;
    EXPECT_NE(r.error().message.find(std::string("field ") + c.field), std::string::npos)
        << r.error().message;
  }
}

TEST(TransformIterator, TheKernelTakesTheIteratorsInPlaceOfTheArrays) {
  using Steps = detail::BuildSteps<BinaryTransform>;
  const auto arrays = Steps::source(binary({}, {}));
  ASSERT_EQ(arrays.kernels.size(), 1u);
  EXPECT_NE(arrays.kernels[0].find("cccl_cache_op, float*, const float*, const "),
            std::string::npos)
      << arrays.kernels[0];
  EXPECT_EQ(arrays.source.find("struct cccl_cache_in"), std::string::npos);

  const auto mixed =
      Steps::source(binary(Iterator::transform(kSquare), {},
                           Iterator::permutation(ScalarType::none, ScalarType::int32)));
  EXPECT_NE(mixed.kernels[0].find("cccl_cache_op, cccl_cache_out_t, cccl_cache_in0_t, const "),
            std::string::npos)
      << mixed.kernels[0];
  EXPECT_NE(mixed.source.find("struct cccl_cache_in0_t"), std::string::npos);
  EXPECT_NE(mixed.source.find("struct cccl_cache_out_t"), std::string::npos);
  EXPECT_EQ(mixed.source.find("struct cccl_cache_in1_t"), std::string::npos);
  // The selector sees the iterators too (CUB tunes non-contiguous inputs differently).
  EXPECT_NE(mixed.source.find("tuple<cccl_cache_in0_t, const "), std::string::npos);

  // One custom operator named by the operator and an iterator is defined once.
  UnarySpec twice = unary(Iterator::transform(kSquare), {}, kSquare);
  const auto once = detail::BuildSteps<UnaryTransform>::source(twice);
  const auto first = once.source.find("square_f(float x)");
  ASSERT_NE(first, std::string::npos);
  EXPECT_EQ(once.source.find("square_f(float x)", first + 1), std::string::npos);
}

// CUB launches its async kernels (ldgsts, ublkcp) over arrays only; the host dispatch
// relies on it (an iterator's stand-in is its packed bytes, not an aligned pointer).
template <class Spec>
void check_builds(const Spec& spec) {
  for (const std::uint32_t cc : {80u, 90u}) {
    SCOPED_TRACE(spec_text(spec) + " sm_" + std::to_string(cc));
    const auto& r = test_support::cached_build(spec, cc);
    ASSERT_TRUE(r) << r.error().describe();
    EXPECT_EQ(r->result.record.kernels.size(), 1u);
    bool input_iterator = false;
    for (const Iterator& it : spec.inputs) input_iterator = input_iterator || !it.is_pointer();
    if (input_iterator) {
      EXPECT_NE(r->result.policy.algorithm, transform_kernel::ldgsts);
      EXPECT_NE(r->result.policy.algorithm, transform_kernel::ublkcp);
    }
  }
}

TEST(TransformIterator, BuildsForSm80AndSm90) {
  check_builds(unary(Iterator::counting(ScalarType::int64)));
  check_builds(
      unary(Iterator::transform(kSquare), Iterator::transform(kHalve, ScalarType::float64)));
  check_builds(binary(Iterator::permutation(ScalarType::none, ScalarType::int32),
                      Iterator::counting(), Iterator::reverse()));
}

}  // namespace
