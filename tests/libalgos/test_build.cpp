#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>

#include "build_cache.hpp"
#include "cccl_cache/algos/merge_sort/build_result.hpp"
#include "elf.hpp"
#include "merge_sort/codegen.hpp"
#include "nvrtc_compile.hpp"

using namespace cccl_cache;
using namespace cccl_cache::algos;
using merge_sort::Spec;
using test_support::cached_build;

constexpr std::uint32_t CCCL_VERSION_OF_PIN = 3005000;

namespace {

bool has_symbol(const algos::detail::ElfInfo& elf, const std::string& name) {
  return std::find(elf.symbols.begin(), elf.symbols.end(), name) != elf.symbols.end();
}

void expect_kernels(const merge_sort::BuildResult& r, std::uint32_t cc) {
  auto elf = algos::detail::read_elf(r.record.cubin);
  ASSERT_TRUE(elf) << elf.error().message;
  EXPECT_EQ(elf->machine, algos::detail::kElfMachineCuda);
  EXPECT_EQ(elf->sm, cc);
  ASSERT_EQ(r.record.kernels.size(), 3u);
  for (const auto& name : r.record.kernels) EXPECT_TRUE(has_symbol(*elf, name)) << name;
  EXPECT_NE(r.record.kernels[merge_sort::block_sort_kernel].find("DeviceMergeSortBlockSortKernel"),
            std::string::npos);
  EXPECT_NE(r.record.kernels[merge_sort::partition_kernel].find("DeviceMergeSortPartitionKernel"),
            std::string::npos);
  EXPECT_NE(r.record.kernels[merge_sort::merge_kernel].find("DeviceMergeSortMergeKernel"),
            std::string::npos);
  // The probe was not kept.
  for (const auto& s : elf->symbols)
    EXPECT_EQ(s.find("cccl_cache_policy_probe"), std::string::npos) << s;
}

Spec pairs_spec() {
  Spec s;
  s.key_type = ScalarType::int64;
  s.value_type = ScalarType::int32;
  s.offset_type = ScalarType::uint32;
  s.comparator = Comparator::greater();
  return s;
}

}  // namespace

TEST(MergeSortBuild, FloatKeysForSm90HaveKernelsAndPolicy) {
  const auto& r = cached_build(Spec{}, 90);
  ASSERT_TRUE(r) << r.error().describe();
  expect_kernels(r->result, 90);
  EXPECT_EQ(r->result.record.cc, 90u);
  EXPECT_EQ(r->result.spec, Spec{});
  EXPECT_EQ(r->result.record.algorithm, AlgorithmId::merge_sort);
  EXPECT_EQ(r->result.record.spec, encode_fields(Spec{}));
  EXPECT_EQ(r->result.record.toolchain, Toolchain::current().fingerprint("merge_sort"));
  // CUB's Policy600 for 4-byte keys: 256 threads x 17 items, fits in shared memory.
  EXPECT_EQ(r->result.policy, (merge_sort::Policy{256, 4352, 0, 0}));
  EXPECT_GT(r->ltoir_bytes, 0u);
}

TEST(MergeSortBuild, FloatKeysForSm80HaveKernelsAndPolicy) {
  const auto& r = cached_build(Spec{}, 80);
  ASSERT_TRUE(r) << r.error().describe();
  expect_kernels(r->result, 80);
  EXPECT_EQ(r->result.policy, (merge_sort::Policy{256, 4352, 0, 0}));
}

TEST(MergeSortBuild, PairsWithWideKeysScaleItemsPerThread) {
  const auto& r = cached_build(pairs_spec(), 90);
  ASSERT_TRUE(r) << r.error().describe();
  expect_kernels(r->result, 90);
  // Nominal4BItemsToItems<int64>(17) = 17 * 4 / 8 = 8 items per thread.
  EXPECT_EQ(r->result.policy.block_threads, 256u);
  EXPECT_EQ(r->result.policy.items_per_tile, 256u * 8u);
  EXPECT_NE(r->result.record.kernels[0], cached_build(Spec{}, 90)->result.record.kernels[0]);
}

TEST(MergeSortBuild, CustomComparatorBuilds) {
  Spec s;
  s.comparator = Comparator::custom(
      "abs_less", "__device__ bool abs_less(float a, float b) { return fabsf(a) < fabsf(b); }");
  const auto& r = cached_build(s, 90);
  ASSERT_TRUE(r) << r.error().describe();
  expect_kernels(r->result, 90);
}

