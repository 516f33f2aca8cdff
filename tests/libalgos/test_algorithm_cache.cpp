// AlgorithmCache without a GPU: builds once, then hits the store (also from a
// second process); concurrent requests build once; a corrupt entry degrades to a
// build. Each test has its own store in its own temp dir. NVRTC builds take seconds.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "cccl_cache/algos/algorithm_cache.hpp"
#include "cccl_cache/algos/device.hpp"
#include "cccl_cache/algos/merge_sort/spec.hpp"
#include "cccl_cache/cache/config.hpp"
#include "cccl_cache/cache/store.hpp"

namespace {

namespace fs = std::filesystem;
namespace ms = cccl_cache::algos::merge_sort;
using cccl_cache::algos::AlgorithmCache;

constexpr std::uint32_t kCc = 90;

class TempDir {
 public:
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "cccl-cache-algocache-XXXXXX").string();
    if (mkdtemp(tmpl.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

std::shared_ptr<cccl_cache::Store> open_store(const fs::path& dir) {
  cccl_cache::Config config = cccl_cache::Config::defaults();
  config.dir = dir;
  auto store = cccl_cache::Store::open(config);
  if (!store) throw std::runtime_error(store.error().describe());
  return *store;
}

ms::Spec float_spec() {
  ms::Spec spec;
  spec.key_type = cccl_cache::algos::ScalarType::float32;
  spec.offset_type = cccl_cache::algos::ScalarType::int64;
  return spec;
}

TEST(AlgorithmCache, PrewarmBuildsOnceThenHitsTheStore) {
  TempDir dir;
  auto store = open_store(dir.path() / "store");
  AlgorithmCache cache(store);
  auto first = cache.prewarm(float_spec(), kCc);
  ASSERT_TRUE(first) << first.error().describe();
  EXPECT_TRUE(*first);
  auto second = cache.prewarm(float_spec(), kCc);
  ASSERT_TRUE(second) << second.error().describe();
  EXPECT_FALSE(*second);
  EXPECT_EQ(cache.stats().builds, 1u);
  EXPECT_EQ(cache.stats().store_hits, 1u);

  AlgorithmCache other(store);  // a new cache over the same store
  auto third = other.prewarm(float_spec(), kCc);
  ASSERT_TRUE(third) << third.error().describe();
  EXPECT_FALSE(*third);
  EXPECT_EQ(other.stats().builds, 0u);
  EXPECT_EQ(other.stats().store_hits, 1u);

  // Another CC is another entry: it builds.
  auto other_cc = other.prewarm(float_spec(), 80);
  ASSERT_TRUE(other_cc) << other_cc.error().describe();
  EXPECT_TRUE(*other_cc);
  EXPECT_EQ(other.stats().builds, 1u);
}

TEST(AlgorithmCache, SecondProcessSeesTheStoreHit) {
  TempDir dir;
  {
    auto store = open_store(dir.path() / "store");
    AlgorithmCache cache(store);
    auto built = cache.prewarm(float_spec(), kCc);
    ASSERT_TRUE(built) << built.error().describe();
    ASSERT_TRUE(*built);
  }
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    // Child: a fresh Store and cache, as a new process would have.
    int code = 10;
    try {
      auto store = open_store(dir.path() / "store");
      AlgorithmCache cache(store);
      auto hit = cache.prewarm(float_spec(), kCc);
      if (!hit)
        code = 11;
      else if (*hit)
        code = 12;  // it built: no store hit
      else if (cache.stats().builds != 0)
        code = 13;
      else if (cache.stats().store_hits != 1)
        code = 14;
      else
        code = 0;
    } catch (...) {
      code = 15;
    }
    _exit(code);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "child exit code 11: error, 12: built, 13/14: wrong stats";
}

TEST(AlgorithmCache, ConcurrentRequestsBuildOnce) {
  TempDir dir;
  auto store = open_store(dir.path() / "store");
  AlgorithmCache cache(store);
  std::atomic<int> built{0}, failed{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i)
    threads.emplace_back([&] {
      auto r = cache.prewarm(float_spec(), kCc);
      if (!r)
        ++failed;
      else if (*r)
        ++built;
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(failed.load(), 0);
  EXPECT_EQ(cache.stats().builds, 1u);
  EXPECT_GE(built.load(), 1);  // the builder and any waiter that shared its build
}

TEST(AlgorithmCache, CorruptEntryDegradesToABuild) {
  TempDir dir;
  auto store = open_store(dir.path() / "store");
  const auto key = ms::cache_key(float_spec(), kCc);
  cccl_cache::EntryMeta meta;
  meta.algorithm = ms::kAlgorithmName;
  const std::vector<std::byte> garbage(100, std::byte{0x5a});
  ASSERT_TRUE(store->put(key, meta, garbage));

  AlgorithmCache cache(store);
  auto r = cache.prewarm(float_spec(), kCc);
  ASSERT_TRUE(r) << r.error().describe();
  EXPECT_TRUE(*r);
  EXPECT_EQ(cache.stats().builds, 1u);
  // The rebuilt entry replaced the garbage.
  AlgorithmCache again(store);
  auto hit = again.prewarm(float_spec(), kCc);
  ASSERT_TRUE(hit) << hit.error().describe();
  EXPECT_FALSE(*hit);
}

TEST(AlgorithmCache, InvalidSpecIsRejectedWithoutBuilding) {
  AlgorithmCache cache(nullptr);
  ms::Spec spec = float_spec();
  spec.comparator = cccl_cache::algos::Comparator::custom("not an identifier", "");
  auto r = cache.prewarm(spec, kCc);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, cccl_cache::ErrorCode::invalid_argument);
  EXPECT_EQ(cache.stats().builds, 0u);
}

TEST(AlgorithmCache, MergeSortWithoutAGpuIsADriverError) {
  auto count = cccl_cache::algos::device_count();
  ASSERT_TRUE(count.has_value()) << count.error().describe();
  if (*count > 0) GTEST_SKIP() << "a GPU is present";
  AlgorithmCache cache(nullptr);
  auto r = cache.acquire(float_spec(), 0);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, cccl_cache::ErrorCode::driver);
  EXPECT_EQ(cache.stats().builds, 0u);
}

}  // namespace
