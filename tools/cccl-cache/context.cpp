#include "context.hpp"

#include <spdlog/logger.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <system_error>

#include "cccl_cache/algos/device.hpp"
#include "cccl_cache/algos/toolchain.hpp"
#include "cccl_cache/cache/cc_family.hpp"
#include "cccl_cache/cache/log.hpp"
#include "format.hpp"
#include "gpu_probe.hpp"

namespace cccl_cache::cli {

namespace {

// Configuration values the library accepts but no cache can use: usage errors here,
// before they reach LMDB (a map of exabytes) or the eviction arithmetic.
Result<void> check_config_ranges(const Config& c) {
  const struct {
    const char* key;
    std::uint64_t value;
  } sizes[] = {{"max_size", c.max_size},
               {"initial_map_size", c.initial_map_size},
               {"max_map_size", c.max_map_size}};
  for (const auto& s : sizes) {
    if (s.value > kMaxSizeBytes)
      return fail(ErrorCode::invalid_argument, std::string("configuration: ") + s.key + " (" +
                                                   std::to_string(s.value) + " bytes) exceeds " +
                                                   human_size(kMaxSizeBytes));
  }
  if (c.touch_interval_s > kMaxDurationSeconds)
    return fail(ErrorCode::invalid_argument, "configuration: touch_interval exceeds 100 years");
  return {};
}

// The CCs this NVRTC can compile for, ascending (empty when NVRTC cannot say: a build
// then fails with the reason).
std::vector<int> nvrtc_archs() { return algos::nvrtc_supported_ccs().value_or(std::vector<int>{}); }

Result<void> check_buildable(std::uint32_t cc) {
  static const std::vector<int> archs = nvrtc_archs();
  if (archs.empty() || std::binary_search(archs.begin(), archs.end(), static_cast<int>(cc)))
    return {};
  return fail(ErrorCode::invalid_argument,
              "this NVRTC cannot compile for " + cc_name(cc) + " (it compiles for " +
                  cc_name(static_cast<std::uint32_t>(archs.front())) + " .. " +
                  cc_name(static_cast<std::uint32_t>(archs.back())) +
                  "): fix --arch or the manifest's arch");
}

// The lowest CC of `major` this NVRTC compiles for (an entry for it serves every device
// of the major through cc_fallback).
Result<std::uint32_t> lowest_of_family(std::uint32_t major) {
  static const std::vector<int> archs = nvrtc_archs();
  if (archs.empty()) return major * 10;
  for (int a : archs)
    if (static_cast<std::uint32_t>(a) / 10 == major) return static_cast<std::uint32_t>(a);
  return fail(ErrorCode::invalid_argument,
              "--arch: this NVRTC compiles for no CC of family " + std::to_string(major) +
                  ".x (it compiles for " + cc_name(static_cast<std::uint32_t>(archs.front())) +
                  " .. " + cc_name(static_cast<std::uint32_t>(archs.back())) + ")");
}

}  // namespace

Result<Config> load_config(const Globals& globals) {
  std::optional<std::filesystem::path> file;
  if (!globals.config_file.empty()) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(globals.config_file, ec)) {
      return fail(ErrorCode::invalid_argument,
                  "config file '" + globals.config_file + "' does not exist or is not a file");
    }
    file = globals.config_file;
  }
  auto config = Config::load(file);
  // Any configuration problem (bad file, bad value, missing named file) is the
  // caller's to fix: a usage error, not an unavailable cache.
  if (!config) return fail(ErrorCode::invalid_argument, "configuration: " + config.error().message);
  if (auto r = check_config_ranges(*config); !r) return tl::unexpected(r.error());
  if (!globals.cache_dir.empty()) config->dir = globals.cache_dir;
  if (config->dir.empty()) config->dir = default_cache_dir();
  return config;
}

Result<std::shared_ptr<Store>> open_store(const Globals& globals, OpenMode mode) {
  auto config = load_config(globals);
  if (!config) return tl::unexpected(config.error());
  if (config->disabled) {
    return fail(ErrorCode::invalid_argument,
                "the cache is disabled (CCCL_CACHE_DISABLE or 'disabled' in the config); unset it "
                "to use cccl-cache");
  }
  std::error_code ec;
  const auto& dir = config->dir;
  if (mode != OpenMode::create && !std::filesystem::exists(dir, ec)) {
    return fail(ErrorCode::not_found,
                "cache directory '" + dir.string() +
                    "' does not exist (give --cache-dir, or fill it with 'cccl-cache prewarm')");
  }
  if (std::filesystem::exists(dir, ec) && !std::filesystem::is_directory(dir, ec)) {
    return fail(ErrorCode::not_found, "cache path '" + dir.string() + "' is not a directory");
  }
  if (mode == OpenMode::read) config->read_only = true;
  auto store = Store::open(*config);
  if (!store) {
    Error e = store.error();
    e.message = "cannot open cache '" + dir.string() + "': " + e.message;
    return tl::unexpected(std::move(e));
  }
  // The store degrades to "everything misses" when it cannot write; a command that
  // writes must say so instead of silently storing nothing.
  if (mode != OpenMode::read && (*store)->read_only()) {
    return fail(ErrorCode::permission,
                "cache directory '" + dir.string() + "' is not writable" +
                    (config->read_only ? " (read_only is set in the config/environment)" : ""));
  }
  return store;
}

