// Shared helpers for the libcache tests: a private temporary directory per test,
// deterministic keys and payloads, and a child-process runner.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "cccl_cache/cache/config.hpp"
#include "cccl_cache/cache/key.hpp"
#include "cccl_cache/cache/store.hpp"

namespace cccl_cache::test {

// A fresh directory under $TMPDIR (or `base`), removed (recursively) on destruction.
class TempDir {
 public:
  explicit TempDir(const std::filesystem::path& base = std::filesystem::temp_directory_path()) {
    std::string tmpl = (base / "cccl-cache-test-XXXXXX").string();
    char* made = ::mkdtemp(tmpl.data());
    if (!made) std::abort();
    path_ = made;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::permissions(path_, std::filesystem::perms::owner_all,
                                 std::filesystem::perm_options::add, ec);
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& s) const { return path_ / s; }

 private:
  std::filesystem::path path_;
};

// A config for a store in `dir` that reads no file and no environment.
inline Config test_config(const std::filesystem::path& dir) {
  Config c;
  c.dir = dir;
  c.initial_map_size = 8ull << 20;
  c.log_level = "error";
  return c;
}

inline CacheKey make_key(std::uint64_t i, std::uint32_t cc = 90) {
  return CacheKey{Digest128{0x1234'5678'9abc'def0ull ^ (i * 0x9E37'79B9'7F4A'7C15ull), i}, cc};
}

// Deterministic bytes for entry `i`; the size varies with `i` unless `size` is given.
inline std::vector<std::byte> make_payload(std::uint64_t i, std::size_t size = 0) {
  if (size == 0) size = 100 + (i * 37) % 4000;
  std::vector<std::byte> out(size);
  std::uint64_t x = i * 0x2545'F491'4F6C'DD1Dull + 1;
  for (auto& b : out) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    b = static_cast<std::byte>(x & 0xff);
  }
  return out;
}

inline EntryMeta make_meta(std::uint64_t i, std::string algorithm = "merge_sort") {
  EntryMeta m;
  m.algorithm = std::move(algorithm);
  m.summary = "keys=float32 entry=" + std::to_string(i);
  m.toolchain = "cuda-13.0+cccl-3.0.1";
  m.payload_format = 1;
  return m;
}

// Runs `fn` in a fork()ed child and returns its exit status (0 = success), or -1 when
// it was killed by a signal. The child never returns into the test.
inline int run_child(const std::function<int()>& fn) {
  pid_t pid = ::fork();
  if (pid == 0) {
    int rc = 99;
    try {
      rc = fn();
    } catch (...) {
      rc = 98;
    }
    ::_exit(rc);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// run_child() for a child that reports text: `fn(fd)` may write to `fd`. Returns the
// child's exit code and what it wrote (at most 4 KiB).
struct ChildReport {
  int rc = -1;
  std::string message;
};
inline ChildReport run_child_reporting(const std::function<int(int fd)>& fn) {
  int fds[2];
  if (::pipe(fds) != 0) return {};
  ChildReport out;
  out.rc = run_child([&] { return fn(fds[1]); });
  ::close(fds[1]);
  out.message.assign(4096, '\0');
  out.message.resize(
      static_cast<std::size_t>(std::max<ssize_t>(0, ::read(fds[0], out.message.data(), 4096))));
  ::close(fds[0]);
  return out;
}

}  // namespace cccl_cache::test
