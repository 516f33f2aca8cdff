#include <gtest/gtest.h>
#include <unistd.h>
#include <xxhash.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <set>

#include "cccl_cache/algos/merge_sort/build_result.hpp"
#include "cccl_cache/algos/merge_sort/spec.hpp"
#include "cccl_cache/algos/registry.hpp"
#include "core/codegen_digest.hpp"
#include "merge_sort/codegen.hpp"
#include "core/dispatch_abi.hpp"
#include "merge_sort/dispatch.hpp"

using namespace cccl_cache;
using namespace cccl_cache::algos;
using merge_sort::Spec;

namespace {

std::string hex8(std::uint64_t v) {
  char buf[9];
  std::snprintf(buf, sizeof buf, "%08x", static_cast<unsigned>(v));
  return buf;
}

// A fixed toolchain: the golden digest must not depend on the machine.
Toolchain fixed_toolchain() {
  Toolchain tc;
  tc.cccl_version = 3000001;
  tc.nvrtc_major = 13;
  tc.nvrtc_minor = 0;
  tc.nvjitlink_major = 13;
  tc.nvjitlink_minor = 0;
  tc.compile_options = "-std=c++20 -DCUB_DISABLE_CDP | nvjitlink -O3";
  tc.build_format_version = 1;
  tc.nvrtc_library = "libnvrtc.so.13@109338064";
  tc.nvjitlink_library = "libnvJitLink.so.13@98806736";
  tc.dispatch_abi = {{"merge_sort", 0x0123456789abcdefull}, {"reduce", 0xfedcba9876543210ull}};
  return tc;
}

std::vector<std::byte> canonical(const Spec& s, std::uint32_t cc, const Toolchain& tc) {
  return canonical_bytes(Spec::kAlgorithm, encode_fields(s), MergeSort::codegen_digest(s), cc, tc);
}

Spec custom_spec(std::string name, std::string source) {
  Spec s;
  s.comparator = Comparator::custom(std::move(name), std::move(source));
  return s;
}

}  // namespace

TEST(MergeSortSpec, ValidatesFields) {
  EXPECT_TRUE(Spec{}.validate());
  Spec s;
  s.key_type = ScalarType::none;
  EXPECT_EQ(s.validate().error().code, ErrorCode::invalid_argument);
  s = Spec{};
  s.offset_type = ScalarType::float32;
  EXPECT_EQ(s.validate().error().code, ErrorCode::invalid_argument);
  s.offset_type = ScalarType::int8;
  EXPECT_FALSE(s.validate());
  s = Spec{};
  s.key_type = static_cast<ScalarType>(77);
  EXPECT_FALSE(s.validate());
  s = Spec{};
  s.comparator.kind = static_cast<ComparatorKind>(9);
  EXPECT_FALSE(s.validate());
  s = Spec{};
  s.comparator.name = "x";  // a built-in comparator takes no name
  EXPECT_FALSE(s.validate());
  EXPECT_FALSE(
      (custom_spec("1abc", "__device__ bool f(float a, float b) { return a < b; }")).validate());
  EXPECT_FALSE(custom_spec("a b", "x").validate());
  EXPECT_FALSE(custom_spec("ok_name", "  \n").validate());
  EXPECT_FALSE(custom_spec("cccl_cache_compare", "x").validate());
  EXPECT_TRUE(
      (custom_spec("abs_less", "__device__ bool abs_less(float a, float b) { return a < b; }"))
          .validate());
  Spec pairs;
  pairs.value_type = ScalarType::int32;
  pairs.offset_type = ScalarType::uint32;
  EXPECT_TRUE(pairs.validate());
}

TEST(MergeSortSpec, GoldenDigestIsStable) {
  // Changing this value means every existing cache key changes: bump the spec
  // encoding version or kBuildFormatVersion on purpose, then update it here. It also
  // changes, by design, with any change of the generated source (codegen_digest).
  Spec s;
  s.key_type = ScalarType::float32;
  s.value_type = ScalarType::int64;
  s.comparator = Comparator::custom(
      "abs_less", "__device__ bool abs_less(float a, float b) { return fabsf(a) < fabsf(b); }");
  // Last changed with the generated source's int64 spelling (the host's std::int64_t,
  // long, no longer ::cuda::std::int64_t).
  const auto key = merge_sort::cache_key(s, 90, fixed_toolchain());
  EXPECT_EQ(key.to_string(), "46c17150adfff52de1e15f0a9b3efa9d-sm90");
}

