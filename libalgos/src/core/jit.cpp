#include "core/jit.hpp"

#include <xxhash.h>

#include <algorithm>
#include <limits>
#include <optional>

#include "cccl_cache/algos/toolchain.hpp"
#include "core/codegen_digest.hpp"
#include "nvrtc_compile.hpp"

namespace cccl_cache::algos::detail {
namespace {

std::vector<std::string> name_expressions(const GeneratedSource& gen) {
  auto out = gen.kernels;
  if (!gen.policy_probe.empty()) out.push_back(gen.policy_probe);
  return out;
}

class Demangler {
 public:
  explicit Demangler(std::string_view s) : s_(s) {}
  bool eat(std::string_view lit) {
    if (s_.substr(pos_, lit.size()) != lit) return false;
    pos_ += lit.size();
    return true;
  }
  bool peek(char c) const { return pos_ < s_.size() && s_[pos_] == c; }
  std::optional<std::uint64_t> number() {
    std::uint64_t v = 0;
    const auto start = pos_;
    while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') {
      const auto d = static_cast<std::uint64_t>(s_[pos_] - '0');
      if (v > (std::numeric_limits<std::uint64_t>::max() - d) / 10) return std::nullopt;
      v = v * 10 + d;
      ++pos_;
    }
    if (pos_ == start || (s_[start] == '0' && pos_ - start > 1)) return std::nullopt;
    return v;
  }
  // <source-name> ::= <length> <identifier>
  std::optional<std::string_view> source_name() {
    auto len = number();
    if (!len || *len > s_.size() - pos_) return std::nullopt;
    auto name = s_.substr(pos_, *len);
    pos_ += *len;
    return name;
  }
  // <expr-primary> ::= L <builtin-type> <value number> E  (non-negative integers only)
  std::optional<std::uint64_t> integer_literal() {
    if (!eat("L") || pos_ >= s_.size()) return std::nullopt;
    if (std::string_view("ijlmxyst").find(s_[pos_]) == std::string_view::npos) return std::nullopt;
    ++pos_;
    auto v = number();
    if (!v || !eat("E")) return std::nullopt;
    return v;
  }
  bool at_end() const { return pos_ == s_.size(); }

 private:
  std::string_view s_;
  std::size_t pos_ = 0;
};

}  // namespace

std::uint64_t digest_of(const GeneratedSource& gen) {
  XXH3_state_t* state = XXH3_createState();
  XXH3_64bits_reset(state);
  XXH3_64bits_update(state, gen.source.data(), gen.source.size());
  for (const auto& expr : gen.kernels) {
    XXH3_64bits_update(state, "", 1);  // a delimiter: no two splits hash alike
    XXH3_64bits_update(state, expr.data(), expr.size());
  }
  XXH3_64bits_update(state, "\x01", 1);
  XXH3_64bits_update(state, gen.policy_probe.data(), gen.policy_probe.size());
  // Without extra options the digest is what it was before they existed.
  for (const auto& option : gen.nvrtc_options) {
    XXH3_64bits_update(state, "\x02", 1);
    XXH3_64bits_update(state, option.data(), option.size());
  }
  const auto digest = XXH3_64bits_digest(state);
  XXH3_freeState(state);
  return digest;
}

namespace {
std::string version_text(std::uint32_t v) {
  return std::to_string(v / 1000000) + "." + std::to_string((v / 1000) % 1000) + "." +
         std::to_string(v % 1000) + " (CCCL_VERSION " + std::to_string(v) + ")";
}
}  // namespace

