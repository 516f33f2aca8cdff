// The structural checker of data.mdb, the quarantine at open and rebuild_store.
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "cccl_cache/cache/integrity.hpp"
#include "cccl_cache/cache/log.hpp"
#include "test_store_damage_util.hpp"

namespace cccl_cache {
namespace {

namespace fs = std::filesystem;
using namespace test;
using namespace detail::lmdbfmt;

constexpr std::uint64_t kEntries = 40;

std::uint32_t psize_of(std::span<const std::byte> image) {
  return load<std::uint32_t>(image.data() + 16 + 24);
}

// The first page of `kind` in a clean image.
std::size_t first_page(std::span<const std::byte> image, PageKind kind) {
  const auto kinds = page_kinds(image, psize_of(image));
  for (std::size_t p = 2; p < kinds.size(); ++p)
    if (kinds[p] == kind) return p;
  ADD_FAILURE() << "no " << to_string(kind) << " page";
  return 0;
}

TEST(LmdbCheck, CleanStoreCountsEveryTree) {
  TempDir dir;
  fill_store(dir.path(), kEntries);
  auto check = check_lmdb_file(dir / "data.mdb");
  ASSERT_TRUE(check) << check.error().describe();
  EXPECT_TRUE(check->complete);
  EXPECT_FALSE(check->fresh);
  ASSERT_NE(check->tree("entries"), nullptr);
  ASSERT_NE(check->tree("usage"), nullptr);
  ASSERT_NE(check->tree("counters"), nullptr);
  ASSERT_NE(check->tree("signatures"), nullptr);
  EXPECT_EQ(check->tree("entries")->entries, kEntries);
  EXPECT_EQ(check->tree("usage")->entries, kEntries);
  EXPECT_EQ(check->tree("main")->entries, 4u);
  EXPECT_GE(check->tree("entries")->depth, 2u);  // the sweep needs a branch page
  EXPECT_GT(check->tree("entries")->overflow_pages, 0u);
  // The same bytes checked in memory give the same answer.
  auto image = read_bytes(dir / "data.mdb");
  auto again = check_lmdb_image(image);
  ASSERT_TRUE(again) << again.error().describe();
  EXPECT_EQ(again->txnid, check->txnid);
}

TEST(LmdbCheck, NoFalseAlarmAfterChurn) {
  // Puts, replacements, removals, evictions and clears leave free pages, loose pages
  // and a multi-page free list behind: none of it is damage.
  TempDir dir;
  std::mt19937_64 rng(7);
  auto config = test_config(dir.path());
  config.max_size = 400'000;
  for (int round = 0; round < 6; ++round) {
    {
      auto store = Store::open(config);
      ASSERT_TRUE(store) << store.error().describe();
      for (int i = 0; i < 60; ++i) {
        const std::uint64_t k = rng() % 80;
        if (rng() % 4 == 0) {
          ASSERT_TRUE((*store)->remove(make_key(k)));
        } else {
          ASSERT_TRUE(
              (*store)->put(make_key(k), make_meta(k), make_payload(rng(), 50 + rng() % 30000)));
        }
      }
      if (round == 3) {
        ASSERT_TRUE((*store)->clear());
      }
      ASSERT_TRUE((*store)->evict(EvictCriteria{.max_live_bytes = 200'000}));
    }
    auto check = check_lmdb_file(dir / "data.mdb");
    ASSERT_TRUE(check) << "round " << round << ": " << check.error().describe();
    EXPECT_GT(check->free_pages + check->trees.size(), 0u);
  }
}

TEST(LmdbCheck, EmptyFileIsFresh) {
  auto check = check_lmdb_image({});
  ASSERT_TRUE(check);
  EXPECT_TRUE(check->fresh);
}

TEST(LmdbCheck, ArbitraryBytesNeverCrash) {
  TempDir dir;
  fill_store(dir.path(), kEntries);
  const auto clean = read_bytes(dir / "data.mdb");
  std::mt19937_64 rng(11);
  int damaged = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    auto image = clean;
    const int flips = 1 + int(rng() % 8);
    for (int f = 0; f < flips; ++f) image[rng() % image.size()] ^= std::byte(1 + rng() % 255);
    if (trial % 10 == 0) image.resize(rng() % image.size());
    if (!check_lmdb_image(image)) ++damaged;
  }
  std::vector<std::byte> noise(64 * 1024);
  for (auto& b : noise) b = std::byte(rng());
  EXPECT_FALSE(check_lmdb_image(noise));
  EXPECT_GT(damaged, 0);
}

// Flips the low bit of the child page number of a branch page's second node.
void damage_branch_child(std::vector<std::byte>& img) {
  const std::uint32_t ps = psize_of(img);
  const std::size_t p = first_page(img, PageKind::branch);
  std::byte* page = img.data() + p * ps;
  const auto off = load<std::uint16_t>(page + 16 + 2);
  page[off] ^= std::byte{0x01};
}

struct DamageCase {
  const char* name;
  std::function<void(std::vector<std::byte>&)> damage;
  const char* expect;  // in the message
};

std::vector<DamageCase> damage_cases() {
  auto at = [](PageKind kind, std::size_t offset, std::byte x) {
    return [=](std::vector<std::byte>& img) {
      img[first_page(img, kind) * psize_of(img) + offset] ^= x;
    };
  };
  return {
      {"truncated", [](auto& img) { img.resize(3 * psize_of(img)); }, "end of the file"},
      {"meta0_magic", [](auto& img) { img[16] ^= std::byte{0xff}; }, "magic"},
      {"meta1_txnid", [](auto& img) { img[psize_of(img) + 16 + 128] ^= std::byte{0x04}; },
       "transaction"},
      {"branch_child", damage_branch_child, "page"},
      {"leaf_flags", at(PageKind::leaf, 10, std::byte{0x01}), "flags"},
      {"leaf_bounds", at(PageKind::leaf, 12, std::byte{0x40}), ""},
      {"overflow_header", at(PageKind::overflow_head, 10, std::byte{0x04}), "overflow"},
  };
}

TEST(LmdbCheck, FindsEachKindOfDamage) {
  TempDir dir;
  fill_store(dir.path(), kEntries);
  const auto clean = read_bytes(dir / "data.mdb");
  for (auto c : damage_cases()) {
    SCOPED_TRACE(c.name);
    auto image = clean;
    c.damage(image);
    auto check = check_lmdb_image(image);
    ASSERT_FALSE(check);
    EXPECT_EQ(check.error().code, ErrorCode::corrupt);
    EXPECT_NE(check.error().message.find(c.expect), std::string::npos) << check.error().message;
  }
}

TEST(StoreDamage, WritableOpenQuarantinesAndStartsEmpty) {
  TempDir dir;
  fill_store(dir.path(), kEntries);
  auto image = read_bytes(dir / "data.mdb");
  damage_branch_child(image);
  write_bytes(dir / "data.mdb", image);
  auto store = Store::open(test_config(dir.path()));
  ASSERT_TRUE(store) << store.error().describe();
  auto got = (*store)->get(make_key(1));
  ASSERT_TRUE(got);
  EXPECT_FALSE(got->has_value());
  auto stats = (*store)->stats();
  ASSERT_TRUE(stats);
  EXPECT_EQ(stats->entries, 0u);
  EXPECT_EQ(stats->quarantined, 1u);
  ASSERT_TRUE(fs::exists(dir / "quarantine"));
  int kept = 0;
  for (const auto& d : fs::directory_iterator(dir / "quarantine")) {
    EXPECT_EQ(read_bytes(d.path() / "data.mdb"), image);  // the damaged file, untouched
    ++kept;
  }
  EXPECT_EQ(kept, 1);
  ASSERT_TRUE((*store)->put(make_key(1), make_meta(1), damage_payload(1)));
  store->reset();
  EXPECT_TRUE(check_lmdb_file(dir / "data.mdb"));
}

// A fresh store's databases are created without a disk sync (shared_env.cpp): a system
// crash before its first entry's commit can leave the creation's pages unwritten (the
// file short of them, or zeros where they belong). The next open moves that store aside
// and starts empty; it held nothing.
TEST(StoreDamage, FreshStoreTornBeforeItsFirstSyncStartsAgain) {
  TempDir made;
  ASSERT_TRUE(Store::open(test_config(made.path())));
  const auto fresh = read_bytes(made / "data.mdb");
  const std::uint32_t ps = psize_of(fresh);
  ASSERT_GT(fresh.size(), 2u * ps);  // the metas, then the creation's pages
  auto short_file = fresh;
  short_file.resize(2 * ps);
  auto zeroed = short_file;
  zeroed.resize(fresh.size());  // zeros after the metas
  for (const auto& torn : {zeroed, short_file}) {
    TempDir dir;
    write_bytes(dir / "data.mdb", torn);
    auto store = Store::open(test_config(dir.path()));
    ASSERT_TRUE(store) << store.error().describe();
    EXPECT_EQ((*store)->stats()->quarantined, 1u);
    ASSERT_TRUE((*store)->put(make_key(1), make_meta(1), damage_payload(1)));
    auto got = (*store)->get(make_key(1));
    ASSERT_TRUE(got && got->has_value());
    store->reset();
    EXPECT_TRUE(check_lmdb_file(dir / "data.mdb"));
  }
}

TEST(StoreDamage, ReadOnlyOpenRefusesWithCorrupt) {
  TempDir dir;
  fill_store(dir.path(), kEntries);
  auto image = read_bytes(dir / "data.mdb");
  image.resize(image.size() / 2);
  write_bytes(dir / "data.mdb", image);
  auto config = test_config(dir.path());
  config.read_only = true;
  auto store = Store::open(config);
  ASSERT_FALSE(store);
  EXPECT_EQ(store.error().code, ErrorCode::corrupt);
  EXPECT_NE(store.error().message.find("verify --repair"), std::string::npos);
  EXPECT_EQ(read_bytes(dir / "data.mdb"), image);
  EXPECT_FALSE(fs::exists(dir / "quarantine"));
}

TEST(StoreDamage, RebuildSalvagesEveryReadableEntry) {
  TempDir dir;
  fill_store(dir.path(), kEntries);
  auto image = read_bytes(dir / "data.mdb");
  // Damage one overflow run's header: that entry is lost, every other one is kept.
  image[first_page(image, PageKind::overflow_head) * psize_of(image) + 10] ^= std::byte{0x04};
  write_bytes(dir / "data.mdb", image);
  ASSERT_FALSE(check_lmdb_file(dir / "data.mdb"));
  auto report = rebuild_store(test_config(dir.path()));
  ASSERT_TRUE(report) << report.error().describe();
  EXPECT_EQ(report->salvaged, kEntries - 1);
  EXPECT_EQ(report->lost, 1u);
  EXPECT_EQ(read_bytes(report->moved_to / "data.mdb"), image);
  auto check = check_lmdb_file(dir / "data.mdb");
  ASSERT_TRUE(check) << check.error().describe();
  EXPECT_EQ(check->tree("entries")->entries, kEntries - 1);
  auto store = Store::open(test_config(dir.path()));
  ASSERT_TRUE(store);
  int served = 0;
  for (std::uint64_t i = 0; i < kEntries; ++i) {
    auto got = (*store)->get(make_key(i));
    ASSERT_TRUE(got);
    if (*got) {
      EXPECT_EQ((*got)->payload, damage_payload(i));
      ++served;
    }
  }
  EXPECT_EQ(served, int(kEntries - 1));
  EXPECT_EQ((*store)->stats()->quarantined, 0u);
}

}  // namespace
}  // namespace cccl_cache
