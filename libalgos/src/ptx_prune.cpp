#include "ptx_prune.hpp"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace cccl_cache::algos::detail {
namespace {

enum class Tok { identifier, directive, number, string, punct };

struct Token {
  Tok kind;
  std::size_t begin, end;  // byte offsets into the module text
  bool newline_before;     // a line break (or line comment) precedes it
};

bool ident_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c == '%';
}
bool ident_char(char c) { return ident_start(c) || (c >= '0' && c <= '9'); }
bool digit(char c) { return c >= '0' && c <= '9'; }

std::string line_of(std::string_view text, std::size_t offset) {
  return std::to_string(
      1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
}

Result<std::vector<Token>> tokenize(std::string_view s) {
  std::vector<Token> out;
  std::size_t i = 0;
  bool newline = true;
  while (i < s.size()) {
    const char c = s[i];
    if (c == '\n') {
      newline = true;
      ++i;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      ++i;
      continue;
    }
    if (c == '/' && i + 1 < s.size() && s[i + 1] == '/') {
      while (i < s.size() && s[i] != '\n') ++i;
      continue;
    }
    if (c == '/' && i + 1 < s.size() && s[i + 1] == '*') {
      const auto close = s.find("*/", i + 2);
      if (close == std::string_view::npos)
        return fail(ErrorCode::invalid_argument,
                    "PTX: unterminated comment at line " + line_of(s, i));
      if (s.substr(i, close - i).find('\n') != std::string_view::npos) newline = true;
      i = close + 2;
      continue;
    }
    const std::size_t b = i;
    Tok kind;
    if (c == '"') {
      ++i;
      while (i < s.size() && s[i] != '"' && s[i] != '\n')
        i += (s[i] == '\\' && i + 1 < s.size()) ? 2 : 1;
      if (i >= s.size() || s[i] != '"')
        return fail(ErrorCode::invalid_argument,
                    "PTX: unterminated string at line " + line_of(s, b));
      ++i;
      kind = Tok::string;
    } else if (c == '.' && i + 1 < s.size() && ident_char(s[i + 1])) {
      ++i;
      while (i < s.size() && ident_char(s[i])) ++i;
      kind = Tok::directive;
    } else if (ident_start(c) && (c != '%' || (i + 1 < s.size() && ident_char(s[i + 1])))) {
      ++i;
      while (i < s.size() && ident_char(s[i])) ++i;
      kind = Tok::identifier;
    } else if (digit(c)) {
      while (i < s.size() && (ident_char(s[i]) || s[i] == '.')) ++i;
      kind = Tok::number;
    } else if (std::string_view("{}()[];,=<>+-*/:!@|&^~?.").find(c) != std::string_view::npos) {
      ++i;
      kind = Tok::punct;
    } else {
      return fail(ErrorCode::invalid_argument, "PTX: unexpected character (code " +
                                                   std::to_string(static_cast<unsigned char>(c)) +
                                                   ") at line " + line_of(s, i));
    }
    out.push_back({kind, b, i, newline});
    newline = false;
  }
  return out;
}

enum class Kind { other, variable, function, entry };

struct Statement {
  std::size_t first, last;  // token indices, inclusive
  Kind kind = Kind::other;
  std::vector<std::string_view> names;  // symbols it declares or defines
};

bool is_line_directive(std::string_view d) {
  return d == ".version" || d == ".target" || d == ".address_size" || d == ".file";
}

bool is_state_space(std::string_view d) {
  return d == ".global" || d == ".const" || d == ".shared" || d == ".local" || d == ".tex" ||
         d == ".surfref" || d == ".texref" || d == ".samplerref";
}

class Module {
 public:
  Module(std::string_view text, std::vector<Token> tokens)
      : text_(text), toks_(std::move(tokens)) {}

  std::string_view str(std::size_t t) const {
    return text_.substr(toks_[t].begin, toks_[t].end - toks_[t].begin);
  }
  bool punct(std::size_t t, char c) const {
    return toks_[t].kind == Tok::punct && text_[toks_[t].begin] == c;
  }

  Result<std::vector<Statement>> split() const {
    std::vector<Statement> out;
    std::size_t t = 0;
    while (t < toks_.size()) {
      const std::size_t first = t;
      if (toks_[t].kind != Tok::directive) {
        return fail(ErrorCode::invalid_argument,
                    "PTX: module-scope statement does not start with a directive at line " +
                        line_of(text_, toks_[t].begin));
      }
      if (is_line_directive(str(t))) {
        ++t;
        while (t < toks_.size() && !toks_[t].newline_before) ++t;
        out.push_back(Statement{first, t - 1, Kind::other, {}});
        continue;
      }
      int depth = 0;
      bool done = false;
      for (; t < toks_.size() && !done; ++t) {
        if (punct(t, '{')) {
          ++depth;
        } else if (punct(t, '}')) {
          if (--depth < 0)
            return fail(ErrorCode::invalid_argument,
                        "PTX: unbalanced '}' at line " + line_of(text_, toks_[t].begin));
          // A block closing at module scope ends the statement unless an initializer's ';' follows.
          if (depth == 0 && !(t + 1 < toks_.size() && punct(t + 1, ';'))) done = true;
        } else if (depth == 0 && punct(t, ';')) {
          done = true;
        }
      }
      if (!done)
        return fail(ErrorCode::invalid_argument, "PTX: unterminated statement starting at line " +
                                                     line_of(text_, toks_[first].begin));
      out.push_back(Statement{first, t - 1, Kind::other, {}});
    }
    for (auto& st : out) classify(st);
    return out;
  }

  // Identifiers a statement mentions (its own names included).
  void identifiers(const Statement& st, std::vector<std::string_view>& out) const {
    for (std::size_t t = st.first; t <= st.last; ++t) {
      if (toks_[t].kind == Tok::identifier) out.push_back(str(t));
    }
  }

 private:
  void classify(Statement& st) const {
    std::size_t head_end = st.first;  // one past the head: up to the first '{' or '='
    while (head_end <= st.last && !punct(head_end, '{') && !punct(head_end, '=')) ++head_end;
    bool state_space = false;
    for (std::size_t t = st.first; t < head_end; ++t) {
      if (toks_[t].kind != Tok::directive) continue;
      const auto d = str(t);
      if (d == ".entry" || d == ".func") {
        st.kind = d == ".entry" ? Kind::entry : Kind::function;
        std::size_t n = t + 1;
        if (st.kind == Kind::function && n < head_end && punct(n, '('))
          n = skip_parens(n, head_end);
        if (n < head_end && toks_[n].kind == Tok::identifier) st.names.push_back(str(n));
        if (st.names.empty()) st.kind = Kind::other;  // nameless: keep, never drop blindly
        return;
      }
      state_space = state_space || is_state_space(d);
    }
    if (is_line_directive(str(st.first)) || !state_space) return;
    st.kind = Kind::variable;
    for (std::size_t t = st.first; t < head_end; ++t) {
      if (toks_[t].kind == Tok::identifier) st.names.push_back(str(t));
    }
    if (st.names.empty()) st.kind = Kind::other;
  }

  std::size_t skip_parens(std::size_t open, std::size_t end) const {
    int depth = 0;
    for (std::size_t t = open; t < end; ++t) {
      if (punct(t, '(')) ++depth;
      if (punct(t, ')') && --depth == 0) return t + 1;
    }
    return end;
  }

  std::string_view text_;
  std::vector<Token> toks_;

 public:
  std::string_view span(const Statement& st) const {
    return text_.substr(toks_[st.first].begin, toks_[st.last].end - toks_[st.first].begin);
  }
};

}  // namespace

