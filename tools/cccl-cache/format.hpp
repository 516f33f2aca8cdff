// Output helpers shared by the commands: sizes, times, entry rows and JSON.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

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
// Whether stdout / stderr is a terminal.
bool stdout_is_tty();
bool stderr_is_tty();

}  // namespace cccl_cache::cli
