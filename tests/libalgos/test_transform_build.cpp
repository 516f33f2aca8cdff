// Unary and binary transform, CPU side: spec validation and text, builds for sm_80 and
// sm_90 with the kernel and policy CUB's DeviceTransform would use, and the record
// checks. Builds are shared through build_cache.hpp.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "build_cache.hpp"
#include "cccl_cache/algos/registry.hpp"
#include "cccl_cache/algos/transform/build_result.hpp"
#include "transform/codegen.hpp"

using namespace cccl_cache;
using namespace cccl_cache::algos;
using transform::BinarySpec;
using transform::UnarySpec;
using test_support::cached_build;

namespace {

UnarySpec unary(ScalarType in, ScalarType out, Operator op) { return {{in}, out, std::move(op)}; }
BinarySpec binary(ScalarType a, ScalarType b, ScalarType out, Operator op) {
  return {{a, b}, out, std::move(op)};
}

template <class Spec>
void expect_invalid(const Spec& s, const std::string& field) {
  auto ok = s.validate();
  ASSERT_FALSE(ok) << spec_text(s);
  EXPECT_EQ(ok.error().code, ErrorCode::invalid_argument);
  EXPECT_NE(ok.error().message.find(": " + field + ": "), std::string::npos) << ok.error().message;
}

TEST(TransformSpec, RejectsBadSpecsNamingTheField) {
  const auto f32 = ScalarType::float32;
  expect_invalid(unary(ScalarType::none, f32, Operator::of(OpKind::negate)), "in");
  expect_invalid(unary(f32, ScalarType::none, Operator::of(OpKind::negate)), "out");
  expect_invalid(unary(f32, static_cast<ScalarType>(99), Operator::of(OpKind::negate)), "out");
  expect_invalid(unary(f32, f32, Operator::plus()), "op");
  expect_invalid(unary(f32, f32, Operator::less()), "op");
  expect_invalid(binary(f32, f32, f32, Operator::of(OpKind::negate)), "op");
  expect_invalid(binary(f32, ScalarType::none, f32, Operator::plus()), "in2");
  expect_invalid(binary(f32, f32, f32, Operator::of(OpKind::bit_xor)), "op");
  expect_invalid(binary(ScalarType::int32, ScalarType::int32, ScalarType::float16,
                        Operator::of(OpKind::bit_and)),
                 "out");
  expect_invalid(binary(ScalarType::float16, ScalarType::float16, ScalarType::float16,
                        Operator::of(OpKind::bit_and)),
                 "op");
  expect_invalid(binary(ScalarType::float16, f32, f32, Operator::plus()), "in1");
  expect_invalid(unary(ScalarType::bfloat16, ScalarType::float16, Operator::of(OpKind::identity)),
                 "in");
  expect_invalid(binary(f32, f32, f32, Operator::custom("cccl_cache_x", "int x;")), "op");
  expect_invalid(binary(f32, f32, f32, Operator::custom("f", "  ")), "op");
}

TEST(TransformSpec, AcceptsEveryTypeAndKindThatApplies) {
  for (auto t : {ScalarType::int8, ScalarType::int16, ScalarType::int32, ScalarType::int64,
                 ScalarType::uint8, ScalarType::uint16, ScalarType::uint32, ScalarType::uint64,
                 ScalarType::float16, ScalarType::bfloat16, ScalarType::float32, ScalarType::float64}) {
    // Every well-known kind: the unary ones in a unary transform, the rest (all but
    // custom) in a binary one; the bitwise kinds and modulus on integer types only.
    for (int k = static_cast<int>(OpKind::less); k <= static_cast<int>(OpKind::bit_not); ++k) {
      const auto kind = static_cast<OpKind>(k);
      if (kind == OpKind::custom) continue;
      const bool integer_only = kind == OpKind::bit_and || kind == OpKind::bit_or ||
                                kind == OpKind::bit_xor || kind == OpKind::bit_not ||
                                kind == OpKind::modulus;
      const bool unary_kind = kind == OpKind::identity || kind == OpKind::negate ||
                              kind == OpKind::logical_not || kind == OpKind::bit_not;
      const bool ok = !integer_only || !is_float(t);
      EXPECT_EQ(static_cast<bool>(unary(t, t, Operator::of(kind)).validate()), unary_kind && ok)
          << name(t) << " " << op_kind_name(kind);
      EXPECT_EQ(static_cast<bool>(binary(t, t, t, Operator::of(kind)).validate()), !unary_kind && ok)
          << name(t) << " " << op_kind_name(kind);
    }
  }
  EXPECT_TRUE(binary(ScalarType::int32, ScalarType::float32, ScalarType::float64,
                     Operator::of(OpKind::multiplies)).validate());
  EXPECT_TRUE(unary(ScalarType::int64, ScalarType::int8, Operator::custom("f", "__device__ int f(long long x) { return x; }")).validate());
}

TEST(TransformSpec, TextNamesEveryField) {
  EXPECT_EQ(spec_text(UnarySpec{}), "unary_transform in=float32 out=float32 op=identity");
  EXPECT_EQ(spec_text(BinarySpec{}), "binary_transform in1=float32 in2=float32 out=float32 op=plus");
  const auto* entry = find_algorithm("binary_transform");
  ASSERT_NE(entry, nullptr);
  auto any = entry->from_text({{"in1", "int64", {}}, {"in2", "int8", {}}, {"out", "int64", {}},
                               {"op", "bit_or", {}}});
  ASSERT_TRUE(any) << any.error().describe();
  auto spec = decode_fields<BinarySpec>(any->fields);
  ASSERT_TRUE(spec) << spec.error().describe();
  EXPECT_EQ(*spec, binary(ScalarType::int64, ScalarType::int8, ScalarType::int64,
                          Operator::of(OpKind::bit_or)));
  // A wrong kind for the arity is named, through the registry too.
  auto bad = entry->from_text({{"in1", "int64", {}}, {"in2", "int8", {}}, {"out", "int64", {}},
                               {"op", "negate", {}}});
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("op"), std::string::npos);
}

