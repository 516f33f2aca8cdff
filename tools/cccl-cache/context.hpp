// What every command shares: global options, exit codes, opening the store and
// reporting errors as one line on stderr.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cccl_cache/cache/config.hpp"
#include "cccl_cache/cache/error.hpp"
#include "cccl_cache/cache/store.hpp"

namespace cccl_cache::cli {

// Process exit codes (documented in docs/cli.md).
enum ExitCode : int {
  kExitOk = 0,           // success
  kExitProblems = 1,     // the operation ran and found problems (bad entries, failed builds)
  kExitUsage = 2,        // bad arguments, manifest or spec
  kExitUnavailable = 3,  // cache directory missing, foreign-owned, unwritable or unopenable
  kExitInternal = 4,     // unexpected failure (a bug or an unexpected library error)
};

// Global options, filled by the argument parser.
struct Globals {
  std::string cache_dir;    // --cache-dir; empty: from the config / environment
  std::string config_file;  // --config; empty: $CCCL_CACHE_CONFIG or none
  int verbosity = 0;        // -v: info, -vv: debug, -vvv: trace
};

// The command chosen on the command line; set by the parser, run after parsing.
struct Context {
  Globals globals;
  std::function<int()> run;
};

// How a command needs the cache directory.
enum class OpenMode {
  read,      // the directory must exist; opened read-only, so reading never changes it
             // (a corrupt entry is reported as a miss, not dropped)
  maintain,  // the directory must exist and be writable (evict, clear, verify --repair)
  create,    // created when missing; must be writable (prewarm, import)
};

// Loads the configuration (file, environment, then --cache-dir) and opens the store.
// Errors: invalid_argument (bad config, disabled cache), not_found (missing directory
// in read/maintain mode), permission (not writable in maintain/create mode), and
// whatever Store::open reports (permission for a foreign-owned or unsafe directory, io, lmdb).
Result<std::shared_ptr<Store>> open_store(const Globals& globals, OpenMode mode);

// The configuration only (for commands that need the directory name).
Result<Config> load_config(const Globals& globals);

// Exit code for an error a command could not handle itself.
int exit_code_for(const Error& error) noexcept;

// Prints "cccl-cache: <message>" as one line on stderr (newlines folded) and returns
// exit_code_for(error).
int report(const Error& error);
// Same with an explicit exit code and message.
int report(int exit_code, std::string_view message);

// Sets up the library logger on stderr at the level given by -v (or the config).
void configure_logging(const Globals& globals, const std::string& config_level);

// Upper limits of duration and size values, on the command line and in the
// configuration: 100 years, 1 PiB. Larger (or overflowing) values are usage errors.
inline constexpr std::uint64_t kMaxDurationSeconds = 100ull * 365 * 86400;
inline constexpr std::uint64_t kMaxSizeBytes = 1ull << 50;

// A duration option ("90s", "15m", "12h", "30d", "2w") in seconds, at most
// kMaxDurationSeconds. Error invalid_argument naming `option`: malformed, negative,
// overflowing or too large.
Result<std::int64_t> parse_duration_option(std::string_view option, std::string_view text);
// A size option ("512M", "1G", bytes), at most kMaxSizeBytes. Errors as above.
Result<std::uint64_t> parse_size_option(std::string_view option, std::string_view text);

// One compute capability from an --arch filter: nullopt when `arch` is empty.
// Error invalid_argument ("--arch: 'x' is not a compute capability (e.g. sm_90)").
Result<std::optional<std::uint32_t>> parse_arch_filter(const std::string& arch);

// The CCs of `cc`'s major from `cc` up that this NVRTC compiles for (real devices of a
// family: 8.0 -> 80, 86, 87, 89, ...); {cc} when NVRTC cannot tell.
std::vector<std::uint32_t> family_from(std::uint32_t cc);

// Compute capabilities to build for: `arch_text` ("sm_80,sm_90", "80 90"; a family "8.x"
// or "sm_8x" is its lowest CC this NVRTC compiles for, whose entry serves the whole
// major through cc_fallback), else
// `fallback` (e.g. a manifest's list), else the local GPUs' CCs. Error
// invalid_argument when an item does not parse, `arch_text` names none (","), a CC
// from `arch_text` or `fallback` is one this NVRTC cannot compile for, or nothing
// gives a CC (no GPU).
Result<std::vector<std::uint32_t>> resolve_archs(const std::string& arch_text,
                                                 const std::vector<std::uint32_t>& fallback = {});

}  // namespace cccl_cache::cli
