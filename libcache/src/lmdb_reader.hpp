// Reading an LMDB data file without mapping it: a pread-based file, an in-memory
// image, and the checker's entry point over either (shared by lmdb_check.cpp,
// lmdb_salvage.cpp and the open-time vetting in store_damage.cpp).
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <span>

#include "cccl_cache/cache/integrity.hpp"

namespace cccl_cache::detail {

// Reads up to out.size() bytes at `offset`; returns the bytes read (fewer at the end
// of the file), or -1 with errno set.
using ReadAt = std::function<std::int64_t(std::uint64_t offset, std::span<std::byte> out)>;

ReadAt image_reader(std::span<const std::byte> image);

// A data file opened read-only for pread (never mapped).
class ReadFile {
 public:
  // Errors: not_found, permission, io.
  static Result<ReadFile> open(const std::filesystem::path& path);
  ReadFile(ReadFile&& o) noexcept : fd_(o.fd_) { o.fd_ = -1; }
  ReadFile& operator=(ReadFile&&) = delete;
  ~ReadFile();
  std::uint64_t size() const;  // current size (0 when fstat fails)
  ReadAt reader() const;

 private:
  explicit ReadFile(int fd) : fd_(fd) {}
  int fd_ = -1;
};

// The checker over any reader. `txnid` (optional) receives the snapshot it walked.
Result<LmdbCheck> check_lmdb_with(const ReadAt& read, std::uint64_t file_bytes,
                                  const LmdbCheckLimits& limits, std::uint64_t* txnid);

// The larger transaction id of the two meta pages as read now (0 when unreadable).
std::uint64_t newest_txnid(const ReadAt& read);

// Every record of named database `db_name` that can be reached from the newer meta
// page (else the older one), skipping damaged pages and records: calls fn(key, value)
// with views valid during the call only. Counts what it had to skip.
struct SalvageCounts {
  std::uint64_t records = 0;        // passed to fn
  std::uint64_t bad_records = 0;    // nodes or overflow runs that could not be read
  std::uint64_t skipped_pages = 0;  // pages (with their subtrees) that could not be read
  std::uint64_t expected = 0;       // records the database's own record says it holds
};
SalvageCounts salvage_records(
    const ReadAt& read, std::uint64_t file_bytes, std::string_view db_name,
    const std::function<void(std::span<const std::byte>, std::span<const std::byte>)>& fn);

}  // namespace cccl_cache::detail
