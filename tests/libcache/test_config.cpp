#include <cstdlib>
#include <fstream>

#include "test_util.hpp"

namespace cccl_cache {
namespace {

// Sets environment variables for one test and restores the previous values.
class ScopedEnv {
 public:
  ScopedEnv() {
    for (const char* n : kNames) {
      const char* v = std::getenv(n);
      saved_.emplace_back(n, v ? std::optional<std::string>(v) : std::nullopt);
      ::unsetenv(n);
    }
  }
  ~ScopedEnv() {
    for (auto& [n, v] : saved_) v ? (void)::setenv(n, v->c_str(), 1) : (void)::unsetenv(n);
  }
  void set(const char* name, const std::string& value) { ::setenv(name, value.c_str(), 1); }

  static constexpr const char* kNames[] = {"CCCL_CACHE_DIR",       "CCCL_CACHE_MAX_SIZE",
                                           "CCCL_CACHE_DISABLE",   "CCCL_CACHE_LOG_LEVEL",
                                           "CCCL_CACHE_READ_ONLY", "CCCL_CACHE_SHARED",
                                           "CCCL_CACHE_CONFIG",    "XDG_CONFIG_HOME",
                                           "XDG_CACHE_HOME",       "HOME",
                                           "CCCL_CACHE_IMMUTABLE", "TMPDIR",
                                           "CCCL_CACHE_BUILD_WAIT_MS", "CCCL_CACHE_CC_FALLBACK",
                                           "CCCL_CACHE_HOST_SINGLE_FLIGHT",
                                           "CCCL_CACHE_SIGNING_KEY", "CCCL_CACHE_TRUSTED_KEYS",
                                           "CCCL_CACHE_IMAGES",    "CCCL_CACHE_REMOTE",
                                           "CCCL_CACHE_REMOTE_READ_ONLY",
                                           "CCCL_CACHE_REMOTE_TIMEOUT_MS",
                                           "CCCL_CACHE_REMOTE_RETRY_MS", "CCCL_CACHE_LEASE_MS",
                                           "CCCL_CACHE_REMOTE_PASSWORD_FILE"};

