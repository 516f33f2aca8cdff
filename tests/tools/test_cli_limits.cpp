// Hostile input to the CLI's parsers, in process: archive limits (a zstd frame that
// declares gigabytes, oversized entries, too many entries, long metadata), damaged
// compressed archives keeping their intact entries, manifest expansion limits,
// bounded file reads, operator source files that are not source, escaping for the
// terminal, and range-checked duration and size options.
#include <gtest/gtest.h>

#include "cccl_cache/algos/merge_sort/spec.hpp"
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "archive.hpp"
#include "bounded_read.hpp"
#include "context.hpp"
#include "format.hpp"
#include "manifest.hpp"
#include "spec_text.hpp"

namespace cccl_cache::cli {
namespace {

algos::merge_sort::Spec ms_of(const AnySpec& any) {
  auto s = algos::decode_fields<algos::merge_sort::Spec>(any.fields);
  EXPECT_TRUE(s);
  return s ? *s : algos::merge_sort::Spec{};
}

namespace fs = std::filesystem;

class Scratch : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("cccl-limits-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path file(const std::string& name, const std::string& text) {
    const auto p = dir_ / name;
    std::ofstream(p, std::ios::binary) << text;
    return p;
  }
  fs::path dir_;
};

std::vector<std::byte> bytes_of(std::initializer_list<int> v) {
  std::vector<std::byte> out;
  for (int b : v) out.push_back(static_cast<std::byte>(b));
  return out;
}

void append_le(std::vector<std::byte>& out, std::uint64_t v, int n) {
  for (int i = 0; i < n; ++i) out.push_back(static_cast<std::byte>((v >> (8 * i)) & 0xff));
}

// An archive header, then one zstd frame that declares `declared` bytes of content
// and holds a single RLE block: 33 bytes in all.
std::vector<std::byte> zstd_bomb(std::uint64_t declared, bool single_segment) {
  std::vector<std::byte> a(reinterpret_cast<const std::byte*>(kArchiveMagic),
                           reinterpret_cast<const std::byte*>(kArchiveMagic) + 8);
  append_le(a, kArchiveVersion, 4);
  append_le(a, kArchiveFlagZstd, 4);
  for (auto b : bytes_of({0x28, 0xb5, 0x2f, 0xfd})) a.push_back(b);   // zstd magic
  a.push_back(static_cast<std::byte>(single_segment ? 0xe0 : 0xc0));  // 8-byte content size
  if (!single_segment) a.push_back(static_cast<std::byte>(0x00));     // 1 KiB window
  append_le(a, declared, 8);
  append_le(a, 1u | (1u << 1) | (1024u << 3), 3);  // last block, RLE, 1024 bytes
  a.push_back(static_cast<std::byte>(0));
  return a;
}

Entry entry(std::uint64_t id, std::size_t size, std::mt19937_64& rng) {
  Entry e;
  e.key = CacheKey{{id, id * 7}, 90};
  e.meta = EntryMeta{"merge_sort", "keys=float32", "tc-1", 1, 1000, 2000, id, size};
  e.payload.resize(size);
  for (auto& b : e.payload) b = static_cast<std::byte>(rng() & 0xff);  // incompressible
  return e;
}

std::vector<std::byte> archive(bool compress, int n, std::size_t size, const fs::path& p) {
  std::mt19937_64 rng(42);
  ArchiveWriter w(compress);
  for (int i = 1; i <= n; ++i) w.add(entry(std::uint64_t(i), size, rng));
  EXPECT_TRUE(w.write(p).has_value());
  std::ifstream in(p, std::ios::binary);
  std::vector<char> raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::byte> out(raw.size());
  std::memcpy(out.data(), raw.data(), raw.size());
  return out;
}

bool mentions(const std::vector<std::string>& problems, const std::string& what) {
  for (const auto& p : problems)
    if (p.find(what) != std::string::npos) return true;
  return false;
}

TEST(ArchiveLimits, AZstdFrameDeclaringGigabytesAllocatesNothingForThem) {
  for (bool single : {true, false}) {
    for (std::uint64_t declared : {3'000'000'000ull, 1ull << 62}) {
      const auto bomb = zstd_bomb(declared, single);
      ASSERT_EQ(bomb.size(), single ? 33u : 34u);
      auto c = parse_archive(bomb);
      ASSERT_TRUE(c) << c.error().describe();
      EXPECT_TRUE(c->entries.empty());
      EXPECT_FALSE(c->trailer_ok);
      ASSERT_FALSE(c->problems.empty());
    }
  }
}

TEST_F(Scratch, EntryBodyAndCountLimitsStopTheReadingAndKeepWhatCameBefore) {
  const auto a = archive(false, 3, 1000, dir_ / "a.cccl");
  struct Case {
    ArchiveLimits limits;
    std::size_t kept;
    const char* says;
  };
  ArchiveLimits entry_limit, body_limit, count_limit;
  entry_limit.max_entry_bytes = 500;
  body_limit.max_body_bytes = 2 * 1200;  // two entries (~1.1 KB each), not three
  count_limit.max_entries = 2;
  for (const Case& c :
       {Case{entry_limit, 0, "more than the limit"}, Case{body_limit, 2, "exceeds the limit"},
        Case{count_limit, 2, "more than 2 entries"}}) {
    auto r = parse_archive(a, c.limits);
    ASSERT_TRUE(r) << r.error().describe();
    EXPECT_EQ(r->entries.size(), c.kept) << c.says;
    EXPECT_FALSE(r->trailer_ok);
    EXPECT_TRUE(mentions(r->problems, c.says))
        << c.says << ": " << ::testing::PrintToString(r->problems);
  }
  ArchiveLimits meta_limit;
  meta_limit.max_meta_bytes = 4;  // "merge_sort" is longer: every entry is malformed
  auto r = parse_archive(a, meta_limit);
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->entries.empty());
  EXPECT_TRUE(mentions(r->problems, "malformed"));
  // The default limits read it whole.
  auto all = parse_archive(a);
  ASSERT_TRUE(all);
  EXPECT_EQ(all->entries.size(), 3u);
  EXPECT_TRUE(all->trailer_ok);
}

TEST_F(Scratch, ADamagedCompressedArchiveKeepsTheEntriesBeforeTheDamage) {
  // 200 KiB of random bytes per entry: zstd stores them in several 128 KiB blocks,
  // and the blocks before the damage still decode.
  auto a = archive(true, 4, 200 * 1024, dir_ / "z.cccl");
  a.resize(a.size() - 1000);  // cuts the last block
  auto c = parse_archive(a);
  ASSERT_TRUE(c) << c.error().describe();
  EXPECT_GE(c->entries.size(), 2u);
  EXPECT_LT(c->entries.size(), 4u);
  EXPECT_FALSE(c->trailer_ok);
  EXPECT_TRUE(mentions(c->problems, "truncated")) << ::testing::PrintToString(c->problems);
  for (const auto& e : c->entries) EXPECT_EQ(e.payload.size(), 200u * 1024);
}

TEST_F(Scratch, ReadArchiveRefusesADirectoryAndStopsAtZeros) {
  auto d = read_archive(dir_);
  ASSERT_FALSE(d);
  EXPECT_EQ(d.error().code, ErrorCode::invalid_argument);
  EXPECT_NE(d.error().message.find("is a directory"), std::string::npos) << d.error().message;
  auto z = read_archive("/dev/zero");  // endless: refused after its first 16 bytes
  ASSERT_FALSE(z);
  EXPECT_EQ(z.error().code, ErrorCode::corrupt);
}

TEST(ManifestLimits, ArrayFieldsThatMultiplyPastTheLimitAreRefusedBeforeExpansion) {
  // 40^4 = 2.56 million combinations of one spec.
  const auto list = [](const char* v) {
    std::string out = "[";
    for (int i = 0; i < 40; ++i) out += std::string(i ? ", " : "") + "\"" + v + "\"";
    return out + "]";
  };
  const std::string bomb = "[[merge_sort]]\nkeys = " + list("int64") +
                           "\nvalues = " + list("int64") + "\noffset = " + list("int64") +
                           "\ncompare = " + list("less") + "\n";
  auto m = parse_manifest(bomb, {}, "bomb.toml");
  ASSERT_FALSE(m);
  EXPECT_NE(m.error().message.find("more than 10000 specs"), std::string::npos)
      << m.error().message;

  ManifestLimits small;
  small.max_specs = 10;
  auto s = parse_manifest(
      "[[merge_sort]]\nkeys = [\"int8\", \"int16\", \"int32\", \"int64\"]\n"
      "values = [\"none\", \"int8\", \"int16\"]\n",
      {}, "m.toml", small);
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().message.find("m.toml:1: merge_sort: the manifest expands to more than 10"),
            std::string::npos)
      << s.error().message;
  small.max_specs = 12;
  EXPECT_TRUE(
      parse_manifest("[[merge_sort]]\nkeys = [\"int8\", \"int16\", \"int32\", \"int64\"]\n"
                     "values = [\"none\", \"int8\", \"int16\"]\n",
                     {}, "m.toml", small));
}

