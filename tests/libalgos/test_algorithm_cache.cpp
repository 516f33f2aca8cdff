// AlgorithmCache without a GPU: builds once, then hits the store (also from a
// second process); concurrent requests build once; a corrupt entry degrades to a
// build. Each test has its own store in its own temp dir. NVRTC builds take seconds.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "algorithm_cache_access.hpp"
#include "cccl_cache/algos/algorithm_cache.hpp"
#include "cccl_cache/algos/device.hpp"
#include "cccl_cache/algos/core/built.hpp"
#include "cccl_cache/algos/merge_sort/spec.hpp"
#include "cccl_cache/algos/toolchain.hpp"
#include "device_facts.hpp"
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
  meta.algorithm = std::string(algorithm_name(ms::Spec::kAlgorithm));
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

// A hit is trusted only from this toolchain: an entry under the right key whose blob
// says it was built by another toolchain, or with another algorithm's dispatch ABI (only
// a mis-keyed or crafted entry can), is a miss: the cache rebuilds and replaces it.
TEST(AlgorithmCache, EntryOfAnotherToolchainIsAMiss) {
  const auto& here = cccl_cache::algos::Toolchain::current();
  cccl_cache::algos::Toolchain other = here;
  other.nvrtc_minor += 1;
  ASSERT_NE(here.fingerprint("reduce"), here.fingerprint("merge_sort"));
  TempDir dir;
  auto store = open_store(dir.path() / "store");
  const auto key = ms::cache_key(float_spec(), kCc);
  {
    AlgorithmCache cache(store);
    auto built = cache.prewarm(float_spec(), kCc);
    ASSERT_TRUE(built && *built);
  }
  for (const std::string& stale : {other.fingerprint("merge_sort"), here.fingerprint("reduce")}) {
    SCOPED_TRACE(stale);
    std::optional<ms::BuildResult> stored;
    cccl_cache::EntryMeta meta;
    ASSERT_TRUE(store->get_with(key, [&](const cccl_cache::EntryMeta& m, std::span<const std::byte> p) {
      meta = m;
      auto r = cccl_cache::algos::deserialize<cccl_cache::algos::MergeSort>(p, kCc);
      if (r) stored = std::move(*r);
    }));
    ASSERT_TRUE(stored);
    stored->record.toolchain = stale;
    meta.toolchain = stale;
    ASSERT_TRUE(store->put(key, meta, cccl_cache::algos::serialize(*stored)));

    AlgorithmCache cache(store);
    auto r = cache.prewarm(float_spec(), kCc);
    ASSERT_TRUE(r) << r.error().describe();
    EXPECT_TRUE(*r) << "a blob of another toolchain was used";
    EXPECT_EQ(cache.stats().store_hits, 0u);
    EXPECT_EQ(cache.stats().builds, 1u);
    bool current = false;
    ASSERT_TRUE(store->get_with(key, [&](const cccl_cache::EntryMeta&, std::span<const std::byte> p) {
      auto back = cccl_cache::algos::deserialize<cccl_cache::algos::MergeSort>(p, kCc);
      current = back && back->record.toolchain == here.fingerprint("merge_sort");
    }));
    EXPECT_TRUE(current) << "the rebuilt entry did not replace the stale one";
  }
}

// Runs `child` in a fork()ed child and returns its exit code (-signal if killed). The
// alarm turns a deadlock in the child into a failure instead of a hung test.
int in_child(const std::function<int()>& child) {
  const pid_t pid = fork();
  if (pid == 0) {
    alarm(300);
    int code = 100;
    try {
      code = child();
    } catch (...) {
      code = 101;
    }
    _exit(code);
  }
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) != pid) return -1000;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
}

// After fork() the child inherits the parent's cache object, but not its threads: a
// build in flight in the parent at fork() time never completes in the child. The
// child must not wait for it (nor use anything else of the parent's CUDA-bound state).
TEST(AlgorithmCache, ForkedChildDoesNotWaitForTheParentsBuilds) {
  using cccl_cache::algos::detail::AlgorithmCacheAccess;
  AlgorithmCache cache(nullptr);
  // sm_50: this NVRTC cannot target it, so a build in the child fails at once.
  constexpr std::uint32_t kUnbuildable = 50;
  AlgorithmCacheAccess::hold_flight(cache, cccl_cache::algos::to_any(float_spec()), kUnbuildable);
  ASSERT_TRUE(AlgorithmCacheAccess::in_flight(cache, cccl_cache::algos::to_any(float_spec()), kUnbuildable));
  const int code = in_child([&] {
    if (AlgorithmCacheAccess::in_flight(cache, cccl_cache::algos::to_any(float_spec()), kUnbuildable)) return 1;
    auto r = cache.prewarm(float_spec(), kUnbuildable);  // would wait forever
    if (r || r.error().code != cccl_cache::ErrorCode::unsupported) return 2;
    return cache.stats().builds == 1 ? 0 : 3;
  });
  EXPECT_EQ(code, 0) << "1: the parent's flight is visible in the child, 2: wrong result, "
                        "3: wrong stats, negative: killed by that signal (14: deadlock)";
  // The parent's own state is untouched.
  EXPECT_TRUE(AlgorithmCacheAccess::in_flight(cache, cccl_cache::algos::to_any(float_spec()), kUnbuildable));
  EXPECT_EQ(cache.stats().builds, 0u);
}

// A child of a process that had initialized the CUDA driver cannot use CUDA: every
// request says so instead of reaching the driver with the parent's state. Here a first
// child stands for such a process (note_driver_initialized() is what driver_status()
// records before cuInit), so that this test process stays clean.
TEST(AlgorithmCache, ForkedChildOfACudaProcessGetsAClearError) {
  AlgorithmCache cache(nullptr);
  const int code = in_child([&] {
    cccl_cache::algos::detail::note_driver_initialized();
    return in_child([&] {
      auto r = cache.acquire(float_spec(), 0);
      if (r) return 1;
      if (r.error().code != cccl_cache::ErrorCode::driver) return 2;
      if (r.error().message.find("fork") == std::string::npos) return 3;
      auto status = cccl_cache::algos::driver_status();
      return !status && status.error().message.find("fork") != std::string::npos ? 0 : 4;
    });
  });
  EXPECT_EQ(code, 0) << "1: bound in the child, 2: not a driver error, 3/4: the error of "
                        "merge_sort/driver_status does not say fork";
}
}  // namespace
