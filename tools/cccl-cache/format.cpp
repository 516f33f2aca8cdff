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

namespace {

// Length of the valid UTF-8 sequence at s[i] and its code point; 0 when invalid
// (bad lead byte, truncated, overlong, surrogate or beyond U+10FFFF).
std::size_t utf8_at(std::string_view s, std::size_t i, char32_t& cp) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
  const unsigned char c = b(0);
  std::size_t len = 0;
  char32_t min = 0;
  if (c < 0x80) {
    cp = c;
    return 1;
  } else if ((c & 0xe0) == 0xc0) {
    len = 2, cp = c & 0x1f, min = 0x80;
  } else if ((c & 0xf0) == 0xe0) {
    len = 3, cp = c & 0x0f, min = 0x800;
  } else if ((c & 0xf8) == 0xf0) {
    len = 4, cp = c & 0x07, min = 0x10000;
  } else {
    return 0;
  }
  if (i + len > s.size()) return 0;
  for (std::size_t k = 1; k < len; ++k) {
    if ((b(k) & 0xc0) != 0x80) return 0;
    cp = (cp << 6) | (b(k) & 0x3f);
  }
  if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
  return len;
}

bool shown_raw(char32_t cp, bool keep_lines) {
  if (keep_lines && (cp == '\n' || cp == '\t')) return true;
  if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) return false;  // C0, DEL, C1
  if ((cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069)) return false;  // bidi
  return true;
}

}  // namespace

std::string printable(std::string_view text, bool keep_lines) {
  std::string out;
  out.reserve(text.size());
  char buf[16];
  for (std::size_t i = 0; i < text.size();) {
    char32_t cp = 0;
    const std::size_t len = utf8_at(text, i, cp);
    if (len == 0) {
      std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned char>(text[i]));
      out += buf;
      ++i;
      continue;
    }
    if (shown_raw(cp, keep_lines)) {
      out.append(text.substr(i, len));
    } else if (cp < 0x80) {
      std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned>(cp));
      out += buf;
    } else {
      std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(cp));
      out += buf;
    }
    i += len;
  }
  return out;
}

bool stdout_is_tty() { return isatty(STDOUT_FILENO) == 1; }
bool stderr_is_tty() { return isatty(STDERR_FILENO) == 1; }

}  // namespace cccl_cache::cli