TEST(ManifestLimits, DuplicatesAreDroppedInFileOrder) {
  const char* types[] = {"int8",   "int16",  "int32",  "int64",   "uint8",
                         "uint16", "uint32", "uint64", "float32", "float64"};
  std::string list = "[";
  for (int rep = 0; rep < 3; ++rep)
    for (const char* t : types) list += std::string(list.size() > 1 ? ", " : "") + "\"" + t + "\"";
  list += "]";
  auto m = parse_manifest("[[merge_sort]]\nkeys = " + list + "\nvalues = " + list +
                              "\n[[merge_sort]]\nkeys = \"int8\"\nvalues = \"int8\"\n",
                          {}, "m.toml");
  ASSERT_TRUE(m) << m.error().describe();
  ASSERT_EQ(m->specs.size(), 100u);
  for (std::size_t i = 0; i < 100; ++i) {
    EXPECT_EQ(algos::name(ms_of(m->specs[i]).key_type.scalar), std::string_view(types[i / 10]));
    EXPECT_EQ(algos::name(ms_of(m->specs[i]).value_type.scalar), std::string_view(types[i % 10]));
  }
}

TEST_F(Scratch, BoundedReadsRefuseDirectoriesAndTooLargeFiles) {
  const auto big = file("big.toml", std::string(2000, '#'));
  auto r = read_file_bounded(big, 1000, "manifest");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("is larger than"), std::string::npos) << r.error().message;
  EXPECT_TRUE(read_file_bounded(big, 2000, "manifest"));
  auto zero = read_file_bounded("/dev/zero", 1000, "manifest");  // no size to check: counted
  ASSERT_FALSE(zero);
  EXPECT_NE(zero.error().message.find("is larger than"), std::string::npos);
  auto d = load_manifest(dir_);
  ASSERT_FALSE(d);
  EXPECT_NE(d.error().message.find("is a directory"), std::string::npos) << d.error().message;
  ManifestLimits small;
  small.max_file_bytes = 100;
  auto m = load_manifest(big, small);
  ASSERT_FALSE(m);
  EXPECT_NE(m.error().message.find("is larger than"), std::string::npos) << m.error().message;
}