 private:
  std::vector<std::pair<const char*, std::optional<std::string>>> saved_;
};

void write_file(const std::filesystem::path& p, const std::string& text) {
  std::filesystem::create_directories(p.parent_path());
  std::ofstream(p) << text;
}

TEST(ParseSize, AcceptsUnits) {
  struct Case {
    const char* text;
    std::uint64_t bytes;
  };
  for (Case c :
       {Case{"0", 0}, Case{"123", 123}, Case{"64K", 64ull << 10}, Case{"512M", 512ull << 20},
        Case{"2G", 2ull << 30}, Case{"1T", 1ull << 40}, Case{"2GB", 2ull << 30},
        Case{"2GiB", 2ull << 30}, Case{"2g", 2ull << 30}, Case{"100B", 100}})
    EXPECT_EQ(parse_size(c.text).value_or(~0ull), c.bytes) << c.text;
}

TEST(ParseSize, RejectsGarbage) {
  for (const char* bad :
       {"", "G", "-1", "1.5G", "12Q", "1 G", "99999999999999999999", "20000000000T"}) {
    auto r = parse_size(bad);
    ASSERT_FALSE(r) << bad;
    EXPECT_EQ(r.error().code, ErrorCode::invalid_argument);
  }
}

TEST(ParseDuration, AcceptsUnits) {
  struct Case {
    const char* text;
    std::uint64_t secs;
  };
  for (Case c : {Case{"90", 90}, Case{"90s", 90}, Case{"15m", 900}, Case{"12h", 43200},
                 Case{"30d", 2592000}, Case{"2w", 1209600}})
    EXPECT_EQ(parse_duration(c.text).value_or(~0ull), c.secs) << c.text;
  for (const char* bad : {"", "s", "1x", "-5s", "1.5h", "h1"})
    EXPECT_FALSE(parse_duration(bad)) << bad;
}

TEST(Config, DefaultsAreDocumentedValues) {
  ScopedEnv env;
  env.set("HOME", "/home/someone");
  auto c = Config::defaults();
  EXPECT_EQ(c.dir, "/home/someone/.cache/cccl-cache");
  EXPECT_EQ(c.max_size, 2ull << 30);
  EXPECT_EQ(c.max_readers, 1024u);
  EXPECT_FALSE(c.disabled || c.read_only || c.shared);
  EXPECT_EQ(c.log_level, "warn");
  env.set("XDG_CACHE_HOME", "/xdg");
  EXPECT_EQ(default_cache_dir(), "/xdg/cccl-cache");
  env.set("CCCL_CACHE_DIR", "/explicit");
  EXPECT_EQ(default_cache_dir(), "/explicit");
}

// Without HOME and XDG_CACHE_HOME every user gets a directory of their own under the
// temporary directory, never one shared by all users of the machine.
TEST(Config, DefaultDirWithoutHomeIsPerUser) {
  ScopedEnv env;
  EXPECT_EQ(default_cache_dir(),
            std::filesystem::temp_directory_path() / ("cccl-cache-" + std::to_string(::geteuid())));
  EXPECT_EQ(Config::defaults().dir, default_cache_dir());
  int rc = test::run_child([] {  // another user gets another directory
    if (::geteuid() == 0 && ::setuid(65534) != 0) return 1;
    return default_cache_dir().filename() == "cccl-cache-" + std::to_string(::geteuid()) ? 0 : 2;
  });
  EXPECT_EQ(rc, 0);
}

// Another user may create the per-user directory first: it is refused, not used, and
// so is a symlink planted in its place.
TEST(Config, DefaultTempDirPlantedByAnotherUserIsRefused) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to create a directory for another user";
  ScopedEnv env;
  test::TempDir tmp;
  env.set("TMPDIR", tmp.path().string());
  const auto planted = tmp / ("cccl-cache-" + std::to_string(::geteuid()));
  std::filesystem::create_directory(planted);
  ASSERT_EQ(::chown(planted.c_str(), 65534, 65534), 0);
  ASSERT_EQ(::chmod(planted.c_str(), 0700), 0);
  auto cfg = Config::load();
  ASSERT_TRUE(cfg) << cfg.error().describe();
  ASSERT_EQ(cfg->dir, planted);
  auto store = Store::open(*cfg);
  ASSERT_FALSE(store);
  EXPECT_EQ(store.error().code, ErrorCode::permission);
  std::filesystem::remove(planted);
  std::filesystem::create_directory(tmp / "elsewhere");
  std::filesystem::create_directory_symlink(tmp / "elsewhere", planted);
  store = Store::open(*cfg);
  ASSERT_FALSE(store);
  EXPECT_NE(store.error().message.find("symbolic link"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(tmp / "elsewhere/data.mdb"));
}

TEST(Config, ImmutableFromFileAndEnvironment) {
  ScopedEnv env;
  test::TempDir dir;
  EXPECT_FALSE(Config::defaults().immutable);
  write_file(dir / "c.toml", "immutable = true\n");
  EXPECT_TRUE(Config::load(dir / "c.toml")->immutable);
  write_file(dir / "c.toml", "immutable = false\n");
  env.set("CCCL_CACHE_IMMUTABLE", "1");
  EXPECT_TRUE(Config::load(dir / "c.toml")->immutable);
  env.set("CCCL_CACHE_IMMUTABLE", "perhaps");
  EXPECT_FALSE(Config::load(dir / "c.toml"));
}

// The budget and the map ceiling are checked against each other when the config is
// loaded (file or environment) and when a store is opened with an edited Config.
TEST(Config, BudgetAndMapCeilingAreValidatedTogether) {
  ScopedEnv env;
  test::TempDir dir;
  struct Case {
    const char* toml;
    bool ok;
  };
  for (Case c : {Case{"max_size = \"1G\"\nmax_map_size = \"2G\"\n", true},
                 Case{"max_size = \"2G\"\nmax_map_size = \"3G\"\n", false},
                 Case{"max_map_size = \"1G\"\n", false},  // default budget 2G
                 Case{"initial_map_size = \"8G\"\nmax_map_size = \"4G\"\nmax_size = 1\n", false}}) {
    SCOPED_TRACE(c.toml);
    write_file(dir / "c.toml", c.toml);
    auto r = Config::load(dir / "c.toml");
    ASSERT_EQ(bool(r), c.ok);
    if (!c.ok) {
      EXPECT_EQ(r.error().code, ErrorCode::invalid_argument);
      EXPECT_NE(r.error().message.find("max_map_size"), std::string::npos) << r.error().message;
    }
  }
  env.set("CCCL_CACHE_MAX_SIZE", "40G");  // over half the default 64G ceiling
  auto r = Config::load(std::nullopt);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("max_size"), std::string::npos);
  auto cfg = test::test_config(dir / "store");
  cfg.max_map_size = 1ull << 20;
  auto store = Store::open(cfg);
  ASSERT_FALSE(store);
  EXPECT_EQ(store.error().code, ErrorCode::invalid_argument);
  EXPECT_FALSE(std::filesystem::exists(dir / "store"));
}

TEST(Config, FileThenEnvironmentThenApi) {
  ScopedEnv env;
  test::TempDir dir;
  env.set("HOME", dir.path().string());
  write_file(dir / ".config/cccl-cache/config.toml",
             "dir = \"/from/file\"\nmax_size = \"512M\"\nshared = true\ntouch_interval = \"5m\"\n"
             "max_readers = 2048\nlog_level = \"info\"\n[cli]\nanything = 1\n");
  auto c = Config::load();
  ASSERT_TRUE(c) << c.error().describe();
  EXPECT_EQ(c->dir, "/from/file");
  EXPECT_EQ(c->max_size, 512ull << 20);
  EXPECT_TRUE(c->shared);
  EXPECT_EQ(c->touch_interval_s, 300u);
  EXPECT_EQ(c->max_readers, 2048u);
  EXPECT_EQ(c->log_level, "info");

  env.set("CCCL_CACHE_DIR", "/from/env");
  env.set("CCCL_CACHE_MAX_SIZE", "1G");
  env.set("CCCL_CACHE_SHARED", "0");
  env.set("CCCL_CACHE_READ_ONLY", "1");
  env.set("CCCL_CACHE_DISABLE", "true");
  env.set("CCCL_CACHE_LOG_LEVEL", "debug");
  c = Config::load();
  ASSERT_TRUE(c) << c.error().describe();
  EXPECT_EQ(c->dir, "/from/env");
  EXPECT_EQ(c->max_size, 1ull << 30);
  EXPECT_FALSE(c->shared);
  EXPECT_TRUE(c->read_only);
  EXPECT_TRUE(c->disabled);
  EXPECT_EQ(c->log_level, "debug");
  EXPECT_EQ(c->max_readers, 2048u);  // untouched by the environment: still the file's

  c->max_size = 42;  // the API has the last word
  EXPECT_EQ(c->max_size, 42u);
}

TEST(Config, ConfigVariableAndXdgLocations) {
  ScopedEnv env;
  test::TempDir dir;
  write_file(dir / "xdg/cccl-cache/config.toml", "max_size = 1000\n");
  write_file(dir / "named.toml", "max_size = 2000\n");
  env.set("XDG_CONFIG_HOME", (dir / "xdg").string());
  EXPECT_EQ(Config::load()->max_size, 1000u);
  env.set("CCCL_CACHE_CONFIG", (dir / "named.toml").string());
  EXPECT_EQ(Config::load()->max_size, 2000u);
  write_file(dir / "arg.toml", "max_size = 3000\n");
  EXPECT_EQ(Config::load(dir / "arg.toml")->max_size, 3000u);
}

TEST(Config, MissingDefaultFileIsFineMissingNamedFileIsNot) {
  ScopedEnv env;
  test::TempDir dir;
  env.set("HOME", dir.path().string());
  EXPECT_TRUE(Config::load());
  env.set("CCCL_CACHE_CONFIG", (dir / "nope.toml").string());
  auto c = Config::load();
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().code, ErrorCode::not_found);
}

