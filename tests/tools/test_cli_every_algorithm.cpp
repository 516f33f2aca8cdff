// prewarm, ls, inspect and why end to end for every algorithm of the registry, through
// one manifest (real NVRTC builds for sm_90; one spec per algorithm, built once; reduce's
// and the exclusive scan's with iterators).
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <string>

#include "cccl_cache/algos/registry.hpp"
#include "cli_test_util.hpp"

namespace cccl_cache::test {
namespace {

// One spec per algorithm, in spec text (as `why` and `ls` print it, defaults spelled out).
const std::map<std::string, std::string> kSpecs = {
    {"merge_sort", "merge_sort keys=float32 values=none compare=less offset=int64"},
    {"reduce", "reduce type=int64 op=maximum offset=uint64 input=counting(int32) output=discard"},
    {"inclusive_scan", "inclusive_scan type=float32 op=plus offset=uint64"},
    {"exclusive_scan", "exclusive_scan type=int32 op=plus offset=uint32 output=reverse"},
    {"unary_transform", "unary_transform in=float32 out=float32 op=negate"},
    {"binary_transform", "binary_transform in1=int64 in2=int64 out=int64 op=minus"},
    {"radix_sort", "radix_sort keys=uint32 values=uint32 descending=true offset=uint32"},
    {"segmented_reduce", "segmented_reduce type=float64 op=minimum offset=int32"},
    {"unique_by_key", "unique_by_key keys=int64 values=float32 op=equal_to offset=uint32 selected=int32"},
    {"select", "select type=int16 op=identity offset=int64 selected=int32"},
    {"histogram_even", "histogram_even type=uint16 level=int32 counter=uint32 offset=int64"},
    {"three_way_partition",
     "three_way_partition type=float32 first_op=identity second_op=identity offset=int32 selected=int64"},
    {"binary_search", "binary_search type=uint16 out=uint32 compare=greater upper=true"},
    {"segmented_sort", "segmented_sort keys=int16 values=float64 descending=true offset=int64"},
    {"scan_by_key",
     "scan_by_key keys=int64 values=float32 equality=equal_to op=maximum exclusive=true offset=uint32"},
};

struct Filled {
  TempDir dir;
  std::string cache;
  nlohmann::json ls;
};

// The cache, filled once for every test here.
const Filled& filled() {
  static Filled* f = [] {
    auto* out = new Filled;
    out->cache = (out->dir.path() / "cache").string();
    const auto manifest = out->dir.path() / "m.toml";
    std::ofstream m(manifest);
    m << "arch = [\"sm_90\"]\n";
    for (const auto& [algorithm, text] : kSpecs) {
      m << "\n[[" << algorithm << "]]\n";
      std::string fields = text.substr(text.find(' ') + 1);
      for (std::size_t at = 0; at < fields.size();) {
        std::size_t end = fields.find(' ', at);
        if (end == std::string::npos) end = fields.size();
        const std::string kv = fields.substr(at, end - at);
        const auto eq = kv.find('=');
        m << kv.substr(0, eq) << " = \"" << kv.substr(eq + 1) << "\"\n";
        at = end + 1;
      }
    }
    m.close();
    auto r = run_cli({"--cache-dir", out->cache, "prewarm", "--manifest", manifest.string(), "-j",
                      "2", "--json"});
    EXPECT_EQ(r.code, 0) << r.out << r.err;
    out->ls = run_cli({"--cache-dir", out->cache, "ls", "--json"}).json();
    return out;
  }();
  return *f;
}

TEST(CliEveryAlgorithm, TheRegistryHasEachOfThem) {
  for (const auto& [algorithm, text] : kSpecs)
    EXPECT_NE(algos::find_algorithm(algorithm), nullptr) << algorithm;
}

TEST(CliEveryAlgorithm, PrewarmStoresOneEntryPerAlgorithm) {
  const auto& ls = filled().ls;
  ASSERT_EQ(ls["count"], kSpecs.size()) << ls.dump();
  std::map<std::string, std::string> seen;
  for (const auto& e : ls["entries"]) {
    seen[e["algorithm"].get<std::string>()] = e["spec"].get<std::string>();
    EXPECT_EQ(e["cc"], 90);
  }
  for (const auto& [algorithm, text] : kSpecs) EXPECT_EQ(seen[algorithm], text) << algorithm;
  EXPECT_EQ(run_cli({"--cache-dir", filled().cache, "verify"}).code, 0);
}

TEST(CliEveryAlgorithm, InspectChecksEachEntryAgainstItsCubin) {
  for (const auto& e : filled().ls["entries"]) {
    const std::string key = e["key"].get<std::string>();
    auto r = run_cli({"--cache-dir", filled().cache, "inspect", key, "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    auto j = r.json();
    SCOPED_TRACE(e["algorithm"].get<std::string>());
    EXPECT_EQ(j["check"], "ok");
    EXPECT_EQ(j["build"]["spec_text"], e["spec"]);
    EXPECT_FALSE(j["build"]["kernels"].empty());
    EXPECT_GT(j["build"]["cubin_bytes"].get<std::uint64_t>(), 0u);
  }
}

TEST(CliEveryAlgorithm, WhyFindsEachSpecAndNamesAChangedField) {
  for (const auto& [algorithm, text] : kSpecs) {
    SCOPED_TRACE(text);
    auto hit = run_cli({"--cache-dir", filled().cache, "why", text, "--arch", "sm_90", "--json"});
    ASSERT_EQ(hit.code, 0) << hit.err;
    EXPECT_EQ(hit.json()["hit"], true);
    // Another CC of the same spec: a miss whose nearest entry is this one.
    auto miss = run_cli({"--cache-dir", filled().cache, "why", text, "--arch", "sm_80", "--json"});
    auto j = miss.json();
    EXPECT_EQ(j["hit"], false);
    ASSERT_FALSE(j["nearest"].empty());
    EXPECT_EQ(j["nearest"][0]["spec"], text);
  }
}

}  // namespace
}  // namespace cccl_cache::test
