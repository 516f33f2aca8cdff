#include <gtest/gtest.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include <sstream>

#include "cccl_cache/cache/log.hpp"
#include "cccl_cache/cache/store.hpp"
#include "test_util.hpp"

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

// Store::open applies config.log_level to the library's own logger only: spdlog's
// global level and default logger belong to the embedding program.
TEST(Log, OpeningAStoreLeavesSpdlogsGlobalLevelAlone) {
  test::TempDir dir;
  const auto global_before = spdlog::get_level();
  const auto default_before = spdlog::default_logger()->level();
  spdlog::set_level(spdlog::level::critical);
  spdlog::default_logger()->set_level(spdlog::level::critical);
  for (const char* level : {"trace", "off", "warn"}) {
    SCOPED_TRACE(level);
    auto cfg = test::test_config(dir.path());
    cfg.log_level = level;
    ASSERT_TRUE(Store::open(cfg));
    EXPECT_EQ(spdlog::get_level(), spdlog::level::critical);
    EXPECT_EQ(spdlog::default_logger()->level(), spdlog::level::critical);
    EXPECT_EQ(logger()->level(), spdlog::level::from_str(level));
  }
  spdlog::set_level(global_before);
  spdlog::default_logger()->set_level(default_before);
}

}  // namespace
}  // namespace cccl_cache
