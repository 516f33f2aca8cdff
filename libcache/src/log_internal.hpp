// Private logging helpers.
#pragma once

#include <string_view>

namespace cccl_cache::detail {

// Sets the level of the default logger from a config level name ("warn", ...).
// Leaves a logger installed with set_logger() alone.
void apply_log_level(std::string_view name);

}  // namespace cccl_cache::detail
