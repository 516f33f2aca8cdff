// Transform iterators with stateful operators without a GPU: spec bytes, text and keys
// (the state's layout keyed, its bytes not); the generated structs holding the operator
// and checking their layout; the call's state packed after the base and refused when
// missing.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "cccl_cache/algos/core/key.hpp"
#include "cccl_cache/algos/core/spec_codec.hpp"
#include "cccl_cache/algos/spec_text.hpp"
#include "core/iterator.hpp"
#include "stateful_iterator_specs.hpp"

using namespace cccl_cache;
using namespace cccl_cache::algos;
using namespace test_support;

namespace {

TEST(StatefulIterator, SpecsRoundTripAndTheStatesLayoutIsKeyed) {
  const OperatorTable ops = {{"affine", affine().source}, {"weighted", weighted().source},
                             {"scaled", scaled().source}};
  const auto a = affine_sum();
  const auto w = weighted_running_sum();
  const auto s = scaled_running_sum();
  for (const auto& [spec_text_of, text] :
       std::vector<std::pair<std::string, std::string>>{
           {spec_text(a), "input=transform(affine:16/8,counting(int64))"},
           {spec_text(w), "input=transform(weighted:8/4,zip(float32,float32))"},
           {spec_text(s), "output=transform(scaled:8/8,float64)"}}) {
    EXPECT_NE(spec_text_of.find(text), std::string::npos) << spec_text_of;
  }
  ASSERT_TRUE(a.validate()) << a.validate().error().describe();
  ASSERT_TRUE(w.validate()) << w.validate().error().describe();
  ASSERT_TRUE(s.validate()) << s.validate().error().describe();
  auto back = decode_fields<reduce::Spec>(encode_fields(a));
  ASSERT_TRUE(back) << back.error().describe();
  EXPECT_EQ(*back, a);
  auto parsed = parse_spec_text(spec_text(w), ops);
  ASSERT_TRUE(parsed) << parsed.error().describe();
  auto decoded = decode_fields<scan::InclusiveSpec>(parsed->fields);
  ASSERT_TRUE(decoded) << decoded.error().describe();
  EXPECT_EQ(*decoded, w);
  // The state's size and alignment are in the key; a stateless twin differs.
  auto other_layout = a;
  other_layout.input.op.state_alignment = 16;
  other_layout.input.op.state_size = 16;
  auto stateless = a;
  stateless.input.op = Operator::custom("affine", "__device__ long long affine(long long i) { return i; }");
  const std::vector<CacheKey> keys = {cache_key(a, 90, key_toolchain()), cache_key(other_layout, 90, key_toolchain()),
                                      cache_key(stateless, 90, key_toolchain())};
  EXPECT_NE(keys[0], keys[1]);
  EXPECT_NE(keys[0], keys[2]);
  EXPECT_NE(keys[1], keys[2]);
}

TEST(StatefulIterator, ABadStateLayoutIsRefusedByName) {
  auto spec = affine_sum();
  spec.input.op.state_alignment = 3;
  auto ok = spec.validate();
  ASSERT_FALSE(ok);
  EXPECT_NE(ok.error().message.find("'input'"), std::string::npos) << ok.error().message;
  EXPECT_NE(ok.error().message.find("alignment must be a power of two"), std::string::npos) << ok.error().message;
  // A state that overflows the iterator's 128-byte argument.
  spec.input.op = Operator::custom("affine", affine().source, 128, 8);
  ok = spec.validate();
  ASSERT_FALSE(ok);
  EXPECT_NE(ok.error().message.find("the iterator's state is 136 bytes, more than 128"), std::string::npos)
      << ok.error().message;
}

TEST(StatefulIterator, TheStructsHoldTheOperatorAndCheckTheirLayout) {
  const std::string in = detail::iterator_struct("it", affine_sum().input, ScalarType::int64);
  EXPECT_NE(in.find("  long start;\n  it_op op;\n"), std::string::npos) << in;
  EXPECT_NE(in.find("op(static_cast<long>(start + static_cast<long>(i)))"), std::string::npos) << in;
  EXPECT_NE(in.find("alignas(8) unsigned long long state[2];"), std::string::npos) << in;
  EXPECT_NE(in.find("static_assert(sizeof(it) == 24 && alignof(it) == 8"), std::string::npos) << in;
  EXPECT_NE(in.find(", op state 16/8 after the base at its alignment"), std::string::npos) << in;
  const std::string zip = detail::iterator_struct("it", weighted_running_sum().input, ScalarType::float32);
  EXPECT_NE(zip.find("  it_0 c0;\n  it_1 c1;\n  it_op op;\n"), std::string::npos) << zip;
  EXPECT_NE(zip.find("op(c0[i], c1[i])"), std::string::npos) << zip;
  EXPECT_NE(zip.find("static_assert(sizeof(it) == 24 && alignof(it) == 8"), std::string::npos) << zip;
  const std::string out = detail::output_iterator_struct("out", scaled_running_sum().output, ScalarType::int32);
  EXPECT_NE(out.find("  double* p;\n  out_op op;\n"), std::string::npos) << out;
  EXPECT_NE(out.find("    const out_op* op;\n"), std::string::npos) << out;
  EXPECT_NE(out.find("static_cast<double>((*op)(x))"), std::string::npos) << out;
  EXPECT_NE(out.find("reference{p + i, &op}"), std::string::npos) << out;
  EXPECT_NE(out.find("static_assert(sizeof(out) == 16 && alignof(out) == 8"), std::string::npos) << out;
  // A stateless operator's struct is as before state existed.
  const std::string plain =
      detail::iterator_struct("it", Iterator::transform(square_f(), ScalarType::float32), ScalarType::float32);
  EXPECT_NE(plain.find("it_op{}(p[i])"), std::string::npos) << plain;
  EXPECT_EQ(plain.find("static_assert(sizeof(it)"), std::string::npos) << plain;
}

TEST(StatefulIterator, TheCallsStateIsPackedAfterTheBase) {
  detail::IteratorArg arg;
  const Affine state{3, -7};
  const std::int64_t start = 11;
  const Iterator a = affine_sum().input;
  ASSERT_TRUE(detail::pack_iterator(a, ScalarType::int64,
                                    IteratorValue::of(IteratorKind::transform, start).with_state(&state), 100, arg));
  std::int64_t got_start = 0;
  Affine got{};
  std::memcpy(&got_start, arg.bytes, 8);
  std::memcpy(&got, arg.bytes + 8, sizeof got);
  EXPECT_EQ(got_start, 11);
  EXPECT_EQ(got.a, 3);
  EXPECT_EQ(got.b, -7);
  EXPECT_EQ(detail::argument_extent(a, ScalarType::int64).size, 24u);
  // Advancing moves the count and keeps the state.
  detail::advance_packed(a, ScalarType::int64, arg.bytes, 5);
  std::memcpy(&got_start, arg.bytes, 8);
  std::memcpy(&got, arg.bytes + 8, sizeof got);
  EXPECT_EQ(got_start, 16);
  EXPECT_EQ(got.a, 3);
  // A call without the state is refused.
  EXPECT_FALSE(detail::pack_iterator(a, ScalarType::int64, IteratorValue::of(IteratorKind::transform, start), 100, arg));
  // Over a zip of two float32 arrays: the components at 0 and 8, the weights at 16.
  alignas(8) static const float x[4] = {}, y[4] = {};
  const float weights[2] = {0.5f, 2.0f};
  const IteratorValue parts[] = {IteratorValue::array(x), IteratorValue::array(y)};
  const IteratorValue zip = IteratorValue::zip(parts, 2);
  ASSERT_TRUE(detail::pack_iterator(weighted_running_sum().input, ScalarType::float32,
                                    IteratorValue::transform_of(&zip).with_state(weights), 4, arg));
  const void* p[2] = {};
  float w[2] = {};
  std::memcpy(p, arg.bytes, sizeof p);
  std::memcpy(w, arg.bytes + 16, sizeof w);
  EXPECT_EQ(p[0], x);
  EXPECT_EQ(p[1], y);
  EXPECT_EQ(w[1], 2.0f);
  EXPECT_FALSE(detail::pack_iterator(weighted_running_sum().input, ScalarType::float32,
                                     IteratorValue::transform_of(&zip), 4, arg));
  // An output's state follows its array.
  const double k = 0.25;
  double out[4];
  ASSERT_TRUE(detail::pack_iterator(scaled_running_sum().output, ScalarType::int32,
                                    IteratorValue::transform(out).with_state(&k), 4, arg));
  double got_k = 0;
  std::memcpy(&got_k, arg.bytes + 8, sizeof got_k);
  EXPECT_EQ(got_k, 0.25);
}

}  // namespace
