// ls, inspect and stats against a cache filled through the libcache API.
#include <gtest/gtest.h>

#include <set>
#include <sstream>

#include "cccl_cache/algos/core/built.hpp"
#include "cccl_cache/algos/merge_sort/build_result.hpp"
#include "cli_test_util.hpp"

namespace cccl_cache::test {
namespace {

using algos::ScalarType;

TEST(CliLs, JsonListsEveryEntryWithItsMetadata) {
  TempDir dir;
  const auto& b90 = real_build(90);
  const CacheKey k1 = put_build(dir.path(), b90);
  const CacheKey k2 = put_build(dir.path(), with_keys(b90, ScalarType::int32));
  const CacheKey k3 = put_build(dir.path(), real_build(80));

  auto r = run_cli({"--cache-dir", dir.path().string(), "ls", "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = r.json();
  ASSERT_EQ(j["count"], 3);
  std::set<std::string> keys;
  std::uint64_t total = 0;
  for (const auto& e : j["entries"]) {
    keys.insert(e["key"].get<std::string>());
    EXPECT_EQ(e["algorithm"], "merge_sort");
    EXPECT_EQ(e["toolchain"], algos::Toolchain::current().fingerprint("merge_sort"));
    EXPECT_GT(e["payload_size"].get<std::uint64_t>(), 1000u);
    EXPECT_GT(e["created_unix"].get<std::int64_t>(), 1'600'000'000);
    total += e["payload_size"].get<std::uint64_t>();
  }
  EXPECT_EQ(keys, (std::set<std::string>{k1.to_string(), k2.to_string(), k3.to_string()}));
  EXPECT_EQ(j["total_bytes"].get<std::uint64_t>(), total);
}

TEST(CliLs, FiltersByArchAndAlgorithm) {
  TempDir dir;
  put_build(dir.path(), real_build(90));
  const CacheKey k80 = put_build(dir.path(), real_build(80));
  auto r = run_cli({"--cache-dir", dir.path().string(), "ls", "--arch", "sm_80", "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = r.json();
  ASSERT_EQ(j["count"], 1);
  EXPECT_EQ(j["entries"][0]["key"], k80.to_string());
  EXPECT_EQ(j["entries"][0]["cc"], 80);

  auto none =
      run_cli({"--cache-dir", dir.path().string(), "ls", "--algorithm", "reduce", "--json"}).json();
  EXPECT_EQ(none["count"], 0);
}

TEST(CliLs, TableShowsOneRowPerEntry) {
  TempDir dir;
  const CacheKey k = put_build(dir.path(), real_build(90));
  auto r = run_cli({"--cache-dir", dir.path().string(), "ls"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find(k.to_string()), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("merge_sort keys=float32 values=none compare=less offset=int64"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("sm_90"), std::string::npos);
  EXPECT_NE(r.out.find("1 entry"), std::string::npos);
}

TEST(CliInspect, ShowsKernelNamesPolicyAndSpec) {
  TempDir dir;
  const auto& b = real_build(90);
  const CacheKey k = put_build(dir.path(), b);
  auto r = run_cli({"--cache-dir", dir.path().string(), "inspect", k.to_string(), "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = r.json();
  EXPECT_EQ(j["key"], k.to_string());
  EXPECT_EQ(j["check"], "ok");
  const auto& build = j["build"];
  ASSERT_TRUE(build.is_object());
  EXPECT_EQ(build["kernels"]["block_sort"], b.record.kernels[0]);
  EXPECT_EQ(build["kernels"]["partition"], b.record.kernels[1]);
  EXPECT_EQ(build["kernels"]["merge"], b.record.kernels[2]);
  EXPECT_EQ(build["policy"]["block_threads"], b.policy.block_threads);
  EXPECT_EQ(build["policy"]["items_per_tile"], b.policy.items_per_tile);
  EXPECT_EQ(build["cubin_bytes"], b.record.cubin.size());
  EXPECT_EQ(build["spec_text"], "merge_sort keys=float32 values=none compare=less offset=int64");
  EXPECT_EQ(build["fields"]["keys"], "float32");
  EXPECT_EQ(build["fields"]["compare"], "less");

  // Text form, addressed by a unique prefix of the key.
  auto t = run_cli({"--cache-dir", dir.path().string(), "inspect", k.to_string().substr(0, 8)});
  ASSERT_EQ(t.code, 0) << t.err;
  EXPECT_NE(t.out.find(b.record.kernels[2]), std::string::npos) << t.out;
  EXPECT_NE(t.out.find("block_threads=" + std::to_string(b.policy.block_threads)),
            std::string::npos)
      << t.out;
}

TEST(CliInspect, AbsentKeyIsAProblemAndMalformedKeyAUsageError) {
  TempDir dir;
  put_build(dir.path(), real_build(90));
  auto absent =
      run_cli({"--cache-dir", dir.path().string(), "inspect", std::string(32, '0') + "-sm90"});
  EXPECT_EQ(absent.code, 1);
  EXPECT_NE(absent.err.find("no entry"), std::string::npos) << absent.err;
  auto bad = run_cli({"--cache-dir", dir.path().string(), "inspect", "xyz"});
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("not a key"), std::string::npos) << bad.err;
}

TEST(CliStats, JsonCountsEntriesBytesAndLookups) {
  TempDir dir;
  const auto& b = real_build(90);
  const CacheKey k = put_build(dir.path(), b);
  put_build(dir.path(), with_keys(b, ScalarType::int32));
  {
    auto store = open_store(dir.path());
    ASSERT_TRUE(store);
    ASSERT_TRUE(store->get(k).value().has_value());                      // a hit
    ASSERT_FALSE(store->get(CacheKey{{1, 2}, 90}).value().has_value());  // a miss
  }
  auto r = run_cli({"--cache-dir", dir.path().string(), "stats", "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = r.json();
  const auto payload = algos::serialize(b).size();
  EXPECT_EQ(j["entries"], 2);
  EXPECT_EQ(j["live_bytes"].get<std::uint64_t>(), 2 * payload);
  EXPECT_EQ(j["hits"], 1);
  EXPECT_EQ(j["misses"], 1);
  EXPECT_DOUBLE_EQ(j["hit_ratio"].get<double>(), 0.5);
  EXPECT_EQ(j["puts"], 2);
  EXPECT_EQ(j["put_requests"], 2);
  EXPECT_EQ(j["tiers"][0]["requests"], 4) << "2 lookups and 2 write requests";
  EXPECT_EQ(j["corrupt"], 0);
  EXPECT_EQ(j["quarantined"], 0);
  EXPECT_GT(j["budget_bytes"].get<std::uint64_t>(), 0u);
  for (const char* counter : {"signed_entries", "host_claim_waits", "cluster_lease_waits",
                              "wait_bound_builds", "cc_fallback_serves", "signature_rejections"})
    EXPECT_EQ(j[counter], 0) << counter;
}

// The counters of cluster sharing, as the processes of a job counted them into the store.
TEST(CliStats, ShowsWaitsFallbacksAndSignatureRejections) {
  TempDir dir;
  put_build(dir.path(), real_build(90));
  {
    auto store = open_store(dir.path());
    ASSERT_TRUE(store);
    store->count(Counter::host_claim_waits, 15);
    store->count(Counter::cluster_lease_waits, 3);
    store->count(Counter::wait_bound_builds, 1);
    store->count(Counter::cc_fallback_serves, 7);
    store->count(Counter::signature_rejections, 2);
  }
  auto j = run_cli({"--cache-dir", dir.path().string(), "stats", "--json"}).json();
  EXPECT_EQ(j["host_claim_waits"], 15);
  EXPECT_EQ(j["cluster_lease_waits"], 3);
  EXPECT_EQ(j["wait_bound_builds"], 1);
  EXPECT_EQ(j["cc_fallback_serves"], 7);
  EXPECT_EQ(j["signature_rejections"], 2);
  auto text = run_cli({"--cache-dir", dir.path().string(), "stats"});
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_NE(text.out.find("waits:       15 for this host's builder, 3 for another host's (lease), "
                          "1 past build_wait_ms"),
            std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("cc fallback: 7 "), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("signatures:  2 shared entries rejected"), std::string::npos) << text.out;
  auto prom = run_cli({"--cache-dir", dir.path().string(), "stats", "--prometheus"});
  EXPECT_NE(prom.out.find("cccl_cache_host_claim_waits_total{cache_dir=\"" + dir.path().string() +
                          "\"} 15"),
            std::string::npos)
      << prom.out;
  EXPECT_NE(prom.out.find("cccl_cache_signature_rejections_total{"), std::string::npos);
}

TEST(CliStats, PrometheusTextHasHelpTypeAndSamples) {
  TempDir dir;
  put_build(dir.path(), real_build(90));
  auto r = run_cli({"--cache-dir", dir.path().string(), "stats", "--prometheus"});
  ASSERT_EQ(r.code, 0) << r.err;
  std::istringstream in(r.out);
  std::string line;
  std::set<std::string> helped, typed, sampled;
  while (std::getline(in, line)) {
    if (line.rfind("# HELP ", 0) == 0) {
      helped.insert(line.substr(7, line.find(' ', 7) - 7));
    } else if (line.rfind("# TYPE ", 0) == 0) {
      const auto name = line.substr(7, line.find(' ', 7) - 7);
      const auto type = line.substr(line.rfind(' ') + 1);
      EXPECT_TRUE(type == "counter" || type == "gauge") << line;
      EXPECT_EQ(type == "counter", name.size() > 6 && name.substr(name.size() - 6) == "_total")
          << line;
      typed.insert(name);
    } else {
      ASSERT_FALSE(line.empty());
      const auto name = line.substr(0, line.find('{'));
      EXPECT_EQ(name.rfind("cccl_cache_", 0), 0u) << line;
      EXPECT_NE(line.find("{cache_dir=\"" + dir.path().string() + "\"} "), std::string::npos)
          << line;
      sampled.insert(name);
      if (name == "cccl_cache_entries") {
        EXPECT_EQ(line.substr(line.rfind(' ') + 1), "1");
      }
    }
  }
  EXPECT_EQ(helped, sampled);
  EXPECT_EQ(typed, sampled);
  for (const char* m : {"cccl_cache_hits_total", "cccl_cache_misses_total", "cccl_cache_hit_ratio",
                        "cccl_cache_entries", "cccl_cache_live_bytes", "cccl_cache_budget_bytes",
                        "cccl_cache_evictions_total", "cccl_cache_corrupt_entries_total",
                        "cccl_cache_quarantined_total", "cccl_cache_signed_entries",
                        "cccl_cache_host_claim_waits_total", "cccl_cache_cluster_lease_waits_total",
                        "cccl_cache_wait_bound_builds_total", "cccl_cache_cc_fallback_serves_total",
                        "cccl_cache_signature_rejections_total", "cccl_cache_put_requests_total"}) {
    EXPECT_TRUE(sampled.count(m)) << m;
  }
}

}  // namespace
}  // namespace cccl_cache::test
