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

namespace {

algos::SourceFileReader file_reader(const std::filesystem::path& base_dir) {
  return [base_dir](const std::string& path, std::string_view op_name) {
    std::filesystem::path p = path;
    if (p.is_relative() && !base_dir.empty()) p = base_dir / p;
    return read_operator_source(p, op_name);
  };
}

}  // namespace

Result<AnySpec> spec_from_fields(std::string_view algorithm, const SpecFields& fields,
                                 const OperatorTable& ops, const std::filesystem::path& base_dir) {
  return algos::spec_from_fields(algorithm, fields, ops, file_reader(base_dir));
}

Result<AnySpec> parse_spec_tokens(const std::vector<std::string>& tokens, const OperatorTable& ops,
                                  const std::filesystem::path& base_dir) {
  return algos::parse_spec_tokens(tokens, ops, file_reader(base_dir));
}

Result<AnySpec> parse_spec_text(std::string_view text, const OperatorTable& ops,
                                const std::filesystem::path& base_dir) {
  return algos::parse_spec_text(text, ops, file_reader(base_dir));
}

}  // namespace cccl_cache::cli
