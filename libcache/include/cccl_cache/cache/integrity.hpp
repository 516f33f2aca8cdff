// Structural checks of a store's LMDB file (data.mdb), and rebuilding a damaged store.
//
// The checker reads the file with pread only (it never maps it, so a truncated or
// damaged file cannot fault the process) and walks what LMDB would follow: both meta
// pages (magic, version, page size, transaction ids; the newer one is used, as LMDB
// does), then the main database, every named database it lists and the free-page
// database: every branch and leaf page header (page number, type, bounds), every node
// (offsets, key order, child and overflow page numbers in range, depth, no page reached
// twice), every overflow run's header and length, every free-page list, and that
// every page up to the last one is used exactly once (by a tree or the free list).
// Invariants of this store are checked too: databases "entries", "usage" and
// "counters" exist together or not at all, and "entries" and "usage" hold the same keys.
// It checks structure only: entry contents are covered by the envelope checksum.
// Store::open runs it before LMDB opens the file (see store.hpp).
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cccl_cache/cache/config.hpp"
#include "cccl_cache/cache/error.hpp"

namespace cccl_cache {

// Bounds on the work one check does; a check that reaches one stops and says so
// (LmdbCheck::complete = false) without calling the file damaged.
struct LmdbCheckLimits {
  std::uint64_t max_reads = std::uint64_t{1} << 21;  // pages and overflow headers read
  std::uint32_t max_databases = 64;                  // named databases in the main DB
  bool record_pages = false;                         // fill LmdbCheck::pages (tools, tests)
};

// One B-tree as walked; equal to the counts its MDB_db record holds (else: damage).
struct LmdbTreeCounts {
  std::string name;  // "free", "main", or a named database ("entries", "usage", ...)
  std::uint64_t entries = 0;
  std::uint64_t branch_pages = 0, leaf_pages = 0, overflow_pages = 0;
  std::uint32_t depth = 0;
  std::uint64_t key_sum = 0;  // sum of XXH3-64 of every key: compares key sets
};

struct LmdbCheck {
  bool fresh = false;    // an empty file, which LMDB initializes: nothing to check
  bool complete = true;  // false: a limit stopped the walk early (not damage)
  std::uint64_t txnid = 0;
  std::uint32_t page_size = 0;
  std::uint64_t last_pgno = 0;
  std::uint64_t file_bytes = 0;
  std::uint64_t reads = 0;  // pages and overflow headers read
  std::uint64_t free_pages = 0;
  std::vector<LmdbTreeCounts> trees;  // free, main, then named databases in key order
  // With LmdbCheckLimits::record_pages: what each page 0..last_pgno is used for:
  // 'm' meta, 'b' branch, 'l' leaf, 'o' overflow, 'f' listed free.
  std::string pages;
  // The tree called `name`, or null.
  const LmdbTreeCounts* tree(std::string_view name) const;
};

// Checks an LMDB data file held in memory (for fuzzing and tests). Never crashes or
// reads outside `image`, whatever its bytes. Damage: ErrorCode::corrupt, with a
// message naming the page and what is wrong with it.
Result<LmdbCheck> check_lmdb_image(std::span<const std::byte> image,
                                   const LmdbCheckLimits& limits = {});

// Checks the LMDB data file at `data_mdb` with pread. If it finds damage while another
// process commits (the snapshot it walked changed), it checks again (a few times).
// Errors: corrupt (damage, as above), io (the file cannot be opened or read).
Result<LmdbCheck> check_lmdb_file(const std::filesystem::path& data_mdb,
                                  const LmdbCheckLimits& limits = {});

struct RepairReport {
  std::uint64_t salvaged = 0;  // entries copied into the rebuilt store (checksums verified)
  // Entries not salvaged: records unreadable or failing their checksum, or (when more)
  // the entry count the damaged database's own record gives, less those salvaged.
  std::uint64_t lost = 0;
  std::uint64_t skipped_pages = 0;  // damaged pages whose records could not be reached
  // Readable entries dropped because signatures are required (config signing_key or
  // trusted_keys set) and theirs was lost or is not a valid one by a trusted key (the
  // config's trusted keys and the signing key's own).
  std::uint64_t unsigned_dropped = 0;
  std::filesystem::path moved_to;   // where the damaged data.mdb / lock.mdb now lie
};

// Rebuilds the store at config.dir: reads every entry it can reach in data.mdb (pread
// only; damaged pages and records are skipped, each entry's envelope checksum is
// verified), writes them into a fresh store in a temporary directory inside config.dir,
// then renames its data.mdb over the old one (one atomic step; processes that still
// have the old file open keep using it) and moves the old files into
// `<dir>/quarantine/<UTC time>/`. Each salvaged entry keeps its salvaged signature; when
// signatures are required (see unsigned_dropped) an entry without a valid one is not
// kept, and no signature is kept without its entry. Usage stamps, hit counts and counters restart, and
// creation times become the time of the repair. Run it with no other process writing the store.
// Errors: read_only, not_found (no data.mdb), io, permission, storage_full,
// invalid_argument (trusted_keys or signing_key unusable).
Result<RepairReport> rebuild_store(const Config& config);

}  // namespace cccl_cache