TEST(TransformCodegen, NamesTheKernelDeviceTransformInstantiates) {
  auto gen = algos::detail::BuildSteps<BinaryTransform>::source(
      binary(ScalarType::int32, ScalarType::float32, ScalarType::float64, Operator::plus()));
  ASSERT_EQ(gen.kernels.size(), 1u);
  EXPECT_EQ(gen.kernels[0],
            "cub::detail::transform::transform_kernel<cccl_cache_selector, long, "
            "::cuda::always_true, cccl_cache_op, double*, const ::cuda::std::int32_t*, const float*>");
  EXPECT_NE(gen.source.find("policy_selector_from_types<false, true, ::cuda::std::tuple<const "
                            "::cuda::std::int32_t*, const float*>, double*>"),
            std::string::npos);
  EXPECT_NE(gen.source.find("struct cccl_cache_op : ::cuda::std::plus<> {};"), std::string::npos);
}

struct BuildCase {
  const char* what;
  std::uint32_t cc;
  std::uint32_t algorithm;  // CUB's choice for the types and CC
};

template <int N>
void expect_build(const transform::Spec<N>& spec, const BuildCase& c) {
  SCOPED_TRACE(std::string(c.what) + " sm_" + std::to_string(c.cc));
  const auto& r = cached_build(spec, c.cc);
  ASSERT_TRUE(r) << r.error().describe();
  const auto& built = r->result;
  EXPECT_EQ(built.record.algorithm, N == 1 ? AlgorithmId::unary_transform : AlgorithmId::binary_transform);
  EXPECT_EQ(built.record.cc, c.cc);
  ASSERT_EQ(built.record.kernels.size(), 1u);
  EXPECT_NE(built.record.kernels[0].find("16transform_kernel"), std::string::npos);
  EXPECT_EQ(built.policy.algorithm, c.algorithm);
  EXPECT_EQ(built.policy.block_threads, 256u);
  // The stored form passes every check (launch bounds from the cubin included).
  auto back = deserialize<Transform<N>>(serialize(built), c.cc);
  ASSERT_TRUE(back) << back.error().describe();
  EXPECT_EQ(back->policy, built.policy);
}

