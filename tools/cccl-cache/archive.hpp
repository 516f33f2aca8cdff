// The portable archive of `cccl-cache export` / `import`: one file holding cache
// entries, each checksummed, for moving a prewarmed cache between machines.
//
// Grammar (integers little-endian):
//   archive     := magic "CCCLARCH" | u32 version (=1) | u32 flags | body
//                  flags bit 0: body is one zstd frame (decompress, then parse)
//   body        := entry* trailer
//   entry       := "ENTR" | u32 n | entry_bytes[n] | XXH3-128(entry_bytes) (16 bytes)
//   entry_bytes := key (CacheKey::encode, 20 bytes) | str algorithm | str summary
//                | str toolchain | u32 payload_format | i64 created_unix
//                | i64 last_used_unix | u64 hits | u64 payload_size | payload
//   str         := u32 length | bytes
//   trailer     := "END!" | u64 entry_count | XXH3-128(body bytes before the trailer)
// A damaged entry fails its own checksum and is skipped; the trailer catches
// truncation and damage to the framing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "cccl_cache/cache/error.hpp"
#include "cccl_cache/cache/store.hpp"

namespace cccl_cache::cli {

inline constexpr char kArchiveMagic[8] = {'C', 'C', 'C', 'L', 'A', 'R', 'C', 'H'};
inline constexpr std::uint32_t kArchiveVersion = 1;
inline constexpr std::uint32_t kArchiveFlagZstd = 1;

// Accumulates entries in memory, then writes the archive. Not thread-safe.
class ArchiveWriter {
 public:
  explicit ArchiveWriter(bool compress) : compress_(compress) {}
  void add(const Entry& entry);
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
  std::vector<std::string> problems;  // one line per bad entry or framing problem
  std::uint64_t declared_count = 0;   // from the trailer (0 when the trailer is bad)
  bool trailer_ok = false;
};

// Reads an archive, checking each entry's checksum and the trailer. A bad entry is
// skipped and described in `problems`. Errors: not_found / io (unreadable file),
// corrupt (not an archive, unknown version, undecompressable body).
Result<ArchiveContents> read_archive(const std::filesystem::path& file);

}  // namespace cccl_cache::cli
