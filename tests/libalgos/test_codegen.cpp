#include <gtest/gtest.h>

#include "cccl_cache/algos/merge_sort/build_result.hpp"
#include "merge_sort/codegen.hpp"

using namespace cccl_cache;
using namespace cccl_cache::algos;

namespace {
algos::detail::GeneratedSource generate_source(const merge_sort::Spec& s) {
  return algos::detail::BuildSteps<MergeSort>::source(s);
}
}  // namespace

TEST(MergeSortCodegen, NamesCubKernelsWithDispatchArguments) {
  merge_sort::Spec s;
  const auto keys = generate_source(s);
  ASSERT_EQ(keys.kernels.size(), 3u);
  EXPECT_EQ(
      keys.kernels[merge_sort::block_sort_kernel],
      "cub::detail::merge_sort::DeviceMergeSortBlockSortKernel<cccl_cache_selector, float*, "
      "cub::NullType*, "
      "float*, cub::NullType*, long, cccl_cache_compare, float, cub::NullType>");
  EXPECT_EQ(keys.kernels[merge_sort::partition_kernel],
            "cub::detail::merge_sort::DeviceMergeSortPartitionKernel<float*, long, "
            "cccl_cache_compare, float>");
  EXPECT_EQ(
      keys.kernels[merge_sort::merge_kernel],
      "cub::detail::merge_sort::DeviceMergeSortMergeKernel<cccl_cache_selector, float*, "
      "cub::NullType*, "
      "float*, cub::NullType*, long, cccl_cache_compare, float, cub::NullType>");
  EXPECT_EQ(keys.policy_probe.rfind("cccl_cache_policy_probe<", 0), 0u);
  EXPECT_NE(keys.source.find("#include <cub/device/dispatch/kernels/kernel_merge_sort.cuh>"),
            std::string::npos);
  // CUB's own default selector for DeviceMergeSort, so the kernels are CUB's.
  EXPECT_NE(keys.source.find("using cccl_cache_selector = "
                             "cub::detail::merge_sort::policy_selector_from_types<cccl_cache_key_t*>"),
            std::string::npos);
  // The version check comes before any CUB header.
  const auto check = keys.source.find("static_assert(CCCL_VERSION == 3005000");
  EXPECT_NE(check, std::string::npos);
  EXPECT_LT(check, keys.source.find("#include <cub/"));
  EXPECT_EQ(keys.source.find("dispatch_merge_sort.cuh"), std::string::npos);
  EXPECT_NE(keys.source.find("return a < b;"), std::string::npos);

  s.value_type = ScalarType::int32;
  s.key_type = ScalarType::uint64;
  s.offset_type = ScalarType::uint32;
  s.comparator = Comparator::greater();
  const auto pairs = generate_source(s);
  EXPECT_NE(
      pairs.kernels[merge_sort::block_sort_kernel].find("<cccl_cache_selector, unsigned long*, "
                                                  "::cuda::std::int32_t*, unsigned long*, "
                                                  "::cuda::std::int32_t*, ::cuda::std::uint32_t, "
                                                  "cccl_cache_compare, unsigned long, "
                                                  "::cuda::std::int32_t>"),
      std::string::npos);
  EXPECT_NE(pairs.source.find("return b < a;"), std::string::npos);
}

TEST(MergeSortCodegen, PastesCustomComparatorSource) {
  merge_sort::Spec s;
  s.comparator = Comparator::custom(
      "abs_less", "__device__ bool abs_less(float a, float b) { return fabsf(a) < fabsf(b); }");
  const auto gen = generate_source(s);
  EXPECT_NE(gen.source.find(s.comparator.source), std::string::npos);
  EXPECT_NE(gen.source.find("abs_less(a, b)"), std::string::npos);
  EXPECT_LT(gen.source.find(s.comparator.source), gen.source.find("struct cccl_cache_compare"));
}

TEST(PolicyProbe, ParsesPackAndPlainTemplateArguments) {
  using algos::detail::parse_policy_probe;
  auto p = parse_policy_probe("_Z23cccl_cache_policy_probeIJLy256ELy4352ELy0ELy0EEEvv");
  ASSERT_TRUE(p) << p.error().message;
  EXPECT_EQ(*p, (std::vector<std::uint64_t>{256, 4352, 0, 0}));
  auto v = parse_policy_probe("_Z23cccl_cache_policy_probeILi64ELi64ELy49152ELm1234EEvv");
  ASSERT_TRUE(v) << v.error().message;
  EXPECT_EQ(*v, (std::vector<std::uint64_t>{64, 64, 49152, 1234}));
  auto none = parse_policy_probe("_Z23cccl_cache_policy_probeIJEEvv");
  ASSERT_TRUE(none) << none.error().message;
  EXPECT_TRUE(none->empty());
}

TEST(PolicyProbe, RejectsMalformedNames) {
  for (const char* bad :
       {"", "_Z", "cccl_cache_policy_probe", "_Z22cccl_cache_policy_probeILi256ELi4352ELy0ELy0EEvv",
        "_Z23cccl_cache_policy_prob3ILi256ELi4352ELy0ELy0EEvv",
        "_Z23cccl_cache_policy_probeILin256ELi4352ELy0ELy0EEvv",
        "_Z23cccl_cache_policy_probeILi256ELi4352ELy0ELy0EEv",
        "_Z23cccl_cache_policy_probeILi256ELi4352ELy0ELy0EEvvx",
        "_Z23cccl_cache_policy_probeIJLy256ELy4352EEvv",
        "_Z23cccl_cache_policy_probeILf256ELi4352ELy0ELy0EEvv",
        "_Z23cccl_cache_policy_probeILi256ELi4352ELy0ELy99999999999999999999EEvv",
        "_Z999cccl_cache_policy_probe"}) {
    auto p = algos::detail::parse_policy_probe(bad);
    ASSERT_FALSE(p) << bad;
    EXPECT_EQ(p.error().code, ErrorCode::internal) << bad;
  }
}

TEST(MergeSortPolicy, ValuesRoundTripAndImplausibleShapesAreRejected) {
  const merge_sort::Policy p{256, 4352, 0, 7};
  const auto values = policy_values(p);
  EXPECT_EQ(values, (std::vector<std::uint64_t>{256, 4352, 0, 7}));
  auto back = policy_from_values<merge_sort::Policy>(values);
  ASSERT_TRUE(back);
  EXPECT_EQ(*back, p);
  EXPECT_FALSE(policy_from_values<merge_sort::Policy>(std::vector<std::uint64_t>{256, 4352, 0}));
  EXPECT_FALSE(policy_from_values<merge_sort::Policy>(
      std::vector<std::uint64_t>{1ull << 40, 4352, 0, 0}));  // does not fit u32
  BuildRecordView record;
  for (const auto& shape : {merge_sort::Policy{0, 4352, 0, 0}, merge_sort::Policy{256, 4353, 0, 0},
                            merge_sort::Policy{2048, 4096, 0, 0}}) {
    auto r = MergeSort::check(merge_sort::Spec{}, shape, record);
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("policy"), std::string::npos);
  }
}