TEST(MergeSortSpec, EqualSpecsHashEqual) {
  Spec a;
  a.value_type = ScalarType::uint16;
  a.comparator = Comparator::custom(
      std::string("cmp"), std::string("__device__ bool cmp(float a, float b) { return a < b; }"));
  Spec b;
  b.comparator =
      Comparator::custom(std::string("c") + "mp", std::string("__device__ bool cmp(float a, ") +
                                                      "float b) { return a < b; }");
  b.value_type = ScalarType::uint16;
  EXPECT_EQ(canonical(a, 90, fixed_toolchain()),
            canonical(b, 90, fixed_toolchain()));
  EXPECT_EQ(merge_sort::cache_key(a, 90, fixed_toolchain()),
            merge_sort::cache_key(b, 90, fixed_toolchain()));
  EXPECT_EQ(merge_sort::cache_key(a, 80), merge_sort::cache_key(b, 80));  // current toolchain
}

// Spec fields, CC and the common toolchain parts are checked for every algorithm
// (test_algorithm_generic); these are the toolchain parts that identify the loaded
// libraries and the host dispatch's ABI.
TEST(MergeSortSpec, LibraryFilesAndDispatchAbiChangeTheKey) {
  const Spec base;
  const auto tc = fixed_toolchain();
  std::set<Digest128> digests = {merge_sort::cache_key(base, 90, tc).spec};
  auto vary = [&](const char* what, auto change) {
    Toolchain t = tc;
    change(t);
    EXPECT_TRUE(digests.insert(merge_sort::cache_key(base, 90, t).spec).second) << what;
  };
  vary("nvrtc library", [](Toolchain& t) { t.nvrtc_library = "libnvrtc.so.13@109338065"; });
  vary("nvjitlink library",
       [](Toolchain& t) { t.nvjitlink_library = "libnvJitLink.so.13@98806737"; });
  vary("dispatch abi", [](Toolchain& t) { t.dispatch_abi["merge_sort"] ^= 1; });
  // Another algorithm's ABI is not merge sort's: its keys stay.
  Toolchain other = tc;
  other.dispatch_abi["reduce"] ^= 1;
  other.dispatch_abi["segmented_sort"] = 7;
  EXPECT_EQ(merge_sort::cache_key(base, 90, other), merge_sort::cache_key(base, 90, tc));
}

TEST(MergeSortSpec, NoConcatenationCollisions) {
  const auto tc = fixed_toolchain();
  EXPECT_NE(merge_sort::cache_key(custom_spec("ab", "c"), 90, tc),
            merge_sort::cache_key(custom_spec("a", "bc"), 90, tc));
  EXPECT_NE(canonical(custom_spec("ab", "c"), 90, tc),
            canonical(custom_spec("a", "bc"), 90, tc));
  Toolchain t1 = tc, t2 = tc;
  t1.compile_options = "ab";
  t2.compile_options = "a";
  EXPECT_NE(merge_sort::cache_key(custom_spec("f", "x"), 90, t1),
            merge_sort::cache_key(custom_spec("f", "x"), 90, t2));
}

TEST(MergeSortSpec, CanonicalBytesCarryNoAddressesOrTimes) {
  const auto a = canonical(Spec{}, 90, fixed_toolchain());
  const auto b = canonical(*std::make_unique<Spec>(), 90, fixed_toolchain());
  EXPECT_EQ(a, b);
  EXPECT_EQ(merge_sort::cache_key(Spec{}, 90, fixed_toolchain()).cc, 90u);
}

TEST(MergeSortSpec, SummaryNamesEveryField) {
  Spec s;
  EXPECT_EQ(merge_sort::summary(s), "merge_sort keys=float32 values=none compare=less offset=int64");
  s.value_type = ScalarType::int32;
  s.comparator = Comparator::custom("f", "x");
  s.offset_type = ScalarType::uint32;
  EXPECT_EQ(merge_sort::summary(s), "merge_sort keys=float32 values=int32 compare=f offset=uint32");
}