Result<PrunedPtx> prune_ptx(std::string_view ptx, const std::vector<std::string>& keep_entries) {
  auto tokens = tokenize(ptx);
  if (!tokens) return tl::unexpected(tokens.error());
  Module module(ptx, std::move(*tokens));
  auto statements = module.split();
  if (!statements) return tl::unexpected(statements.error());

  std::unordered_map<std::string_view, std::vector<std::size_t>> defined;  // name -> statements
  for (std::size_t i = 0; i < statements->size(); ++i) {
    for (auto name : (*statements)[i].names) defined[name].push_back(i);
  }

  std::vector<bool> live(statements->size(), false);
  std::vector<std::size_t> work;
  auto mark = [&](std::size_t i) {
    if (!live[i]) {
      live[i] = true;
      work.push_back(i);
    }
  };
  for (std::size_t i = 0; i < statements->size(); ++i) {
    if ((*statements)[i].kind == Kind::other) mark(i);
  }
  for (const auto& entry : keep_entries) {
    auto it = defined.find(entry);
    bool found = false;
    if (it != defined.end()) {
      for (auto i : it->second) {
        if ((*statements)[i].kind == Kind::entry) {
          mark(i);
          found = true;
        }
      }
    }
    if (!found) return fail(ErrorCode::invalid_argument, "PTX: no .entry named " + entry);
  }
  std::vector<std::string_view> ids;
  while (!work.empty()) {  // fixpoint: everything a live statement names is live
    const auto i = work.back();
    work.pop_back();
    ids.clear();
    module.identifiers((*statements)[i], ids);
    for (auto id : ids) {
      auto it = defined.find(id);
      if (it == defined.end()) continue;
      // A named entry stays too (e.g. its address in a kept initializer): dropping
      // it would leave a dangling reference that only the assembler would catch.
      for (auto j : it->second) mark(j);
    }
  }

  PrunedPtx out;
  for (std::size_t i = 0; i < statements->size(); ++i) {
    const auto& st = (*statements)[i];
    auto count = [&](std::size_t& total, std::size_t& dropped) {
      ++total;
      dropped += live[i] ? 0 : 1;
    };
    if (st.kind == Kind::variable) count(out.stats.variables, out.stats.variables_dropped);
    if (st.kind == Kind::function) count(out.stats.functions, out.stats.functions_dropped);
    if (st.kind == Kind::entry) count(out.stats.entries, out.stats.entries_dropped);
    if (!live[i]) continue;
    out.ptx.append(module.span(st));
    out.ptx.push_back('\n');
  }
  return out;
}

}  // namespace cccl_cache::algos::detail