TEST(TransformBuild, Sm80AndSm90UseCubsAlgorithms) {
  const auto f32 = ScalarType::float32;
  expect_build(UnarySpec{}, {"unary identity float32", 90, transform_kernel::ublkcp});
  expect_build(BinarySpec{}, {"binary plus float32", 90, transform_kernel::ublkcp});
  expect_build(binary(f32, f32, f32, Operator::plus()), {"binary plus float32", 80, transform_kernel::ldgsts});
  expect_build(unary(f32, f32, Operator::of(OpKind::negate)), {"unary negate float32", 80, transform_kernel::ldgsts});
  // Hopper: 1- and 2-byte binary transforms use the vectorized kernel.
  expect_build(binary(ScalarType::int8, ScalarType::int8, ScalarType::int8, Operator::of(OpKind::bit_xor)),
               {"binary bit_xor int8", 90, transform_kernel::vectorized});
}

TEST(TransformBuild, ALaunchBoundOtherThanThePolicysIsCorrupt) {
  const auto& r = cached_build(BinarySpec{}, 90);
  ASSERT_TRUE(r) << r.error().describe();
  BuildRecord record = r->result.record;
  record.values[0] = transform_kernel::vectorized;  // block_threads stays 256: plausible
  record.values[7] = 128;                    // vectorized threads: now not the launch bound
  record.values[1] = 128;
  auto back = deserialize<BinaryTransform>(serialize_record(record), 90);
  ASSERT_FALSE(back);
  EXPECT_EQ(back.error().code, ErrorCode::corrupt);
  EXPECT_NE(back.error().message.find("launch bounds"), std::string::npos) << back.error().message;
  record = r->result.record;
  record.cc = 80;  // ublkcp needs sm_90
  EXPECT_FALSE(typed_view<BinaryTransform>(view_of(record)));
}

}  // namespace

#include "core/codegen_digest.hpp"
#include "core/dispatch_abi.hpp"
#include "transform/dispatch.hpp"

namespace {

// The extra NVRTC option is part of the codegen digest (so of every key).
TEST(TransformCodegen, NvrtcOptionsAreInTheDigest) {
  auto gen = algos::detail::BuildSteps<UnaryTransform>::source(UnarySpec{});
  ASSERT_EQ(gen.nvrtc_options, std::vector<std::string>{"-default-device"});
  const auto with = algos::detail::digest_of(gen);
  EXPECT_EQ(UnaryTransform::codegen_digest(UnarySpec{}), with);
  gen.nvrtc_options.clear();
  EXPECT_NE(algos::detail::digest_of(gen), with);
}

}  // namespace

namespace {

// The combinations that need more than CUB's float32 path (16-bit floats, conversions
// between in and out types, custom operators) compile with NVRTC.
TEST(TransformBuild, SixteenBitFloatsMixedTypesAndCustomOperatorsCompile) {
  using S = ScalarType;
  std::vector<std::string> failed;
  auto check = [&](const auto& spec) {
    const auto& r = cached_build(spec, 90);
    if (!r) failed.push_back(spec_text(spec) + ": " + r.error().message.substr(0, 600));
  };
  for (S t : {S::float16, S::bfloat16}) {
    check(unary(t, t, Operator::of(OpKind::negate)));
    check(binary(t, t, t, Operator::of(OpKind::multiplies)));
  }
  check(binary(S::bfloat16, S::bfloat16, S::bfloat16, Operator::of(OpKind::maximum)));
  check(binary(S::float32, S::float32, S::float32, Operator::of(OpKind::logical_and)));
  check(binary(S::int32, S::float32, S::float64, Operator::of(OpKind::multiplies)));
  check(unary(S::int64, S::int8, Operator::of(OpKind::identity)));
  // The kinds beyond reductions' (comparisons, 16-bit floats included, and into an integer).
  check(binary(S::float16, S::float16, S::float16, Operator::of(OpKind::less_equal)));
  check(binary(S::bfloat16, S::bfloat16, S::bfloat16, Operator::of(OpKind::not_equal_to)));
  check(binary(S::float64, S::float64, S::int32, Operator::of(OpKind::greater)));
  check(binary(S::int32, S::int32, S::int32, Operator::of(OpKind::modulus)));
  check(binary(S::float32, S::float32, S::float32, Operator::of(OpKind::divides)));
  check(unary(S::float16, S::float16, Operator::of(OpKind::logical_not)));
  check(unary(S::uint16, S::uint16, Operator::of(OpKind::bit_not)));
  check(binary(S::int32, S::int32, S::int64,
               Operator::custom("sat_diff", "__device__ long long sat_diff(int a, int b) { return a > b ? (long long)a - b : 0; }")));
  for (const auto& f : failed) ADD_FAILURE() << f;
}

}  // namespace
