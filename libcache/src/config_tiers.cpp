#include "config_tiers.hpp"

#include <charconv>
#include <cstdlib>

namespace cccl_cache::detail {
namespace {

Result<std::uint32_t> parse_ms(std::string_view text, std::string_view what) {
  std::uint32_t v = 0;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || p != text.data() + text.size())
    return fail(ErrorCode::invalid_argument, std::string(what) +
                                                 ": expected milliseconds (an integer), got '" +
                                                 std::string(text) + "'");
  return v;
}

Result<int> parse_int(std::string_view text, int max, std::string_view what,
                      std::string_view url) {
  int v = 0;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || p != text.data() + text.size() || v < 0 || v > max)
    return fail(ErrorCode::invalid_argument, "remote URL '" + std::string(url) + "': bad " +
                                                 std::string(what) + " '" + std::string(text) +
                                                 "'");
  return v;
}

std::uint32_t* ms_field(Config& c, std::string_view key) {
  if (key == "remote_timeout_ms") return &c.remote.timeout_ms;
  if (key == "remote_retry_ms") return &c.remote.retry_ms;
  if (key == "lease_ms") return &c.remote.lease_ms;
  return nullptr;
}

}  // namespace

Result<RedisAddress> parse_redis_url(std::string_view url) {
  constexpr std::string_view scheme = "redis://";
  if (!url.starts_with(scheme))
    return fail(ErrorCode::invalid_argument,
                "remote URL '" + std::string(url) +
                    "' is not supported: use redis://[:password@]host[:port][/db]");
  std::string_view rest = url.substr(scheme.size());
  RedisAddress a;
  if (auto at = rest.rfind('@'); at != std::string_view::npos) {
    std::string_view auth = rest.substr(0, at);
    if (auto colon = auth.find(':'); colon != std::string_view::npos) auth = auth.substr(colon + 1);
    a.password = std::string(auth);
    rest = rest.substr(at + 1);
  }
  if (auto slash = rest.find('/'); slash != std::string_view::npos) {
    auto db = parse_int(rest.substr(slash + 1), 1 << 20, "database number", url);
    if (!db) return tl::unexpected(db.error());
    a.db = *db;
    rest = rest.substr(0, slash);
  }
  std::string_view host = rest;
  if (rest.starts_with('[')) {  // [v6]:port
    auto close = rest.find(']');
    if (close == std::string_view::npos)
      return fail(ErrorCode::invalid_argument, "remote URL '" + std::string(url) + "': unclosed '['");
    host = rest.substr(1, close - 1);
    rest = rest.substr(close + 1);
    if (!rest.empty() && rest.front() != ':')
      return fail(ErrorCode::invalid_argument, "remote URL '" + std::string(url) + "': bad host");
    rest = rest.empty() ? rest : rest.substr(1);
  } else if (auto colon = rest.rfind(':'); colon != std::string_view::npos) {
    host = rest.substr(0, colon);
    rest = rest.substr(colon + 1);
  } else {
    rest = {};
  }
  if (!rest.empty()) {
    auto port = parse_int(rest, 65535, "port", url);
    if (!port) return tl::unexpected(port.error());
    a.port = *port;
  }
  if (host.empty())
    return fail(ErrorCode::invalid_argument, "remote URL '" + std::string(url) + "' names no host");
  a.host = std::string(host);
  return a;
}

std::optional<Result<void>> apply_tier_key(Config& c, const std::string& key,
                                           const toml::node& node) {
  auto bad = [&](const std::string& what) -> Result<void> {
    return fail(ErrorCode::invalid_argument, "config key '" + key + "' must be " + what);
  };
  if (key == "remote") {
    auto s = node.value<std::string>();
    if (!s || !node.is_string()) return bad("a string like \"redis://host:6379/0\"");
    if (!s->empty())
      if (auto a = parse_redis_url(*s); !a) return tl::unexpected(a.error());
    c.remote.url = *s;
    return Result<void>{};
  }
  if (key == "remote_read_only") {
    if (!node.is_boolean()) return bad("true or false");
    c.remote.read_only = *node.value<bool>();
    return Result<void>{};
  }
  if (key == "remote_password_file") {
    auto s = node.value<std::string>();
    if (!s || !node.is_string()) return bad("a path");
    c.remote.password_file = *s;
    return Result<void>{};
  }
  if (key == "images") {
    const auto* arr = node.as_array();
    if (!arr) return bad("an array of directory paths");
    c.images.clear();
    for (const auto& item : *arr) {
      auto s = item.value<std::string>();
      if (!s || !item.is_string() || s->empty()) return bad("an array of directory paths");
      c.images.emplace_back(*s);
    }
    return Result<void>{};
  }
  if (std::uint32_t* field = ms_field(c, key)) {
    auto v = node.value_exact<std::int64_t>();
    if (!v || !node.is_integer() || *v < 0 || *v > 0xffffffffLL) return bad("milliseconds (an integer)");
    *field = static_cast<std::uint32_t>(*v);
    return Result<void>{};
  }
  return std::nullopt;
}

Result<void> apply_tier_env(Config& c) {
  auto env = [](const char* name) -> std::optional<std::string_view> {
    const char* v = std::getenv(name);
    if (!v) return std::nullopt;
    return std::string_view(v);
  };
  if (auto v = env("CCCL_CACHE_IMAGES")) {
    c.images.clear();
    std::string_view rest = *v;
    while (!rest.empty()) {
      auto colon = rest.find(':');
      std::string_view part = rest.substr(0, colon);
      if (!part.empty()) c.images.emplace_back(part);
      rest = colon == std::string_view::npos ? std::string_view{} : rest.substr(colon + 1);
    }
  }
  if (auto v = env("CCCL_CACHE_REMOTE")) {
    if (!v->empty())
      if (auto a = parse_redis_url(*v); !a)
        return fail(ErrorCode::invalid_argument, "CCCL_CACHE_REMOTE: " + a.error().message);
    c.remote.url = std::string(*v);
  }
  if (auto v = env("CCCL_CACHE_REMOTE_READ_ONLY")) {
    std::string_view t = *v;
    if (t == "1" || t == "true" || t == "yes" || t == "on")
      c.remote.read_only = true;
    else if (t == "0" || t == "false" || t == "no" || t == "off" || t.empty())
      c.remote.read_only = false;
    else
      return fail(ErrorCode::invalid_argument,
                  "CCCL_CACHE_REMOTE_READ_ONLY: expected a boolean (1/0, true/false), got '" +
                      std::string(t) + "'");
  }
  if (auto v = env("CCCL_CACHE_REMOTE_PASSWORD_FILE")) c.remote.password_file = std::string(*v);
  struct Ms {
    const char* name;
    const char* key;
  };
  for (Ms m : {Ms{"CCCL_CACHE_REMOTE_TIMEOUT_MS", "remote_timeout_ms"},
               Ms{"CCCL_CACHE_REMOTE_RETRY_MS", "remote_retry_ms"},
               Ms{"CCCL_CACHE_LEASE_MS", "lease_ms"}}) {
    if (auto v = env(m.name); v && !v->empty()) {
      auto ms = parse_ms(*v, m.name);
      if (!ms) return tl::unexpected(ms.error());
      *ms_field(c, m.key) = *ms;
    }
  }
  return {};
}

}  // namespace cccl_cache::detail