TEST(MergeSortBuild, BadCustomSourceIsACompileErrorWithTheLog) {
  Spec s;
  s.comparator = Comparator::custom(
      "broken", "__device__ bool broken(float a, float b) { return a < undeclared_thing; }");
  auto r = merge_sort::build(s, 90);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::compile);
  EXPECT_NE(r.error().message.find("undeclared_thing"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("operator("), std::string::npos)
      << r.error().message;  // the #line file name
}

TEST(MergeSortBuild, RejectsBadSpecsAndTargets) {
  Spec bad;
  bad.key_type = ScalarType::none;
  EXPECT_EQ(merge_sort::build(bad, 90).error().code, ErrorCode::invalid_argument);
  EXPECT_EQ(merge_sort::build(Spec{}, 49).error().code, ErrorCode::unsupported);
  EXPECT_EQ(merge_sort::build(Spec{}, 121).error().code, ErrorCode::unsupported);
  EXPECT_EQ(merge_sort::build(Spec{}, 0).error().code, ErrorCode::unsupported);
  // In range but not a real target of this NVRTC.
  EXPECT_EQ(merge_sort::build(Spec{}, 91).error().code, ErrorCode::unsupported);
}

// Our cubin must stay within 1.1x of what nvcc emits for the same kernels.
TEST(MergeSortBuild, CubinIsWithinTenPercentOfNvcc) {
  const char* nvcc = "/usr/local/cuda/bin/nvcc";
  if (!std::filesystem::exists(nvcc)) GTEST_SKIP() << "no nvcc at " << nvcc;
  const auto& r = cached_build(Spec{}, 90);
  ASSERT_TRUE(r) << r.error().describe();

  const auto dir =
      std::filesystem::temp_directory_path() / ("cccl_cache_nvcc_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto gen = cccl_cache::algos::detail::BuildSteps<MergeSort>::source(Spec{});
  {
    // Same kernels, CUB's own headers, no NVRTC workarounds: nvcc instantiates
    // them because their addresses are taken.
    std::ofstream cu(dir / "ref.cu");
    cu << "#include <cub/device/dispatch/kernels/kernel_merge_sort.cuh>\n"
          "using cccl_cache_key_t = float;\n"
          "struct cccl_cache_compare { __device__ bool operator()(const float& a, const float& b) "
          "const { return a < b; } };\n"
          "using cccl_cache_selector = "
          "cub::detail::merge_sort::policy_selector_from_types<float*>;\n"
          "void* cccl_cache_kernels[] = {\n";
    for (const auto& kernel : gen.kernels) cu << "  (void*)&" << kernel << ",\n";
    cu << "};\n";
  }
  const std::string include = algos::detail::cccl_include_dir();  // the pinned CCCL
  const std::string cmd = std::string(nvcc) +
                          " -cubin -arch=sm_90 -std=c++20 -DCUB_DISABLE_CDP -I" + include +
                          " -o " + (dir / "ref.cubin").string() + " " +
                          (dir / "ref.cu").string() + " > " + (dir / "log.txt").string() + " 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  const auto nvcc_bytes = std::filesystem::file_size(dir / "ref.cubin");
  std::ifstream ref(dir / "ref.cubin", std::ios::binary);
  std::vector<char> ref_bytes((std::istreambuf_iterator<char>(ref)),
                              std::istreambuf_iterator<char>());
  auto ref_elf = algos::detail::read_elf(std::as_bytes(std::span(ref_bytes)));
  ASSERT_TRUE(ref_elf);
  // The same kernels, really (names differ only where int64_t is `long` for nvcc's
  // host pass and `long long` under NVRTC).
  for (const char* kernel : {"DeviceMergeSortBlockSortKernel", "DeviceMergeSortPartitionKernel",
                             "DeviceMergeSortMergeKernel"}) {
    EXPECT_TRUE(std::any_of(ref_elf->symbols.begin(), ref_elf->symbols.end(),
                            [&](const std::string& s) {
                              return s.find(kernel) != std::string::npos &&
                                     s.find("18cccl_cache_compare") != std::string::npos;
                            }))
        << "nvcc's cubin lacks " << kernel;
  }
  std::filesystem::remove_all(dir);
  const double ratio =
      static_cast<double>(r->result.record.cubin.size()) / static_cast<double>(nvcc_bytes);
  RecordProperty("ours_bytes", std::to_string(r->result.record.cubin.size()));
  RecordProperty("nvcc_bytes", std::to_string(nvcc_bytes));
  std::printf("cubin sizes: ours %zu bytes, nvcc %ju bytes, ratio %.3f\n", r->result.record.cubin.size(),
              static_cast<std::uintmax_t>(nvcc_bytes), ratio);
  EXPECT_LE(ratio, 1.1);
}

// NVRTC straight to a cubin keeps every module-scope variable CCCL's headers made
// (743 symbols, 199 KB with CCCL 3.5; over a thousand with 3.0.1); the LTO link keeps
// the kernels and what they use (19 symbols, 83 KB).
TEST(MergeSortBuild, LtoLinkDropsTheUnusedVariablesOfTheNaiveCubin) {
  const auto& r = cached_build(Spec{}, 90);
  ASSERT_TRUE(r) << r.error().describe();
  auto naive = algos::detail::build_naive_cubin<MergeSort>(Spec{}, 90);
  ASSERT_TRUE(naive) << naive.error().describe();
  auto naive_elf = algos::detail::read_elf(*naive);
  auto ours_elf = algos::detail::read_elf(r->result.record.cubin);
  ASSERT_TRUE(naive_elf && ours_elf);
  std::printf("cubin sizes: NVRTC straight to cubin %zu bytes (%zu symbols), ours %zu bytes "
              "(%zu symbols); LTO IR %zu bytes\n",
              naive->size(), naive_elf->symbols.size(), r->result.record.cubin.size(),
              ours_elf->symbols.size(), r->ltoir_bytes);
  EXPECT_GT(naive_elf->symbols.size(), 500u);
  EXPECT_LT(ours_elf->symbols.size(), 100u);
  EXPECT_LT(r->result.record.cubin.size() * 2, naive->size());
}

namespace {

// Sets an environment variable for one scope.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    ::setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (old_) ::setenv(name_, old_->c_str(), 1);
    else ::unsetenv(name_);
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

}  // namespace

// NVRTC must see the CCCL the host dispatch was compiled with: the toolkit's own
// CCCL 3.0.1 is refused before NVRTC runs, naming both versions.
TEST(MergeSortBuild, ForeignCcclIsRefusedNamingBothVersions) {
  const std::string toolkit_cccl = algos::detail::cuda_include_dir() + "/cccl";
  const auto foreign = algos::detail::read_cccl_version(toolkit_cccl);
  if (foreign == 0 || foreign == CCCL_VERSION_OF_PIN)
    GTEST_SKIP() << "no other CCCL at " << toolkit_cccl;
  ScopedEnv env("CCCL_CACHE_CCCL_INCLUDE", toolkit_cccl);
  auto r = merge_sort::build(Spec{}, 90);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::unsupported);
  EXPECT_NE(r.error().message.find("CCCL_VERSION " + std::to_string(foreign)), std::string::npos)
      << r.error().message;
  EXPECT_NE(r.error().message.find("3.5.0 (CCCL_VERSION 3005000)"), std::string::npos)
      << r.error().message;
  EXPECT_NE(r.error().message.find(toolkit_cccl), std::string::npos) << r.error().message;
}

// The generated source checks the version itself too (a stale header set slipped past
// the directory check fails the compile, naming both versions, before CUB is read).
TEST(MergeSortBuild, GeneratedSourceStaticAssertsTheCcclVersion) {
  const std::string toolkit_cccl = algos::detail::cuda_include_dir() + "/cccl";
  const auto foreign = algos::detail::read_cccl_version(toolkit_cccl);
  if (foreign == 0 || foreign == CCCL_VERSION_OF_PIN)
    GTEST_SKIP() << "no other CCCL at " << toolkit_cccl;
  ScopedEnv env("CCCL_CACHE_CCCL_INCLUDE", toolkit_cccl);
  const auto gen = cccl_cache::algos::detail::BuildSteps<MergeSort>::source(Spec{});
  auto ir = algos::detail::compile_to_ltoir(gen.source, "version_check.cu", 90, {});
  ASSERT_FALSE(ir);
  EXPECT_EQ(ir.error().code, ErrorCode::compile);
  EXPECT_NE(ir.error().message.find("NVRTC compiles against CCCL_VERSION " +
                                    std::to_string(foreign) +
                                    " but the host dispatch was compiled with CCCL_VERSION 3005000"),
            std::string::npos)
      << ir.error().message;
}