TEST(Toolchain, CurrentIsFilledAndFingerprinted) {
  const auto& tc = Toolchain::current();
  EXPECT_EQ(tc.cccl_version, 3005000u);  // the pinned CCCL, as NVRTC will see it
  EXPECT_GE(tc.nvrtc_major, 12);
  EXPECT_GE(tc.nvjitlink_major, 12);
  EXPECT_NE(tc.compile_options.find("-DCUB_DISABLE_CDP"), std::string::npos);
  EXPECT_EQ(tc.build_format_version, kBuildFormatVersion);
  const auto fp = tc.fingerprint("merge_sort");
  EXPECT_EQ(fp.rfind("cccl-3.5.0 nvrtc-", 0), 0u) << fp;
  EXPECT_NE(fp.find(" fmt-2 opts-"), std::string::npos) << fp;
  // The loaded libraries (patch level: file name and size) and the dispatch ABI.
  EXPECT_EQ(tc.nvrtc_library.rfind("libnvrtc.so", 0), 0u) << tc.nvrtc_library;
  EXPECT_NE(tc.nvrtc_library.find('@'), std::string::npos) << tc.nvrtc_library;
  EXPECT_EQ(tc.nvjitlink_library.rfind("libnvJitLink.so", 0), 0u) << tc.nvjitlink_library;
  EXPECT_NE(fp.find(" so-" + tc.nvrtc_library + "," + tc.nvjitlink_library + " abi-"),
            std::string::npos)
      << fp;
  // Every algorithm's own ABI, each the digest of its own text.
  const auto& lines = algos::detail::dispatch_abi_lines();
  EXPECT_EQ(lines.size(), std::size(algos::algorithms()));
  EXPECT_EQ(tc.dispatch_abi.size(), lines.size());
  for (const auto& line : lines)
    EXPECT_EQ(tc.dispatch_abi_of(line.algorithm), XXH3_64bits(line.text.data(), line.text.size()))
        << line.algorithm;
  EXPECT_EQ(fp, tc.shared_fingerprint() + " abi-" + hex8(tc.dispatch_abi_of("merge_sort") >> 32));
  Toolchain other = tc;
  other.compile_options += " -lineinfo";
  EXPECT_NE(other.fingerprint("merge_sort"), fp);
}

// The fingerprint is in every cache key: its text must stay exactly what
// snprintf("cccl-%u.%u.%u nvrtc-%d.%d nvjitlink-%d.%d fmt-%u opts-%08x so-%s,%s abi-%08x")
// writes.
TEST(Toolchain, FingerprintKeepsItsPrintfFormat) {
  Toolchain t;
  for (std::uint32_t cccl : {0u, 3000001u, 12345678u, 4294967295u})
    for (int nvrtc : {0, 13, -1})
      for (const char* opts : {"", "-std=c++20 -DCUB_DISABLE_CDP | nvjitlink -O3", "x"}) {
        t.cccl_version = cccl;
        t.nvrtc_major = nvrtc;
        t.nvrtc_minor = nvrtc == 13 ? 0 : 7;
        t.nvjitlink_major = -nvrtc;
        t.nvjitlink_minor = 2147483647;
        t.compile_options = opts;
        t.build_format_version = cccl % 7;
        t.nvrtc_library = opts;
        t.nvjitlink_library = "libnvJitLink.so.13@1";
        t.dispatch_abi = {{"merge_sort", std::uint64_t{cccl} * 0x9e3779b97f4a7c15ull}};
        const auto hash = XXH3_64bits(t.compile_options.data(), t.compile_options.size());
        char expected[200];
        std::snprintf(expected, sizeof expected,
                      "cccl-%u.%u.%u nvrtc-%d.%d nvjitlink-%d.%d fmt-%u opts-%08x so-%s,%s abi-%08x",
                      t.cccl_version / 1000000, (t.cccl_version / 1000) % 1000,
                      t.cccl_version % 1000, t.nvrtc_major, t.nvrtc_minor, t.nvjitlink_major,
                      t.nvjitlink_minor, t.build_format_version, static_cast<unsigned>(hash >> 32),
                      t.nvrtc_library.c_str(), t.nvjitlink_library.c_str(),
                      static_cast<unsigned>(t.dispatch_abi_of("merge_sort") >> 32));
        const std::string fp = t.fingerprint("merge_sort");
        EXPECT_EQ(fp, expected);
        const auto parts = split_fingerprint(fp);
        EXPECT_EQ(parts.shared, t.shared_fingerprint());
        EXPECT_EQ(std::string(parts.shared) + " " + std::string(parts.abi), fp);
        // An algorithm without a digest: zeros.
        EXPECT_EQ(t.fingerprint("reduce"), t.shared_fingerprint() + " abi-00000000");
      }
  EXPECT_TRUE(split_fingerprint("cccl-3.5.0 nvrtc-13.0").abi.empty());
  EXPECT_EQ(split_fingerprint("cccl-3.5.0 nvrtc-13.0").shared, "cccl-3.5.0 nvrtc-13.0");
}