TEST_F(Scratch, AnOperatorSourceFileThatIsNotSourceIsNotEchoed) {
  file("secret.txt", "SECRET-TOKEN-1234 root:x:0:0\n");
  file("binary.cuh",
       std::string("__device__ bool op(float a, float b) { return a < b; }") +
           std::string("\0\x01", 2));
  file("op.cuh", "__device__ bool op(float a, float b) { return a < b; }\n");
  for (const char* name : {"secret.txt", "binary.cuh"}) {
    for (const std::string& text :
         {"[operators.op]\nsource_file = \"" + std::string(name) +
              "\"\n[[merge_sort]]\nkeys = \"float32\"\ncompare = \"op\"\n",
          "[[merge_sort]]\nkeys = \"float32\"\ncompare = \"op\"\nsource_file = \"" +
              std::string(name) + "\"\n"}) {
      auto m = parse_manifest(text, dir_, "m.toml");
      ASSERT_FALSE(m) << text;
      EXPECT_NE(m.error().message.find("does not define the operator 'op'"), std::string::npos)
          << m.error().message;
      EXPECT_EQ(m.error().message.find("SECRET"), std::string::npos) << m.error().message;
    }
  }
  auto spec =
      parse_spec_text("merge_sort keys=float32 compare=op source_file=secret.txt", {}, dir_);
  ASSERT_FALSE(spec);
  EXPECT_EQ(spec.error().message.find("SECRET"), std::string::npos) << spec.error().message;
  auto good = parse_manifest(
      "[operators.op]\nsource_file = \"op.cuh\"\n[[merge_sort]]\nkeys = \"float32\"\n"
      "compare = \"op\"\n",
      dir_, "m.toml");
  ASSERT_TRUE(good) << good.error().describe();
  EXPECT_NE(ms_of(good->specs[0]).comparator.source.find("a < b"), std::string::npos);
}

