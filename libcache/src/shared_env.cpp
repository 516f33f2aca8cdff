#include "shared_env.hpp"

#include <fcntl.h>
#include <pthread.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>
#include <thread>

#include "cccl_cache/cache/log.hpp"
#include "store_damage.hpp"

namespace cccl_cache {

Error lmdb::error(int rc, std::string_view what) {
  std::string msg = std::string(what) + ": " + mdb_strerror(rc);
  switch (rc) {
    case MDB_MAP_FULL:
      return {ErrorCode::storage_full,
              msg + " (the map reached max_map_size; raise it or evict entries)"};
    case ENOSPC:
      return {ErrorCode::storage_full, msg + " (the disk is full; free space or evict entries)"};
    case EACCES:
    case EPERM:
      return {ErrorCode::permission, msg};
    case EROFS:
      return {ErrorCode::read_only, msg};
    case EIO:
      return {ErrorCode::io, msg};
    default:
      return {ErrorCode::lmdb, msg};
  }
}

namespace detail {
namespace {

std::atomic<std::uint64_t> g_generation{0};
std::mutex g_registry_mu;
// Keyed by (device, inode) so that different spellings of one directory share an env.
std::map<std::pair<dev_t, ino_t>, std::weak_ptr<SharedEnv>> g_registry;

void install_fork_handlers() {
  static std::once_flag once;
  std::call_once(once, [] {
    // Hold the registry lock across fork() so that the child never inherits it locked.
    pthread_atfork([] { g_registry_mu.lock(); }, [] { g_registry_mu.unlock(); },
                   [] {
                     g_registry_mu.unlock();
                     g_generation.fetch_add(1, std::memory_order_relaxed);
                   });
  });
}

}  // namespace

std::uint64_t fork_generation() noexcept { return g_generation.load(std::memory_order_relaxed); }

Result<std::shared_ptr<SharedEnv>> SharedEnv::acquire(const Config& config, const DirInfo& dir) {
  install_fork_handlers();
  std::lock_guard lock(g_registry_mu);
  std::erase_if(g_registry, [](const auto& kv) { return kv.second.expired(); });
  auto& slot = g_registry[{dir.dev, dir.ino}];
  if (auto existing = slot.lock(); existing && !existing->stale()) return existing;
  std::shared_ptr<SharedEnv> env(new SharedEnv());
  if (auto r = env->open(config, dir); !r) return tl::unexpected(r.error());
  slot = env;
  return env;
}

SharedEnv::~SharedEnv() {
  // After fork() the child must not close the parent's environment: closing its file
  // descriptors would drop the locks this process takes on the same files.
  // Pooled read txns are leaked with it: aborting them would free the parent's reader slots.
  if (pid_ != ::getpid())
    (void)env_.release();
  else
    read_pool_.drain();
}

Result<void> SharedEnv::open(const Config& config, const DirInfo& dir) {
  pid_ = ::getpid();
  dir_ = dir.path;
  generation_ = fork_generation();
  read_only_ = !dir.writable;
  max_map_size_ = std::max(config.max_map_size, config.initial_map_size);
  last_flush = std::chrono::steady_clock::now();
  const mdb_mode_t mode = config.shared ? 0660 : 0600;
  const std::string where = dir.path.string();
  const std::string immutable_hint =
      "; only if the store is an immutable image that no process writes, set immutable = true "
      "(CCCL_CACHE_IMMUTABLE=1) to read it without locking";
  if (dir.network_fs) nolock_ = true;  // prepare_dir let it through as an immutable image
  // LMDB silently drops its reader locks on a read-only filesystem; another mount of the
  // same filesystem may still be writable, so that is only allowed for a declared image.
  if (read_only_ && dir.read_only_fs && !nolock_) {
    if (!config.immutable)
      return fail(ErrorCode::permission,
                  "cache " + where +
                      " is on a read-only filesystem, where LMDB cannot take its reader locks: "
                      "a writer elsewhere could replace pages while they are read" +
                      immutable_hint);
    nolock_ = true;
  }
  // Damage is found before LMDB maps the file: moved aside (writable) or refused.
  auto quarantined = vet_store_files(dir, !read_only_);
  if (!quarantined) return tl::unexpected(quarantined.error());
  for (int pass = 0; pass < 2; ++pass) {
    MDB_env* raw = nullptr;
    if (int rc = mdb_env_create(&raw); rc != MDB_SUCCESS)
      return tl::unexpected(lmdb::error(rc, "mdb_env_create"));
    env_ = lmdb::Env(raw);
    mdb_env_set_maxreaders(raw, std::max(config.max_readers, 1u));
    mdb_env_set_maxdbs(raw, 8);
    // An existing map keeps its recorded size: setting a smaller one would shrink it.
    if (!dir.has_data || *quarantined) mdb_env_set_mapsize(raw, config.initial_map_size);
    unsigned flags =
        MDB_NOTLS | MDB_NOMETASYNC | (read_only_ ? MDB_RDONLY : 0u) | (nolock_ ? MDB_NOLOCK : 0u);
    int rc = mdb_env_open(raw, dir.path.c_str(), flags, mode);
    if (rc == MDB_SUCCESS) break;
    env_.reset();
    const bool denied = rc == EACCES || rc == EROFS || rc == EPERM;
    if (!nolock_ && read_only_ && denied) {
      if (!config.immutable)
        return fail(ErrorCode::permission,
                    "cannot use the lock file of read-only cache " + where + " (" +
                        mdb_strerror(rc) +
                        "): without it a writer could replace pages while they are read. Ask "
                        "the store's owner for write access to lock.mdb" +
                        immutable_hint);
      logger()->info(
          "cache {} lock file is not writable; reading the immutable image without "
          "locking",
          where);
      nolock_ = true;
      continue;
    }
    auto e = lmdb::error(rc, "open LMDB environment in " + where);
    if (denied)
      e.message +=
          " (data.mdb and lock.mdb must be readable and writable by you; open it "
          "read-only with read_only = true if they are not meant to be)";
    return tl::unexpected(e);
  }
  if (!env_.get()) return fail(ErrorCode::internal, "open LMDB environment in " + where);
  // LMDB opened the files by path: make sure they are the ones vetted in prepare_dir.
  int data_fd = -1;
  if (int rc = mdb_env_get_fd(env_.get(), &data_fd); rc != MDB_SUCCESS)
    return tl::unexpected(lmdb::error(rc, "mdb_env_get_fd"));
  if (auto ok = check_opened(config, dir, data_fd); !ok) {
    env_.reset();
    return ok;
  }
  if (config.shared && !read_only_) {  // LMDB's create mode went through the umask
    (void)::fchmod(data_fd, mode);
    if (int lock = ::openat(dir.fd(), "lock.mdb", O_RDONLY | O_NOFOLLOW | O_CLOEXEC); lock >= 0) {
      (void)::fchmod(lock, mode);
      ::close(lock);
    }
  }
  clear_dead_readers();
  if (auto dbs = open_dbs(!dir.has_data || *quarantined); !dbs) return dbs;
  if (*quarantined) count_quarantine(*this);
  // Take this process's reader slot now, with the environment: the first read txn
  // registers in the reader table shared by all processes (under its mutex); reset and
  // pooled, it is renewed by the first get without that lock. A reset txn holds no
  // snapshot, so it keeps no old pages alive. Failing here is harmless: the first get
  // then begins its own txn.
  if (has_dbs()) (void)begin_read();
  return {};
}

bool SharedEnv::reader_check_due() {
  using namespace std::chrono;
  const std::int64_t now = duration_cast<seconds>(steady_clock::now().time_since_epoch()).count();
  std::int64_t last = last_reader_check_s_.load(std::memory_order_relaxed);
  const bool due = writes_.fetch_add(1, std::memory_order_relaxed) % kReaderCheckEvery == 0 ||
                   now - last >= kReaderCheckInterval.count();
  if (due) last_reader_check_s_.compare_exchange_strong(last, now, std::memory_order_relaxed);
  return due;
}

int SharedEnv::clear_dead_readers() {
  if (nolock_) return 0;  // no reader table
  int dead = 0;
  mdb_reader_check(env_.get(), &dead);
  if (dead > 0) logger()->info("cleared {} stale reader slots in {}", dead, dir_.string());
  return dead;
}

Result<void> SharedEnv::open_dbs(bool fresh) {
  // Named databases are opened once per environment; the handles outlive the txn.
  // Another process may grow the map between our mdb_env_open and this txn: adopt
  // its size and try again, as begin_read/begin_write do (nothing of ours is open yet).
  MDB_txn* txn = nullptr;
  int rc = MDB_MAP_RESIZED;
  for (int attempt = 0; attempt < 16 && rc == MDB_MAP_RESIZED; ++attempt) {
    rc = mdb_txn_begin(env_.get(), nullptr, read_only_ ? MDB_RDONLY : 0, &txn);
    if (rc == MDB_MAP_RESIZED) adopt_new_size();
  }
  if (rc != MDB_SUCCESS)
    return tl::unexpected(lmdb::error(rc, "begin transaction to open databases"));
  const unsigned flags = read_only_ ? 0 : MDB_CREATE;
  rc = mdb_dbi_open(txn, "entries", flags, &entries_);
  if (rc == MDB_SUCCESS) rc = mdb_dbi_open(txn, "usage", flags, &usage_);
  if (rc == MDB_SUCCESS) rc = mdb_dbi_open(txn, "counters", flags, &counters_);
  if (rc == MDB_NOTFOUND && read_only_) {  // an image written before any put: empty
    mdb_txn_abort(txn);
    return {};
  }
  if (rc == MDB_SUCCESS) {
    rc = mdb_dbi_open(txn, "signatures", flags, &signatures_);
    has_signatures_ = rc == MDB_SUCCESS;
    if (rc == MDB_NOTFOUND && read_only_) rc = MDB_SUCCESS;  // written before signatures
  }
  if (rc != MDB_SUCCESS) {
    mdb_txn_abort(txn);
    return tl::unexpected(lmdb::error(rc, "open the store's databases"));
  }
  // A fresh store's databases are created without a disk sync: that commit holds no
  // entry, and a new node's start-up (an empty store, then its backfill) would wait for
  // a sync of nothing. The first commit that writes an entry syncs the whole file, these
  // pages with it, before its meta page is written. A system crash before then can leave
  // a torn empty store, which the structural check of the next open moves aside
  // (vet_store_files): nothing is lost. Nothing else uses the environment yet.
  if (fresh && !read_only_) mdb_env_set_flags(env_.get(), MDB_NOSYNC, 1);
  rc = mdb_txn_commit(txn);
  if (fresh && !read_only_) mdb_env_set_flags(env_.get(), MDB_NOSYNC, 0);
  if (rc != MDB_SUCCESS)
    return tl::unexpected(lmdb::error(rc, "commit opening the store's databases"));
  has_dbs_ = true;
  return {};
}

std::uint64_t SharedEnv::map_size() const {
  MDB_envinfo info{};
  mdb_env_info(env_.get(), &info);
  return info.me_mapsize;
}

std::optional<std::string> SharedEnv::pinning_reader() const {
  if (nolock_) return std::nullopt;
  MDB_envinfo info{};
  mdb_env_info(env_.get(), &info);
  struct Scan {
    std::uint64_t last;
    std::optional<std::string> found;
  } scan{info.me_last_txnid, std::nullopt};
  // Lines of "pid thread txnid", txnid "-" for a reset (idle) slot.
  mdb_reader_list(
      env_.get(),
      [](const char* line, void* ctx) -> int {
        auto* s = static_cast<Scan*>(ctx);
        int pid = 0;
        unsigned long long thread = 0, txnid = 0;
        if (!s->found && std::sscanf(line, "%d %llx %llu", &pid, &thread, &txnid) == 3 &&
            txnid + 2 < s->last)
          s->found = "pid " + std::to_string(pid) + " holds a snapshot " +
                     std::to_string(s->last - txnid) + " transactions old";
        return 0;
      },
      &scan);
  return scan.found;
}

void SharedEnv::adopt_new_size() {
  std::unique_lock lock(resize_mu_);
  mdb_env_set_mapsize(env_.get(), 0);  // take the size another process grew the map to
}

Result<void> SharedEnv::grow(std::uint64_t seen) {
  std::unique_lock lock(resize_mu_);
  const std::uint64_t now = map_size();
  if (now > seen) return {};  // another thread of this process grew it meanwhile
  // A process killed inside a read txn pins its snapshot: every page freed since stays
  // unusable and the map would grow to its ceiling. Free such slots first and retry.
  if (clear_dead_readers() > 0) return {};
  if (now >= max_map_size_)
    return fail(ErrorCode::storage_full, "the store's map is full at max_map_size (" +
                                             std::to_string(now) +
                                             " bytes); raise max_map_size or evict entries");
  const std::uint64_t next = std::min(now * 2, max_map_size_);
  if (int rc = mdb_env_set_mapsize(env_.get(), next); rc != MDB_SUCCESS)
    return tl::unexpected(lmdb::error(rc, "grow the map to " + std::to_string(next) + " bytes"));
  logger()->debug("grew the map from {} to {} bytes", now, next);
  return {};
}

Error SharedEnv::commit_error(int rc) const {
  struct statvfs fs {};
  if ((rc == EIO || rc == ENOSPC) && ::statvfs(dir_.c_str(), &fs) == 0 &&
      std::uint64_t(fs.f_bavail) * fs.f_frsize < (16ull << 20))
    return {ErrorCode::storage_full,
            "commit write transaction: the disk holding " + dir_.string() +
                " is full; free space or evict entries (nothing stored was harmed)"};
  return lmdb::error(rc, "commit write transaction");
}

void SharedEnv::nudge() {
  auto txn = begin_write();
  if (!txn) return;
  // A private counter (number 1001, not a Counter) that exists only to make a commit.
  const std::array<std::byte, 4> key{std::byte{0}, std::byte{0}, std::byte{0x03}, std::byte{0xe9}};
  std::uint64_t n = 0;
  MDB_val cur{};
  if (txn->get(counters_, key, cur) == MDB_SUCCESS && cur.mv_size == sizeof n)
    std::memcpy(&n, cur.mv_data, sizeof n);
  ++n;
  MDB_val v{sizeof n, &n};
  if (txn->put(counters_, key, v) == MDB_SUCCESS) (void)txn->commit();
}

Result<lmdb::ReadTxn> SharedEnv::begin_read() {
  for (int attempt = 0; attempt < 64; ++attempt) {
    std::shared_lock lock(resize_mu_);
    MDB_txn* txn = read_pool_.take();
    int rc = MDB_SUCCESS;
    if (txn) {
      rc = mdb_txn_renew(txn);
      if (rc != MDB_SUCCESS) mdb_txn_abort(txn);
    } else {
      rc = mdb_txn_begin(env_.get(), nullptr, MDB_RDONLY, &txn);
    }
    if (rc == MDB_SUCCESS) return lmdb::ReadTxn(txn, std::move(lock), &read_pool_);
    lock.unlock();
    if (rc == MDB_MAP_RESIZED) {
      adopt_new_size();
    } else if (rc == MDB_READERS_FULL) {
      if (clear_dead_readers() == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    } else {
      return tl::unexpected(lmdb::error(rc, "begin read transaction"));
    }
  }
  return fail(ErrorCode::lmdb,
              "begin read transaction in " + dir_.string() +
                  ": the reader table is full of live readers (MDB_READERS_FULL); raise "
                  "max_readers (fixed when the store is created: clear or recreate it)");
}

Result<lmdb::WriteTxn> SharedEnv::begin_write() {
  if (read_only_) return fail(ErrorCode::read_only, "the store is open read-only");
  // Now and then, clear the slots of dead readers before they make the file grow
  // (cheap: one scan of the reader table, one fcntl per distinct reader process).
  if (reader_check_due()) clear_dead_readers();
  for (int attempt = 0; attempt < 64; ++attempt) {
    std::shared_lock lock(resize_mu_);
    MDB_txn* txn = nullptr;
    int rc = mdb_txn_begin(env_.get(), nullptr, 0, &txn);
    if (rc == MDB_SUCCESS) return lmdb::WriteTxn(txn, std::move(lock));
    lock.unlock();
    if (rc != MDB_MAP_RESIZED) return tl::unexpected(lmdb::error(rc, "begin write transaction"));
    adopt_new_size();
  }
  return fail(ErrorCode::lmdb, "begin write transaction: map kept being resized");
}

}  // namespace detail
}  // namespace cccl_cache