TEST(Config, MalformedSettingsNameTheKey) {
  ScopedEnv env;
  test::TempDir dir;
  struct Case {
    const char* toml;
    const char* needle;
  };
  for (Case c :
       {Case{"max_size = \"lots\"\n", "max_size"}, Case{"shared = \"yes\"\n", "shared"},
        Case{"max_readers = 0\n", "max_readers"}, Case{"log_level = \"loud\"\n", "log_level"},
        Case{"colour = 1\n", "colour"}, Case{"touch_interval = \"soon\"\n", "touch_interval"},
        Case{"dir = 5\n", "dir"}, Case{"max_size = = 1\n", "line 1"},
        // Floats out of int64's range (the fuzzer's finding: no conversion is attempted).
        Case{"max_size = 5e60\n", "max_size"}, Case{"max_readers = 1e30\n", "max_readers"},
        Case{"touch_interval = -1e300\n", "touch_interval"}}) {
    write_file(dir / "c.toml", c.toml);
    auto r = Config::load(dir / "c.toml");
    ASSERT_FALSE(r) << c.toml;
    EXPECT_EQ(r.error().code, ErrorCode::invalid_argument);
    EXPECT_NE(r.error().message.find(c.needle), std::string::npos) << r.error().message;
  }
  for (Case c : {Case{"max_size = 5e60\n", "max_size"}, Case{"x = [\n", "line 1"}}) {
    auto r = Config::from_toml(c.toml, "text.toml");
    ASSERT_FALSE(r) << c.toml;
    EXPECT_EQ(r.error().code, ErrorCode::invalid_argument);
    EXPECT_NE(r.error().message.find(c.needle), std::string::npos) << r.error().message;
    EXPECT_NE(r.error().message.find("text.toml"), std::string::npos) << r.error().message;
  }
  auto text = Config::from_toml("max_readers = 7\nmax_size = \"1G\"\n");
  ASSERT_TRUE(text) << text.error().describe();
  EXPECT_EQ(text->max_readers, 7u);
  EXPECT_EQ(text->max_size, 1ull << 30);
  env.set("CCCL_CACHE_MAX_SIZE", "big");
  auto r = Config::load(std::nullopt);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("CCCL_CACHE_MAX_SIZE"), std::string::npos);
  ::unsetenv("CCCL_CACHE_MAX_SIZE");
  env.set("CCCL_CACHE_DISABLE", "maybe");
  EXPECT_FALSE(Config::load(std::nullopt));
}

}  // namespace
}  // namespace cccl_cache

