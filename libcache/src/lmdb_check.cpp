// The structural checker of integrity.hpp. Each page is read into our own buffer with
// pread (or copied from an in-memory image) and bounds-checked before use; nothing
// here follows a pointer LMDB would follow without first checking where it points.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <functional>
#include <optional>
#include <vector>

#include "cccl_cache/cache/integrity.hpp"
#include "lmdb_format.hpp"
#include "lmdb_reader.hpp"

namespace cccl_cache {

const LmdbTreeCounts* LmdbCheck::tree(std::string_view name) const {
  for (const auto& t : trees)
    if (t.name == name) return &t;
  return nullptr;
}

namespace detail {
namespace {

using namespace lmdbfmt;

std::string hex(std::uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

constexpr std::uint64_t kMaxMapSize = std::uint64_t{1} << 47;  // the x86-64 user address space
constexpr std::uint32_t kMaxKeySize = 511;                     // LMDB's MDB_MAXKEYSIZE

enum class TreeKind { free, main, plain };

class Checker {
 public:
  Checker(const ReadAt& read, std::uint64_t file_bytes, const LmdbCheckLimits& limits)
      : read_(read), limits_(limits) {
    out_.file_bytes = file_bytes;
  }

  Result<LmdbCheck> run();
  std::uint64_t txnid() const { return out_.txnid; }

 private:
  Result<void> check_metas(Meta& picked);
  Result<void> walk(const std::string& name, const Db& db, TreeKind kind);
  Result<void> descend(std::uint64_t pgno, std::uint32_t level, std::span<const std::byte> lo,
                       std::span<const std::byte> hi, bool has_lo, bool has_hi);
  Result<void> leaf_node(const Node& node);
  Result<void> overflow(const Node& node, std::vector<std::byte>* data);
  Result<void> free_list(std::span<const std::byte> key, std::span<const std::byte> idl);
  // Marks page `pgno` used; damage when it is out of range, past the end of the file
  // or already used.
  Result<void> claim(std::uint64_t pgno, const char* as);
  tl::unexpected<Error> damage(const std::string& what) const {
    std::string node;
    if (node_page_ != kInvalidPgno)
      node = "page " + std::to_string(node_page_) + " node " + std::to_string(node_index_) + ": ";
    return fail(ErrorCode::corrupt, "data.mdb: " + where_ + node + what);
  }
  bool budget() {
    if (++out_.reads <= limits_.max_reads) return true;
    out_.complete = false;
    return false;
  }

  const ReadAt& read_;
  LmdbCheckLimits limits_;
  LmdbCheck out_;
  std::uint32_t psize_ = 0;
  std::uint64_t file_pages_ = 0;
  std::vector<bool> used_;
  std::uint64_t used_count_ = 0;
  std::vector<std::vector<std::byte>> pages_;  // one buffer per tree level
  // The tree being walked.
  std::string where_;
  std::uint64_t node_page_ = kInvalidPgno;  // the leaf node being checked, for messages
  std::uint32_t node_index_ = 0;
  TreeKind kind_ = TreeKind::plain;
  Db db_;
  LmdbTreeCounts counts_;
  std::vector<std::pair<std::string, Db>> named_;
};

Result<void> Checker::check_metas(Meta& picked) {
  std::vector<std::byte> buf(kMetaRead);
  Meta m[2];
  std::uint64_t off = 0;
  for (int i = 0; i < 2; ++i) {
    const auto got = read_(off, buf);
    if (got < 0) return fail(ErrorCode::io, std::string("read data.mdb: ") + std::strerror(errno));
    if (got < static_cast<std::int64_t>(kMetaRead))
      return damage("the file ends (" + std::to_string(out_.file_bytes) +
                    " bytes) inside meta page " + std::to_string(i) + " (truncated)");
    m[i] = parse_meta(buf.data());
    where_ = "meta page " + std::to_string(i) + ": ";
    if (m[i].page_flags != P_META || m[i].page_pgno != std::uint64_t(i))
      return damage("bad page header (page " + std::to_string(m[i].page_pgno) + ", flags " +
                    hex(m[i].page_flags) + ")");
    if (m[i].magic != kMagic) return damage("bad magic " + hex(m[i].magic));
    if (m[i].version != kDataVersion)
      return damage("format version " + std::to_string(m[i].version) + ", expected " +
                    std::to_string(kDataVersion));
    if (!valid_page_size(m[i].page_size()))
      return damage("bad page size " + std::to_string(m[i].page_size()));
    if (i == 1 && m[1].page_size() != m[0].page_size())
      return damage("page size " + std::to_string(m[1].page_size()) +
                    " differs from meta page 0's");
    if ((m[i].free.flags & kLayoutFlags) != kIntegerKey || (m[i].main.flags & kLayoutFlags) != 0)
      return damage("bad database flags (free " + hex(m[i].free.flags) + ", main " +
                    hex(m[i].main.flags) + ")");
    if (m[i].mapsize >= kMaxMapSize) return damage("implausible map size " + hex(m[i].mapsize));
    // Transaction N writes meta page N % 2: the pages hold T and T-1 (both 0 when new).
    if (m[i].txnid % 2 != std::uint64_t(i) && m[i].txnid != 0)
      return damage("transaction id " + std::to_string(m[i].txnid) + " is not this page's parity");
    off = m[0].page_size();
  }
  where_.clear();
  const std::uint64_t t0 = m[0].txnid, t1 = m[1].txnid;
  const bool fresh = t0 == 0 && t1 == 0;
  if (!fresh && (t0 > t1 ? t0 - t1 : t1 - t0) != 1)
    return damage("meta pages hold transactions " + std::to_string(t0) + " and " +
                  std::to_string(t1) + ", not consecutive ones");
  picked = t1 > t0 ? m[1] : m[0];
  return {};
}

Result<LmdbCheck> Checker::run() {
  if (out_.file_bytes == 0) {  // LMDB writes fresh meta pages into an empty file
    out_.fresh = true;
    return out_;
  }
  Meta m;
  if (auto r = check_metas(m); !r) return tl::unexpected(r.error());
  psize_ = m.page_size();
  out_.page_size = psize_;
  out_.txnid = m.txnid;
  out_.last_pgno = m.last_pgno;
  file_pages_ = out_.file_bytes / psize_;
  // The file may end before the last page when the free list holds the final pages,
  // but not by more pages than one walk may read.
  if (m.last_pgno < 1 || m.last_pgno >= file_pages_ + limits_.max_reads)
    return damage("last page " + std::to_string(m.last_pgno) + " does not fit a file of " +
                  std::to_string(file_pages_) + " pages");
  used_.assign(m.last_pgno + 1, false);
  used_[0] = used_[1] = true;
  used_count_ = 2;
  if (limits_.record_pages) {
    out_.pages.assign(m.last_pgno + 1, '.');
    out_.pages[0] = out_.pages[1] = 'm';
  }
  pages_.assign(kMaxDepth + 1, {});
  if (auto r = walk("main", m.main, TreeKind::main); !r) return tl::unexpected(r.error());
  auto named = std::move(named_);
  if (named.size() > limits_.max_databases)
    return damage("the main database lists " + std::to_string(named.size()) + " databases");
  for (const auto& [name, db] : named)
    if (auto r = walk(name, db, TreeKind::plain); !r) return tl::unexpected(r.error());
  if (auto r = walk("free", m.free, TreeKind::free); !r) return tl::unexpected(r.error());
  // The store creates its three databases together (a flipped name would make LMDB
  // open a new, empty one), and every entry has its usage record under the same key.
  int ours = 0;
  for (const char* name : {"entries", "usage", "counters"}) ours += out_.tree(name) != nullptr;
  if (out_.complete && ours != 0 && ours != 3)
    return damage("the main database lists " + std::to_string(ours) +
                  " of the store's databases 'entries', 'usage' and 'counters'");
  const auto *entries = out_.tree("entries"), *usage = out_.tree("usage");
  if (out_.complete && entries && usage &&
      (entries->entries != usage->entries || entries->key_sum != usage->key_sum))
    return damage("databases 'entries' (" + std::to_string(entries->entries) + ") and 'usage' (" +
                  std::to_string(usage->entries) + ") do not hold the same keys");
  if (out_.complete && used_count_ != m.last_pgno + 1)
    return damage(std::to_string(m.last_pgno + 1 - used_count_) + " of pages 0-" +
                  std::to_string(m.last_pgno) + " are neither in a tree nor free");
  return out_;
}

Result<void> Checker::walk(const std::string& name, const Db& db, TreeKind kind) {
  where_ = "database '" + name + "': ";
  kind_ = kind;
  db_ = db;
  counts_ = LmdbTreeCounts{name};
  if (kind == TreeKind::plain && (db.flags & kLayoutFlags) != 0)
    return damage("flags " + hex(db.flags) + " are not those this store creates");
  if (db.root == kInvalidPgno) {
    if (db.depth != 0 || db.entries != 0 || db.branch_pages || db.leaf_pages || db.overflow_pages)
      return damage("empty, but its record counts pages or entries");
  } else {
    if (db.depth < 1 || db.depth > kMaxDepth)
      return damage("depth " + std::to_string(db.depth) + " out of range");
    if (auto r = descend(db.root, 1, {}, {}, false, false); !r) return r;
  }
  where_ = "database '" + name + "': ";
  counts_.depth = db.root == kInvalidPgno ? 0 : db.depth;
  if (out_.complete &&
      (counts_.entries != db.entries || counts_.branch_pages != db.branch_pages ||
       counts_.leaf_pages != db.leaf_pages || counts_.overflow_pages != db.overflow_pages))
    return damage(
        "its record says " + std::to_string(db.entries) + " entries in " +
        std::to_string(db.branch_pages) + "/" + std::to_string(db.leaf_pages) + "/" +
        std::to_string(db.overflow_pages) + " branch/leaf/overflow pages, the walk found " +
        std::to_string(counts_.entries) + " in " + std::to_string(counts_.branch_pages) + "/" +
        std::to_string(counts_.leaf_pages) + "/" + std::to_string(counts_.overflow_pages));
  out_.trees.push_back(counts_);
  where_.clear();
  return {};
}

Result<void> Checker::claim(std::uint64_t pgno, const char* as) {
  if (pgno < 2 || pgno > out_.last_pgno)
    return damage(std::string(as) + " page " + std::to_string(pgno) + " is outside pages 2-" +
                  std::to_string(out_.last_pgno));
  if (used_[pgno])
    return damage(std::string(as) + " page " + std::to_string(pgno) +
                  " is reached twice (a cycle, or a page used twice)");
  used_[pgno] = true;
  ++used_count_;
  if (limits_.record_pages) out_.pages[pgno] = as[0] == 'f' ? 'f' : as[0] == 'o' ? 'o' : 'l';
  return {};
}

Result<void> Checker::descend(std::uint64_t pgno, std::uint32_t level,
                              std::span<const std::byte> lo, std::span<const std::byte> hi,
                              bool has_lo, bool has_hi) {
  if (!budget()) return {};
  if (auto r = claim(pgno, "tree"); !r) return r;
  if (pgno >= file_pages_)
    return damage("page " + std::to_string(pgno) + " lies past the end of the file (" +
                  std::to_string(file_pages_) + " pages: truncated)");
  auto& page = pages_[level];
  page.resize(psize_);
  const auto got = read_(pgno * psize_, page);
  if (got < 0) return fail(ErrorCode::io, std::string("read data.mdb: ") + std::strerror(errno));
  if (got < static_cast<std::int64_t>(psize_))
    return damage("page " + std::to_string(pgno) + " is cut short by the end of the file");
  bool branch = false;
  std::uint32_t nkeys = 0;
  if (auto bad = check_page_header(page, pgno, branch, nkeys))
    return damage("page " + std::to_string(pgno) + ": " + *bad);
  auto at = [pgno] { return "page " + std::to_string(pgno) + " "; };  // messages only
  if (branch != (level < db_.depth))
    return damage(at() + (branch ? "is a branch at the leaf level " : "is a leaf at level ") +
                  std::to_string(level) + " of a tree of depth " + std::to_string(db_.depth));
  if (nkeys < (branch ? (kind_ == TreeKind::free ? 1u : 2u) : 1u))
    return damage(at() + "holds too few nodes (" + std::to_string(nkeys) + ")");
  ++(branch ? counts_.branch_pages : counts_.leaf_pages);
  if (limits_.record_pages && branch) out_.pages[pgno] = 'b';
  const bool integer = kind_ == TreeKind::free;
  std::span<const std::byte> prev;
  std::uint64_t node_bytes = 0;  // LMDB packs nodes (each of even size) from `upper` to the end
  for (std::uint32_t i = 0; i < nkeys; ++i) {
    Node node;
    if (auto bad = read_node(page, i, branch, node)) return damage(at() + *bad);
    node_bytes += (kNodeHeader + node.key.size() + node.data.size() + 1) & ~std::uint64_t{1};
    if (node.key.size() > kMaxKeySize)
      return damage(at() + "node " + std::to_string(i) + ": key too long");
    // A branch's first key is unused: child 0 holds everything below key 1.
    const bool ordered = !branch || i > 0;
    if (ordered) {
      if ((i > (branch ? 1u : 0u) && compare_keys(prev, node.key, integer) >= 0) ||
          (has_lo && compare_keys(node.key, lo, integer) < 0) ||
          (has_hi && compare_keys(node.key, hi, integer) >= 0))
        return damage(at() + "node " + std::to_string(i) + ": key out of order");
      prev = node.key;
    }
    if (branch) {
      std::span<const std::byte> clo = i == 0 ? lo : node.key, chi = hi;
      bool chas_hi = has_hi;
      if (i + 1 < nkeys) {
        Node next;
        if (auto bad = read_node(page, i + 1, true, next)) return damage(at() + *bad);
        chi = next.key;
        chas_hi = true;
      }
      if (auto r = descend(node.child, level + 1, clo, chi, i == 0 ? has_lo : true, chas_hi); !r)
        return r;
      if (!out_.complete) return {};
      continue;
    }
    ++counts_.entries;
    counts_.key_sum += XXH3_64bits(node.key.data(), node.key.size());
    node_page_ = pgno;
    node_index_ = i;
    auto r = leaf_node(node);
    node_page_ = kInvalidPgno;
    if (!r) return r;
  }
  if (node_bytes != psize_ - load<std::uint16_t>(page.data() + 14))
    return damage(at() + "nodes fill " + std::to_string(node_bytes) + " bytes, not the " +
                  std::to_string(psize_ - load<std::uint16_t>(page.data() + 14)) +
                  " between its free-space bound and its end");
  return {};
}

Result<void> Checker::leaf_node(const Node& node) {
  if (node.flags & F_SUBDATA) {
    if (kind_ != TreeKind::main) return damage("a named-database record outside the main database");
    if (node.data_size != kDbSize)
      return damage("a database record of " + std::to_string(node.data_size) + " bytes");
    named_.emplace_back(
        std::string(reinterpret_cast<const char*>(node.key.data()), node.key.size()),
        parse_db(node.data.data()));
    return {};
  }
  if (kind_ != TreeKind::free)
    return (node.flags & F_BIGDATA) ? overflow(node, nullptr) : Result<void>{};
  if (!(node.flags & F_BIGDATA)) return free_list(node.key, node.data);
  std::vector<std::byte> idl;
  if (auto r = overflow(node, &idl); !r || !out_.complete) return r;
  return free_list(node.key, idl);
}

Result<void> Checker::overflow(const Node& node, std::vector<std::byte>* data) {
  if (!budget()) return {};
  const std::uint64_t pgno = node.overflow_pgno;
  const std::uint64_t need = overflow_pages_for(node.data_size, psize_);
  if (pgno < 2 || pgno >= file_pages_ || pgno > out_.last_pgno)
    return damage("overflow page " + std::to_string(pgno) + " is outside the file's pages 2-" +
                  std::to_string(std::min(file_pages_, out_.last_pgno + 1) - 1));
  std::byte hdr[kPageHeader];
  if (read_(pgno * psize_, hdr) != kPageHeader)
    return damage("overflow page " + std::to_string(pgno) + " cannot be read");
  const auto flags = load<std::uint16_t>(hdr + 10);
  const std::uint64_t pages = load<std::uint32_t>(hdr + 12);
  if (load<std::uint64_t>(hdr) != pgno || flags != P_OVERFLOW)
    return damage("overflow page " + std::to_string(pgno) + " has a bad header (page " +
                  std::to_string(load<std::uint64_t>(hdr)) + ", flags " + hex(flags) + ")");
  if (pages < need || pgno + pages - 1 > out_.last_pgno || pgno + pages > file_pages_)
    return damage("overflow run at page " + std::to_string(pgno) + " of " + std::to_string(pages) +
                  " pages does not fit " + std::to_string(node.data_size) +
                  " bytes inside the file (" + std::to_string(file_pages_) + " pages)");
  for (std::uint64_t p = pgno; p < pgno + pages; ++p)
    if (auto r = claim(p, "overflow"); !r) return r;
  counts_.overflow_pages += pages;
  if (data) {
    data->resize(node.data_size);
    if (read_(pgno * psize_ + kPageHeader, *data) != static_cast<std::int64_t>(data->size()))
      return damage("overflow run at page " + std::to_string(pgno) + " cannot be read");
  }
  return {};
}

Result<void> Checker::free_list(std::span<const std::byte> key, std::span<const std::byte> idl) {
  if (key.size() != 8) return damage("free-list key of " + std::to_string(key.size()) + " bytes");
  if (load<std::uint64_t>(key.data()) > out_.txnid)
    return damage("free list of transaction " + std::to_string(load<std::uint64_t>(key.data())) +
                  ", newer than the snapshot");
  if (idl.size() < 8 || idl.size() % 8 != 0 ||
      load<std::uint64_t>(idl.data()) != idl.size() / 8 - 1)
    return damage("free list of " + std::to_string(idl.size()) + " bytes with a bad count");
  std::uint64_t prev = ~std::uint64_t{0};
  for (std::size_t off = 8; off < idl.size(); off += 8) {
    const auto pg = load<std::uint64_t>(idl.data() + off);
    if (pg >= prev) return damage("free list not in descending order");
    prev = pg;
    if (auto r = claim(pg, "free"); !r) return r;
    ++out_.free_pages;
  }
  return {};
}

}  // namespace

Result<LmdbCheck> check_lmdb_with(const ReadAt& read, std::uint64_t file_bytes,
                                  const LmdbCheckLimits& limits, std::uint64_t* txnid) {
  Checker c(read, file_bytes, limits);
  auto r = c.run();
  if (txnid) *txnid = c.txnid();
  return r;
}

}  // namespace detail

Result<LmdbCheck> check_lmdb_image(std::span<const std::byte> image,
                                   const LmdbCheckLimits& limits) {
  return detail::check_lmdb_with(detail::image_reader(image), image.size(), limits, nullptr);
}

Result<LmdbCheck> check_lmdb_file(const std::filesystem::path& data_mdb,
                                  const LmdbCheckLimits& limits) {
  auto file = detail::ReadFile::open(data_mdb);
  if (!file) return tl::unexpected(file.error());
  for (int attempt = 0;; ++attempt) {
    const std::uint64_t size = file->size();
    std::uint64_t txnid = 0;
    auto r = detail::check_lmdb_with(file->reader(), size, limits, &txnid);
    if (r || r.error().code != ErrorCode::corrupt || attempt == 4) return r;
    // Damage, or a commit by another process recycled pages of the snapshot walked:
    // only a walk of a snapshot still current when it ended is believed.
    if (detail::newest_txnid(file->reader()) == txnid) return r;
  }
}

}  // namespace cccl_cache
