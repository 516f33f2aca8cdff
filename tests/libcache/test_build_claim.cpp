// The host build claim (flock per key in <dir>/claims/) and the claim chain: exclusion,
// bounded waits, release at the death of the holder (SIGKILL), lock files cleaned up,
// the claims directory vetted like the store's own, nothing claimed on read-only stores.
#include "cccl_cache/cache/build_claim.hpp"

#include <signal.h>
#include <sys/stat.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "test_util.hpp"

namespace cccl_cache::test {
namespace {

using namespace std::chrono_literals;
using Clock = BuildClaim::Clock;
namespace fs = std::filesystem;

std::shared_ptr<BuildClaim> host_claim(const Config& config) {
  auto claim = open_host_claim(config);
  if (!claim) ADD_FAILURE() << claim.error().describe();
  return claim ? *claim : nullptr;
}

std::size_t files_in(const fs::path& dir) {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++n;
  return n;
}

TEST(HostClaim, SecondClaimOfAKeyWaitsUntilItsDeadline) {
  TempDir dir;
  auto claim = host_claim(test_config(dir / "store"));
  ASSERT_TRUE(claim);
  auto first = claim->claim(make_key(1), Clock::now() + 1s);
  ASSERT_TRUE(first && *first);
  const auto start = Clock::now();
  auto second = claim->claim(make_key(1), start + 150ms);
  ASSERT_TRUE(second) << second.error().describe();
  EXPECT_FALSE(*second) << "two holds of one key at once";
  EXPECT_GE(Clock::now() - start, 150ms);
  auto other_key = claim->claim(make_key(2), Clock::now());  // no wait for another key
  ASSERT_TRUE(other_key && *other_key);
}

TEST(HostClaim, ReleaseHandsTheClaimToAWaiterAndRemovesTheLockFile) {
  TempDir dir;
  const Config config = test_config(dir / "store");
  auto claim = host_claim(config);
  ASSERT_TRUE(claim);
  auto held = claim->claim(make_key(1), Clock::now() + 1s);
  ASSERT_TRUE(held && *held);
  EXPECT_FALSE((*held)->waited) << "nobody held it";
  EXPECT_EQ(files_in(config.dir / "claims"), 1u);
  std::thread releaser([&] {
    std::this_thread::sleep_for(200ms);
    held->reset();
  });
  const auto start = Clock::now();
  auto waiter = claim->claim(make_key(1), start + 20s);
  const auto waited = Clock::now() - start;
  releaser.join();
  ASSERT_TRUE(waiter && *waiter);
  EXPECT_TRUE((*waiter)->waited) << "it was refused while the first held it";
  EXPECT_GE(waited, 150ms);
  EXPECT_LT(waited, 5s);
  waiter->reset();
  EXPECT_EQ(files_in(config.dir / "claims"), 0u) << "released claims leave no lock file";
}

TEST(HostClaim, SigkilledHolderReleasesItsClaimAtOnce) {
  TempDir dir;
  const Config config = test_config(dir / "store");
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  const pid_t holder = ::fork();
  ASSERT_GE(holder, 0);
  if (holder == 0) {
    auto claim = open_host_claim(config);
    if (!claim || !*claim) ::_exit(2);
    auto hold = (*claim)->claim(make_key(7), Clock::now() + 5s);
    if (!hold || !*hold) ::_exit(3);
    (void)::write(ready[1], "h", 1);
    for (;;) ::pause();  // "building" until killed
  }
  ::close(ready[1]);
  char c = 0;
  ASSERT_EQ(::read(ready[0], &c, 1), 1) << "the holder did not get its claim";
  ::close(ready[0]);

  auto claim = host_claim(config);
  ASSERT_TRUE(claim);
  auto early = claim->claim(make_key(7), Clock::now() + 100ms);
  ASSERT_TRUE(early);
  EXPECT_FALSE(*early) << "the holder's claim was not exclusive";

  std::thread killer([&] {
    std::this_thread::sleep_for(300ms);
    ::kill(holder, SIGKILL);
  });
  const auto start = Clock::now();
  auto taken = claim->claim(make_key(7), start + 60s);
  const auto waited = Clock::now() - start;
  killer.join();
  int status = 0;
  ::waitpid(holder, &status, 0);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
  ASSERT_TRUE(taken && *taken) << "the dead holder's claim was not released";
  EXPECT_LT(waited, 5s) << "a waiter must get a dead builder's claim at once, not at the bound";
  taken->reset();
  EXPECT_EQ(files_in(config.dir / "claims"), 0u) << "the dead holder's lock file is removed";
}

TEST(HostClaim, NothingToClaimWhereNobodyPublishes) {
  TempDir dir;
  Config config = test_config(dir / "store");
  config.host_single_flight = false;
  EXPECT_EQ(host_claim(config), nullptr);
  config = test_config(dir / "store");
  config.read_only = true;
  EXPECT_EQ(host_claim(config), nullptr);
  config = test_config(dir / "store");
  config.disabled = true;
  EXPECT_EQ(host_claim(config), nullptr);
  EXPECT_FALSE(fs::exists(dir / "store")) << "no claim creates anything";
}

TEST(HostClaim, ClaimsDirectoryIsVettedLikeTheStore) {
  TempDir dir;
  const Config config = test_config(dir / "store");
  fs::create_directories(dir / "elsewhere");
  ASSERT_EQ(::mkdir(config.dir.c_str(), 0700), 0);
  fs::create_directory_symlink(dir / "elsewhere", config.dir / "claims");
  auto linked = open_host_claim(config);
  ASSERT_FALSE(linked);
  EXPECT_EQ(linked.error().code, ErrorCode::permission);
  EXPECT_NE(linked.error().message.find("symbolic link"), std::string::npos)
      << linked.error().message;

  fs::remove(config.dir / "claims");
  ASSERT_EQ(::mkdir((config.dir / "claims").c_str(), 0700), 0);
  ASSERT_EQ(::chmod((config.dir / "claims").c_str(), 0777), 0);
  auto open = open_host_claim(config);
  ASSERT_FALSE(open);
  EXPECT_EQ(open.error().code, ErrorCode::permission);
  EXPECT_NE(open.error().message.find("every user"), std::string::npos) << open.error().message;
}

TEST(HostClaim, CreatedOwnerOnlyOrGroupSharedWhateverTheUmask) {
  TempDir dir;
  const mode_t old = ::umask(0);
  Config config = test_config(dir / "private");
  ASSERT_TRUE(host_claim(config));
  config = test_config(dir / "shared");
  config.shared = true;
  ASSERT_TRUE(host_claim(config));
  ::umask(old);
  struct stat st {};
  ASSERT_EQ(::stat((dir / "private" / "claims").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0700u);
  ASSERT_EQ(::stat((dir / "shared" / "claims").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 02770u);
}

TEST(HostClaim, SomethingOtherThanAFileUnderTheLockNameIsRefused) {
  TempDir dir;
  const Config config = test_config(dir / "store");
  auto claim = host_claim(config);
  ASSERT_TRUE(claim);
  const auto name = config.dir / "claims" / (make_key(3).to_string() + ".lock");
  ASSERT_EQ(::mkfifo(name.c_str(), 0600), 0);
  auto hold = claim->claim(make_key(3), Clock::now() + 1s);
  ASSERT_FALSE(hold);
  EXPECT_EQ(hold.error().code, ErrorCode::permission);
}

// A claim that records the order of claims and releases, and can be told to time out.
class Recorder final : public BuildClaim {
 public:
  Recorder(std::string name, std::vector<std::string>& log, bool times_out)
      : name_(std::move(name)), log_(log), times_out_(times_out) {}
  Result<std::unique_ptr<Hold>> claim(const CacheKey&, Clock::time_point,
                                      const AppearedFn&) override {
    if (times_out_) {
      log_.push_back(name_ + " timed out");
      return std::unique_ptr<Hold>();
    }
    log_.push_back(name_ + " held");
    return std::unique_ptr<Hold>(std::make_unique<Released>(name_, log_));
  }
  std::string name() const override { return name_; }

 private:
  struct Released final : Hold {
    Released(std::string n, std::vector<std::string>& l) : name(std::move(n)), log(l) {}
    ~Released() override { log.push_back(name + " released"); }
    std::string name;
    std::vector<std::string>& log;
  };
  std::string name_;
  std::vector<std::string>& log_;
  bool times_out_;
};

TEST(ClaimChain, HoldsInOrderAndReleasesInReverse) {
  std::vector<std::string> log;
  ClaimChain chain({std::make_shared<Recorder>("host", log, false), nullptr,
                    std::make_shared<Recorder>("redis", log, false)});
  EXPECT_EQ(chain.name(), "host+redis");
  auto hold = chain.claim(make_key(1), Clock::now());
  ASSERT_TRUE(hold && *hold);
  hold->reset();
  EXPECT_EQ(log, (std::vector<std::string>{"host held", "redis held", "redis released",
                                           "host released"}));
}

TEST(ClaimChain, LaterTimeoutKeepsTheEarlierClaimsFirstTimeoutHoldsNothing) {
  std::vector<std::string> log;
  ClaimChain later({std::make_shared<Recorder>("host", log, false),
                    std::make_shared<Recorder>("redis", log, true)});
  auto hold = later.claim(make_key(1), Clock::now());
  ASSERT_TRUE(hold && *hold) << "the host claim is kept while building";
  hold->reset();
  EXPECT_EQ(log, (std::vector<std::string>{"host held", "redis timed out", "host released"}));

  log.clear();
  ClaimChain first({std::make_shared<Recorder>("host", log, true),
                    std::make_shared<Recorder>("redis", log, false)});
  auto none = first.claim(make_key(1), Clock::now());
  ASSERT_TRUE(none);
  EXPECT_FALSE(*none);
  EXPECT_EQ(log, (std::vector<std::string>{"host timed out"}));
}

}  // namespace
}  // namespace cccl_cache::test
