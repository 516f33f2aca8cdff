// The portable archive of `cccl-cache export` / `import`: one file holding cache
// entries, each checksummed, for moving a prewarmed cache between machines.
//
// Grammar (integers little-endian):
//   archive     := magic "CCCLARCH" | u32 version (2; 1 is read too) | u32 flags | body
//                  flags bit 0: body is one zstd frame (decompress, then parse)
//   body        := entry* trailer
//   entry       := "ENTR" | u32 n | entry_bytes[n] | XXH3-128(entry_bytes) (16 bytes)
//   entry_bytes := key (CacheKey::encode, 20 bytes) | str algorithm | str summary
//                | str toolchain | u32 payload_format | i64 created_unix
//                | i64 last_used_unix | u64 hits | u64 payload_size | payload
//                | str signature         (version 2; "" when unsigned: signing.hpp)
//   str         := u32 length | bytes
//   trailer     := "END!" | u64 entry_count | XXH3-128(body bytes before the trailer)
// A damaged entry fails its own checksum and is skipped; the trailer catches
// truncation and damage to the framing. Entries before damage to the framing or to
// the zstd stream are still read (the stream is decoded in order).
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cccl_cache/cache/error.hpp"
#include "cccl_cache/cache/store.hpp"

namespace cccl_cache::cli {

inline constexpr char kArchiveMagic[8] = {'C', 'C', 'C', 'L', 'A', 'R', 'C', 'H'};
inline constexpr std::uint32_t kArchiveVersion = 2;
inline constexpr std::uint32_t kOldestArchiveVersion = 1;  // no signatures
inline constexpr std::uint64_t kMaxSignatureBytes = 512;
inline constexpr std::uint32_t kArchiveFlagZstd = 1;
inline constexpr char kArchiveEntryTag[4] = {'E', 'N', 'T', 'R'};
inline constexpr char kArchiveEndTag[4] = {'E', 'N', 'D', '!'};

// Accumulates entries in memory, then writes the archive. Not thread-safe.
class ArchiveWriter {
 public:
  explicit ArchiveWriter(bool compress) : compress_(compress) {}
  // Adds `entry` with its signature text (signing.hpp; empty: unsigned).
  void add(const Entry& entry, std::string_view signature = {});
  std::uint64_t count() const { return count_; }
  // Writes the archive to `file` through a temporary file and a rename, so a reader
  // never sees half an archive. Errors: io.
  Result<void> write(const std::filesystem::path& file) const;

 private:
  bool compress_;
  std::uint64_t count_ = 0;
  std::vector<std::byte> body_;
};

struct ArchiveContents {
  std::vector<Entry> entries;         // entries whose checksum matched, in file order
  std::vector<std::string> signatures;  // signatures[i] of entries[i]; "" when unsigned
  std::vector<std::string> problems;  // one line per bad entry or framing problem
  std::uint64_t declared_count = 0;   // from the trailer (0 when the trailer is bad)
  bool trailer_ok = false;
};

// Hard limits on what reading one archive may cost. Sizes are never taken from the
// file on trust: the body is decompressed as a stream and each entry is read as its
// bytes arrive, so a small file that declares gigabytes allocates nothing for them.
struct ArchiveLimits {
  std::uint64_t max_body_bytes = 4ull << 30;  // the (decompressed) body, all entries
  std::uint64_t max_entry_bytes = 64u << 20;  // one entry (key, metadata, payload)
  std::uint64_t max_entries = 1u << 20;
  std::uint64_t max_meta_bytes = 0xffff;  // each metadata string (the store's limit)
  int max_zstd_window_log = 24;           // the decoder's window: at most 16 MiB
};

// Parses an archive held in memory (the whole file's bytes); `name` names it in
// messages. A bad entry is skipped and described in `problems`; damage to the framing
// or to the compressed stream, or a limit reached, ends the reading there: the entries
// before it are returned, the rest is described in `problems`. Errors: corrupt (not an
// archive: no magic or a truncated header), format (another archive version).
// Never throws (except std::bad_alloc), never reads past `bytes`.
Result<ArchiveContents> parse_archive(std::span<const std::byte> bytes,
                                      const ArchiveLimits& limits = {},
                                      std::string_view name = "archive");

// The same, streaming from a file (a regular file, a pipe or a device). Errors as
// above, plus invalid_argument (a directory) and not_found / io (cannot open or read).
Result<ArchiveContents> read_archive(const std::filesystem::path& file,
                                     const ArchiveLimits& limits = {});

}  // namespace cccl_cache::cli
