#include "manifest.hpp"

#include <toml++/toml.h>

#include <algorithm>
#include <unordered_map>

#include "bounded_read.hpp"
#include "format.hpp"

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

// Dedup in linear time: spec hash -> indices of the specs kept with that hash.
std::size_t spec_hash(const AnySpec& a) {
  std::string_view bytes(reinterpret_cast<const char*>(a.fields.data()), a.fields.size());
  return std::hash<std::string_view>{}(bytes) * 31 + static_cast<std::size_t>(a.algorithm);
}

struct Budget {
  explicit Budget(const ManifestLimits& l) : limits(l) {}
  const ManifestLimits& limits;
  std::uint64_t specs = 0;
  std::uint64_t bytes = 0;
  std::unordered_map<std::size_t, std::vector<std::size_t>> seen;
};

Result<void> parse_operators(const toml::table& ops, Manifest& m,
                             const std::filesystem::path& base_dir, std::string_view file,
                             Budget& budget) {
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
      auto text = read_operator_source(p, n);
      if (!text)
        return fail(ErrorCode::invalid_argument,
                    where(file, node.source()) + "operators." + n + ": " + text.error().message);
      budget.bytes += text->size();
      if (budget.bytes > budget.limits.max_expanded_bytes)
        return fail(ErrorCode::invalid_argument,
                    where(file, node.source()) + "operators: their source files exceed " +
                        human_size(budget.limits.max_expanded_bytes) + " together");
      src = std::move(*text);
    }
    m.operators[n] = *src;
  }
  return {};
}

// Expands one [[<algorithm>]] table (array-valued fields multiply) into specs. The
// number of combinations and the bytes they copy are counted before they are made.
Result<void> parse_specs(const std::string& algorithm, const toml::table& t, Manifest& m,
                              const std::filesystem::path& base_dir, std::string_view file,
                              Budget& budget) {
  const auto too_much = [&](const std::string& what) {
    return fail(ErrorCode::invalid_argument,
                where(file, t.source()) + algorithm + ": the manifest expands to more than " + what +
                    " (array fields multiply: split it into several manifests)");
  };
  std::vector<std::vector<std::string>> field_values;
  std::uint64_t count = 1, bytes_per_combo = 0;
  for (const auto& [key, node] : t) {
    auto values = strings_of(node, file, std::string(key.str()));
    if (!values) return tl::unexpected(values.error());
    std::uint64_t longest = 0;
    for (const auto& v : *values) longest = std::max<std::uint64_t>(longest, v.size());
    bytes_per_combo += longest + key.str().size() + 64;
    if (count > budget.limits.max_specs / values->size() ||
        budget.specs + count * values->size() > budget.limits.max_specs)
      return too_much(std::to_string(budget.limits.max_specs) + " specs");
    count *= values->size();
    field_values.push_back(std::move(*values));
  }
  if (budget.bytes + count * bytes_per_combo > budget.limits.max_expanded_bytes)
    return too_much(human_size(budget.limits.max_expanded_bytes) + " of spec fields");
  budget.specs += count;
  budget.bytes += count * bytes_per_combo;
  std::vector<SpecFields> combos(1);
  std::size_t field_index = 0;
  for (const auto& [key, node] : t) {
    (void)node;
    const auto& values = field_values[field_index++];
    std::vector<SpecFields> next;
    for (const auto& c : combos) {
      for (const auto& v : values) {
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
    budget.bytes += spec->fields.size();
    if (budget.bytes > budget.limits.max_expanded_bytes)
      return too_much(human_size(budget.limits.max_expanded_bytes) +
                      " of spec fields and operator sources");
    AnySpec any = std::move(*spec);
    auto& same_hash = budget.seen[spec_hash(any)];
    bool dup = false;
    for (std::size_t i : same_hash) dup = dup || m.specs[i] == any;
    if (!dup) {
      same_hash.push_back(m.specs.size());
      m.specs.push_back(std::move(any));
    }
  }
  return {};
}

}  // namespace

Result<Manifest> parse_manifest(std::string_view text, const std::filesystem::path& base_dir,
                                std::string_view source_name, const ManifestLimits& limits) {
  if (text.size() > limits.max_file_bytes)
    return fail(ErrorCode::invalid_argument, std::string(source_name) + ": larger than " +
                                                 std::to_string(limits.max_file_bytes) +
                                                 " bytes (the limit for a manifest)");
  toml::table root;
  try {
    root = toml::parse(text, source_name);
  } catch (const toml::parse_error& e) {
    return fail(ErrorCode::invalid_argument, std::string(source_name) + ":" +
                                                 std::to_string(e.source().begin.line) + ": " +
                                                 std::string(e.description()));
  }
  Manifest m;
  Budget budget{limits};
  // Operators first: specs may name them wherever they appear in the file.
  if (auto* ops = root["operators"].as_table()) {
    if (auto r = parse_operators(*ops, m, base_dir, source_name, budget); !r)
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
        return fail(ErrorCode::invalid_argument, where(source_name, node.source()) +
                                                     k + ": expected [[" + k + "]] tables");
      }
      for (const auto& el : *arr) {
        const auto* t = el.as_table();
        if (t == nullptr)
          return fail(ErrorCode::invalid_argument,
                      where(source_name, el.source()) + k + ": expected a table");
        if (auto r = parse_specs(k, *t, m, base_dir, source_name, budget); !r)
          return tl::unexpected(r.error());
      }
    } else {
      return fail(ErrorCode::invalid_argument, where(source_name, node.source()) + "unknown key '" +
                                                   k + "' (known: arch, operators, " + known_algorithms() + ")");
    }
  }
  if (m.specs.empty())
    return fail(ErrorCode::invalid_argument,
                std::string(source_name) + ": no specs (add a table of an algorithm, e.g. [[merge_sort]])");
  return m;
}

Result<Manifest> load_manifest(const std::filesystem::path& file, const ManifestLimits& limits) {
  auto text = read_file_bounded(file, limits.max_file_bytes, "manifest");
  if (!text) return tl::unexpected(text.error());
  return parse_manifest(*text, file.parent_path(), file.string(), limits);
}

}  // namespace cccl_cache::cli
