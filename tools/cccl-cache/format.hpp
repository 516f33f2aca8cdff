// Output helpers shared by the commands: sizes, times, entry rows and JSON.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "cccl_cache/cache/store.hpp"

namespace cccl_cache::cli {

// "512 B", "42.0 KiB", "1.50 GiB".
std::string human_size(std::uint64_t bytes);
// UTC, "2026-11-29 16:20:01Z"; "-" for 0.
std::string format_time(std::int64_t unix_seconds);
// "1.2 s", "3 min 04 s", "1 h 02 min".
std::string format_duration(double seconds);
// "sm_90".
std::string cc_name(std::uint32_t cc);
// Key and metadata as a JSON object (the fields of `ls --json`).
nlohmann::json entry_json(const CacheKey& key, const EntryMeta& meta);
// `text` made safe to print on a terminal: control characters (C0, DEL, C1), bidi
// overrides and bytes that are not valid UTF-8 become visible escapes ("\x1b",
// "\u202e"); printable UTF-8 is kept. With keep_lines, '\n' and '\t' are kept (a
// compiler log). For every string that comes from a file, an archive or the cache.
std::string printable(std::string_view text, bool keep_lines = false);
// Whether stdout / stderr is a terminal.
bool stdout_is_tty();
bool stderr_is_tty();

}  // namespace cccl_cache::cli
