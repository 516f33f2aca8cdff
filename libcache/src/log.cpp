#include "cccl_cache/cache/log.hpp"

#include <spdlog/sinks/stdout_color_sinks.h>

#include <mutex>

#include "log_internal.hpp"

namespace cccl_cache {
namespace {

std::mutex g_mu;
std::shared_ptr<spdlog::logger> g_default;
std::shared_ptr<spdlog::logger> g_current;

// Caller holds g_mu.
const std::shared_ptr<spdlog::logger>& default_logger_locked() {
  if (!g_default) {
    // Not registered with spdlog's registry: embedding programs keep their own names.
    g_default = std::make_shared<spdlog::logger>(
        "cccl_cache", std::make_shared<spdlog::sinks::stderr_color_sink_mt>());
    g_default->set_level(spdlog::level::warn);
    g_default->set_pattern("[cccl-cache] [%l] %v");
  }
  return g_default;
}

}  // namespace

std::shared_ptr<spdlog::logger> logger() {
  std::lock_guard lock(g_mu);
  return g_current ? g_current : default_logger_locked();
}

void set_logger(std::shared_ptr<spdlog::logger> l) {
  std::lock_guard lock(g_mu);
  g_current = std::move(l);
}

namespace detail {

void apply_log_level(std::string_view name) {
  std::lock_guard lock(g_mu);
  if (g_current) return;  // a replaced logger is configured by its owner
  default_logger_locked()->set_level(spdlog::level::from_str(std::string(name)));
}

}  // namespace detail
}  // namespace cccl_cache
