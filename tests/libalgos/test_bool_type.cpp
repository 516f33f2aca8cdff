// bool as an element type without a GPU: its name, size and spelling; spec
// text and encoding round trips and keys apart from uint8's; which operators and iterators
// apply to it (each refusal naming the reason); histogram's refusal.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cccl_cache/algos/core/key.hpp"
#include "cccl_cache/algos/core/spec_codec.hpp"
#include "cccl_cache/algos/histogram_even/spec.hpp"
#include "cccl_cache/algos/algorithms.hpp"
#include "cccl_cache/algos/spec_text.hpp"
#include "bool_specs.hpp"
#include "iterator_specs.hpp"

using namespace cccl_cache;
using namespace cccl_cache::algos;
using test_support::bools::kBool;

namespace {

template <class Spec>
void expect_refused(const Spec& spec, const std::string& says) {
  SCOPED_TRACE(spec_text(spec));
  const auto r = spec.validate();
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find(says), std::string::npos) << r.error().message;
}

TEST(BoolType, IsOneByteSpelledBool) {
  EXPECT_EQ(name(kBool), "bool");
  EXPECT_EQ(size_of(kBool), 1u);
  EXPECT_EQ(cuda_name(kBool), "bool");
  EXPECT_EQ(parse_scalar_type("bool"), kBool);
  EXPECT_TRUE(is_element_type(kBool));
  EXPECT_FALSE(is_float(kBool));
  EXPECT_FALSE(is_offset_type(kBool));
}

TEST(BoolType, SpecsRoundTripAndTheirKeysDifferFromUint8s) {
  const Toolchain tc = test_support::key_toolchain();
  auto check = [&](const auto& spec, auto with_uint8) {
    SCOPED_TRACE(spec_text(spec));
    ASSERT_TRUE(spec.validate()) << spec.validate().error().describe();
    auto parsed = parse_spec_text(spec_text(spec));
    ASSERT_TRUE(parsed) << parsed.error().describe();
    EXPECT_EQ(*parsed, to_any(spec));
    using Spec = std::decay_t<decltype(spec)>;
    auto back = decode_fields<Spec>(encode_fields(spec));
    ASSERT_TRUE(back) << back.error().describe();
    EXPECT_EQ(*back, spec);
    Spec other = spec;
    with_uint8(other);
    ASSERT_TRUE(other.validate()) << spec_text(other);
    EXPECT_NE(cache_key(spec, 90, tc), cache_key(other, 90, tc)) << spec_text(other);
  };
  namespace b = test_support::bools;
  check(b::less_mask(), [](auto& s) { s.out = ScalarType::uint8; });
  check(b::all_of(), [](auto& s) { s.type = ScalarType::uint8; });
  check(b::seen_yet(), [](auto& s) { s.type = ScalarType::uint8; });
  check(b::radix_by_flag(), [](auto& s) { s.key_type = ScalarType::uint8; });
  check(b::merge_trues_first(), [](auto& s) { s.key_type = ScalarType::uint8; });
  check(b::keep_trues(), [](auto& s) { s.type = ScalarType::uint8; });
  check(b::flag_runs(), [](auto& s) { s.key_type = ScalarType::uint8; });
  check(b::first_true(), [](auto& s) { s.type = ScalarType::uint8; });
  EXPECT_EQ(spec_text(b::all_of()), "reduce type=bool op=logical_and offset=uint64");
}

TEST(BoolType, ArithmeticThatLeavesZeroAndOneIsRefusedByName) {
  // Logical, bitwise, min/max, plus and comparisons apply (plus accumulates in int).
  for (const OpKind k : {OpKind::logical_and, OpKind::logical_or, OpKind::bit_and, OpKind::bit_or,
                         OpKind::bit_xor, OpKind::minimum, OpKind::maximum, OpKind::plus,
                         OpKind::multiplies})
    EXPECT_TRUE((reduce::Spec{kBool, Operator::of(k)}.validate())) << op_kind_name(k);
  auto binary = test_support::bools::less_mask();
  for (const OpKind k : {OpKind::less, OpKind::equal_to, OpKind::not_equal_to, OpKind::logical_and}) {
    binary.in = {kBool, kBool};
    binary.op = Operator::of(k);
    EXPECT_TRUE(binary.validate()) << op_kind_name(k);
  }
  for (const OpKind k : {OpKind::minus, OpKind::divides, OpKind::modulus}) {
    binary.op = Operator::of(k);
    expect_refused(binary, std::string(op_kind_name(k)) + " does not apply to bool");
  }
  transform::Spec<1> unary;
  unary.in = {kBool};
  unary.out = kBool;
  unary.op = Operator::of(OpKind::logical_not);
  EXPECT_TRUE(unary.validate());
  for (const OpKind k : {OpKind::negate, OpKind::bit_not}) {
    unary.op = Operator::of(k);
    expect_refused(unary, std::string(op_kind_name(k)) + " does not apply to bool");
  }
  // A custom operator on bool is the user's to define.
  unary.op = Operator::custom("flip", "__device__ bool flip(bool x) { return !x; }");
  EXPECT_TRUE(unary.validate());
}

TEST(BoolType, IteratorsReadAndWriteItButDoNotCountInIt) {
  using test_support::over;
  EXPECT_TRUE(over<reduce::Spec>(kBool, Iterator::constant()).validate());
  EXPECT_TRUE(over<reduce::Spec>(kBool, Iterator::reverse()).validate());
  EXPECT_TRUE(over<reduce::Spec>(kBool, Iterator::permutation(ScalarType::none, ScalarType::int32)).validate());
  EXPECT_TRUE(over<reduce::Spec>(kBool, Iterator::transform(Operator::of(OpKind::logical_not)))
                  .validate());
  expect_refused(over<reduce::Spec>(kBool, Iterator::counting()),
                 "counts in an integer type, not bool");
  expect_refused(over<reduce::Spec>(kBool, Iterator::shuffle()), "an integer type, not bool");
  expect_refused(over<reduce::Spec>(kBool, Iterator::transform(Operator::of(OpKind::negate))),
                 "negate does not apply to bool");
  // A transform reading int32 into bool (a mask from a comparison with a constant).
  reduce::Spec any_positive = over<reduce::Spec>(
      kBool, Iterator::transform(Operator::custom("positive", "__device__ bool positive(int x) { return x > 0; }"),
                                 ScalarType::int32));
  EXPECT_TRUE(any_positive.validate()) << any_positive.validate().error().describe();
}

TEST(BoolType, HistogramAndOffsetsRefuseIt) {
  histogram_even::Spec h;
  h.type = kBool;
  expect_refused(h, "field 'type'");
  h.type = ScalarType::int32;
  h.level_type = kBool;
  expect_refused(h, "field 'level'");
  expect_refused(reduce::Spec{ScalarType::float32, Operator::plus(), kBool}, "offset");
  auto sort = parse_spec_text("radix_sort keys=bool values=int32");
  ASSERT_TRUE(sort) << sort.error().describe();
  EXPECT_EQ(*sort, to_any(test_support::bools::radix_by_flag()));
}

}  // namespace
