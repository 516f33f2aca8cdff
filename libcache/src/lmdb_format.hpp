// LMDB 0.9.x on-disk layout (64-bit, little-endian host order, MDB_DEVEL off), as
// written by Debian's liblmdb, and the bounds-checked accessors the structural
// checker (lmdb_check.cpp) and the salvage reader (lmdb_salvage.cpp) share. Every
// accessor works on bytes read with pread into our own buffers: nothing here ever
// touches LMDB's memory map.
//
// Page (psize bytes, psize a power of two; page N at file offset N * psize):
//   u64 pgno | u16 pad | u16 flags | u16 lower | u16 upper   (16-byte header)
//   branch/leaf: u16 node offsets (from the page start) at 16 + 2*i, i < (lower-16)/2,
//                the nodes themselves between `upper` and the page end
//   overflow:    `lower|upper` is one u32, the number of pages of the run
//   meta (pages 0 and 1): the header, then MDB_meta
// Node: u16 lo | u16 hi | u16 flags | u16 ksize | key | data
//   branch: child pgno = lo | hi << 16 | flags << 32, no data
//   leaf:   data size = lo | hi << 16; flags F_BIGDATA: data is the u64 pgno of an
//           overflow run of OVPAGES(size) pages; F_SUBDATA: data is an MDB_db (48 bytes)
// MDB_db (48 bytes): u32 pad | u16 flags | u16 depth | u64 branch_pages | u64 leaf_pages |
//                    u64 overflow_pages | u64 entries | u64 root
// MDB_meta (at offset 16 of a meta page): u32 magic | u32 version | u64 address |
//   u64 mapsize | MDB_db free | MDB_db main | u64 last_pgno | u64 txnid
//   (the free DB's `pad` is the page size, its `flags` the persistent env flags)
// Free DB: key = u64 txnid that freed the pages, value = u64 count, then `count` page
// numbers in descending order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>

namespace cccl_cache::detail::lmdbfmt {

inline constexpr std::uint32_t kPageHeader = 16;
inline constexpr std::uint32_t kNodeHeader = 8;
inline constexpr std::uint32_t kDbSize = 48;
inline constexpr std::uint32_t kMetaSize = 136;
inline constexpr std::uint32_t kMetaRead =
    kPageHeader + kMetaSize;  // what LMDB reads of a meta page
inline constexpr std::uint32_t kMagic = 0xBEEFC0DE;
inline constexpr std::uint32_t kDataVersion = 1;
inline constexpr std::uint32_t kMinPageSize = 512, kMaxPageSize = 0x8000;
inline constexpr std::uint64_t kInvalidPgno = ~std::uint64_t{0};
inline constexpr std::uint32_t kMaxDepth = 32;  // LMDB's cursor stack (CURSOR_STACK)

inline constexpr std::uint16_t P_BRANCH = 0x01, P_LEAF = 0x02, P_OVERFLOW = 0x04, P_META = 0x08;
inline constexpr std::uint16_t F_BIGDATA = 0x01, F_SUBDATA = 0x02, F_DUPDATA = 0x04;
// MDB_db flags that change the page layout or key order (REVERSEKEY ... REVERSEDUP).
inline constexpr std::uint16_t kLayoutFlags = 0x7e;
inline constexpr std::uint16_t kIntegerKey = 0x08;

template <class T>
T load(const std::byte* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

struct Db {
  std::uint32_t pad = 0;
  std::uint16_t flags = 0, depth = 0;
  std::uint64_t branch_pages = 0, leaf_pages = 0, overflow_pages = 0, entries = 0;
  std::uint64_t root = kInvalidPgno;
};

inline Db parse_db(const std::byte* p) {
  return {load<std::uint32_t>(p),      load<std::uint16_t>(p + 4),  load<std::uint16_t>(p + 6),
          load<std::uint64_t>(p + 8),  load<std::uint64_t>(p + 16), load<std::uint64_t>(p + 24),
          load<std::uint64_t>(p + 32), load<std::uint64_t>(p + 40)};
}

struct Meta {
  std::uint64_t page_pgno = 0;
  std::uint16_t page_flags = 0;
  std::uint32_t magic = 0, version = 0;
  std::uint64_t mapsize = 0;
  Db free, main;
  std::uint64_t last_pgno = 0, txnid = 0;
  std::uint32_t page_size() const { return free.pad; }
};

// `p` holds at least kMetaRead bytes: a meta page from its start.
inline Meta parse_meta(const std::byte* p) {
  Meta m;
  m.page_pgno = load<std::uint64_t>(p);
  m.page_flags = load<std::uint16_t>(p + 10);
  const std::byte* q = p + kPageHeader;
  m.magic = load<std::uint32_t>(q);
  m.version = load<std::uint32_t>(q + 4);
  m.mapsize = load<std::uint64_t>(q + 16);
  m.free = parse_db(q + 24);
  m.main = parse_db(q + 24 + kDbSize);
  m.last_pgno = load<std::uint64_t>(q + 24 + 2 * kDbSize);
  m.txnid = load<std::uint64_t>(q + 32 + 2 * kDbSize);
  return m;
}

// Pages an overflow run for `size` data bytes takes (LMDB's OVPAGES).
inline std::uint64_t overflow_pages_for(std::uint64_t size, std::uint32_t psize) {
  return (kPageHeader - 1 + size) / psize + 1;
}

// One node of a branch or leaf page, every field bounds-checked against the page.
struct Node {
  std::uint16_t flags = 0;  // leaf only
  std::span<const std::byte> key;
  std::uint64_t child = 0;                     // branch only
  std::uint32_t data_size = 0;                 // leaf only
  std::span<const std::byte> data;             // leaf: inline data, or the 8-byte overflow pgno
  std::uint64_t overflow_pgno = kInvalidPgno;  // leaf with F_BIGDATA
};

// Checks a branch or leaf page's header: its page number, flags (exactly P_BRANCH or
// P_LEAF) and the free-space bounds. On success sets `branch` and `nkeys`; otherwise
// says what is wrong.
std::optional<std::string> check_page_header(std::span<const std::byte> page, std::uint64_t pgno,
                                             bool& branch, std::uint32_t& nkeys);

// Node `i` of a page whose header passed check_page_header; a message when the node's
// offset, key or inline data do not lie inside the page, or its flags are unknown.
std::optional<std::string> read_node(std::span<const std::byte> page, std::uint32_t i, bool branch,
                                     Node& out);

// Key order of a database: memcmp then shorter first, or native u64 (MDB_INTEGERKEY).
int compare_keys(std::span<const std::byte> a, std::span<const std::byte> b, bool integer_key);

// The page size field of a meta page is one LMDB accepts (power of two, 512 ... 32 KiB).
inline bool valid_page_size(std::uint32_t psize) {
  return psize >= kMinPageSize && psize <= kMaxPageSize && (psize & (psize - 1)) == 0;
}

}  // namespace cccl_cache::detail::lmdbfmt
