// What the store does about a damaged data.mdb: vetting it before LMDB maps it
// (quarantine or refusal), and rebuild_store (integrity.hpp).
#include "store_damage.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>
#include <map>
#include <thread>

#include "cccl_cache/cache/envelope.hpp"
#include "cccl_cache/cache/integrity.hpp"
#include "cccl_cache/cache/log.hpp"
#include "cccl_cache/cache/signing.hpp"
#include "cccl_cache/cache/store.hpp"
#include "lmdb_reader.hpp"
#include "store_ops.hpp"

namespace cccl_cache {
namespace detail {
namespace fs = std::filesystem;

namespace {

// "20261201T143512.123456Z-<pid>": sorts by time, unique per process.
std::string stamp() {
  using namespace std::chrono;
  const auto now = system_clock::now();
  const std::time_t t = system_clock::to_time_t(now);
  std::tm tm{};
  ::gmtime_r(&t, &tm);
  char buf[64];
  const auto us = duration_cast<microseconds>(now.time_since_epoch()).count() % 1'000'000;
  std::snprintf(buf, sizeof buf, "%04d%02d%02dT%02d%02d%02d.%06lldZ-%d", tm.tm_year + 1900,
                tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                static_cast<long long>(us), static_cast<int>(::getpid()));
  return buf;
}

Result<fs::path> make_quarantine_dir(const fs::path& dir) {
  const fs::path q = dir / "quarantine" / stamp();
  std::error_code ec;
  fs::create_directories(q, ec);
  if (ec) return fail(ErrorCode::io, "cannot create " + q.string() + ": " + ec.message());
  return q;
}

// An exclusive flock on the cache directory, so that processes finding the same
// damage move the files aside once.
class DirLock {
 public:
  explicit DirLock(const fs::path& dir)
      : fd_(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)) {
    if (fd_ >= 0)
      while (::flock(fd_, LOCK_EX) != 0 && errno == EINTR) {
      }
  }
  ~DirLock() {
    if (fd_ >= 0) ::close(fd_);
  }
  DirLock(const DirLock&) = delete;
  DirLock& operator=(const DirLock&) = delete;

 private:
  int fd_;
};

}  // namespace

Result<bool> vet_store_files(const DirInfo& dir, bool writable) {
  if (!dir.has_data) return false;
  const fs::path data = dir.path / "data.mdb";
  // data.mdb exists (has_data), so an empty one was cut short: LMDB would silently
  // start afresh.
  auto vet = [&]() -> Result<LmdbCheck> {
    auto c = check_lmdb_file(data);
    if (c && c->fresh) return fail(ErrorCode::corrupt, "data.mdb is empty (truncated)");
    return c;
  };
  auto check = vet();
  if (check) {
    if (!check->complete)
      logger()->info("cache {}: the structural check stopped at its read limit", dir.path.string());
    return false;
  }
  if (check.error().code == ErrorCode::not_found) return false;
  if (check.error().code != ErrorCode::corrupt) return tl::unexpected(check.error());
  if (!writable)
    return fail(ErrorCode::corrupt,
                "cache " + dir.path.string() + " is damaged (" + check.error().message +
                    "); open it writable once to move the damaged files aside and start empty, "
                    "or run 'cccl-cache verify --repair' to salvage its entries");
  DirLock lock(dir.path);
  std::error_code ec;
  // An empty file may be one another process is creating right now (LMDB writes its
  // meta pages just after creating it): look again a little later.
  if (fs::file_size(data, ec) == 0) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  check = vet();  // another process may have dealt with it meanwhile
  if (check || check.error().code != ErrorCode::corrupt) return false;
  auto q = make_quarantine_dir(dir.path);
  if (!q) return tl::unexpected(q.error());
  for (const char* name : {"data.mdb", "lock.mdb"}) {
    fs::rename(dir.path / name, *q / name, ec);
    if (ec && ec != std::errc::no_such_file_or_directory)
      return fail(ErrorCode::io, "cannot move damaged " + (dir.path / name).string() + " to " +
                                     q->string() + ": " + ec.message());
  }
  logger()->warn(
      "cache {} is damaged ({}); moved data.mdb and lock.mdb to {} and started an "
      "empty store",
      dir.path.string(), check.error().message, q->string());
  return true;
}

void count_quarantine(SharedEnv& env) {
  auto r = env.write([&](lmdb::WriteTxn& txn) {
    return add_counter(txn, env.counters(), std::uint32_t(Counter::quarantined), 1);
  });
  if (!r) logger()->warn("cannot count the quarantine: {}", r.error().describe());
}

}  // namespace detail