namespace {

Spec cross_process_spec() {
  Spec s;
  s.value_type = ScalarType::int32;
  s.comparator =
      Comparator::custom("cmp", "__device__ bool cmp(float a, float b) { return a < b; }");
  return s;
}

// The child half of EqualSpecsHashEqualAcrossProcesses: with the variable set,
// this binary prints the key and exits before any test runs.
const bool kChildPrintedKey = [] {
  if (std::getenv("CCCL_CACHE_TEST_PRINT_KEY") == nullptr) return false;
  std::printf("KEY=%s\n", merge_sort::cache_key(cross_process_spec(), 90).to_string().c_str());
  std::fflush(stdout);
  std::_Exit(0);
}();

}  // namespace

TEST(MergeSortSpec, EqualSpecsHashEqualAcrossProcesses) {
  // Another process has other addresses (ASLR) and its own Toolchain::current().
  const std::string cmd =
      "CCCL_CACHE_TEST_PRINT_KEY=1 /proc/" + std::to_string(::getpid()) + "/exe 2>&1";
  FILE* pipe = ::popen(cmd.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string output;
  char buf[256];
  while (std::fgets(buf, sizeof buf, pipe) != nullptr) output += buf;
  ASSERT_EQ(::pclose(pipe), 0) << output;
  ASSERT_FALSE(kChildPrintedKey);
  const std::string expected =
      "KEY=" + merge_sort::cache_key(cross_process_spec(), 90).to_string() + "\n";
  EXPECT_EQ(output, expected);
}

// The key covers our own code generation: the digest is that of the very text and
// name expressions NVRTC gets, with a custom comparator's name and source replaced by
// placeholders (the key holds both itself).
TEST(MergeSortSpec, CodegenDigestIsTheGeneratedText) {
  Spec s;
  s.value_type = ScalarType::int32;
  EXPECT_EQ(MergeSort::codegen_digest(s),
            algos::detail::digest_of(cccl_cache::algos::detail::BuildSteps<MergeSort>::source(s)));
  Spec other = s;
  other.offset_type = ScalarType::uint32;
  EXPECT_NE(MergeSort::codegen_digest(other), MergeSort::codegen_digest(s));
  EXPECT_EQ(MergeSort::codegen_digest(s), MergeSort::codegen_digest(s));  // memo
  const auto a = custom_spec("f", "__device__ bool f(float a, float b) { return a < b; }");
  const auto b = custom_spec("f", "__device__ bool f(float a, float b) { return b < a; }");
  const auto c = custom_spec("g", "__device__ bool g(float a, float b) { return a < b; }");
  EXPECT_EQ(MergeSort::codegen_digest(a), MergeSort::codegen_digest(b));
  EXPECT_EQ(MergeSort::codegen_digest(a), MergeSort::codegen_digest(c));
  EXPECT_EQ(MergeSort::codegen_digest(a),
            algos::detail::digest_of(cccl_cache::algos::detail::BuildSteps<MergeSort>::source(
                algos::detail::codegen_shape(a))));
  EXPECT_NE(MergeSort::codegen_digest(a), MergeSort::codegen_digest(Spec{}));
  // And it is in the key: the canonical bytes carry it.
  EXPECT_NE(canonical(a, 90, fixed_toolchain()), canonical_bytes(Spec::kAlgorithm, encode_fields(a), 0,
                                                                  90, fixed_toolchain()));
}

// A custom operator may include headers from NVRTC's include path only (the pinned CCCL
// and the toolkit, which the toolchain fingerprint covers): anything else could change
// under an unchanged key.
TEST(OperatorSource, IncludesOnlyFromTheIncludePath) {
  auto check = [](const std::string& source) {
    return algos::validate_operator("op", Operator::custom("f", source));
  };
  const std::string body = "\n__device__ float f(float a, float b) { return a + b; }\n";
  EXPECT_TRUE(check("#include <cuda/std/cmath>" + body));
  EXPECT_TRUE(check("  #  include <cuda/std/limits>" + body));
  for (const std::string bad :
       {"#include \"mine.h\"", "#include </etc/passwd>", "#include <../../home/x/h.h>",
        "#include_next <x/../../y.h>", "# include MY_HEADER", "#import \"x.h\"",
        "#inc\\\nlude \"x.h\""}) {
    auto r = check(bad + body);
    ASSERT_FALSE(r) << bad;
    EXPECT_EQ(r.error().code, ErrorCode::invalid_argument);
    EXPECT_NE(r.error().message.find("include"), std::string::npos) << r.error().message;
  }
  // Not a directive: text inside a line.
  EXPECT_TRUE(check("__device__ float f(float a, float b) { return a; } // #include \"x\""));
}