Result<void> check_cccl_version() {
  const std::string dir = cccl_include_dir();
  const std::uint32_t nvrtc_side = read_cccl_version(dir);
  const std::uint32_t host_side = Toolchain::current().cccl_version;
  if (nvrtc_side == host_side) return {};
  return fail(ErrorCode::unsupported,
              "NVRTC would compile against CCCL " +
                  (nvrtc_side == 0 ? std::string("of unknown version (no CCCL_VERSION in " + dir +
                                                 "/cuda/std/__cccl/version.h)")
                                   : version_text(nvrtc_side) + " from " + dir) +
                  ", but the host dispatch was compiled with CCCL " + version_text(host_side) +
                  "; their kernel interfaces differ. Unset $CCCL_CACHE_CCCL_INCLUDE or point it "
                  "at the pinned CCCL (scripts/install-deps.sh unpacks it into .deps/)");
}

Result<void> check_target(std::uint32_t cc) {
  if (cc < 50 || cc > 120) {
    return fail(ErrorCode::unsupported,
                "compute capability " + std::to_string(cc) + " is outside 50..120");
  }
  // The first call of a build: loads NVRTC, or says why it cannot.
  const auto archs = nvrtc_supported_archs();
  if (!archs) return tl::unexpected(archs.error());
  if (!std::binary_search(archs->begin(), archs->end(), static_cast<int>(cc)))
    return fail(ErrorCode::unsupported, "this NVRTC cannot compile for sm_" + std::to_string(cc));
  return check_cccl_version();
}

Result<std::vector<std::uint64_t>> parse_policy_probe(std::string_view lowered) {
  auto bad = [&](const char* why) {
    return fail(ErrorCode::internal, std::string("policy probe name '") + std::string(lowered) +
                                         "' not understood: " + why);
  };
  Demangler d(lowered);
  if (!d.eat("_Z")) return bad("not a mangled name");
  auto name = d.source_name();
  if (!name || *name != kPolicyProbeName) return bad("not the probe");
  if (!d.eat("I")) return bad("no template arguments");
  const bool pack = d.eat("J");  // a template parameter pack: J <args> E
  std::vector<std::uint64_t> values;
  while (d.peek('L')) {
    if (values.size() >= kMaxRuntimeValues) return bad("too many values");
    auto lit = d.integer_literal();
    if (!lit) return bad("template argument is not a non-negative integer literal");
    values.push_back(*lit);
  }
  if ((pack && !d.eat("E")) || !d.eat("E") || !d.eat("vv") || !d.at_end())
    return bad("unexpected tail");
  return values;
}

Result<JitBuild> jit_build(const GeneratedSource& gen, std::string_view program_name,
                           std::uint32_t cc) {
  if (auto ok = check_target(cc); !ok) return tl::unexpected(ok.error());
  auto ir = compile_to_ltoir(gen.source, std::string(program_name), cc, name_expressions(gen),
                             gen.nvrtc_options);
  if (!ir) return tl::unexpected(ir.error());
  JitBuild out;
  if (!gen.policy_probe.empty()) {
    auto values = parse_policy_probe(ir->lowered_names.back());
    if (!values) return tl::unexpected(values.error());
    out.record.values = std::move(*values);
  }
  // The probe is a kernel too; it is not kept, so it costs nothing in the cubin.
  out.record.kernels.assign(ir->lowered_names.begin(),
                            ir->lowered_names.begin() + static_cast<std::ptrdiff_t>(gen.kernels.size()));
  auto cubin = link_ltoir(ir->ltoir, cc, out.record.kernels, std::string(program_name));
  if (!cubin) return tl::unexpected(cubin.error());
  out.record.cc = cc;
  out.record.cubin = std::move(*cubin);
  out.ltoir_bytes = ir->ltoir.size();
  out.nvrtc_log = std::move(ir->log);
  return out;
}

Result<std::vector<std::byte>> jit_build_naive(const GeneratedSource& gen,
                                               std::string_view program_name, std::uint32_t cc) {
  if (auto ok = check_target(cc); !ok) return tl::unexpected(ok.error());
  return compile_to_cubin_naive(gen.source, std::string(program_name), cc, name_expressions(gen),
                                gen.nvrtc_options);
}

}  // namespace cccl_cache::algos::detail