int exit_code_for(const Error& error) noexcept {
  switch (error.code) {
    case ErrorCode::invalid_argument:
    case ErrorCode::unsupported:
      return kExitUsage;
    case ErrorCode::not_found:
    case ErrorCode::io:
    case ErrorCode::permission:
    case ErrorCode::read_only:
    case ErrorCode::storage_full:
    case ErrorCode::lmdb:
      return kExitUnavailable;
    case ErrorCode::corrupt:
    case ErrorCode::format:
    case ErrorCode::compile:
      return kExitProblems;
    case ErrorCode::driver:
    case ErrorCode::internal:
      return kExitInternal;
  }
  return kExitInternal;
}

int report(int exit_code, std::string_view message) {
  std::string line(message);
  std::replace(line.begin(), line.end(), '\n', ' ');
  line = printable(line);
  std::fflush(stdout);
  std::fprintf(stderr, "cccl-cache: %s\n", line.c_str());
  return exit_code;
}

int report(const Error& error) { return report(exit_code_for(error), error.message); }

void configure_logging(const Globals& globals, const std::string& config_level) {
  auto sink = std::make_shared<spdlog::sinks::stderr_sink_mt>();
  auto log = std::make_shared<spdlog::logger>("cccl-cache", sink);
  log->set_pattern("cccl-cache: %l: %v");
  auto level = spdlog::level::from_str(config_level.empty() ? "warn" : config_level);
  if (globals.verbosity == 1) level = spdlog::level::info;
  if (globals.verbosity == 2) level = spdlog::level::debug;
  if (globals.verbosity >= 3) level = spdlog::level::trace;
  log->set_level(level);
  set_logger(std::move(log));
}

Result<std::int64_t> parse_duration_option(std::string_view option, std::string_view text) {
  auto s = parse_duration(text);
  if (!s) return fail(ErrorCode::invalid_argument, std::string(option) + ": " + s.error().message);
  if (*s > kMaxDurationSeconds)
    return fail(ErrorCode::invalid_argument,
                std::string(option) + ": '" + std::string(text) + "' is longer than 100 years");
  return static_cast<std::int64_t>(*s);
}

Result<std::uint64_t> parse_size_option(std::string_view option, std::string_view text) {
  auto b = parse_size(text);
  if (!b) return fail(ErrorCode::invalid_argument, std::string(option) + ": " + b.error().message);
  if (*b > kMaxSizeBytes)
    return fail(ErrorCode::invalid_argument, std::string(option) + ": '" + std::string(text) +
                                                 "' is larger than " + human_size(kMaxSizeBytes));
  return *b;
}

Result<std::optional<std::uint32_t>> parse_arch_filter(const std::string& arch) {
  if (arch.empty()) return std::optional<std::uint32_t>{};
  auto cc = parse_cc(arch);
  if (!cc)
    return fail(ErrorCode::invalid_argument,
                "--arch: '" + arch + "' is not a compute capability (e.g. sm_90)");
  return cc;
}

std::vector<std::uint32_t> family_from(std::uint32_t cc) {
  static const std::vector<int> archs = nvrtc_archs();
  std::vector<std::uint32_t> out{cc};
  for (int a : archs)
    if (static_cast<std::uint32_t>(a) / 10 == cc / 10 && static_cast<std::uint32_t>(a) > cc)
      out.push_back(static_cast<std::uint32_t>(a));
  return out;
}

Result<std::vector<std::uint32_t>> resolve_archs(const std::string& arch_text,
                                                 const std::vector<std::uint32_t>& fallback) {
  std::vector<std::uint32_t> ccs;
  if (!arch_text.empty()) {
    std::string item;
    auto flush = [&]() -> Result<void> {
      if (item.empty()) return {};
      if (auto major = parse_cc_family(item)) {  // "8.x": the family's lowest CC serves it all
        auto lowest = lowest_of_family(*major);
        if (!lowest) return tl::unexpected(lowest.error());
        ccs.push_back(*lowest);
        item.clear();
        return {};
      }
      auto cc = parse_arch_filter(item);
      if (!cc) return tl::unexpected(cc.error());
      ccs.push_back(**cc);
      item.clear();
      return {};
    };
    for (char c : arch_text) {
      if (c == ',' || c == ' ') {
        if (auto r = flush(); !r) return tl::unexpected(r.error());
      } else {
        item += c;
      }
    }
    if (auto r = flush(); !r) return tl::unexpected(r.error());
    if (ccs.empty())
      return fail(ErrorCode::invalid_argument, "--arch: '" + arch_text +
                                                   "' names no compute capability (e.g. --arch "
                                                   "sm_80,sm_90)");
  } else if (!fallback.empty()) {
    ccs = fallback;
  } else {
    auto local = local_device_ccs();
    if (!local) return tl::unexpected(local.error());
    ccs = *local;
    if (ccs.empty()) {
      const auto why = algos::driver_status();  // the reason, e.g. "no NVIDIA driver found (...)"
      return fail(ErrorCode::invalid_argument,
                  "no GPU found" + (why ? std::string() : " (" + why.error().message + ")") +
                      ": give the target compute capabilities with --arch (e.g. --arch "
                      "sm_80,sm_90)");
    }
  }
  if (!arch_text.empty() || !fallback.empty()) {
    for (auto cc : ccs)
      if (auto ok = check_buildable(cc); !ok) return tl::unexpected(ok.error());
  }
  std::sort(ccs.begin(), ccs.end());
  ccs.erase(std::unique(ccs.begin(), ccs.end()), ccs.end());
  return ccs;
}

}  // namespace cccl_cache::cli
