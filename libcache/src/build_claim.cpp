// The host claim: one lock file per key in <cache dir>/claims/, held with flock(2).
// A holder removes its file before unlocking it, so the directory keeps only the files
// of claims held now (and of holders that died: the next holder removes those). A
// waiter may lock a file that its holder has just removed; it checks after locking that
// the name still leads to the file it locked, and starts over when not.
#include "cccl_cache/cache/build_claim.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <thread>

#include "cccl_cache/cache/log.hpp"
#include "dir_safety.hpp"

namespace cccl_cache {
namespace {

std::string errno_text() { return std::strerror(errno); }

class HostHold final : public BuildClaim::Hold {
 public:
  HostHold(std::shared_ptr<const detail::DirFd> dir, std::string name, int fd)
      : dir_(std::move(dir)), name_(std::move(name)), fd_(fd) {}
  ~HostHold() override {
    (void)::unlinkat(dir_->fd, name_.c_str(), 0);  // before the unlock: see the top
    ::close(fd_);                                  // releases the flock
  }
  HostHold(const HostHold&) = delete;
  HostHold& operator=(const HostHold&) = delete;

 private:
  std::shared_ptr<const detail::DirFd> dir_;
  std::string name_;
  int fd_;
};

class HostClaim final : public BuildClaim {
 public:
  HostClaim(std::shared_ptr<const detail::DirFd> dir, std::filesystem::path path, bool shared)
      : dir_(std::move(dir)), path_(std::move(path)), shared_(shared) {}

  // `appeared` is not polled: the holder publishes before it unlocks, so the caller's
  // read after the lock finds its entry.
  Result<std::unique_ptr<Hold>> claim(const CacheKey& key, Clock::time_point deadline,
                                      const AppearedFn&) override {
    const std::string name = key.to_string() + ".lock";
    auto pause = std::chrono::milliseconds(1);
    bool refused = false;
    for (;;) {
      // O_RDONLY is enough for flock, and lets a group member lock a file another member
      // created; O_NONBLOCK: a FIFO planted under the name never blocks the open.
      const int fd = ::openat(dir_->fd, name.c_str(),
                              O_RDONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK,
                              shared_ ? 0660 : 0600);
      if (fd < 0)
        return fail(errno == EACCES || errno == ELOOP ? ErrorCode::permission : ErrorCode::io,
                    "cannot open build claim " + (path_ / name).string() + ": " + errno_text());
      struct stat locked {};
      if (::fstat(fd, &locked) != 0 || !S_ISREG(locked.st_mode)) {
        ::close(fd);
        return fail(ErrorCode::permission,
                    "build claim " + (path_ / name).string() + " is not a regular file; remove it");
      }
      bool held = false;
      while (!(held = ::flock(fd, LOCK_EX | LOCK_NB) == 0)) {
        if (errno != EWOULDBLOCK && errno != EINTR) {
          const std::string why = errno_text();
          ::close(fd);
          return fail(ErrorCode::io, "cannot lock build claim " + (path_ / name).string() + ": " + why);
        }
        refused = true;
        if (Clock::now() >= deadline) break;
        std::this_thread::sleep_for(std::min<Clock::duration>(pause, deadline - Clock::now()));
        pause = std::min(pause * 2, std::chrono::milliseconds(50));
      }
      if (!held) {
        ::close(fd);
        return std::unique_ptr<Hold>();
      }
      struct stat named {};
      if (::fstatat(dir_->fd, name.c_str(), &named, AT_SYMLINK_NOFOLLOW) == 0 &&
          named.st_dev == locked.st_dev && named.st_ino == locked.st_ino) {
        auto hold = std::make_unique<HostHold>(dir_, name, fd);
        hold->waited = refused;
        return std::unique_ptr<Hold>(std::move(hold));
      }
      ::close(fd);  // its holder removed it after we opened it: lock the current one
      if (Clock::now() >= deadline) return std::unique_ptr<Hold>();
    }
  }

  std::string name() const override { return "host"; }

 private:
  std::shared_ptr<const detail::DirFd> dir_;
  std::filesystem::path path_;
  bool shared_;
};

class ChainHold final : public BuildClaim::Hold {
 public:
  std::vector<std::unique_ptr<BuildClaim::Hold>> holds;
  ~ChainHold() override {
    while (!holds.empty()) holds.pop_back();  // the cluster lease before the host claim
  }
};

}  // namespace

ClaimChain::ClaimChain(std::vector<std::shared_ptr<BuildClaim>> claims)
    : claims_(std::move(claims)) {
  std::erase(claims_, nullptr);
}

Result<std::unique_ptr<BuildClaim::Hold>> ClaimChain::claim(const CacheKey& key,
                                                            Clock::time_point deadline,
                                                            const AppearedFn& appeared) {
  bool waited = false;
  auto chain = std::make_unique<ChainHold>();
  for (const auto& c : claims_) {
    // An earlier claim that waited had a holder, who publishes before releasing: with
    // its entry there, the caller reads it without asking the next claim (no lease
    // round trips for a host's waiters once its builder is done).
    if (!chain->holds.empty() && appeared && waited && appeared()) break;
    auto hold = c->claim(key, deadline, appeared);
    waited = hold && *hold && (*hold)->waited;
    if (!hold || !*hold) {
      if (chain->holds.empty()) return hold;  // the first claim: its error or its timeout
      if (!hold)
        logger()->warn("{} build claim of {} failed, building under the {} claim only: {}",
                       c->name(), key.to_string(), claims_.front()->name(),
                       hold.error().describe());
      break;
    }
    chain->waited = chain->waited || waited;
    chain->holds.push_back(std::move(*hold));
  }
  return std::unique_ptr<Hold>(std::move(chain));
}

std::string ClaimChain::name() const {
  std::string out;
  for (const auto& c : claims_) out += (out.empty() ? "" : "+") + c->name();
  return out;
}

Result<std::shared_ptr<BuildClaim>> open_host_claim(const Config& config) {
  if (!config.host_single_flight || config.disabled || config.read_only || config.immutable)
    return std::shared_ptr<BuildClaim>();
  auto dir = detail::prepare_dir(config);
  if (!dir) return tl::unexpected(dir.error());
  if (!dir->exists || !dir->writable) return std::shared_ptr<BuildClaim>();
  auto claims = detail::open_subdir(config, *dir, "claims");
  if (!claims) return tl::unexpected(claims.error());
  return std::shared_ptr<BuildClaim>(
      std::make_shared<HostClaim>(*claims, dir->path / "claims", config.shared));
}

}  // namespace cccl_cache
