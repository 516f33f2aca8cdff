#include "cccl_cache/algos/spec_text.hpp"

#include <cctype>
#include <set>

namespace cccl_cache::algos {

namespace {
// The first argument of each transform(...) in an iterator's text value, as written.
std::vector<std::string> transform_operators(std::string_view value) {
  std::vector<std::string> names;
  for (std::size_t at = value.find("transform("); at != std::string_view::npos;
       at = value.find("transform(", at + 1))
    names.emplace_back(value.substr(at + 10, value.find_first_of(",)", at + 10) - at - 10));
  return names;
}
}  // namespace

std::string definition_name(std::string_view value) {
  for (const std::string& op : transform_operators(value)) {
    const std::string name = op.substr(0, op.find(':'));
    if (!name.empty() && !parse_op_kind(name)) return name;
  }
  return std::string(value.substr(0, value.find(':')));
}

std::string known_algorithms() {
  std::string out;
  for (const auto& a : algorithms()) out += (out.empty() ? "" : ", ") + std::string(a.name);
  return out;
}

Result<AnySpec> spec_from_fields(std::string_view algorithm, const SpecFields& fields,
                                 const OperatorTable& ops, const SourceFileReader& read_source) {
  // lower_bound / upper_bound: binary_search with its side given by the name.
  if (algorithm == "lower_bound" || algorithm == "upper_bound") {
    if (fields.count("upper"))
      return fail(ErrorCode::invalid_argument,
                  std::string(algorithm) + ": the name gives the side (no upper=; or use binary_search)");
    SpecFields with_side = fields;
    with_side["upper"] = algorithm == "upper_bound" ? "true" : "false";
    return spec_from_fields("binary_search", with_side, ops, read_source);
  }
  const auto* entry = find_algorithm(algorithm);
  if (entry == nullptr) {
    return fail(ErrorCode::invalid_argument, "spec: unknown algorithm '" + std::string(algorithm) +
                                                 "' (known: " + known_algorithms() + ")");
  }
  const std::string name(algorithm);
  const auto descs = entry->fields();
  const bool has_source = fields.count("source") || fields.count("source_file");
  if (fields.count("source") && fields.count("source_file"))
    return fail(ErrorCode::invalid_argument, name + ": give source or source_file, not both");
  if (fields.count("source_file") && !read_source) {
    return fail(ErrorCode::invalid_argument,
                name + ": source_file is not read here (give the operator's source inline: "
                       "source='...')");
  }

  std::vector<FieldText> given;
  std::size_t custom_fields = 0;       // fields naming a custom operator
  std::set<std::string> custom_names;  // the operators they name
  std::size_t structs_given = 0;
  for (const auto& [field, value] : fields) {
    if (field == "source" || field == "source_file") continue;
    if (field.starts_with(kStructPrefix)) {
      ++structs_given;
      continue;
    }
    FieldText text{field, value, {}};
    const FieldDesc* desc = nullptr;
    for (const auto& d : descs) desc = d.name == field ? &d : desc;
    if (desc != nullptr && desc->is_element_type && value.find(':') != std::string::npos) {
      // A struct's definition: struct.NAME=..., else the operator table's NAME.
      const std::string type_name = value.substr(0, value.find(':'));
      if (auto it = fields.find(std::string(kStructPrefix) + type_name); it != fields.end()) {
        text.source = it->second;
      } else if (auto op = ops.find(type_name); op != ops.end()) {
        text.source = op->second;
      } else {
        return fail(ErrorCode::invalid_argument,
                    name + ": " + field + "='" + value + "': no definition is given for struct '" +
                        type_name + "' (add " + std::string(kStructPrefix) + type_name +
                        "='struct " + type_name + " {...};')");
      }
    }
    // A custom operator's name: the field's value, or a transform iterator's first
    // argument (a zip's transform components': one source for all); a stateful
    // operator's layout follows it (name:SIZE/ALIGN).
    std::vector<std::string> op_names;
    if (desc != nullptr && desc->is_operator) op_names.push_back(value);
    if (desc != nullptr && desc->is_iterator) op_names = transform_operators(value);
    bool custom = false;
    for (std::string op_name : op_names) {
      op_name = op_name.substr(0, op_name.find(':'));
      if (op_name.empty() || parse_op_kind(op_name)) continue;
      custom = true;
      custom_names.insert(op_name);
      std::string source;
      if (auto op = ops.find(op_name); op != ops.end() && !has_source) source = op->second;
      if (has_source) {
        if (auto it = fields.find("source"); it != fields.end()) {
          source = it->second;
        } else {
          auto read = read_source(fields.at("source_file"), op_name);
          if (!read) return tl::unexpected(read.error());
          source = std::move(*read);
        }
      }
      if (source.empty()) {
        return fail(ErrorCode::invalid_argument,
                    name + ": " + field + "='" + value +
                        "' is not a well-known operator and no source is given for it (add "
                        "source=..., source_file=PATH, or define [operators." +
                        op_name + "] in the manifest)");
      }
      if (!text.source.empty() && text.source != source)
        return fail(ErrorCode::invalid_argument,
                    name + ": " + field + "='" + value +
                        "': its custom operators share one source (define them together)");
      text.source = std::move(source);
    }
    custom_fields += custom ? 1 : 0;
    given.push_back(std::move(text));
  }
  std::size_t distinct_used = 0;  // a definition named by two fields is one definition
  for (const auto& [field, value] : fields) {
    if (!field.starts_with(kStructPrefix)) continue;
    const std::string type_name = field.substr(kStructPrefix.size());
    bool used = false;
    for (const auto& t : given) used = used || t.value.starts_with(type_name + ":");
    distinct_used += used ? 1 : 0;
  }
  if (distinct_used != structs_given)
    return fail(ErrorCode::invalid_argument,
                name + ": a struct definition (" + std::string(kStructPrefix) +
                    "NAME=...) is given for a struct no field uses");
  // One source: for one custom operator (named by any number of fields, e.g. both offsets
  // of a segmented reduce), or for one field's (a zip's, which share one source).
  if (has_source && (custom_fields == 0 || (custom_fields > 1 && custom_names.size() > 1))) {
    return fail(ErrorCode::invalid_argument,
                name + ": source/source_file needs exactly one custom operator, or one field's (found " +
                    std::to_string(custom_names.size()) + " in " + std::to_string(custom_fields) +
                    " fields)");
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
                                  const SourceFileReader& read_source) {
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
  return spec_from_fields(tokens[0], fields, ops, read_source);
}

Result<AnySpec> parse_spec_text(std::string_view text, const OperatorTable& ops,
                                const SourceFileReader& read_source) {
  auto tokens = tokenize_spec_text(text);
  if (!tokens) return tl::unexpected(tokens.error());
  return parse_spec_tokens(*tokens, ops, read_source);
}

}  // namespace cccl_cache::algos
