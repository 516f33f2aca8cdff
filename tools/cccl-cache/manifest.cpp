#include "manifest.hpp"

#include <set>

#include <toml++/toml.h>

#include <fstream>
#include <sstream>

namespace cccl_cache::cli {

namespace {

std::string where(std::string_view file, const toml::source_region& src) {
  return std::string(file) + ":" + std::to_string(src.begin.line) + ": ";
}

Result<std::vector<std::string>> strings_of(const toml::node& node, std::string_view file,
                                            const std::string& what) {
  std::vector<std::string> out;
  if (auto s = node.value<std::string>()) {
    out.push_back(*s);
    return out;
  }
  if (const auto* arr = node.as_array()) {
    for (const auto& el : *arr) {
      auto s = el.value<std::string>();
      if (!s)
        return fail(ErrorCode::invalid_argument,
                    where(file, el.source()) + what + ": expected strings");
      out.push_back(*s);
    }
    if (out.empty())
      return fail(ErrorCode::invalid_argument, where(file, node.source()) + what + ": empty array");
    return out;
  }
  return fail(ErrorCode::invalid_argument,
              where(file, node.source()) + what + ": expected a string or an array of strings");
}

Result<std::string> read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return fail(ErrorCode::invalid_argument, "cannot read '" + p.string() + "'");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

Result<void> parse_operators(const toml::table& ops, Manifest& m,
                             const std::filesystem::path& base_dir, std::string_view file) {
  for (const auto& [name, node] : ops) {
    const auto* t = node.as_table();
    const std::string n(name.str());
    if (t == nullptr) {
      return fail(ErrorCode::invalid_argument,
                  where(file, node.source()) + "operators." + n + ": expected a table");
    }
    auto src = (*t)["source"].value<std::string>();
    auto src_file = (*t)["source_file"].value<std::string>();
    if (src.has_value() == src_file.has_value()) {
      return fail(ErrorCode::invalid_argument, where(file, node.source()) + "operators." + n +
                                                   ": give exactly one of source or source_file");
    }
    if (src_file) {
      std::filesystem::path p = *src_file;
      if (p.is_relative()) p = base_dir / p;
      auto text = read_file(p);
      if (!text)
        return fail(ErrorCode::invalid_argument,
                    where(file, node.source()) + "operators." + n + ": " + text.error().message);
      src = std::move(*text);
    }
    m.operators[n] = *src;
  }
  return {};
}

// Expands one [[<algorithm>]] table (array-valued fields multiply) into specs.
Result<void> parse_specs(std::string_view algorithm, const toml::table& t, Manifest& m,
                         std::set<std::pair<algos::AlgorithmId, std::vector<std::byte>>>& seen,
                         const std::filesystem::path& base_dir, std::string_view file) {
  std::vector<SpecFields> combos(1);
  for (const auto& [key, node] : t) {
    auto values = strings_of(node, file, std::string(key.str()));
    if (!values) return tl::unexpected(values.error());
    std::vector<SpecFields> next;
    for (const auto& c : combos) {
      for (const auto& v : *values) {
        auto copy = c;
        copy[std::string(key.str())] = v;
        next.push_back(std::move(copy));
      }
    }
    combos = std::move(next);
  }
  for (const auto& fields : combos) {
    auto spec = spec_from_fields(algorithm, fields, m.operators, base_dir);
    if (!spec)
      return fail(ErrorCode::invalid_argument, where(file, t.source()) + spec.error().message);
    if (seen.emplace(spec->algorithm, spec->fields).second) m.specs.push_back(std::move(*spec));
  }
  return {};
}

}  // namespace

Result<Manifest> parse_manifest(std::string_view text, const std::filesystem::path& base_dir,
                                std::string_view source_name) {
  toml::table root;
  try {
    root = toml::parse(text, source_name);
  } catch (const toml::parse_error& e) {
    return fail(ErrorCode::invalid_argument, std::string(source_name) + ":" +
                                                 std::to_string(e.source().begin.line) + ": " +
                                                 std::string(e.description()));
  }
  Manifest m;
  std::set<std::pair<algos::AlgorithmId, std::vector<std::byte>>> seen;
  // Operators first: specs may name them wherever they appear in the file.
  if (auto* ops = root["operators"].as_table()) {
    if (auto r = parse_operators(*ops, m, base_dir, source_name); !r)
      return tl::unexpected(r.error());
  }
  for (const auto& [key, node] : root) {
    const std::string k(key.str());
    if (k == "operators") {
      if (!node.is_table())
        return fail(ErrorCode::invalid_argument,
                    where(source_name, node.source()) + "operators: expected a table");
    } else if (k == "arch") {
      auto archs = strings_of(node, source_name, "arch");
      if (!archs) return tl::unexpected(archs.error());
      for (const auto& a : *archs) {
        auto cc = parse_cc(a);
        if (!cc)
          return fail(ErrorCode::invalid_argument, where(source_name, node.source()) + "arch: '" +
                                                       a + "' is not a compute capability");
        m.archs.push_back(*cc);
      }
    } else if (algos::find_algorithm(k) != nullptr) {
      const auto* arr = node.as_array();
      if (arr == nullptr) {
        return fail(ErrorCode::invalid_argument, where(source_name, node.source()) + k +
                                                     ": expected [[" + k + "]] tables");
      }
      for (const auto& el : *arr) {
        const auto* t = el.as_table();
        if (t == nullptr)
          return fail(ErrorCode::invalid_argument,
                      where(source_name, el.source()) + k + ": expected a table");
        if (auto r = parse_specs(k, *t, m, seen, base_dir, source_name); !r)
          return tl::unexpected(r.error());
      }
    } else {
      return fail(ErrorCode::invalid_argument, where(source_name, node.source()) + "unknown key '" +
                                                   k + "' (known: arch, operators, " +
                                                   known_algorithms() + ")");
    }
  }
  if (m.specs.empty())
    return fail(ErrorCode::invalid_argument,
                std::string(source_name) + ": no specs (add a table of an algorithm, e.g. [[merge_sort]])");
  return m;
}

Result<Manifest> load_manifest(const std::filesystem::path& file) {
  auto text = read_file(file);
  if (!text) return fail(ErrorCode::invalid_argument, "manifest: " + text.error().message);
  return parse_manifest(*text, file.parent_path(), file.string());
}

}  // namespace cccl_cache::cli