namespace cccl_cache {
namespace {

// The shipped, documented config file must parse and state exactly the defaults.
TEST(Config, ShippedFileMatchesDefaults) {
  ScopedEnv env;
  auto c =
      Config::load(std::filesystem::path(CCCL_CACHE_SOURCE_DIR) / "config" / "cccl-cache.toml");
  ASSERT_TRUE(c) << c.error().describe();
  const Config d = Config::defaults();
  EXPECT_EQ(c->dir, d.dir);
  EXPECT_EQ(c->max_size, d.max_size);
  EXPECT_EQ(c->initial_map_size, d.initial_map_size);
  EXPECT_EQ(c->max_map_size, d.max_map_size);
  EXPECT_EQ(c->max_readers, d.max_readers);
  EXPECT_EQ(c->disabled, d.disabled);
  EXPECT_EQ(c->read_only, d.read_only);
  EXPECT_EQ(c->shared, d.shared);
  EXPECT_EQ(c->immutable, d.immutable);
  EXPECT_EQ(c->touch_interval_s, d.touch_interval_s);
  EXPECT_EQ(c->log_level, d.log_level);
  EXPECT_EQ(c->host_single_flight, d.host_single_flight);
  EXPECT_EQ(c->build_wait_ms, d.build_wait_ms);
  EXPECT_EQ(c->cc_fallback, d.cc_fallback);
  EXPECT_EQ(c->signing_key, d.signing_key);
  EXPECT_EQ(c->trusted_keys, d.trusted_keys);
  EXPECT_EQ(c->images, d.images);
  EXPECT_EQ(c->remote.url, d.remote.url);
  EXPECT_EQ(c->remote.read_only, d.remote.read_only);
  EXPECT_EQ(c->remote.timeout_ms, d.remote.timeout_ms);
  EXPECT_EQ(c->remote.retry_ms, d.remote.retry_ms);
  EXPECT_EQ(c->remote.password_file, d.remote.password_file);
  EXPECT_EQ(c->remote.lease_ms, d.remote.lease_ms);
}

TEST(Config, ClusterKeysFromFileAndEnvironment) {
  ScopedEnv env;
  auto c = Config::from_toml("host_single_flight = false\nbuild_wait_ms = 2500\ncc_fallback = false\n");
  ASSERT_TRUE(c) << c.error().describe();
  EXPECT_FALSE(c->host_single_flight);
  EXPECT_EQ(c->build_wait_ms, 2500u);
  EXPECT_FALSE(c->cc_fallback);
  EXPECT_FALSE(Config::from_toml("build_wait_ms = -1\n"));
  EXPECT_FALSE(Config::from_toml("build_wait_ms = \"2s\"\n"));
  EXPECT_FALSE(Config::from_toml("cc_fallback = 1\n"));
  env.set("CCCL_CACHE_BUILD_WAIT_MS", "750");
  env.set("CCCL_CACHE_CC_FALLBACK", "0");
  env.set("CCCL_CACHE_HOST_SINGLE_FLIGHT", "off");
  auto e = Config::load(std::filesystem::path("/dev/null"));
  ASSERT_TRUE(e) << e.error().describe();
  EXPECT_EQ(e->build_wait_ms, 750u);
  EXPECT_FALSE(e->cc_fallback);
  EXPECT_FALSE(e->host_single_flight);
  env.set("CCCL_CACHE_BUILD_WAIT_MS", "soon");
  auto bad = Config::load(std::filesystem::path("/dev/null"));
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("CCCL_CACHE_BUILD_WAIT_MS"), std::string::npos);
}

}  // namespace
}  // namespace cccl_cache
