#include "cccl_cache/cache/config.hpp"

#include <toml++/toml.h>
#include <unistd.h>

#include <charconv>
#include <cstdlib>
#include <limits>

#include "cccl_cache/cache/signing.hpp"
#include "config_tiers.hpp"

namespace cccl_cache {
namespace fs = std::filesystem;
namespace {

std::optional<std::string> env(const char* name) {
  const char* v = std::getenv(name);
  if (!v) return std::nullopt;
  return std::string(v);
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return out;
}

Result<bool> parse_bool(std::string_view text, std::string_view what) {
  std::string t = lower(text);
  if (t == "1" || t == "true" || t == "yes" || t == "on") return true;
  if (t == "0" || t == "false" || t == "no" || t == "off" || t.empty()) return false;
  return fail(ErrorCode::invalid_argument, std::string(what) +
                                               ": expected a boolean (1/0, true/false), got '" +
                                               std::string(text) + "'");
}

Result<std::string> check_level(std::string_view text, std::string_view what) {
  std::string t = lower(text);
  if (t == "warning") t = "warn";
  for (const char* ok : {"off", "critical", "error", "warn", "info", "debug", "trace"})
    if (t == ok) return t;
  return fail(ErrorCode::invalid_argument, std::string(what) + ": unknown log level '" +
                                               std::string(text) +
                                               "' (use off, error, warn, info, debug or trace)");
}

Result<std::uint64_t> parse_unsigned(std::string_view digits) {
  std::uint64_t v = 0;
  if (digits.empty()) return fail(ErrorCode::invalid_argument, "empty number");
  auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (ec == std::errc::result_out_of_range)
    return fail(ErrorCode::invalid_argument, "number too large");
  if (ec != std::errc() || p != digits.data() + digits.size())
    return fail(ErrorCode::invalid_argument, "not a number");
  return v;
}

Result<std::uint64_t> scaled(std::uint64_t n, std::uint64_t unit) {
  if (unit != 0 && n > std::numeric_limits<std::uint64_t>::max() / unit)
    return fail(ErrorCode::invalid_argument, "value too large");
  return n * unit;
}

// A TOML size: integer bytes or a string such as "2G".
Result<std::uint64_t> toml_size(const toml::node& node, std::string_view key) {
  if (auto i = node.value_exact<std::int64_t>(); i && node.is_integer()) {
    if (*i < 0)
      return fail(ErrorCode::invalid_argument,
                  "config key '" + std::string(key) + "' must not be negative");
    return static_cast<std::uint64_t>(*i);
  }
  if (auto s = node.value<std::string>()) {
    auto r = parse_size(*s);
    if (!r)
      return fail(ErrorCode::invalid_argument,
                  "config key '" + std::string(key) + "': " + r.error().message);
    return r;
  }
  return fail(ErrorCode::invalid_argument, "config key '" + std::string(key) +
                                               "' must be an integer or a size string like \"2G\"");
}

Result<bool> toml_bool(const toml::node& node, std::string_view key) {
  if (auto b = node.value<bool>(); b && node.is_boolean()) return *b;
  return fail(ErrorCode::invalid_argument,
              "config key '" + std::string(key) + "' must be true or false");
}

// Parses the file `name` (text == nullptr) or `*text` (named `name` in errors) and applies it.
Result<void> apply_toml(Config& c, const std::string& name, const std::string_view* text) {
  toml::table table;
  try {
    table = text ? toml::parse(*text, name) : toml::parse_file(name);
  } catch (const toml::parse_error& e) {
    return fail(ErrorCode::invalid_argument,
                "config file " + name + " is not valid TOML (line " +
                    std::to_string(e.source().begin.line) + "): " + std::string(e.description()));
  }
  for (const auto& [k, node] : table) {
    const std::string key(k.str());
    if (node.is_table()) continue;  // sections belong to other components (e.g. [cli])
    auto where = [&](const Error& e) {
      return fail(e.code, "config file " + name + ": " + e.message);
    };
    if (key == "dir") {
      auto s = node.value<std::string>();
      if (!s || !node.is_string() || s->empty())
        return where({ErrorCode::invalid_argument, "config key 'dir' must be a non-empty string"});
      c.dir = *s;
    } else if (key == "max_size" || key == "initial_map_size" || key == "max_map_size") {
      auto v = toml_size(node, key);
      if (!v) return where(v.error());
      (key == "max_size"           ? c.max_size
       : key == "initial_map_size" ? c.initial_map_size
                                   : c.max_map_size) = *v;
    } else if (key == "max_readers") {
      auto v = node.value_exact<std::int64_t>();
      if (!v || !node.is_integer() || *v < 1 || *v > 1'000'000)
        return where({ErrorCode::invalid_argument,
                      "config key 'max_readers' must be an integer in 1..1000000"});
      c.max_readers = static_cast<unsigned>(*v);
    } else if (key == "disabled" || key == "read_only" || key == "shared" || key == "immutable" ||
               key == "host_single_flight" || key == "cc_fallback") {
      auto v = toml_bool(node, key);
      if (!v) return where(v.error());
      (key == "disabled"    ? c.disabled
       : key == "read_only" ? c.read_only
       : key == "shared"    ? c.shared
       : key == "immutable" ? c.immutable
       : key == "cc_fallback" ? c.cc_fallback
                            : c.host_single_flight) = *v;
    } else if (key == "build_wait_ms") {
      auto v = node.value_exact<std::int64_t>();
      if (!v || !node.is_integer() || *v < 0 || *v > std::numeric_limits<std::uint32_t>::max())
        return where({ErrorCode::invalid_argument,
                      "config key 'build_wait_ms' must be an integer in 0..4294967295"});
      c.build_wait_ms = static_cast<std::uint32_t>(*v);
    } else if (key == "touch_interval") {
      std::optional<std::uint64_t> secs;
      if (auto i = node.value_exact<std::int64_t>(); i && node.is_integer() && *i >= 0)
        secs = static_cast<std::uint64_t>(*i);
      else if (auto s = node.value<std::string>(); s && node.is_string())
        if (auto d = parse_duration(*s)) secs = *d;
      if (!secs || *secs > std::numeric_limits<std::uint32_t>::max())
        return where({ErrorCode::invalid_argument,
                      "config key 'touch_interval' must be seconds or a duration like \"60s\""});
      c.touch_interval_s = static_cast<std::uint32_t>(*secs);
    } else if (key == "signing_key") {
      auto s = node.value<std::string>();
      if (!s || !node.is_string() || s->empty())
        return where({ErrorCode::invalid_argument,
                      "config key 'signing_key' must be the path of a key file"});
      c.signing_key = *s;
    } else if (key == "trusted_keys") {
      const auto* array = node.as_array();
      if (!array)
        return where({ErrorCode::invalid_argument,
                      "config key 'trusted_keys' must be an array of \"name:base64\" strings"});
      c.trusted_keys.clear();
      for (const auto& item : *array) {
        auto s = item.value<std::string>();
        if (!s || !item.is_string())
          return where({ErrorCode::invalid_argument,
                        "config key 'trusted_keys' must hold \"name:base64\" strings"});
        if (auto parsed = PublicKey::parse(*s); !parsed)
          return where({ErrorCode::invalid_argument,
                        "config key 'trusted_keys': " + parsed.error().message});
        c.trusted_keys.push_back(*s);
      }
    } else if (key == "log_level") {
      auto s = node.value<std::string>();
      if (!s || !node.is_string())
        return where({ErrorCode::invalid_argument, "config key 'log_level' must be a string"});
      auto l = check_level(*s, "config key 'log_level'");
      if (!l) return where(l.error());
      c.log_level = *l;
    } else if (auto tier = detail::apply_tier_key(c, key, node)) {
      if (!*tier) return where(tier->error());
    } else {
      return where({ErrorCode::invalid_argument,
                    "unknown config key '" + key + "' (see config/cccl-cache.toml)"});
    }
  }
  return {};
}

Result<void> apply_env(Config& c) {
  if (auto v = env("CCCL_CACHE_DIR"); v && !v->empty()) c.dir = *v;
  if (auto v = env("CCCL_CACHE_MAX_SIZE"); v && !v->empty()) {
    auto s = parse_size(*v);
    if (!s) return fail(ErrorCode::invalid_argument, "CCCL_CACHE_MAX_SIZE: " + s.error().message);
    c.max_size = *s;
  }
  struct Flag {
    const char* name;
    bool* field;
  };
  for (Flag f :
       {Flag{"CCCL_CACHE_DISABLE", &c.disabled}, Flag{"CCCL_CACHE_READ_ONLY", &c.read_only},
        Flag{"CCCL_CACHE_SHARED", &c.shared}, Flag{"CCCL_CACHE_IMMUTABLE", &c.immutable},
        Flag{"CCCL_CACHE_HOST_SINGLE_FLIGHT", &c.host_single_flight},
        Flag{"CCCL_CACHE_CC_FALLBACK", &c.cc_fallback}}) {
    if (auto v = env(f.name)) {
      auto b = parse_bool(*v, f.name);
      if (!b) return tl::unexpected(b.error());
      *f.field = *b;
    }
  }
  if (auto v = env("CCCL_CACHE_BUILD_WAIT_MS"); v && !v->empty()) {
    auto n = parse_unsigned(*v);
    if (!n || *n > std::numeric_limits<std::uint32_t>::max())
      return fail(ErrorCode::invalid_argument,
                  "CCCL_CACHE_BUILD_WAIT_MS: expected milliseconds in 0..4294967295, got '" + *v + "'");
    c.build_wait_ms = static_cast<std::uint32_t>(*n);
  }
  if (auto v = env("CCCL_CACHE_SIGNING_KEY"); v && !v->empty()) c.signing_key = *v;
  if (auto v = env("CCCL_CACHE_TRUSTED_KEYS")) {
    c.trusted_keys.clear();
    std::string_view rest = *v;
    while (!rest.empty()) {
      const auto start = rest.find_first_not_of(" ,\t\n");
      if (start == std::string_view::npos) break;
      rest.remove_prefix(start);
      const auto word = rest.substr(0, rest.find_first_of(" ,\t\n"));
      if (auto k = PublicKey::parse(word); !k)
        return fail(ErrorCode::invalid_argument, "CCCL_CACHE_TRUSTED_KEYS: " + k.error().message);
      c.trusted_keys.emplace_back(word);
      rest.remove_prefix(word.size());
    }
  }
  if (auto v = env("CCCL_CACHE_LOG_LEVEL"); v && !v->empty()) {
    auto l = check_level(*v, "CCCL_CACHE_LOG_LEVEL");
    if (!l) return tl::unexpected(l.error());
    c.log_level = *l;
  }
  return detail::apply_tier_env(c);
}

fs::path default_config_file() {
  if (auto x = env("XDG_CONFIG_HOME"); x && !x->empty())
    return fs::path(*x) / "cccl-cache" / "config.toml";
  if (auto h = env("HOME"); h && !h->empty())
    return fs::path(*h) / ".config" / "cccl-cache" / "config.toml";
  return {};
}

}  // namespace

fs::path default_cache_dir() {
  if (auto d = env("CCCL_CACHE_DIR"); d && !d->empty()) return *d;
  if (auto x = env("XDG_CACHE_HOME"); x && !x->empty()) return fs::path(*x) / "cccl-cache";
  if (auto h = env("HOME"); h && !h->empty()) return fs::path(*h) / ".cache" / "cccl-cache";
  // No home: one directory per user, never one that every user of the machine shares.
  std::error_code ec;
  fs::path tmp = fs::temp_directory_path(ec);
  if (ec) tmp = "/tmp";
  return tmp / ("cccl-cache-" + std::to_string(::geteuid()));
}

Config Config::defaults() {
  Config c;
  c.dir = default_cache_dir();
  return c;
}

Result<Config> Config::load(const std::optional<fs::path>& file) {
  Config c = defaults();
  // An explicitly named file (argument, then $CCCL_CACHE_CONFIG) must exist; the
  // default location may be absent.
  std::optional<fs::path> named = file;
  if (!named)
    if (auto v = env("CCCL_CACHE_CONFIG"); v && !v->empty()) named = fs::path(*v);
  fs::path path = named ? *named : default_config_file();
  std::error_code ec;
  if (!path.empty() && fs::exists(path, ec)) {
    if (auto r = apply_toml(c, path.string(), nullptr); !r) return tl::unexpected(r.error());
  } else if (named) {
    return fail(ErrorCode::not_found,
                "config file " + path.string() +
                    " does not exist (fix CCCL_CACHE_CONFIG or the path given)");
  }
  if (auto r = apply_env(c); !r) return tl::unexpected(r.error());
  if (auto r = c.validate(); !r) return tl::unexpected(r.error());
  return c;
}

Result<void> Config::validate() const {
  auto mib = [](std::uint64_t b) { return std::to_string(b) + " bytes"; };
  if (max_map_size / 2 < max_size)
    return fail(ErrorCode::invalid_argument,
                "max_size (" + mib(max_size) + ") must be at most half of max_map_size (" +
                    mib(max_map_size) +
                    "): LMDB needs free pages beside the live entries (copy-on-write, page "
                    "rounding). Raise max_map_size or lower max_size");
  if (initial_map_size > max_map_size)
    return fail(ErrorCode::invalid_argument, "initial_map_size (" + mib(initial_map_size) +
                                                 ") exceeds max_map_size (" + mib(max_map_size) +
                                                 "); lower initial_map_size or raise max_map_size");
  return {};
}

Result<Config> Config::from_toml(std::string_view text, std::string_view source_name) {
  Config c = defaults();
  if (auto r = apply_toml(c, std::string(source_name), &text); !r) return tl::unexpected(r.error());
  if (auto r = c.validate(); !r) return tl::unexpected(r.error());
  return c;
}

Result<std::uint64_t> parse_size(std::string_view text) {
  std::string t = lower(text);
  std::string_view s = t;
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  if (s.ends_with("ib"))
    s.remove_suffix(2);
  else if (s.ends_with("b"))
    s.remove_suffix(1);
  std::uint64_t unit = 1;
  if (!s.empty()) {
    switch (s.back()) {
      case 'k':
        unit = 1ull << 10;
        break;
      case 'm':
        unit = 1ull << 20;
        break;
      case 'g':
        unit = 1ull << 30;
        break;
      case 't':
        unit = 1ull << 40;
        break;
      default:
        break;
    }
    if (unit != 1) s.remove_suffix(1);
  }
  auto n = parse_unsigned(s);
  if (!n)
    return fail(ErrorCode::invalid_argument, "bad size '" + std::string(text) + "' (" +
                                                 n.error().message +
                                                 "; use bytes or a number with K, M, G or T)");
  auto v = scaled(*n, unit);
  if (!v) return fail(ErrorCode::invalid_argument, "size '" + std::string(text) + "' is too large");
  return v;
}

Result<std::uint64_t> parse_duration(std::string_view text) {
  std::string_view s = text;
  std::uint64_t unit = 1;
  if (!s.empty()) {
    switch (s.back()) {
      case 's':
        unit = 1;
        break;
      case 'm':
        unit = 60;
        break;
      case 'h':
        unit = 3600;
        break;
      case 'd':
        unit = 86400;
        break;
      case 'w':
        unit = 7 * 86400;
        break;
      default:
        unit = 0;
        break;
    }
    if (unit != 0)
      s.remove_suffix(1);
    else
      unit = 1;  // bare number: seconds
  }
  auto n = parse_unsigned(s);
  if (!n)
    return fail(ErrorCode::invalid_argument, "bad duration '" + std::string(text) + "' (" +
                                                 n.error().message +
                                                 "; use e.g. 90s, 15m, 12h, 30d, 2w)");
  auto v = scaled(*n, unit);
  if (!v)
    return fail(ErrorCode::invalid_argument, "duration '" + std::string(text) + "' is too large");
  return v;
}

}  // namespace cccl_cache
