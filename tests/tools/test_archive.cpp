// The export/import archive format: round trip, per-entry checksums, trailer,
// truncation and foreign files.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "archive.hpp"

namespace cccl_cache::cli {
namespace {

namespace fs = std::filesystem;

class ArchiveFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("cccl-archive-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  static Entry entry(std::uint64_t id, std::size_t size) {
    Entry e;
    e.key = CacheKey{{id, id * 7}, 90};
    e.meta = EntryMeta{"merge_sort",
                       "keys=float32 id=" + std::to_string(id),
                       "tc-1",
                       1,
                       1000 + std::int64_t(id),
                       2000,
                       id,
                       size};
    e.payload.resize(size);
    for (std::size_t i = 0; i < size; ++i)
      e.payload[i] = std::byte(static_cast<unsigned char>(i * 31 + id));
    return e;
  }
  fs::path write(bool compress, int n) {
    ArchiveWriter w(compress);
    for (int i = 1; i <= n; ++i) w.add(entry(std::uint64_t(i), 1000u * std::size_t(i)));
    const auto p = dir_ / "a.cccl";
    EXPECT_TRUE(w.write(p).has_value());
    return p;
  }
  static std::vector<char> bytes(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  }
  static void put(const fs::path& p, const std::vector<char>& b) {
    std::ofstream(p, std::ios::binary | std::ios::trunc).write(b.data(), std::streamsize(b.size()));
  }
  fs::path dir_;
};

TEST_F(ArchiveFile, RoundTripsEntriesExactly) {
  for (bool compress : {false, true}) {
    const auto p = write(compress, 3);
    auto c = read_archive(p);
    ASSERT_TRUE(c) << c.error().describe();
    EXPECT_TRUE(c->problems.empty());
    EXPECT_TRUE(c->trailer_ok);
    EXPECT_EQ(c->declared_count, 3u);
    ASSERT_EQ(c->entries.size(), 3u);
    for (std::uint64_t i = 1; i <= 3; ++i) {
      const Entry want = entry(i, 1000 * i);
      const Entry& got = c->entries[i - 1];
      EXPECT_EQ(got.key, want.key);
      EXPECT_EQ(got.payload, want.payload);
      EXPECT_EQ(got.meta.summary, want.meta.summary);
      EXPECT_EQ(got.meta.toolchain, want.meta.toolchain);
      EXPECT_EQ(got.meta.created_unix, want.meta.created_unix);
      EXPECT_EQ(got.meta.hits, want.meta.hits);
    }
  }
}

TEST_F(ArchiveFile, ADamagedEntryIsSkippedAndTheOthersKept) {
  const auto p = write(false, 3);
  auto b = bytes(p);
  b[b.size() / 2] = char(~b[b.size() / 2]);  // inside entry 2 or 3's payload
  put(p, b);
  auto c = read_archive(p);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->entries.size(), 2u);
  ASSERT_EQ(c->problems.size(), 2u);  // the entry, then the trailer
  EXPECT_NE(c->problems[0].find("checksum mismatch"), std::string::npos) << c->problems[0];
  EXPECT_FALSE(c->trailer_ok);
}

TEST_F(ArchiveFile, TruncationIsReported) {
  const auto p = write(false, 2);
  auto b = bytes(p);
  b.resize(b.size() - 20);  // into the 28-byte trailer
  put(p, b);
  auto c = read_archive(p);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->entries.size(), 2u);
  EXPECT_FALSE(c->trailer_ok);
  EXPECT_FALSE(c->problems.empty());

  b.resize(b.size() - 1500);  // into entry 2
  put(p, b);
  c = read_archive(p);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->entries.size(), 1u);
  EXPECT_FALSE(c->problems.empty());
}

TEST_F(ArchiveFile, DamagedCompressedBodyIsAProblem) {
  // Both entries lie in the frame's one block: cut, nothing of it decodes.
  const auto p = write(true, 2);
  auto b = bytes(p);
  b.resize(b.size() - 10);
  put(p, b);
  auto c = read_archive(p);
  ASSERT_TRUE(c) << c.error().describe();
  EXPECT_TRUE(c->entries.empty());
  EXPECT_FALSE(c->trailer_ok);
  ASSERT_EQ(c->problems.size(), 1u);
  EXPECT_NE(c->problems[0].find("compressed body is truncated"), std::string::npos)
      << c->problems[0];
}

TEST_F(ArchiveFile, ForeignFilesAndOtherVersionsAreRefused) {
  const auto p = dir_ / "x";
  put(p, {'h', 'e', 'l', 'l', 'o'});
  EXPECT_EQ(read_archive(p).error().code, ErrorCode::corrupt);
  const auto a = write(false, 1);
  auto b = bytes(a);
  b[8] = 9;  // version
  put(a, b);
  EXPECT_EQ(read_archive(a).error().code, ErrorCode::format);
  EXPECT_EQ(read_archive(dir_ / "absent").error().code, ErrorCode::not_found);
}

}  // namespace
}  // namespace cccl_cache::cli
