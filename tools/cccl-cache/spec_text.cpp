#include "spec_text.hpp"

#include <algorithm>
#include <cctype>

#include "bounded_read.hpp"

namespace cccl_cache::cli {

namespace {

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

std::string known_algorithms() {
  std::string out;
  for (const auto& a : algos::algorithms()) out += (out.empty() ? "" : ", ") + std::string(a.name);
  return out;
}

Result<AnySpec> spec_from_fields(std::string_view algorithm, const SpecFields& fields,
                                 const OperatorTable& ops, const std::filesystem::path& base_dir) {
  const auto* entry = algos::find_algorithm(algorithm);
  if (entry == nullptr) {
    return fail(ErrorCode::invalid_argument, "spec: unknown algorithm '" + std::string(algorithm) +
                                                 "' (known: " + known_algorithms() + ")");
  }
  const std::string name(algorithm);
  const auto descs = entry->fields();
  const bool has_source = fields.count("source") || fields.count("source_file");
  if (fields.count("source") && fields.count("source_file"))
    return fail(ErrorCode::invalid_argument, name + ": give source or source_file, not both");

  std::vector<algos::FieldText> given;
  std::size_t custom_ops = 0;
  for (const auto& [field, value] : fields) {
    if (field == "source" || field == "source_file") continue;
    algos::FieldText text{field, value, {}};
    const algos::FieldDesc* desc = nullptr;
    for (const auto& d : descs) desc = d.name == field ? &d : desc;
    if (desc != nullptr && desc->is_operator && !algos::parse_op_kind(value)) {
      ++custom_ops;
      if (auto op = ops.find(value); op != ops.end() && !has_source) text.source = op->second;
      if (has_source) {
        if (auto it = fields.find("source"); it != fields.end()) {
          text.source = it->second;
        } else {
          std::filesystem::path p = fields.at("source_file");
          if (p.is_relative() && !base_dir.empty()) p = base_dir / p;
          auto source = read_operator_source(p, value);
          if (!source) return tl::unexpected(source.error());
          text.source = std::move(*source);
        }
      }
      if (text.source.empty()) {
        return fail(ErrorCode::invalid_argument,
                    name + ": " + field + "='" + value +
                        "' is not a well-known operator and no source is given for it (add "
                        "source=..., source_file=PATH, or define [operators." +
                        value + "] in the manifest)");
      }
    }
    given.push_back(std::move(text));
  }
  if (has_source && custom_ops != 1) {
    return fail(ErrorCode::invalid_argument,
                name + ": source/source_file needs exactly one custom operator field (found " +
                    std::to_string(custom_ops) + ")");
  }
  return entry->from_text(given);
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
  return spec_from_fields(tokens[0], fields, ops, base_dir);
}

Result<AnySpec> parse_spec_text(std::string_view text, const OperatorTable& ops,
                                const std::filesystem::path& base_dir) {
  auto tokens = tokenize_spec_text(text);
  if (!tokens) return tl::unexpected(tokens.error());
  return parse_spec_tokens(*tokens, ops, base_dir);
}

}  // namespace cccl_cache::cli
