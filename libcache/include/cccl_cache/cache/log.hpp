// Library logging. Libraries log through this logger; by default it prints
// warnings and errors to stderr. Embedding programs may replace it.
#pragma once

#include <spdlog/logger.h>

#include <memory>

namespace cccl_cache {

// The logger every cccl-cache library uses. Never null.
std::shared_ptr<spdlog::logger> logger();
// Replaces it (thread-safe). Passing null restores the default.
void set_logger(std::shared_ptr<spdlog::logger> logger);

}  // namespace cccl_cache
