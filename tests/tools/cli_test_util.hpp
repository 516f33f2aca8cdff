// Helpers for the end-to-end CLI tests: a private temporary directory, running the
// real cccl-cache binary with captured output, and putting real build results into
// a cache through the libcache API.
#pragma once

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cccl_cache/algos/merge_sort/build_result.hpp"
#include "cccl_cache/algos/toolchain.hpp"
#include "cccl_cache/cache/key.hpp"
#include "cccl_cache/cache/store.hpp"

namespace cccl_cache::test {

// A fresh directory under $TMPDIR (or /tmp), removed with its contents on destruction.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

struct CliResult {
  int code = -1;
  std::string out;
  std::string err;
  // stdout parsed as JSON; fails the current test (and returns null) when it is not.
  nlohmann::json json() const;
};

// Runs the cccl-cache binary with `args` (stdin from /dev/null, so never a terminal)
// and returns its exit code and output.
CliResult run_cli(const std::vector<std::string>& args);

// Runs the binary on a pseudo-terminal (stdin, stdout and stderr all the terminal),
// writing `input` to it, and returns the exit code and everything it printed (`out`).
CliResult run_cli_tty(const std::vector<std::string>& args, const std::string& input = {});

// Puts `result` into the cache at `dir` under the key computed from its spec and CC
// with toolchain `tc`, with matching metadata. Returns the key. Fails the test on error.
CacheKey put_build(const std::filesystem::path& dir, const algos::merge_sort::BuildResult& result,
                   const algos::Toolchain& tc = algos::Toolchain::current());
// Puts raw payload bytes with the given metadata under `key`.
void put_raw(const std::filesystem::path& dir, const CacheKey& key, const EntryMeta& meta,
             const std::vector<std::byte>& payload);
// Opens the store at `dir` (writable).
std::shared_ptr<Store> open_store(const std::filesystem::path& dir);

// Replaces one byte in every occurrence of `needle` in `file` (at `needle`'s middle).
// Returns the number of occurrences changed.
int flip_byte_in_file(const std::filesystem::path& file, const std::vector<std::byte>& needle);

std::vector<std::byte> read_file(const std::filesystem::path& file);

}  // namespace cccl_cache::test

namespace cccl_cache::test {

// A real NVRTC build of "merge_sort keys=float32 values=none compare=less
// offset=int64" for sm_<cc>, built once per process (80 or 90). Fails the test when
// the build fails.
const algos::merge_sort::BuildResult& real_build(std::uint32_t cc);

// `base` with another key type (same cubin: the store and the CLI never look inside it).
algos::merge_sort::BuildResult with_keys(algos::merge_sort::BuildResult base,
                                         algos::ScalarType keys);

}  // namespace cccl_cache::test
