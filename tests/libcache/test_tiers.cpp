// The tier interface and the tier stack without a remote: memory and LMDB tiers,
// read-only images with backfill, write-through, claims, and the tier config keys.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <future>
#include <thread>

#include <sys/wait.h>
#include <unistd.h>

#include "cccl_cache/cache/tiers.hpp"
#include "test_util.hpp"

namespace cccl_cache {
namespace {

using test::make_key;
using test::make_meta;
using test::make_payload;
using test::TempDir;

bool equal_bytes(std::span<const std::byte> a, std::span<const std::byte> b) {
  return std::ranges::equal(a, b);
}

std::shared_ptr<Store> open_store(const std::filesystem::path& dir) {
  auto s = Store::open(test::test_config(dir));
  EXPECT_TRUE(s) << (s ? "" : s.error().describe());
  return *s;
}

TEST(MemoryTier, PutGetRemoveList) {
  auto tier = make_memory_tier();
  const auto key = make_key(1);
  const auto payload = make_payload(1);
  bool called = false;
  ASSERT_EQ(tier->get_with(key, [&](const EntryMeta&, std::span<const std::byte>) { called = true; }), false);
  EXPECT_FALSE(called);
  ASSERT_TRUE(tier->put(key, make_meta(1), payload));
  ASSERT_EQ(tier->get_with(key, [&](const EntryMeta& m, std::span<const std::byte> p) {
    called = true;
    EXPECT_EQ(m.summary, make_meta(1).summary);
    EXPECT_EQ(m.payload_size, payload.size());
    EXPECT_TRUE(equal_bytes(p, payload));
  }), true);
  EXPECT_TRUE(called);
  int listed = 0;
  ASSERT_TRUE(tier->for_each([&](const CacheKey& k, const EntryMeta&) {
    EXPECT_EQ(k, key);
    return ++listed > 0;
  }));
  EXPECT_EQ(listed, 1);
  EXPECT_EQ(*tier->remove(key), true);
  EXPECT_EQ(*tier->remove(key), false);
  auto s = tier->stats();
  EXPECT_EQ(s.hits, 1u);
  EXPECT_EQ(s.misses, 1u);
  EXPECT_EQ(s.puts, 1u);
}

TEST(MemoryTier, ReadOnlyRefusesWrites) {
  auto tier = make_memory_tier(/*read_only=*/true);
  EXPECT_TRUE(tier->read_only());
  auto r = tier->put(make_key(1), make_meta(1), make_payload(1));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::read_only);
}

TEST(StoreTier, CountsHitsMissesAndLatency) {
  TempDir dir;
  auto tier = make_store_tier(open_store(dir.path()), "local");
  ASSERT_TRUE(tier->put(make_key(1), make_meta(1), make_payload(1)));
  EXPECT_EQ(*tier->get_payload_with(make_key(1), [](std::span<const std::byte>) {}), true);
  EXPECT_EQ(*tier->get_payload_with(make_key(2), [](std::span<const std::byte>) {}), false);
  auto s = tier->stats();
  EXPECT_EQ(s.hits, 1u);
  EXPECT_EQ(s.misses, 1u);
  EXPECT_GT(s.get_ns_total, 0u);
  EXPECT_GE(s.get_ns_total, s.get_ns_max);
}

// A prewarmed store, closed, then opened as a read-only image behind an empty local.
TEST(TierStack, ImageHitIsBackfilledIntoLocal) {
  TempDir image_dir, local_dir;
  {
    auto image = open_store(image_dir.path());
    ASSERT_TRUE(image->put(make_key(7), make_meta(7), make_payload(7)));
  }
  Config c = test::test_config(local_dir.path());
  c.images = {image_dir.path()};
  auto stack = TierStack::open(c);
  ASSERT_TRUE(stack) << stack.error().describe();
  ASSERT_EQ((*stack)->tiers().size(), 2u);
  EXPECT_TRUE((*stack)->tiers()[1]->read_only());

  std::vector<std::byte> got;
  auto accept = [&](std::span<const std::byte> p) {
    got.assign(p.begin(), p.end());
    return true;
  };
  auto first = (*stack)->get(make_key(7), accept);
  ASSERT_TRUE(first);
  ASSERT_EQ(*first, std::optional<std::size_t>(1));  // from the image
  EXPECT_EQ(got, make_payload(7));
  auto second = (*stack)->get(make_key(7), accept);
  ASSERT_EQ(*second, std::optional<std::size_t>(0));  // now local
  auto local = open_store(local_dir.path());
  auto entry = local->peek(make_key(7));
  ASSERT_TRUE(entry && *entry);
  EXPECT_EQ((*entry)->meta.summary, make_meta(7).summary);
  EXPECT_EQ(*(*stack)->get(make_key(8), accept), std::nullopt);
}

// A local tier whose batched writes wait until the test opens the gate: the tier
// stack's background backfill is then observably not yet written.
class GatedTier final : public Tier {
 public:
  explicit GatedTier(std::shared_ptr<Tier> inner, std::shared_future<void> gate)
      : inner_(std::move(inner)), gate_(std::move(gate)) {}
  const std::string& name() const override { return inner_->name(); }
  bool read_only() const override { return false; }
  Result<bool> get_with(const CacheKey& key, const EntryFn& fn) override {
    auto hit = inner_->get_with(key, fn);
    if (hit && !*hit && after_miss) std::exchange(after_miss, nullptr)();
    return hit;
  }
  Result<bool> put(const CacheKey& key, const EntryMeta& meta, std::span<const std::byte> p) override {
    return inner_->put(key, meta, p);
  }
  Result<void> put_many(std::span<const PutItem> items) override {
    gate_.wait();
    return inner_->put_many(items);
  }
  Result<bool> remove(const CacheKey& key) override { return inner_->remove(key); }
  Result<void> for_each(const ListFn& fn) override { return inner_->for_each(fn); }
  TierStats stats() const override { return inner_->stats(); }

