// Store configuration. Every field has a documented default (see
// config/cccl-cache.toml). Sources apply in a fixed order: built-in defaults,
// then the TOML file, then the environment, then whatever the API caller sets
// on the returned Config.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cccl_cache/cache/error.hpp"

namespace cccl_cache {

struct Config {
  // Cache directory. Default: $CCCL_CACHE_DIR, else $XDG_CACHE_HOME/cccl-cache,
  // else ~/.cache/cccl-cache, else <temp dir>/cccl-cache-<uid> (one per user).
  std::filesystem::path dir;
  // Budget of live payload bytes; least recently used entries are evicted past it.
  // Default 2 GiB. Env: CCCL_CACHE_MAX_SIZE (accepts "512M", "2G", bytes).
  std::uint64_t max_size = 2ull << 30;
  // Initial LMDB map size; the map grows by itself when full. Default 64 MiB.
  std::uint64_t initial_map_size = 64ull << 20;
  // Hard ceiling on the map size. Default 64 GiB. Must be at least twice max_size
  // (validate()): LMDB needs room for copy-on-write pages and page rounding.
  std::uint64_t max_map_size = 64ull << 30;
  // LMDB reader slots (processes x threads reading at once). Default 1024.
  unsigned max_readers = 1024;
  // When true the store is disabled: gets miss, puts are dropped. Env: CCCL_CACHE_DISABLE=1.
  bool disabled = false;
  // Open without writing anything (read-only media, prewarmed images). Env: CCCL_CACHE_READ_ONLY=1.
  bool read_only = false;
  // Shared cache: group members may read and write (directory 02770: setgid, files 0660).
  // The directory must be owned by this user or root and belong to one of this user's
  // groups; see config/cccl-cache.toml for exactly what is trusted. Env: CCCL_CACHE_SHARED=1.
  bool shared = false;
  // Declares the store an immutable image that no process writes (a prewarmed copy on
  // read-only media). Implies read_only; only then may a store whose lock file cannot be
  // used be read without locking (and every hit is copied out before it is verified).
  // Env: CCCL_CACHE_IMMUTABLE=1.
  bool immutable = false;
  // Last-use stamps are flushed in batches at most this often (seconds). Default 60.
  std::uint32_t touch_interval_s = 60;
  // Host-wide single-flight (build_claim.hpp): processes of this host that miss the same
  // key build it once; the others wait for the build and load it. Default true.
  // Env: CCCL_CACHE_HOST_SINGLE_FLIGHT=0 turns it off.
  bool host_single_flight = true;
  // How long a process waits for another's build of a key before building it itself
  // (milliseconds): one bound over the host claim and the cluster lease together.
  // Default 120000. Env: CCCL_CACHE_BUILD_WAIT_MS.
  std::uint32_t build_wait_ms = 120'000;
  // Mixed fleets (cc_family.hpp): with no entry for a device's exact CC, use one built
  // for a lower minor of the same major (an sm_80 entry on 8.6 or 8.9; never across
  // majors). An exact entry always wins. Default true. Env: CCCL_CACHE_CC_FALLBACK=0.
  bool cc_fallback = true;
  // Signed entries (signing.hpp). The secret key this process signs what it publishes
  // with (an archive it exports, an entry it pushes to a shared tier): a file written by
  // `cccl-cache keygen`, mode 0600. Default: none (publishes unsigned).
  // Env: CCCL_CACHE_SIGNING_KEY.
  std::filesystem::path signing_key;
  // Public keys ("name:base64") whose signatures this process accepts on entries from
  // outside (archives, shared tiers and images). Non-empty: every such entry needs a
  // valid signature by one of them; unsigned, tampered or otherwise signed entries are
  // rejected as misses. Default: none (no signatures required). Env:
  // CCCL_CACHE_TRUSTED_KEYS (separated by spaces or commas).
  std::vector<std::string> trusted_keys;
  // Log level name: off, error, warn, info, debug, trace. Default warn. Env: CCCL_CACHE_LOG_LEVEL.
  std::string log_level = "warn";

  // Shared tiers behind the local store (tiers.hpp): read-only images, then a remote.
  // Prewarmed stores opened read-only (e.g. on a shared filesystem), searched in order
  // after the local store; a hit is copied into the local store. Default none.
  // Env: CCCL_CACHE_IMAGES (paths separated by ':').
  std::vector<std::filesystem::path> images;
  struct Remote {
    // "redis://[:password@]host[:port][/db]"; empty: no remote tier. Env: CCCL_CACHE_REMOTE.
    std::string url;
    // Read the remote tier but never publish to it (nor take build leases).
    // Env: CCCL_CACHE_REMOTE_READ_ONLY=1.
    bool read_only = false;
    // Bound on one remote operation, connecting included (ms); a slower one counts as a
    // failure and the request goes on without the remote. Default 5.
    // Env: CCCL_CACHE_REMOTE_TIMEOUT_MS.
    std::uint32_t timeout_ms = 5;
    // After a failure the remote is left alone this long before a reconnect (ms),
    // doubling up to 30 s while it stays down. Default 1000. Env: CCCL_CACHE_REMOTE_RETRY_MS.
    std::uint32_t retry_ms = 1000;
    // A file holding the password (first line; overrides one in the URL). Default none.
    // Env: CCCL_CACHE_REMOTE_PASSWORD_FILE.
    std::filesystem::path password_file;
    // Cluster build lease: a host that misses takes it before building; it expires after
    // lease_ms (a dead builder's lease frees itself). The other hosts poll for the entry
    // within build_wait_ms, then build themselves. Default 120000. Env: CCCL_CACHE_LEASE_MS.
    std::uint32_t lease_ms = 120'000;
  } remote;

  // Defaults, then one TOML file, then the environment. The file is `file` if given,
  // else $CCCL_CACHE_CONFIG if set, else $XDG_CONFIG_HOME/cccl-cache/config.toml, else
  // ~/.config/cccl-cache/config.toml. A named file (argument or variable) that is
  // missing is ErrorCode::not_found; a missing default file is fine. A malformed file,
  // unknown key or bad value (file or environment) is invalid_argument naming it.
  static Result<Config> load(const std::optional<std::filesystem::path>& file = std::nullopt);
  // Defaults, then TOML `text` (the file's grammar); no file or environment is read.
  // `source_name` names the text in errors. Error invalid_argument as for load().
  static Result<Config> from_toml(std::string_view text, std::string_view source_name = "<text>");
  // Only built-in defaults and the default directory; reads no file or environment.
  static Config defaults();
  // Checks the settings against each other: invalid_argument naming both keys when
  // max_map_size < 2 * max_size or initial_map_size > max_map_size. load() and
  // Store::open() call it.
  Result<void> validate() const;
};

// The default cache directory described above (reads the environment).
std::filesystem::path default_cache_dir();

// Parses "123", "64K", "512M", "2G", "1T" (binary units, optional trailing "B"/"iB").
Result<std::uint64_t> parse_size(std::string_view text);
// Parses "90s", "15m", "12h", "30d", "2w" into seconds.
Result<std::uint64_t> parse_duration(std::string_view text);

}  // namespace cccl_cache
