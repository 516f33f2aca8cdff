#include <gtest/gtest.h>
#include <spdlog/sinks/ostream_sink.h>

#include <sstream>

#include "cccl_cache/cache/log.hpp"

namespace cccl_cache {
namespace {

TEST(Log, DefaultLoggerPrintsWarningsAndUp) {
  auto l = logger();
  ASSERT_NE(l, nullptr);
  EXPECT_TRUE(l->should_log(spdlog::level::warn));
  EXPECT_FALSE(l->should_log(spdlog::level::debug));
}

TEST(Log, SetLoggerReplacesAndNullRestores) {
  std::ostringstream out;
  auto mine = std::make_shared<spdlog::logger>(
      "mine", std::make_shared<spdlog::sinks::ostream_sink_mt>(out));
  auto before = logger();
  set_logger(mine);
  EXPECT_EQ(logger(), mine);
  logger()->warn("hello from the library");
  EXPECT_NE(out.str().find("hello from the library"), std::string::npos);
  set_logger(nullptr);
  EXPECT_EQ(logger(), before);
}

}  // namespace
}  // namespace cccl_cache