  std::function<void()> after_miss;  // run once, after a read that missed, before it returns

 private:
  std::shared_ptr<Tier> inner_;
  std::shared_future<void> gate_;
};

bool holds(Tier& tier, const CacheKey& key) {
  return *tier.get_with(key, [](const EntryMeta&, std::span<const std::byte>) {});
}

// get(make_key(i)) is a hit of the local tier (0) with entry i's payload.
void expect_local_hit(TierStack& stack, std::uint64_t i) {
  std::vector<std::byte> got;
  auto hit = stack.get(make_key(i), [&](std::span<const std::byte> p) {
    got.assign(p.begin(), p.end());
    return true;
  });
  ASSERT_TRUE(hit);
  EXPECT_EQ(*hit, std::optional<std::size_t>(0));
  EXPECT_EQ(got, make_payload(i));
}

// A stack whose local tier is a GatedTier over `memory` (writes wait for `gate`) and
// whose one image holds the entries of `held`.
struct GatedStack {
  std::unique_ptr<TierStack> stack;
  GatedTier* local = nullptr;
  Tier* image = nullptr;
};
GatedStack gated_stack(std::shared_ptr<Tier> memory, std::shared_future<void> gate,
                       std::initializer_list<std::uint64_t> held) {
  GatedStack out;
  auto image = make_memory_tier();
  for (std::uint64_t i : held) EXPECT_TRUE(image->put(make_key(i), make_meta(i), make_payload(i)));
  out.image = image.get();
  std::vector<std::unique_ptr<Tier>> images;
  images.push_back(std::move(image));
  auto local = std::make_unique<GatedTier>(std::move(memory), std::move(gate));
  out.local = local.get();
  out.stack = std::make_unique<TierStack>(std::move(local), std::move(images), nullptr);
  return out;
}

// fetch_many returns before its backfill is written; until then get() serves the fetched
// entries from memory as local hits (no second shared lookup), and a second fetch_many
// counts them as local. flush() waits for the write; the destructor does too.
TEST(TierStack, BatchedBackfillIsWrittenInTheBackgroundAndServedMeanwhile) {
  std::shared_ptr<Tier> memory = make_memory_tier();
  std::promise<void> open;
  auto [stack, local, image_view] = gated_stack(memory, open.get_future().share(), {1, 2});
  const std::vector<CacheKey> keys{make_key(1), make_key(2), make_key(3)};
  const auto served = stack->fetch_many(keys, [](std::size_t, std::span<const std::byte>) { return true; });
  EXPECT_EQ(served, (std::vector<std::optional<std::size_t>>{1, 1, std::nullopt}));
  EXPECT_FALSE(holds(*memory, make_key(1)));  // the write waits at the gate
  const auto image_reads = image_view->stats();
  expect_local_hit(*stack, 2);
  EXPECT_EQ(stack->fetch_many(std::span(keys).first(1), [](std::size_t, std::span<const std::byte>) { return true; }),
            (std::vector<std::optional<std::size_t>>{0}));
  EXPECT_EQ(image_view->stats().requests, image_reads.requests);  // nothing asked of the image again
  open.set_value();
  stack->flush();
  EXPECT_TRUE(holds(*memory, make_key(1)));
  EXPECT_TRUE(holds(*memory, make_key(2)));
  EXPECT_FALSE(holds(*memory, make_key(3)));
}

// The backfill commits between a local read that missed and the look at memory: were the
// local tier read first, the entry would be in neither place. get_local() looks at memory
// first (a batch leaves it only once committed), then at the local tier.
TEST(TierStack, EntryCommittedDuringALocalReadIsStillALocalHit) {
  std::shared_ptr<Tier> memory = make_memory_tier();
  std::promise<void> open;
  auto [stack, local, image_view] = gated_stack(memory, open.get_future().share(), {6});
  const std::vector<CacheKey> keys{make_key(6)};
  ASSERT_EQ(stack->fetch_many(keys, [](std::size_t, std::span<const std::byte>) { return true; }),
            (std::vector<std::optional<std::size_t>>{1}));
  const auto image_reads = image_view->stats().requests;
  bool committed = false;
  local->after_miss = [&] {  // a local read misses, then the batch commits
    open.set_value();
    stack->flush();
    committed = true;
  };
  expect_local_hit(*stack, 6);
  EXPECT_EQ(image_view->stats().requests, image_reads);  // the image was not asked again
  if (!committed) {
    local->after_miss = nullptr;
    open.set_value();
  }
  stack->flush();
  EXPECT_TRUE(holds(*memory, make_key(6)));
  std::vector<std::byte> got;  // committed: now the local tier's
  auto again = stack->get_local(make_key(6), [&](std::span<const std::byte> p) { got.assign(p.begin(), p.end()); });
  ASSERT_TRUE(again && *again);
  EXPECT_EQ(got, make_payload(6));
  EXPECT_FALSE(*stack->get_local(make_key(7), [](std::span<const std::byte>) {}));
}

TEST(TierStack, DestructorWritesPendingBackfills) {
  std::shared_ptr<Tier> memory = make_memory_tier();
  std::promise<void> open;
  auto stack = gated_stack(memory, open.get_future().share(), {4}).stack;
  const std::vector<CacheKey> keys{make_key(4)};
  (void)stack->fetch_many(keys, [](std::size_t, std::span<const std::byte>) { return true; });
  std::thread opener([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    open.set_value();
  });
  stack.reset();  // waits for the gate, then the write
  opener.join();
  EXPECT_TRUE(holds(*memory, make_key(4)));
}

// A child forked while the parent's backfill waits neither inherits that write nor waits
// for it: it reads through the tiers and tears its stack down at once.
TEST(TierStack, ForkedChildNeitherWaitsForNorWritesTheParentsBackfill) {
  std::shared_ptr<Tier> memory = make_memory_tier();
  std::promise<void> open;
  auto stack = gated_stack(memory, open.get_future().share(), {5}).stack;
  const std::vector<CacheKey> keys{make_key(5)};
  (void)stack->fetch_many(keys, [](std::size_t, std::span<const std::byte>) { return true; });
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    std::vector<std::byte> got;
    auto hit = stack->get(make_key(5), [&](std::span<const std::byte> p) {
      got.assign(p.begin(), p.end());
      return true;
    });
    const bool served = hit && *hit && got == make_payload(5);
    stack->flush();  // nothing of its own to wait for
    stack.reset();
    ::_exit(served ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  open.set_value();
  stack->flush();
  EXPECT_TRUE(holds(*memory, make_key(5)));
}

TEST(TierStack, RejectedSharedEntryIsNotBackfilled) {
  auto local = make_memory_tier();
  auto image = make_memory_tier();
  ASSERT_TRUE(image->put(make_key(1), make_meta(1), make_payload(1)));
  std::vector<std::unique_ptr<Tier>> images;
  images.push_back(std::move(image));
  TierStack stack(std::move(local), std::move(images), nullptr);
  auto r = stack.get(make_key(1), [](std::span<const std::byte>) { return false; });
  ASSERT_TRUE(r);
  EXPECT_EQ(*r, std::nullopt);
  EXPECT_EQ(*stack.local()->get_with(make_key(1), [](const EntryMeta&, std::span<const std::byte>) {}),
            false);
}

TEST(TierStack, MissingImageIsSkippedWithAWarning) {
  TempDir local_dir, empty;
  Config c = test::test_config(local_dir.path());
  c.images = {empty.path() / "absent"};
  auto stack = TierStack::open(c);
  ASSERT_TRUE(stack) << stack.error().describe();
  EXPECT_EQ((*stack)->tiers().size(), 1u);
}

TEST(TierStack, PutWritesThroughToTheRemote) {
  auto remote = make_memory_tier();
  Tier* remote_view = remote.get();
  TierStack stack(make_memory_tier(), {}, std::move(remote));
  ASSERT_TRUE(stack.put(make_key(3), make_meta(3), make_payload(3)));
  EXPECT_EQ(*remote_view->get_with(make_key(3), [](const EntryMeta&, std::span<const std::byte>) {}), true);
  EXPECT_EQ(*stack.local()->get_with(make_key(3), [](const EntryMeta&, std::span<const std::byte>) {}), true);
}

TEST(TierStack, LoadOrBuildBuildsOnceThenHits) {
  TierStack stack(make_memory_tier(), {}, nullptr);
  int builds = 0;
  auto build = [&]() -> Result<TierStack::Built> {
    ++builds;
    return TierStack::Built{make_meta(5), make_payload(5)};
  };
  auto accept = [](std::span<const std::byte> p) { return equal_bytes(p, make_payload(5)); };
  auto a = stack.load_or_build(make_key(5), accept, build);
  ASSERT_TRUE(a);
  EXPECT_TRUE(a->built);
  auto b = stack.load_or_build(make_key(5), accept, build);
  ASSERT_TRUE(b);
  EXPECT_FALSE(b->built);
  EXPECT_EQ(b->tier, std::optional<std::size_t>(0));
  EXPECT_EQ(builds, 1);
  auto failed = stack.load_or_build(make_key(6), accept, [] () -> Result<TierStack::Built> {
    return fail(ErrorCode::compile, "no");
  });
  ASSERT_FALSE(failed);
  EXPECT_EQ(failed.error().code, ErrorCode::compile);
}

// A claim that logs claims and releases; it holds, times out, or sees the entry appear.
enum class Outcome { holds, times_out, appears };
class RecordingClaim : public BuildClaim {
 public:
  RecordingClaim(std::string name, Outcome outcome, std::vector<std::string>* log)
      : name_(std::move(name)), outcome_(outcome), log_(log) {}
  std::string name() const override { return name_; }
  Result<std::unique_ptr<Hold>> claim(const CacheKey&, Clock::time_point,
                                      const AppearedFn& appeared) override {
    log_->push_back("claim " + name_);
    struct Held : Hold {
      Held(std::vector<std::string>* l, std::string n) : log(l), name(std::move(n)) {}
      ~Held() override { log->push_back("release " + name); }
      std::vector<std::string>* log;
      std::string name;
    };
    if (outcome_ == Outcome::holds) return std::unique_ptr<Hold>(std::make_unique<Held>(log_, name_));
    if (outcome_ == Outcome::appears) {
      EXPECT_TRUE(appeared && appeared());
    }
    return std::unique_ptr<Hold>();
  }

 private:
  std::string name_;
  Outcome outcome_;
  std::vector<std::string>* log_;
};

std::shared_ptr<BuildClaim> chain(std::vector<std::shared_ptr<BuildClaim>> claims) {
  return std::make_shared<ClaimChain>(std::move(claims));
}

// load_or_build of key 1 whose build logs "build" and counts.
Result<TierStack::Obtained> obtain_one(TierStack& stack, std::vector<std::string>& log, int& builds) {
  return stack.load_or_build(make_key(1), [](std::span<const std::byte>) { return true; },
                             [&]() -> Result<TierStack::Built> {
                               log.push_back("build");
                               ++builds;
                               return TierStack::Built{make_meta(1), make_payload(1)};
                             });
}

TEST(TierStack, ClaimsComposeHostThenCluster) {
  std::vector<std::string> log;
  TierStack stack(make_memory_tier(), {}, nullptr);
  stack.set_claim(chain({std::make_shared<RecordingClaim>("host", Outcome::holds, &log),
                         std::make_shared<RecordingClaim>("cluster", Outcome::holds, &log)}),
                  std::chrono::seconds(1));
  int builds = 0;
  ASSERT_TRUE(obtain_one(stack, log, builds));
  EXPECT_EQ(log, (std::vector<std::string>{"claim host", "claim cluster", "build",
                                           "release cluster", "release host"}));
}

TEST(TierStack, UnclaimedStillBuilds) {
  std::vector<std::string> log;
  TierStack stack(make_memory_tier(), {}, nullptr);
  stack.set_claim(chain({std::make_shared<RecordingClaim>("cluster", Outcome::times_out, &log)}),
                  std::chrono::milliseconds(1));
  int builds = 0;
  auto r = obtain_one(stack, log, builds);
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->built);
  EXPECT_EQ(builds, 1);
}

// An entry another builder published while this one waited is loaded, not built; the
// host claim taken before is released without a build.
TEST(TierStack, EntryAppearingDuringTheClaimIsLoaded) {
  std::vector<std::string> log;
  auto remote = make_memory_tier();
  Tier* shared = remote.get();
  TierStack stack(make_memory_tier(), {}, std::move(remote));
  auto publisher = std::make_shared<RecordingClaim>("cluster", Outcome::appears, &log);
  // The other host publishes the moment this one starts waiting on the lease.
  struct Publishing : BuildClaim {
    Tier* tier;
    std::shared_ptr<BuildClaim> inner;
    std::string name() const override { return inner->name(); }
    Result<std::unique_ptr<Hold>> claim(const CacheKey& k, Clock::time_point d,
                                        const AppearedFn& a) override {
      EXPECT_TRUE(tier->put(k, make_meta(1), make_payload(1)));
      return inner->claim(k, d, a);
    }
  };
  auto publishing = std::make_shared<Publishing>();
  publishing->tier = shared;
  publishing->inner = publisher;
  stack.set_claim(chain({std::make_shared<RecordingClaim>("host", Outcome::holds, &log), publishing}),
                  std::chrono::seconds(1));
  int builds = 0;
  auto r = obtain_one(stack, log, builds);
  ASSERT_TRUE(r);
  EXPECT_FALSE(r->built);
  EXPECT_EQ(builds, 0);
  EXPECT_EQ(log, (std::vector<std::string>{"claim host", "claim cluster", "release host"}));
  EXPECT_TRUE(*stack.local()->get_payload_with(make_key(1), [](std::span<const std::byte>) {}));
}

TEST(TierConfig, TomlKeys) {
  auto c = Config::from_toml(R"(
remote = "redis://:secret@cache.example:6380/2"
remote_read_only = true
remote_timeout_ms = 7
remote_retry_ms = 250
remote_password_file = "/run/secrets/redis"
lease_ms = 1000
build_wait_ms = 2000
images = ["/shared/image-a", "/shared/image-b"]
)");
  ASSERT_TRUE(c) << c.error().describe();
  EXPECT_EQ(c->remote.url, "redis://:secret@cache.example:6380/2");
  EXPECT_TRUE(c->remote.read_only);
  EXPECT_EQ(c->remote.timeout_ms, 7u);
  EXPECT_EQ(c->remote.retry_ms, 250u);
  EXPECT_EQ(c->remote.password_file, "/run/secrets/redis");
  EXPECT_EQ(c->remote.lease_ms, 1000u);
  EXPECT_EQ(c->build_wait_ms, 2000u);
  ASSERT_EQ(c->images.size(), 2u);
  EXPECT_EQ(c->images[1], "/shared/image-b");
}

TEST(TierConfig, BadValuesAreNamed) {
  struct Case {
    const char* toml;
    const char* mentions;
  };
  for (Case k : {Case{"remote = \"http://x\"", "redis://"}, Case{"remote = 5", "remote"},
                 Case{"remote = \"redis://h:99999\"", "port"},
                 Case{"remote = \"redis://h/x\"", "database"}, Case{"remote = \"redis://\"", "host"},
                 Case{"remote_timeout_ms = -1", "remote_timeout_ms"},
                 Case{"images = \"/a\"", "images"}, Case{"remote_read_only = 1", "remote_read_only"}}) {
    auto c = Config::from_toml(k.toml);
    ASSERT_FALSE(c) << k.toml;
    EXPECT_EQ(c.error().code, ErrorCode::invalid_argument);
    EXPECT_NE(c.error().message.find(k.mentions), std::string::npos) << c.error().message;
  }
}

TEST(TierConfig, Environment) {
  ::setenv("CCCL_CACHE_REMOTE", "redis://127.0.0.1:7000/1", 1);
  ::setenv("CCCL_CACHE_REMOTE_READ_ONLY", "1", 1);
  ::setenv("CCCL_CACHE_REMOTE_TIMEOUT_MS", "3", 1);
  ::setenv("CCCL_CACHE_IMAGES", "/a::/b", 1);
  ::setenv("CCCL_CACHE_CONFIG", "/dev/null", 1);
  auto c = Config::load();
  ::setenv("CCCL_CACHE_REMOTE_TIMEOUT_MS", "soon", 1);
  auto bad = Config::load();
  ::setenv("CCCL_CACHE_REMOTE_TIMEOUT_MS", "3", 1);
  ::setenv("CCCL_CACHE_REMOTE", "memcached://x", 1);
  auto bad_url = Config::load();
  for (const char* v : {"CCCL_CACHE_REMOTE", "CCCL_CACHE_REMOTE_READ_ONLY",
                        "CCCL_CACHE_REMOTE_TIMEOUT_MS", "CCCL_CACHE_IMAGES", "CCCL_CACHE_CONFIG"})
    ::unsetenv(v);
  ASSERT_TRUE(c) << c.error().describe();
  EXPECT_EQ(c->remote.url, "redis://127.0.0.1:7000/1");
  EXPECT_TRUE(c->remote.read_only);
  EXPECT_EQ(c->remote.timeout_ms, 3u);
  EXPECT_EQ(c->images, (std::vector<std::filesystem::path>{"/a", "/b"}));
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("CCCL_CACHE_REMOTE_TIMEOUT_MS"), std::string::npos);
  ASSERT_FALSE(bad_url);
  EXPECT_NE(bad_url.error().message.find("CCCL_CACHE_REMOTE"), std::string::npos);
}

}  // namespace
}  // namespace cccl_cache
