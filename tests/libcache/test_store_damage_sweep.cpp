// The damage sweep: every byte of both meta pages flipped (every 16th under ASan), a sample of bytes in every
// branch, leaf and overflow page, and a truncation at every page boundary. After each,
// a child process opens the store read-only, then writable, and reads every entry: it
// must exit (never die of a signal), never serve wrong bytes, and either work or report
// the damage. Prints a table of outcomes per kind of damage.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
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

// Outcomes of a read-only open (first digit of the child's exit code) and a writable one.
enum Ro { ro_intact, ro_refused, ro_missed_reported, ro_missed_silent, ro_error, ro_wrong };
enum Rw { rw_intact, rw_quarantined, rw_missed_reported, rw_missed_silent, rw_error, rw_wrong };
const char* kRoNames[] = {"ro:intact",        "ro:refused", "ro:dropped",
                          "ro:missed-silent", "ro:error",   "ro:WRONG"};
const char* kRwNames[] = {"rw:intact",        "rw:quarantined", "rw:dropped",
                          "rw:missed-silent", "rw:error",       "rw:WRONG"};

// Reads every entry; `missed` counts misses. Returns false on an error or wrong bytes.
int read_all(Store& store, int& missed, bool& wrong) {
  missed = 0;
  for (std::uint64_t i = 0; i < kEntries; ++i) {
    auto got = store.get(make_key(i));
    if (!got) return 1;
    if (!*got) {
      ++missed;
    } else if ((*got)->payload != damage_payload(i)) {
      wrong = true;
    }
  }
  return 0;
}

int child(const fs::path& dir) {
  int ro = ro_intact, rw = rw_intact;
  {
    auto config = test_config(dir);
    config.read_only = true;
    auto store = Store::open(config);
    if (!store) {
      ro = store.error().code == ErrorCode::corrupt ? ro_refused : ro_error;
    } else {
      int missed = 0;
      bool wrong = false;
      if (read_all(**store, missed, wrong) != 0)
        ro = ro_error;
      else if (wrong)
        ro = ro_wrong;
      else if (missed > 0)
        ro = (*store)->stats()->corrupt > 0 ? ro_missed_reported : ro_missed_silent;
    }
  }
  {
    auto store = Store::open(test_config(dir));
    if (!store) {
      rw = rw_error;
    } else {
      auto stats = (*store)->stats();
      int missed = 0;
      bool wrong = false;
      if (!stats || read_all(**store, missed, wrong) != 0)
        rw = rw_error;
      else if (wrong)
        rw = rw_wrong;
      else if (stats->quarantined > 0)
        rw = rw_quarantined;
      else if (missed > 0)
        rw = (*store)->stats()->corrupt > 0 ? rw_missed_reported : rw_missed_silent;
    }
  }
  return ro * 10 + rw;
}

// Every byte of a meta page gets 0xff, except under ASan, where a child process costs
// about fifteen times as much: there every 16th byte does (the byte-exact flips of the
// fields LMDB reads, below, stay whole). The uninstrumented build sweeps them all.
#if defined(__SANITIZE_ADDRESS__)
constexpr std::size_t kMetaStride = 16;
#else
constexpr std::size_t kMetaStride = 1;
#endif

struct Damage {
  std::string kind;
  std::size_t offset;  // byte flipped, or the new size
  std::byte mask;      // 0: truncate to `offset`
};

std::vector<Damage> plan(std::span<const std::byte> image, std::uint32_t psize) {
  std::vector<Damage> out;
  std::mt19937_64 rng(42);
  const auto kinds = page_kinds(image, psize);
  for (std::size_t p = 0; p < kinds.size(); ++p) {
    const std::size_t base = p * psize;
    const std::string kind = to_string(kinds[p]);
    auto flip = [&](std::size_t off, std::byte mask) { out.push_back({kind, base + off, mask}); };
    auto sample = [&](std::size_t lo, std::size_t hi, int n) {
      for (int i = 0; i < n && lo < hi; ++i)
        flip(lo + rng() % (hi - lo), std::byte(1u << (rng() % 8)));
    };
    switch (kinds[p]) {
      case PageKind::meta:
        for (std::size_t b = 0; b < psize; b += kMetaStride) flip(b, std::byte{0xff});
        for (std::size_t b = 0; b < kMetaRead; ++b) flip(b, std::byte{0x01});
        break;
      case PageKind::branch:
      case PageKind::leaf: {
        for (std::size_t b = 0; b < kPageHeader; ++b)
          flip(b, std::byte{0x01}), flip(b, std::byte{0x80});
        const std::size_t lower = load<std::uint16_t>(image.data() + base + 12);
        const std::size_t upper = load<std::uint16_t>(image.data() + base + 14);
        sample(kPageHeader, lower, 6);  // node offsets
        sample(upper, psize, 12);       // node headers, keys, data
        break;
      }
      case PageKind::overflow_head:
        for (std::size_t b = 0; b < kPageHeader; ++b) flip(b, std::byte{0x01});
        sample(kPageHeader, psize, 2);
        break;
      case PageKind::overflow_tail:
      case PageKind::free:
        sample(0, psize, 1);
        break;
      default:
        break;
    }
  }
  for (std::size_t p = 0; p < kinds.size(); ++p)
    out.push_back({"truncate", p * psize, std::byte{0}});
  return out;
}

