// The CLI on a damaged store: a sample of damages (meta pages, branch, leaf and
// overflow pages, truncation at page boundaries), and after each every command on a
// fresh copy. No command may die of a signal; each either works (reads every entry)
// or reports the damage; after `verify --repair` the next `verify` is clean. Prints a
// table of exit codes per damage kind and command.
#include <gtest/gtest.h>
#include <lmdb.h>
#include <sys/stat.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <random>

#include "cccl_cache/cache/integrity.hpp"
#include "cli_test_util.hpp"
#include "lmdb_format.hpp"

namespace cccl_cache::test {
namespace {

namespace fs = std::filesystem;
using namespace detail::lmdbfmt;

constexpr std::uint64_t kEntries = 24;

CacheKey key_of(std::uint64_t i) {
  return CacheKey{Digest128{0x0123'4567'89ab'cdefull * (i + 1), i}, i % 2 ? 90u : 80u};
}

std::vector<std::byte> payload_of(std::uint64_t i) {
  std::vector<std::byte> out(i % 4 == 0 ? 7000 + 900 * i : 300 + 50 * i);
  std::uint64_t x = i * 0x9E37'79B9'7F4A'7C15ull + 1;
  for (auto& b : out) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    b = std::byte(x);
  }
  return out;
}

void write_bytes(const fs::path& p, const std::vector<std::byte>& bytes) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

struct Damage {
  std::string kind;
  std::size_t offset;
  std::byte mask;  // 0: truncate to `offset`
};

// A deterministic sample: per kind of page in use (as the checker walked the clean
// image), flips in the header and the node area, and truncations.
std::vector<Damage> sample(const std::vector<std::byte>& image, std::uint32_t psize) {
  LmdbCheckLimits limits;
  limits.record_pages = true;
  auto check = check_lmdb_image(image, limits);
  EXPECT_TRUE(check) << check.error().describe();
  if (!check) return {};
  std::map<std::string, std::vector<Damage>> all;
  for (std::size_t p = 0; p < check->pages.size() && p * psize < image.size(); ++p) {
    const std::byte* h = image.data() + p * psize;
    const std::size_t base = p * psize;
    const char use = check->pages[p];
    const bool head =
        use == 'o' && load<std::uint64_t>(h) == p && load<std::uint16_t>(h + 10) == P_OVERFLOW;
    const std::string kind = use == 'm'   ? "meta"
                             : use == 'b' ? "branch"
                             : use == 'l' ? "leaf"
                             : head       ? "overflow"
                                          : "";
    all["truncate"].push_back({"truncate", base, std::byte{0}});
    if (kind.empty()) continue;
    // Bytes LMDB reads: the meta record; the header, node offsets and nodes of a tree
    // page (not its free space); an overflow run's header.
    const std::size_t lower = kind == "branch" || kind == "leaf" ? load<std::uint16_t>(h + 12) : 0;
    const std::size_t upper =
        kind == "branch" || kind == "leaf" ? load<std::uint16_t>(h + 14) : psize;
    const std::size_t end = kind == "meta" ? kMetaRead : kind == "overflow" ? kPageHeader : psize;
    for (std::size_t b = 0; b < end; ++b)
      if (b < lower || b >= upper || b < kPageHeader)
        all[kind].push_back({kind, base + b, std::byte{0x01}});
  }
  std::vector<Damage> out;
  std::mt19937_64 rng(5);
  for (auto& [kind, list] : all) {
    std::shuffle(list.begin(), list.end(), rng);
    list.resize(std::min<std::size_t>(list.size(), 5));
    out.insert(out.end(), list.begin(), list.end());
  }
  return out;
}

struct Command {
  std::string name;
  std::vector<std::string> args;
};

TEST(CliDamage, EveryCommandSurvivesAndWorksOrReportsDamage) {
  TempDir t;
  const fs::path clean = t.path() / "clean", work = t.path() / "work",
                 archive = t.path() / "clean.cccl", out_file = t.path() / "out.cccl";
  for (std::uint64_t i = 0; i < kEntries; ++i) {
    EntryMeta meta;
    meta.algorithm = "synthetic";
    meta.summary = "entry " + std::to_string(i);
    meta.toolchain = "test";
    meta.payload_format = 1;
    put_raw(clean, key_of(i), meta, payload_of(i));
  }
  ASSERT_EQ(run_cli({"--cache-dir", clean.string(), "export", archive.string()}).code, 0);
  const auto image = read_file(clean / "data.mdb");
  const std::uint32_t psize = load<std::uint32_t>(image.data() + kPageHeader + 24);
  const std::string key0 = key_of(0).to_string();
  const std::vector<Command> commands = {
      {"ls", {"ls", "--json"}},
      {"stats", {"stats", "--json"}},
      {"inspect", {"inspect", key0}},
      {"export", {"export", out_file.string()}},
      {"verify", {"verify"}},
      {"repair", {"verify", "--repair"}},
      {"evict", {"evict", "--arch", "sm_80"}},
      {"import", {"import", archive.string()}},
      {"clear", {"clear", "--yes"}},
  };
  std::map<std::string, std::map<std::string, std::map<int, int>>> table;  // kind, command, code
  const auto damages = sample(image, psize);
  for (const auto& d : damages) {
    auto damaged = image;
    if (d.mask == std::byte{0})
      damaged.resize(d.offset);
    else
      damaged[d.offset] ^= d.mask;
    for (const auto& c : commands) {
      fs::remove_all(work);
      fs::create_directory(work);
      ::chmod(work.c_str(), 0700);
      write_bytes(work / "data.mdb", damaged);
      std::vector<std::string> args{"--cache-dir", work.string()};
      args.insert(args.end(), c.args.begin(), c.args.end());
      const auto r = run_cli(args);
      ++table[d.kind][c.name][r.code];
      SCOPED_TRACE(d.kind + " damage at byte " + std::to_string(d.offset) + ", " + c.name + ":\n" +
                   r.out + r.err);
      ASSERT_LE(r.code, 3) << "died (128 + signal) or failed internally (4)";
      // A read that exits 0 saw every entry; otherwise it said what is wrong.
      if (r.code != 0) {
        EXPECT_FALSE(r.err.empty() && r.out.empty());
      }
      if (c.name == "ls" && r.code == 0) {
        EXPECT_EQ(r.json()["count"], kEntries);
      }
      if (c.name == "stats" && r.code == 0) {
        EXPECT_EQ(r.json()["entries"], kEntries);
      }
      if (c.name == "verify" && r.code == 0) {
        EXPECT_NE(r.out.find("checked " + std::to_string(kEntries) + " entries"),
                  std::string::npos);
      }
      if (c.name == "repair") {
        const auto again = run_cli({"--cache-dir", work.string(), "verify"});
        EXPECT_EQ(again.code, 0) << "verify after verify --repair:\n" << again.out << again.err;
      }
    }
  }
  std::printf("CLI damage sweep: %zu damages x %zu commands; exit codes per kind and command\n",
              damages.size(), commands.size());
  for (const auto& [kind, by_cmd] : table) {
    std::printf("%-9s", kind.c_str());
    for (const auto& [cmd, codes] : by_cmd) {
      std::printf("  %s", cmd.c_str());  // exit code:count
      for (const auto& [code, n] : codes) std::printf(" %d:%d", code, n);
    }
    std::printf("\n");
  }
}

TEST(CliDamage, VerifyReportsCountsThatDisagreeAndRepairRebuilds) {
  TempDir t;
  const fs::path dir = t.path() / "cache";
  EntryMeta meta;
  meta.algorithm = "synthetic";
  meta.toolchain = "test";
  for (std::uint64_t i = 0; i < 3; ++i) put_raw(dir, key_of(i), meta, payload_of(i));
  {  // The live-bytes counter (number 1000 in "counters") no longer matches the entries.
    MDB_env* env = nullptr;
    ASSERT_EQ(mdb_env_create(&env), 0);
    mdb_env_set_maxdbs(env, 4);
    ASSERT_EQ(mdb_env_open(env, dir.c_str(), 0, 0600), 0);
    MDB_txn* txn = nullptr;
    MDB_dbi dbi = 0;
    ASSERT_EQ(mdb_txn_begin(env, nullptr, 0, &txn), 0);
    ASSERT_EQ(mdb_dbi_open(txn, "counters", 0, &dbi), 0);
    unsigned char k[4] = {0, 0, 0x03, 0xe8};
    std::uint64_t v = 12345;
    MDB_val key{sizeof k, k}, val{sizeof v, &v};
    ASSERT_EQ(mdb_put(txn, dbi, &key, &val, 0), 0);
    ASSERT_EQ(mdb_txn_commit(txn), 0);
    mdb_env_close(env);
  }
  const auto before = run_cli({"--cache-dir", dir.string(), "verify"});
  EXPECT_EQ(before.code, 1) << before.out << before.err;
  EXPECT_NE(before.out.find("DAMAGED the live-bytes counter says 12345"), std::string::npos)
      << before.out;
  const auto repair = run_cli({"--cache-dir", dir.string(), "verify", "--repair"});
  EXPECT_EQ(repair.code, 1) << repair.out << repair.err;
  EXPECT_NE(repair.out.find("rebuilt the store: salvaged 3 entries, lost 0"), std::string::npos)
      << repair.out;
  const auto after = run_cli({"--cache-dir", dir.string(), "verify"});
  EXPECT_EQ(after.code, 0) << after.out << after.err;
  EXPECT_NE(after.out.find("checked 3 entries"), std::string::npos) << after.out;
}

}  // namespace
}  // namespace cccl_cache::test
