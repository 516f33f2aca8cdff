// The real binary against hostile input: overflowing durations and sizes, a zstd
// bomb and endless files under a memory limit, crafted metadata that must neither
// break JSON nor reach the terminal raw, crafted summaries, and the usage errors a
// newcomer trips on (empty or unbuildable --arch, empty --cache-dir, a directory as
// the archive, an unknown command).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include "archive.hpp"
#include "cccl_cache/algos/core/built.hpp"
#include "cccl_cache/algos/merge_sort/build_result.hpp"
#include "cccl_cache/algos/merge_sort/spec.hpp"
#include "cli_test_util.hpp"

namespace cccl_cache::test {
namespace {

namespace fs = std::filesystem;
namespace ms = algos::merge_sort;

struct LimitedRun {
  int code = -1;
  long max_rss_kib = 0;
  std::string out, err;
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Runs the binary with its address space limited to `as_bytes` (like `prlimit --as`)
// and returns its exit code and peak resident memory (getrusage of the child).
LimitedRun run_limited(const std::vector<std::string>& args, std::uint64_t as_bytes) {
  TempDir io;
  const auto out = io.path() / "out", err = io.path() / "err";
  std::vector<std::string> argv_s{CCCL_CACHE_CLI_PATH};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    const rlimit lim{as_bytes, as_bytes};
    setrlimit(RLIMIT_AS, &lim);
    const int in = open("/dev/null", O_RDONLY);
    const int o = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    const int e = open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    dup2(in, 0), dup2(o, 1), dup2(e, 2);
    execv(argv[0], argv.data());
    _exit(127);
  }
  LimitedRun r;
  int status = 0;
  rusage ru{};
  EXPECT_EQ(wait4(pid, &status, 0, &ru), pid);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.max_rss_kib = ru.ru_maxrss;
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

constexpr std::uint64_t kAddressSpace = 1ull << 30;  // the binary runs in ~0.4 GiB

// ASan reserves terabytes of address space for its shadow memory and inflates RSS: the
// memory bounds are measured in the normal build (CI runs both).
#if defined(__SANITIZE_ADDRESS__)
#define SKIP_MEMORY_BOUNDS_UNDER_ASAN() GTEST_SKIP() << "memory bounds are checked without ASan"
#else
#define SKIP_MEMORY_BOUNDS_UNDER_ASAN() (void)0
#endif

fs::path write(const TempDir& d, const std::string& name, const std::string& text) {
  const auto p = d.path() / name;
  std::ofstream(p, std::ios::binary) << text;
  return p;
}

TEST(CliHostile, OverflowingDurationsAndSizesAreUsageErrorsAndRemoveNothing) {
  TempDir dir;
  put_build(dir.path(), real_build(90));
  const std::string d = dir.path().string();
  for (std::vector<std::string> args :
       {std::vector<std::string>{"--older-than", "9223372036854775808s"},  // 2^63: wrapped negative
        {"--older-than", "18446744073709551615"},
        {"--older-than", "153722867280913w"},  // fits u64 seconds, not i64
        {"--older-than", "36501d"},
        {"--older-than", "-1d"},
        {"--max-size", "18446744073709551615"},
        {"--max-size", "2000T"}}) {
    args.insert(args.begin(), {"--cache-dir", d, "evict"});
    auto r = run_cli(args);
    EXPECT_EQ(r.code, 2) << testing::PrintToString(args) << "\n" << r.out << r.err;
  }
  EXPECT_EQ(run_cli({"--cache-dir", d, "ls", "--json"}).json()["count"], 1);
  // The same range for configuration values.
  const auto cfg = write(dir, "c.toml", "max_map_size = \"2000T\"\n");
  auto c = run_cli({"--config", cfg.string(), "--cache-dir", d, "stats"});
  EXPECT_EQ(c.code, 2) << c.err;
  EXPECT_NE(c.err.find("max_map_size"), std::string::npos) << c.err;
}

TEST(CliHostile, ADecompressionBombIsRejectedWithBoundedMemory) {
  SKIP_MEMORY_BOUNDS_UNDER_ASAN();
  TempDir dir;
  // Archive header, then a zstd frame declaring 3 GB (single segment) with one RLE block.
  std::string bomb(cli::kArchiveMagic, 8);
  bomb += std::string("\x01\x00\x00\x00\x01\x00\x00\x00", 8);
  bomb += std::string("\x28\xb5\x2f\xfd\xe0", 5);
  const std::uint64_t declared = 3'000'000'000ull;
  for (int i = 0; i < 8; ++i) bomb += static_cast<char>((declared >> (8 * i)) & 0xff);
  bomb += std::string("\x03\x20\x00\x00", 4);  // last RLE block of 1024 bytes, then its byte
  ASSERT_EQ(bomb.size(), 33u);
  const auto file = write(dir, "bomb.cccl", bomb);
  auto r = run_limited({"--cache-dir", (dir.path() / "c").string(), "import", file.string()},
                       kAddressSpace);
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("compressed body is damaged"), std::string::npos) << r.out << r.err;
  EXPECT_LT(r.max_rss_kib, 256 * 1024) << "peak RSS " << r.max_rss_kib << " KiB";
}

TEST(CliHostile, EndlessInputsAreReadWithinLimits) {
  SKIP_MEMORY_BOUNDS_UNDER_ASAN();
  TempDir dir;
  const std::string cache = (dir.path() / "c").string();
  auto im = run_limited({"--cache-dir", cache, "import", "/dev/zero"}, kAddressSpace);
  EXPECT_EQ(im.code, 1) << im.err;
  EXPECT_NE(im.err.find("not a cccl-cache archive"), std::string::npos) << im.err;
  auto pw =
      run_limited({"--cache-dir", cache, "prewarm", "--manifest", "/dev/zero", "--arch", "sm_90"},
                  kAddressSpace);
  EXPECT_EQ(pw.code, 2) << pw.err;
  EXPECT_NE(pw.err.find("is larger than"), std::string::npos) << pw.err;
  EXPECT_LT(pw.max_rss_kib, 256 * 1024);
}

TEST(CliHostile, StoredMetadataNeverBreaksJsonNorReachesTheTerminalRaw) {
  TempDir dir;
  const CacheKey key{{0x1234, 0x5678}, 90};
  EntryMeta meta;
  meta.algorithm = "merge_sort\x1b[2J";
  meta.summary =
      "keys=\x1b]0;owned\x07 \xff\xfe \xc2\x9b"
      "31m";
  meta.toolchain = "tc\r\x1b[1A";
  meta.payload_format = 1;
  put_raw(dir.path(), key, meta, std::vector<std::byte>(64, std::byte{7}));
  const std::string d = dir.path().string();
  auto j = run_cli({"--cache-dir", d, "ls", "--json"});
  ASSERT_EQ(j.code, 0) << j.err;
  EXPECT_EQ(j.json()["count"], 1);
  for (unsigned char c : j.out) ASSERT_TRUE(c == '\n' || (c >= 0x20 && c < 0x7f)) << int(c);
  for (std::vector<std::string> args : {std::vector<std::string>{"ls"},
                                        {"inspect", key.to_string()},
                                        {"evict", "--arch", "sm_90", "--dry-run"}}) {
    args.insert(args.begin(), {"--cache-dir", d});
    auto r = run_cli(args);
    EXPECT_LE(r.code, 1) << r.err;
    for (const std::string* s : {&r.out, &r.err}) {
      EXPECT_EQ(s->find_first_of("\x1b\x07\r"), std::string::npos) << *s;
      EXPECT_EQ(s->find("\xc2\x9b"), std::string::npos) << *s;
      EXPECT_EQ(s->find('\xff'), std::string::npos) << *s;
    }
    EXPECT_NE(r.out.find("\\x1b"), std::string::npos) << r.out;
  }
}

TEST(CliHostile, ImportDerivesTheSummaryFromTheSpecNeverFromTheArchive) {
  TempDir dir;
  const auto& b = real_build(90);
  const auto& tc = algos::Toolchain::current();
  Entry good;
  good.key = algos::cache_key(b.spec, b.record.cc, tc);
  good.payload = algos::serialize(b);
  good.meta = EntryMeta{std::string(algorithm_name(ms::Spec::kAlgorithm)),
                        "keys=int8 \x1b[31mLIES",
                        b.record.toolchain,
                        tc.build_format_version,
                        1,
                        1,
                        0,
                        good.payload.size()};
  Entry other;
  other.key = CacheKey{{1, 2}, 90};
  other.payload = std::vector<std::byte>(32, std::byte{1});
  other.meta = EntryMeta{"radix_sort", "keys=float64 MORE LIES", "tc", 1, 1, 1, 0, 32};
  cli::ArchiveWriter w(true);
  w.add(good);
  w.add(other);
  const auto file = dir.path() / "crafted.cccl";
  ASSERT_TRUE(w.write(file));
  const std::string cache = (dir.path() / "c").string();
  auto im = run_cli({"--cache-dir", cache, "import", file.string(), "--json"});
  ASSERT_EQ(im.code, 0) << im.out << im.err;
  EXPECT_EQ(im.json()["imported"], 2);
  auto ls = run_cli({"--cache-dir", cache, "ls", "--json"}).json();
  ASSERT_EQ(ls["count"], 2);
  for (const auto& e : ls["entries"]) {
    if (e["key"] == good.key.to_string()) {
      EXPECT_EQ(e["spec"], ms::summary(b.spec));
    } else {
      EXPECT_EQ(e["spec"], "");
    }
  }
}

TEST(CliHostile, ADamagedCompressedArchiveImportsItsIntactEntries) {
  TempDir src, dst;
  put_build(src.path(), real_build(80));
  put_build(src.path(), real_build(90));
  const auto file = src.path() / "a.cccl";
  ASSERT_EQ(run_cli({"--cache-dir", src.path().string(), "export", file.string()}).code, 0);
  fs::resize_file(file, fs::file_size(file) - 64);  // cuts into the second entry's block
  auto im = run_cli({"--cache-dir", dst.path().string(), "import", file.string(), "--json"});
  EXPECT_EQ(im.code, 1) << im.out << im.err;
  EXPECT_EQ(im.json()["imported"], 1) << im.out;
  EXPECT_EQ(run_cli({"--cache-dir", dst.path().string(), "verify"}).code, 0);
}

TEST(CliNewcomer, ArchAndEmptyValuesAreUsageErrors) {
  TempDir dir;
  put_build(dir.path(), real_build(90));
  const std::string d = dir.path().string();
  const auto manifest = write(dir, "m.toml", "[[merge_sort]]\nkeys = \"float32\"\n");
  struct Case {
    std::vector<std::string> args;
    const char* says;
  };
  for (const Case& c : {
           Case{{"prewarm", "--manifest", manifest.string(), "--arch", "sm_999"}, "sm_999"},
           Case{{"prewarm", "--manifest", manifest.string(), "--arch", ","}, "names no compute"},
           Case{{"prewarm", "--manifest", manifest.string(), "--arch", ""}, "--arch"},
           Case{{"why", "merge_sort keys=float32", "--arch", "sm_999"}, "sm_999"},
           Case{{"ls", "--arch", ""}, "--arch"},
           Case{{"ls", "--algorithm", ""}, "--algorithm"},
           Case{{"why", "merge_sort keys=float32", "--arch", "sm_90", "--limit", "-1"}, "--limit"},
           Case{{"prewarm", "--manifest", manifest.string(), "--arch", "sm_90", "-j", "100000"},
                "--jobs"},
       }) {
    auto args = c.args;
    args.insert(args.begin(), {"--cache-dir", d});
    auto r = run_cli(args);
    EXPECT_EQ(r.code, 2) << testing::PrintToString(args) << "\n" << r.out << r.err;
    EXPECT_NE(r.err.find(c.says), std::string::npos) << r.err;
  }
  auto empty_dir = run_cli({"--cache-dir", "", "ls"});
  EXPECT_EQ(empty_dir.code, 2) << empty_dir.err;
  EXPECT_NE(empty_dir.err.find("--cache-dir"), std::string::npos) << empty_dir.err;
  EXPECT_EQ(run_cli({"--cache-dir", d, "ls", "--json"}).json()["count"], 1);  // nothing built
}

TEST(CliNewcomer, ADirectoryAsTheArchiveIsAUsageErrorThatSaysSo) {
  TempDir dir;
  put_build(dir.path(), real_build(90));
  const std::string d = dir.path().string();
  auto ex = run_cli({"--cache-dir", d, "export", d});
  EXPECT_EQ(ex.code, 2) << ex.err;
  EXPECT_NE(ex.err.find("is a directory"), std::string::npos) << ex.err;
  EXPECT_EQ(ex.err.find("Success"), std::string::npos) << ex.err;
  auto im = run_cli({"--cache-dir", d, "import", d});
  EXPECT_EQ(im.code, 2) << im.err;
  EXPECT_NE(im.err.find("is a directory"), std::string::npos) << im.err;
}

TEST(CliNewcomer, AnUnknownCommandIsNamedWithTheCommandsThereAre) {
  auto r = run_cli({"frobnicate"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("unknown command 'frobnicate'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("prewarm, ls, inspect"), std::string::npos) << r.err;
  auto none = run_cli({"--cache-dir", "/tmp"});
  EXPECT_EQ(none.code, 2);
  EXPECT_NE(none.err.find("no command given; commands: prewarm"), std::string::npos) << none.err;
}

}  // namespace
}  // namespace cccl_cache::test