TEST(Printable, EscapesControlsBidiAndInvalidUtf8AndKeepsText) {
  struct Case {
    std::string in;
    bool keep_lines;
    std::string out;
  };
  for (const Case& c : {
           Case{"keys=float32 values=none", false, "keys=float32 values=none"},
           Case{"\x1b]0;owned\x07", false, "\\x1b]0;owned\\x07"},
           Case{"a\nb\tc", false, "a\\x0ab\\x09c"},
           Case{"a\nb\tc\r", true, "a\nb\tc\\x0d"},
           Case{"caf\xc3\xa9", false, "caf\xc3\xa9"},  // UTF-8 kept
           Case{"\xc2\x9b"
                "31m",
                false, "\\u009b31m"},  // C1 CSI
           Case{"\xe2\x80\xae"
                "txt",
                false, "\\u202etxt"},                       // right-to-left override
           Case{"\xff\xfe", false, "\\xff\\xfe"},           // not UTF-8
           Case{"\xc0\xaf", false, "\\xc0\\xaf"},           // overlong
           Case{"\xed\xa0\x80", false, "\\xed\\xa0\\x80"},  // surrogate
           Case{"\xe2\x82", false, "\\xe2\\x82"},           // truncated
           Case{std::string("a\0b", 3), false, "a\\x00b"},
       }) {
    EXPECT_EQ(printable(c.in, c.keep_lines), c.out) << ::testing::PrintToString(c.in);
  }
}

TEST(OptionRanges, DurationsAndSizesOutOfRangeAreUsageErrors) {
  for (const char* bad : {"9223372036854775808s", "18446744073709551615", "18446744073709551616s",
                          "106751991167301d", "36501d", "-1d", "-0", "1e9", "", "d"}) {
    auto r = parse_duration_option("--older-than", bad);
    ASSERT_FALSE(r) << bad;
    EXPECT_EQ(r.error().code, ErrorCode::invalid_argument);
    EXPECT_EQ(r.error().message.rfind("--older-than: ", 0), 0u) << r.error().message;
  }
  EXPECT_EQ(parse_duration_option("--older-than", "36500d").value(), 36500ll * 86400);
  EXPECT_EQ(parse_duration_option("--older-than", "2w").value(), 14 * 86400);
  for (const char* bad : {"1025T", "18446744073709551615", "17179869184G", "-1G", "1P", ""}) {
    auto r = parse_size_option("--max-size", bad);
    ASSERT_FALSE(r) << bad;
    EXPECT_EQ(r.error().message.rfind("--max-size: ", 0), 0u) << r.error().message;
  }
  EXPECT_EQ(parse_size_option("--max-size", "1024T").value(), 1ull << 50);
  EXPECT_EQ(parse_size_option("--max-size", "512M").value(), 512ull << 20);
}

}  // namespace
}  // namespace cccl_cache::cli
