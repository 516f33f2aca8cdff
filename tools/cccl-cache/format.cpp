#include "format.hpp"

#include <unistd.h>

#include <cstdio>
#include <ctime>

namespace cccl_cache::cli {

std::string human_size(std::uint64_t bytes) {
  static const char* const kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  if (bytes < 1024) return std::to_string(bytes) + " B";
  double v = static_cast<double>(bytes);
  int u = 0;
  while (v >= 1024.0 && u < 4) {
    v /= 1024.0;
    ++u;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, v < 10 ? "%.2f %s" : "%.1f %s", v, kUnits[u]);
  return buf;
}

std::string format_time(std::int64_t unix_seconds) {
  if (unix_seconds <= 0) return "-";
  std::time_t t = static_cast<std::time_t>(unix_seconds);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%SZ", &tm);
  return buf;
}

std::string format_duration(double seconds) {
  char buf[48];
  if (seconds < 60) {
    std::snprintf(buf, sizeof buf, "%.1f s", seconds);
  } else if (seconds < 3600) {
    auto s = static_cast<long>(seconds);
    std::snprintf(buf, sizeof buf, "%ld min %02ld s", s / 60, s % 60);
  } else {
    auto s = static_cast<long>(seconds);
    std::snprintf(buf, sizeof buf, "%ld h %02ld min", s / 3600, (s % 3600) / 60);
  }
  return buf;
}

std::string cc_name(std::uint32_t cc) { return "sm_" + std::to_string(cc); }

nlohmann::json entry_json(const CacheKey& key, const EntryMeta& meta) {
  return nlohmann::json{
      {"key", key.to_string()},
      {"algorithm", meta.algorithm},
      {"spec", meta.summary},
      {"cc", key.cc},
      {"arch", cc_name(key.cc)},
      {"payload_size", meta.payload_size},
      {"created_unix", meta.created_unix},
      {"last_used_unix", meta.last_used_unix},
      {"hits", meta.hits},
      {"toolchain", meta.toolchain},
      {"payload_format", meta.payload_format},
  };
}

bool stdout_is_tty() { return isatty(STDOUT_FILENO) == 1; }
bool stderr_is_tty() { return isatty(STDERR_FILENO) == 1; }

}  // namespace cccl_cache::cli