// ", data byte N of node I" when `offset` lies in the data of a leaf node.
std::string where_in_node(std::span<const std::byte> image, std::uint32_t psize,
                          std::size_t offset) {
  const auto page = image.subspan(offset / psize * psize, psize);
  bool branch = false;
  std::uint32_t nkeys = 0;
  if (check_page_header(page, offset / psize, branch, nkeys) || branch) return "";
  for (std::uint32_t i = 0; i < nkeys; ++i) {
    Node n;
    if (read_node(page, i, false, n)) continue;
    const auto at = std::size_t(n.data.data() - image.data());
    const auto key_at = std::size_t(n.key.data() - image.data());
    if (offset >= at && offset < at + n.data.size())
      return ", data byte " + std::to_string(offset - at) + " of node " + std::to_string(i);
    if (offset >= key_at - kNodeHeader && offset < at)
      return ", header/key byte " + std::to_string(offset - (key_at - kNodeHeader)) + " of node " +
             std::to_string(i) + " (key of " + std::to_string(n.key.size()) + " bytes)";
  }
  return "";
}

// A private directory on tmpfs when there is one (thousands of synced commits), else
// under $TMPDIR; removed with its contents.
struct SweepDir {
  SweepDir() {
    std::error_code ec;
    const bool shm = fs::is_directory("/dev/shm", ec) && ::access("/dev/shm", W_OK) == 0;
    std::string tmpl =
        ((shm ? fs::path("/dev/shm") : fs::temp_directory_path()) / "cccl-damage-sweep-XXXXXX")
            .string();
    if (!::mkdtemp(tmpl.data())) std::abort();
    path = tmpl;
  }
  ~SweepDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  fs::path path;
};

TEST(StoreDamageSweep, EveryDamageIsSurvivedAndNeverServesWrongBytes) {
  SweepDir dir;
  const fs::path clean_dir = dir.path / "clean", store_dir = dir.path / "store";
  fill_store(clean_dir, kEntries);
  const auto clean = read_bytes(clean_dir / "data.mdb");
  const std::uint32_t psize = load<std::uint32_t>(clean.data() + kPageHeader + 24);
  const auto damages = plan(clean, psize);
  fs::create_directories(store_dir);
  fs::permissions(store_dir, fs::perms::owner_all);
  std::map<std::string, std::map<std::string, int>> table;
  std::vector<std::string> columns;
  auto count = [&](const std::string& kind, const std::string& outcome) {
    if (std::find(columns.begin(), columns.end(), outcome) == columns.end())
      columns.push_back(outcome);
    ++table[kind][outcome];
  };
  int failures = 0;
  std::vector<std::string> silent;  // misses without a corrupt count: shown below
  for (const auto& d : damages) {
    auto image = clean;
    if (d.mask == std::byte{0})
      image.resize(d.offset);
    else
      image[d.offset] ^= d.mask;
    fs::remove(store_dir / "lock.mdb");
    fs::remove_all(store_dir / "quarantine");
    write_bytes(store_dir / "data.mdb", image);
    const int code = run_child([&] { return child(store_dir); });
    if (code < 0) {
      count(d.kind, "SIGNAL");
      if (++failures < 10)
        ADD_FAILURE() << d.kind << " damage at byte " << d.offset << " killed the child";
      continue;
    }
    const int ro = code / 10, rw = code % 10;
    count(d.kind, kRoNames[ro]);
    count(d.kind, kRwNames[rw]);
    if ((ro == ro_missed_silent || rw == rw_missed_silent) && silent.size() < 8)
      silent.push_back(d.kind + " page " + std::to_string(d.offset / psize) + " byte " +
                       std::to_string(d.offset % psize) + where_in_node(clean, psize, d.offset));
    if (ro == ro_wrong || rw == rw_wrong || ro > ro_wrong || rw > rw_wrong)
      if (++failures < 10)
        ADD_FAILURE() << d.kind << " damage at byte " << d.offset << ": code " << code;
  }
  std::printf("damage sweep: %zu damages of a %zu-page store (%llu entries)\n", damages.size(),
              clean.size() / psize, static_cast<unsigned long long>(kEntries));
  std::printf("%-14s", "kind");
  for (const auto& c : columns) std::printf(" %17s", c.c_str());
  std::printf("\n");
  for (const auto& [kind, row] : table) {
    std::printf("%-14s", kind.c_str());
    for (const auto& c : columns) std::printf(" %17d", row.count(c) ? row.at(c) : 0);
    std::printf("\n");
  }
  for (const auto& s : silent) std::printf("missed without a corrupt count: %s\n", s.c_str());
  EXPECT_EQ(failures, 0);
}

}  // namespace
}  // namespace cccl_cache