Result<RepairReport> rebuild_store(const Config& config) {
  namespace fs = std::filesystem;
  if (config.read_only || config.disabled)
    return fail(ErrorCode::read_only, "rebuild_store needs a writable, enabled cache");
  const fs::path data = config.dir / "data.mdb";
  auto file = detail::ReadFile::open(data);
  if (!file) return tl::unexpected(file.error());
  RepairReport report;
  auto trust = store_trust(config);
  if (!trust) return tl::unexpected(trust.error());
  const bool required = trust->enabled();
  std::map<CacheKey, std::string> signatures;
  (void)detail::salvage_records(
      file->reader(), file->size(), "signatures",
      [&](std::span<const std::byte> k, std::span<const std::byte> v) {
        if (auto key = CacheKey::decode(k))
          signatures.emplace(*key, std::string(reinterpret_cast<const char*>(v.data()), v.size()));
      });
  Config fresh = config;
  fresh.dir = config.dir / ("repair-" + detail::stamp());
  std::optional<Error> failed;
  {
    auto store = Store::open(fresh);
    if (!store) return tl::unexpected(store.error());
    const auto counts = detail::salvage_records(
        file->reader(), file->size(), "entries",
        [&](std::span<const std::byte> k, std::span<const std::byte> v) {
          if (failed) return;
          auto key = CacheKey::decode(k);
          auto view = decode_envelope(v);
          if (!key || !view) {
            ++report.lost;
            return;
          }
          const EntryMeta meta = detail::meta_of(*view);
          auto sig = signatures.find(*key);
          const std::string signature = sig == signatures.end() ? std::string() : sig->second;
          if (required && !trust->verify(*key, signed_fields(meta), view->payload,
                                         signature.empty() ? std::nullopt
                                                           : std::optional<std::string_view>(signature))) {
            ++report.unsigned_dropped;
            return;
          }
          if (auto r = (*store)->put(*key, meta, view->payload, signature); !r) {
            failed = r.error();
            return;
          }
          ++report.salvaged;
        });
    report.lost += counts.bad_records;
    // Records on skipped pages were never seen: count them from the database's record.
    const std::uint64_t accounted = report.salvaged + report.unsigned_dropped;
    if (counts.expected > accounted)
      report.lost = std::max(report.lost, counts.expected - accounted);
    report.skipped_pages = counts.skipped_pages;
  }
  std::error_code ec;
  if (failed) {
    fs::remove_all(fresh.dir, ec);
    return tl::unexpected(*failed);
  }
  auto q = detail::make_quarantine_dir(config.dir);
  if (!q) return tl::unexpected(q.error());
  report.moved_to = *q;
  // Keep the damaged files (a hard link), then replace data.mdb in one rename.
  for (const char* name : {"data.mdb", "lock.mdb"}) {
    if (::link((config.dir / name).c_str(), (*q / name).c_str()) != 0 && errno != ENOENT) {
      fs::copy_file(config.dir / name, *q / name, ec);
      if (ec)
        return fail(ErrorCode::io, "cannot keep a copy of " + (config.dir / name).string() +
                                       " in " + q->string() + ": " + ec.message());
    }
  }
  for (const char* name : {"data.mdb", "lock.mdb"}) {
    fs::rename(fresh.dir / name, config.dir / name, ec);
    if (ec)
      return fail(ErrorCode::io, "cannot move the rebuilt " + std::string(name) + " into " +
                                     config.dir.string() + ": " + ec.message());
  }
  fs::remove_all(fresh.dir, ec);
  return report;
}

}  // namespace cccl_cache
