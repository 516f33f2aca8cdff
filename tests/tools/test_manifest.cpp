// Prewarm manifests: expansion, operators, arch, and errors with file:line.
#include <gtest/gtest.h>

#include "cccl_cache/algos/merge_sort/spec.hpp"
#include "cccl_cache/algos/select/spec.hpp"
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "manifest.hpp"

namespace cccl_cache::cli {
namespace {

// The merge sort spec an AnySpec holds.
algos::merge_sort::Spec ms_of(const AnySpec& any) {
  auto s = algos::decode_fields<algos::merge_sort::Spec>(any.fields);
  EXPECT_TRUE(s) << (s ? "" : s.error().describe());
  return s ? *s : algos::merge_sort::Spec{};
}

using algos::ScalarType;

TEST(Manifest, ArrayFieldsExpandToEverySpecOnce) {
  auto m = parse_manifest(R"(
arch = ["sm_80", "90"]
[[merge_sort]]
keys = ["float32", "int32"]
values = ["none", "int64"]
[[merge_sort]]
keys = "float32"          # duplicate of one expanded above
)",
                          {}, "m.toml");
  ASSERT_TRUE(m) << m.error().describe();
  EXPECT_EQ(m->archs, (std::vector<std::uint32_t>{80, 90}));
  ASSERT_EQ(m->specs.size(), 4u);
  EXPECT_EQ(ms_of(m->specs[0]).key_type, ScalarType::float32);
  EXPECT_EQ(ms_of(m->specs[0]).value_type, ScalarType::none);
  EXPECT_EQ(ms_of(m->specs[3]).key_type, ScalarType::int32);
  EXPECT_EQ(ms_of(m->specs[3]).value_type, ScalarType::int64);
}

TEST(Manifest, OperatorsByNameInlineOrFromAFile) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("cccl-manifest-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir / "ops");
  {
    std::ofstream(dir / "ops" / "by_abs.cuh")
        << "__device__ bool by_abs(int a, int b) { return abs(a) < abs(b); }";
  }
  auto m = parse_manifest(R"(
[[merge_sort]]
keys = "float32"
compare = "abs_less"
[operators.abs_less]
source = "__device__ bool abs_less(float a, float b) { return fabsf(a) < fabsf(b); }"
[operators.by_abs]
source_file = "ops/by_abs.cuh"
[[merge_sort]]
keys = "int32"
compare = "by_abs"
)",
                          dir, "m.toml");
  std::filesystem::remove_all(dir);
  ASSERT_TRUE(m) << m.error().describe();
  ASSERT_EQ(m->specs.size(), 2u);
  EXPECT_EQ(ms_of(m->specs[0]).comparator.name, "abs_less");
  EXPECT_NE(ms_of(m->specs[0]).comparator.source.find("fabsf"), std::string::npos);
  EXPECT_EQ(ms_of(m->specs[1]).comparator.source,
            "__device__ bool by_abs(int a, int b) { return abs(a) < abs(b); }");
}

// A struct's definition may be given by name in [operators], as an operator's source.
TEST(Manifest, StructDefinitionsByName) {
  auto m = parse_manifest(R"(
[[select]]
type = "pair:8/4"
op = "big"
[operators.pair]
source = "struct pair { int k; float v; };"
[operators.big]
source = "__device__ bool big(const pair& p) { return p.v > 1.0f; }"
)",
                          std::filesystem::temp_directory_path(), "m.toml");
  ASSERT_TRUE(m) << m.error().describe();
  ASSERT_EQ(m->specs.size(), 1u);
  auto s = algos::decode_fields<algos::select::Spec>(m->specs[0].fields);
  ASSERT_TRUE(s) << s.error().describe();
  EXPECT_EQ(s->type, algos::ElementType::structure("pair", "struct pair { int k; float v; };", 8, 4));
}

TEST(Manifest, ErrorsNameTheFileAndLine) {
  struct Case {
    const char* text;
    const char* says;
  };
  for (const Case& c :
       {Case{"[[merge_sort]]\nkeys = \"float32\"\ncolour = \"red\"\n",
             "m.toml:1: merge_sort: unknown field"},
        Case{"[[merge_sort]]\nkeys = 3\n", "m.toml:2: keys: expected a string"},
        Case{"flavour = 1\n", "m.toml:1: unknown key 'flavour'"},
        Case{"arch = [\"sm_80\", \"volta\"]\n[[merge_sort]]\nkeys=\"int8\"\n",
             "m.toml:1: arch: 'volta'"},
        Case{"[[merge_sort]\nkeys=1", "m.toml:1: "}, Case{"arch = \"sm_90\"\n", "no specs"},
        Case{"[operators.x]\n[[merge_sort]]\nkeys=\"int8\"\n", "exactly one of source"}}) {
    auto m = parse_manifest(c.text, {}, "m.toml");
    ASSERT_FALSE(m) << c.text;
    EXPECT_NE(m.error().message.find(c.says), std::string::npos)
        << c.text << "\n-> " << m.error().message;
  }
}

TEST(Manifest, TheExampleManifestParses) {
  auto m = load_manifest(std::filesystem::path(CCCL_CACHE_SOURCE_DIR) / "config" /
                         "manifest.example.toml");
  ASSERT_TRUE(m) << m.error().describe();
  EXPECT_FALSE(m->specs.empty());
  EXPECT_FALSE(m->archs.empty());
}

}  // namespace
}  // namespace cccl_cache::cli
