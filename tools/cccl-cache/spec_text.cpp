#include "spec_text.hpp"

#include <algorithm>
#include <cctype>

#include "bounded_read.hpp"

namespace cccl_cache::cli {

namespace ms = algos::merge_sort;

namespace {

Result<algos::ScalarType> scalar_field(const SpecFields& f, const std::string& name,
                                       std::optional<algos::ScalarType> fallback) {
  auto it = f.find(name);
  if (it == f.end()) {
    if (fallback) return *fallback;
    return fail(ErrorCode::invalid_argument,
                "merge_sort: field '" + name + "' is required (e.g. " + name + "=float32)");
  }
  auto t = algos::parse_scalar_type(it->second);
  if (!t) {
    return fail(ErrorCode::invalid_argument,
                "merge_sort: " + name + "='" + it->second +
                    "' is not a type (int8..int64, uint8..uint64, float32, float64, none)");
  }
  return *t;
}

bool is_ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

// Whether `text` calls or declares `name(` with `name` a whole identifier.
bool names_function(std::string_view text, std::string_view name) {
  for (auto at = text.find(name); at != std::string_view::npos; at = text.find(name, at + 1)) {
    if (at > 0 && is_ident_char(text[at - 1])) continue;
    auto after = at + name.size();
    while (after < text.size() && std::isspace(static_cast<unsigned char>(text[after]))) ++after;
    if (after < text.size() && text[after] == '(') return true;
  }
  return false;
}

}  // namespace

Result<std::string> read_operator_source(const std::filesystem::path& path,
                                         std::string_view op_name) {
  auto text = read_file_bounded(path, kMaxOperatorSourceBytes, "source_file");
  if (!text) return tl::unexpected(text.error());
  const bool binary = std::any_of(text->begin(), text->end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return (u < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v') || u == 0x7f;
  });
  if (binary || text->find("__device__") == std::string::npos || !names_function(*text, op_name)) {
    return fail(ErrorCode::invalid_argument,
                "source_file '" + path.string() + "' does not define the operator '" +
                    std::string(op_name) + "' (expected CUDA C++ text with `__device__ bool " +
                    std::string(op_name) + "(...)`; the file's content is not shown)");
  }
  return text;
}

Result<ms::Spec> merge_sort_from_fields(const SpecFields& fields, const OperatorTable& ops,
                                        const std::filesystem::path& base_dir) {
  static const char* const kKnown[] = {"keys",   "values", "compare",    "cmp",
                                       "offset", "source", "source_file"};
  for (const auto& [name, value] : fields) {
    bool known = false;
    for (const char* k : kKnown) known = known || name == k;
    if (!known) {
      return fail(ErrorCode::invalid_argument,
                  "merge_sort: unknown field '" + name +
                      "' (known: keys, values, compare, offset, source, source_file)");
    }
  }
  if (fields.count("compare") && fields.count("cmp")) {
    return fail(ErrorCode::invalid_argument, "merge_sort: give 'compare' or 'cmp', not both");
  }
  ms::Spec spec;
  auto keys = scalar_field(fields, "keys", std::nullopt);
  if (!keys) return tl::unexpected(keys.error());
  auto values = scalar_field(fields, "values", algos::ScalarType::none);
  if (!values) return tl::unexpected(values.error());
  auto offset = scalar_field(fields, "offset", algos::ScalarType::int64);
  if (!offset) return tl::unexpected(offset.error());
  spec.key_type = *keys;
  spec.value_type = *values;
  spec.offset_type = *offset;

  std::string compare = "less";
  if (auto it = fields.find("compare"); it != fields.end()) compare = it->second;
  if (auto it = fields.find("cmp"); it != fields.end()) compare = it->second;
  if (compare.rfind("custom:", 0) == 0) compare = compare.substr(7);
  const bool has_source = fields.count("source") || fields.count("source_file");
  if (compare == "less" || compare == "greater") {
    if (has_source) {
      return fail(ErrorCode::invalid_argument,
                  "merge_sort: source given for the built-in comparator '" + compare + "'");
    }
    spec.comparator = compare == "less" ? algos::Comparator::less() : algos::Comparator::greater();
  } else {
    std::string source;
    if (auto it = fields.find("source"); it != fields.end()) {
      source = it->second;
    } else if (auto f = fields.find("source_file"); f != fields.end()) {
      std::filesystem::path p = f->second;
      if (p.is_relative() && !base_dir.empty()) p = base_dir / p;
      auto text = read_operator_source(p, compare);
      if (!text) return tl::unexpected(text.error());
      source = std::move(*text);
    } else if (auto op = ops.find(compare); op != ops.end()) {
      source = op->second;
    } else {
      return fail(ErrorCode::invalid_argument,
                  "merge_sort: compare='" + compare +
                      "' is not less/greater and no source is given for it "
                      "(add source=..., source_file=PATH, or define [operators." +
                      compare + "] in the manifest)");
    }
    spec.comparator = algos::Comparator::custom(compare, std::move(source));
  }
  if (auto ok = ms::validate(spec); !ok) {
    return fail(ErrorCode::invalid_argument, "merge_sort: " + ok.error().message);
  }
  return spec;
}

Result<std::vector<std::string>> tokenize_spec_text(std::string_view text) {
  std::vector<std::string> tokens;
  std::string cur;
  bool in_token = false;
  char quote = 0;
  for (char c : text) {
    if (quote != 0) {
      if (c == quote) {
        quote = 0;
      } else {
        cur += c;
      }
    } else if (c == '\'' || c == '"') {
      quote = c;
      in_token = true;
    } else if (std::isspace(static_cast<unsigned char>(c))) {
      if (in_token) tokens.push_back(std::move(cur));
      cur.clear();
      in_token = false;
    } else {
      cur += c;
      in_token = true;
    }
  }
  if (quote != 0)
    return fail(ErrorCode::invalid_argument, std::string("spec: unterminated ") + quote + " quote");
  if (in_token) tokens.push_back(std::move(cur));
  return tokens;
}

Result<AnySpec> parse_spec_tokens(const std::vector<std::string>& tokens, const OperatorTable& ops,
                                  const std::filesystem::path& base_dir) {
  if (tokens.empty()) {
    return fail(ErrorCode::invalid_argument,
                "spec: empty (expected e.g. 'merge_sort keys=float32 values=none')");
  }
  AnySpec out;
  out.algorithm = tokens[0];
  if (out.algorithm != ms::kAlgorithmName) {
    return fail(ErrorCode::invalid_argument,
                "spec: unknown algorithm '" + out.algorithm + "' (known: merge_sort)");
  }
  SpecFields fields;
  for (std::size_t i = 1; i < tokens.size(); ++i) {
    const auto& t = tokens[i];
    auto eq = t.find('=');
    if (eq == std::string::npos || eq == 0) {
      return fail(ErrorCode::invalid_argument, "spec: '" + t + "' is not field=value");
    }
    auto [it, inserted] = fields.emplace(t.substr(0, eq), t.substr(eq + 1));
    if (!inserted)
      return fail(ErrorCode::invalid_argument, "spec: field '" + it->first + "' given twice");
  }
  auto spec = merge_sort_from_fields(fields, ops, base_dir);
  if (!spec) return tl::unexpected(spec.error());
  out.merge_sort = std::move(*spec);
  return out;
}

Result<AnySpec> parse_spec_text(std::string_view text, const OperatorTable& ops,
                                const std::filesystem::path& base_dir) {
  auto tokens = tokenize_spec_text(text);
  if (!tokens) return tl::unexpected(tokens.error());
  return parse_spec_tokens(*tokens, ops, base_dir);
}

std::string to_spec_text(const ms::Spec& spec) {
  std::string cmp = spec.comparator.kind == algos::ComparatorKind::custom
                        ? spec.comparator.name
                        : algos::describe(spec.comparator);
  std::string out =
      std::string(ms::kAlgorithmName) + " keys=" + std::string(algos::name(spec.key_type));
  out += " values=" + std::string(algos::name(spec.value_type));
  out += " compare=" + cmp;
  out += " offset=" + std::string(algos::name(spec.offset_type));
  return out;
}

std::string to_spec_text(const AnySpec& spec) { return to_spec_text(spec.merge_sort); }

}  // namespace cccl_cache::cli
