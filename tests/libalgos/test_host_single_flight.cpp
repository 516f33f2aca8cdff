// Host-wide single-flight through AlgorithmCache's production path (the store's host
// claim, real NVRTC builds, real LMDB): 16 processes cold-missing one key build it once
// and all load a correct entry; a builder SIGKILLed mid-build lets a waiter build at
// once; a waiter past build_wait_ms builds locally. A unary float32 transform is the
// cheapest build (about a second).
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "cccl_cache/algos/algorithm_cache.hpp"
#include "cccl_cache/algos/core/built.hpp"
#include "cccl_cache/algos/transform/build_result.hpp"
#include "cccl_cache/cache/build_claim.hpp"
#include "cccl_cache/cache/store.hpp"

namespace {

namespace fs = std::filesystem;
namespace algos = cccl_cache::algos;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

constexpr std::uint32_t kCc = 80;
const algos::transform::Spec<1> kSpec{};  // float32 -> float32, identity

struct TempDir {
  fs::path path;
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "cccl-cache-flight-XXXXXX").string();
    if (mkdtemp(tmpl.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

cccl_cache::Config config_for(const fs::path& dir, std::uint32_t build_wait_ms) {
  cccl_cache::Config config = cccl_cache::Config::defaults();
  config.dir = dir;
  config.initial_map_size = 16ull << 20;
  config.build_wait_ms = build_wait_ms;
  return config;
}

// In a child: prewarm kSpec, then read the entry back from the store and check it is a
// usable record of exactly kSpec. Writes "<built> <xxh3 of the payload>\n" to `out`.
int prewarm_and_check(const cccl_cache::Config& config, int out) {
  auto store = cccl_cache::Store::open(config);
  if (!store) return 2;
  algos::AlgorithmCache cache(*store);
  auto built = cache.prewarm(kSpec, kCc);
  if (!built) return 3;
  if (cache.stats().builds != (*built ? 1u : 0u)) return 4;
  auto entry = (*store)->peek(algos::cache_key(kSpec, kCc));
  if (!entry || !*entry) return 5;
  auto view = algos::deserialize_view<algos::Transform<1>>((*entry)->payload, kCc);
  if (!view || !(view->spec == kSpec)) return 6;
  const auto digest = cccl_cache::xxh3_128((*entry)->payload);
  char line[80];
  const int n = std::snprintf(line, sizeof line, "%d %s\n", *built ? 1 : 0, digest.hex().c_str());
  return ::write(out, line, static_cast<std::size_t>(n)) == n ? 0 : 7;
}

TEST(HostSingleFlight, SixteenProcessesColdMissingOneKeyBuildOnce) {
  TempDir dir;
  const auto config = config_for(dir.path / "store", 120'000);
  int go[2], report[2];
  ASSERT_EQ(::pipe(go), 0);
  ASSERT_EQ(::pipe(report), 0);
  std::vector<pid_t> children;
  for (int i = 0; i < 16; ++i) {
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      ::close(go[1]);
      ::close(report[0]);
      char c;
      (void)::read(go[0], &c, 1);  // all start together: the parent closes `go`
      ::_exit(prewarm_and_check(config, report[1]));
    }
    children.push_back(pid);
  }
  ::close(go[0]);
  ::close(report[1]);
  ::close(go[1]);
  std::string lines;
  char buf[512];
  for (ssize_t n; (n = ::read(report[0], buf, sizeof buf)) > 0;) lines.append(buf, n);
  ::close(report[0]);
  for (pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status)) << "a child died";
    EXPECT_EQ(WEXITSTATUS(status), 0)
        << "2: open, 3: prewarm, 4: stats, 5: no entry, 6: bad entry, 7: report";
  }
  int builds = 0, reports = 0;
  std::set<std::string> digests;
  std::size_t at = 0;
  for (std::size_t end; (end = lines.find('\n', at)) != std::string::npos; at = end + 1) {
    ++reports;
    builds += lines[at] == '1';
    digests.insert(lines.substr(at + 2, end - at - 2));
  }
  EXPECT_EQ(reports, 16);
  EXPECT_EQ(builds, 1) << "16 processes missing one key must build it once";
  EXPECT_EQ(digests.size(), 1u) << "every process loads the one published entry";
  auto store = cccl_cache::Store::open(config);
  ASSERT_TRUE(store);
  auto stats = (*store)->stats();
  ASSERT_TRUE(stats);
  EXPECT_EQ(stats->puts, 1u);
}

TEST(HostSingleFlight, BuilderKilledMidBuildLetsTheWaiterBuildAtOnce) {
  TempDir dir;
  const auto config = config_for(dir.path / "store", 120'000);
  const pid_t builder = ::fork();
  ASSERT_GE(builder, 0);
  if (builder == 0) {
    auto store = cccl_cache::Store::open(config);
    if (!store) ::_exit(2);
    algos::AlgorithmCache cache(*store);
    (void)cache.prewarm(kSpec, kCc);
    ::_exit(0);
  }
  // The builder holds the claim while it builds: its lock file is there.
  const auto lock = config.dir / "claims" / (algos::cache_key(kSpec, kCc).to_string() + ".lock");
  const auto give_up = Clock::now() + 60s;
  while (!fs::exists(lock) && Clock::now() < give_up) std::this_thread::sleep_for(1ms);
  ASSERT_TRUE(fs::exists(lock)) << "the builder never claimed the key";
  ::kill(builder, SIGKILL);
  int status = 0;
  ASSERT_EQ(::waitpid(builder, &status, 0), builder);
  ASSERT_TRUE(WIFSIGNALED(status)) << "the builder finished before it was killed; retry";

  auto store = cccl_cache::Store::open(config);
  ASSERT_TRUE(store);
  algos::AlgorithmCache cache(*store);
  const auto start = Clock::now();
  auto built = cache.prewarm(kSpec, kCc);
  const auto took = Clock::now() - start;
  ASSERT_TRUE(built) << built.error().describe();
  EXPECT_TRUE(*built);
  EXPECT_EQ(cache.stats().builds, 1u);
  EXPECT_EQ(cache.stats().claim_waits, 0u) << "a dead builder's claim is free at once";
  EXPECT_LT(took, 60s) << "well within the 120 s bound";
}

TEST(HostSingleFlight, WaiterPastTheBoundBuildsLocally) {
  TempDir dir;
  const auto config = config_for(dir.path / "store", 300);
  auto store = cccl_cache::Store::open(config);
  ASSERT_TRUE(store);
  // A builder that never finishes: another holder of the key's host claim.
  auto stuck = cccl_cache::open_host_claim(config);
  ASSERT_TRUE(stuck && *stuck);
  auto hold = (*stuck)->claim(algos::cache_key(kSpec, kCc), Clock::now());
  ASSERT_TRUE(hold && *hold);

  algos::AlgorithmCache cache(*store);
  const auto start = Clock::now();
  auto built = cache.prewarm(kSpec, kCc);
  ASSERT_TRUE(built) << built.error().describe();
  EXPECT_TRUE(*built);
  EXPECT_GE(Clock::now() - start, 300ms);
  EXPECT_EQ(cache.stats().claim_waits, 1u);
  EXPECT_EQ(cache.stats().builds, 1u);
}

}  // namespace
