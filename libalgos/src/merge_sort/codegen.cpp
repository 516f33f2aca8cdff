#include "merge_sort/codegen.hpp"

#define XXH_STATIC_LINKING_ONLY  // XXH3_state_t on the stack
#include <xxhash.h>

#include <atomic>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>

namespace cccl_cache::algos::merge_sort::detail {
namespace {

// The pinned CCCL's version header first: a source compiled against any other CCCL
// stops at the static_assert (naming both versions) before CUB's kernel header is read
// (build.cpp checks the headers' version before NVRTC runs, too). The kernel header
// includes its tuning header (the policy selector) itself; since CCCL 3.5 both compile
// under NVRTC as they are.
std::string prelude() {
  const std::string pinned = std::to_string(CCCL_CACHE_CCCL_PINNED_VERSION);
  return "#include <cuda/std/__cccl/version.h>\n"
         "#define CCCL_CACHE_STR2(x) #x\n"
         "#define CCCL_CACHE_STR(x) CCCL_CACHE_STR2(x)\n"
         "static_assert(CCCL_VERSION == " + pinned +
         ", \"cccl-cache: NVRTC compiles against CCCL_VERSION \" CCCL_CACHE_STR(CCCL_VERSION) "
         "\" but the host dispatch was compiled with CCCL_VERSION " + pinned +
         " (see $CCCL_CACHE_CCCL_INCLUDE)\");\n"
         "#if CCCL_VERSION == " + pinned + "\n"
         R"(#include <cuda_device_runtime_api.h>
#include <cub/device/dispatch/kernels/kernel_merge_sort.cuh>

template <int BlockThreads, int ItemsPerTile, unsigned long long BlockSortVsmem, unsigned long long MergeVsmem>
__global__ void cccl_cache_policy_probe() {}
)";
}

std::string comparator_body(const Comparator& c) {
  switch (c.kind) {
    case ComparatorKind::less:
      return "return a < b;";
    case ComparatorKind::greater:
      return "return b < a;";
    case ComparatorKind::custom:
      return "return static_cast<bool>(" + c.name + "(a, b));";
  }
  return "";
}

}  // namespace

GeneratedSource generate_source(const Spec& spec) {
  const std::string key{cuda_name(spec.key_type)};
  const std::string value =
      spec.keys_only() ? "cub::NullType" : std::string(cuda_name(spec.value_type));
  const std::string offset{cuda_name(spec.offset_type)};

  GeneratedSource out;
  out.source = prelude();
  if (spec.comparator.kind == ComparatorKind::custom) {
    out.source += "\n// user comparator " + spec.comparator.name + "\n#line 1 \"comparator\"\n";
    out.source += spec.comparator.source + "\n#line 1 \"generated\"\n";
  }
  out.source += "\nusing cccl_cache_key_t = " + key + ";\nusing cccl_cache_value_t = " + value +
                ";\nusing cccl_cache_offset_t = " + offset + ";\n";
  out.source +=
      "struct cccl_cache_compare {\n  __device__ bool operator()(const cccl_cache_key_t& a, "
      "const cccl_cache_key_t& b) const { " +
      comparator_body(spec.comparator) + " }\n};\n";
  // The policy the kernels themselves resolve (CUB's default selector for
  // DeviceMergeSort, at the CC being compiled for, after the virtual-shared-memory
  // fallback), for the probe.
  out.source +=
      "using cccl_cache_selector = "
      "cub::detail::merge_sort::policy_selector_from_types<cccl_cache_key_t*>;\n"
      "using cccl_cache_helper = cub::detail::merge_sort::device_merge_sort_vsmem_helper_t<\n"
      "    cub::detail::device_policy_getter<cccl_cache_selector, "
      "cub::detail::current_tuning_cc().get()>,\n"
      "    cccl_cache_key_t*, cccl_cache_value_t*, cccl_cache_key_t*, cccl_cache_value_t*,\n"
      "    cccl_cache_offset_t, cccl_cache_compare, cccl_cache_key_t, cccl_cache_value_t>;\n"
      "#endif\n";

  // Exactly the kernels cub::detail::merge_sort::dispatch<KeyT*, ValueT*, KeyT*, ValueT*,
  // OffsetT, Compare> launches (ValueT = cub::NullType for keys-only, as
  // DeviceMergeSort::SortKeys does), with DeviceMergeSort's default policy selector.
  const std::string iters = key + "*, " + value + "*, " + key + "*, " + value + "*, " + offset +
                            ", cccl_cache_compare, " + key + ", " + value;
  out.name_expressions = {
      "cub::detail::merge_sort::DeviceMergeSortBlockSortKernel<cccl_cache_selector, " + iters +
          ">",
      "cub::detail::merge_sort::DeviceMergeSortPartitionKernel<" + key + "*, " + offset +
          ", cccl_cache_compare, " + key + ">",
      "cub::detail::merge_sort::DeviceMergeSortMergeKernel<cccl_cache_selector, " + iters + ">",
      std::string(kPolicyProbeName) +
          "<cccl_cache_helper::policy.threads_per_block, "
          "cccl_cache_helper::policy.threads_per_block * "
          "cccl_cache_helper::policy.items_per_thread, "
          "cub::detail::vsmem_helper_impl<cccl_cache_helper::block_sort_agent_t>::vsmem_per_block, "
          "cub::detail::vsmem_helper_impl<cccl_cache_helper::merge_agent_t>::vsmem_per_block>",
  };
  return out;
}

namespace {

// A custom comparator's name is substituted into the text as is; the key carries the
// name itself, so the digest is taken with a fixed one (and one memo slot serves every
// custom comparator of a shape).
constexpr const char* kPlaceholderComparator = "user_comparator";

std::uint64_t digest_of(const Spec& shape) {
  const auto gen = generate_source(shape);
  XXH3_state_t state;
  XXH3_64bits_reset(&state);
  XXH3_64bits_update(&state, gen.source.data(), gen.source.size());
  for (const auto& expr : gen.name_expressions) {
    XXH3_64bits_update(&state, "", 1);  // separator: no two splits hash alike
    XXH3_64bits_update(&state, expr.data(), expr.size());
  }
  const auto d = XXH3_64bits_digest(&state);
  return d == 0 ? 1 : d;  // 0 marks an empty memo slot
}

constexpr unsigned kTypeSlots = 16, kKindSlots = 4;

}  // namespace

std::uint64_t codegen_digest(const Spec& spec) {
  Spec shape;
  shape.key_type = spec.key_type;
  shape.value_type = spec.value_type;
  shape.offset_type = spec.offset_type;
  shape.comparator.kind = spec.comparator.kind;
  if (spec.comparator.kind == ComparatorKind::custom) {
    shape.comparator.name = kPlaceholderComparator;
    shape.comparator.source = "/* comparator source */";
  }
  const auto k = static_cast<unsigned>(spec.key_type), v = static_cast<unsigned>(spec.value_type),
             o = static_cast<unsigned>(spec.offset_type),
             c = static_cast<unsigned>(spec.comparator.kind);
  if (k >= kTypeSlots || v >= kTypeSlots || o >= kTypeSlots || c >= kKindSlots)
    return digest_of(shape);
  // Per process, per shape: the text depends on nothing else, and generating it costs
  // microseconds on a path (the store hit's key) that is otherwise a few.
  static std::atomic<std::uint64_t> memo[kTypeSlots * kTypeSlots * kTypeSlots * kKindSlots];
  auto& slot = memo[((k * kTypeSlots + v) * kTypeSlots + o) * kKindSlots + c];
  if (const auto d = slot.load(std::memory_order_relaxed); d != 0) return d;
  const auto d = digest_of(shape);
  slot.store(d, std::memory_order_relaxed);
  return d;
}

namespace {

class Demangler {
 public:
  explicit Demangler(std::string_view s) : s_(s) {}
  bool eat(std::string_view lit) {
    if (s_.substr(pos_, lit.size()) != lit) return false;
    pos_ += lit.size();
    return true;
  }
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
  // <expr-primary> ::= L <builtin-type> <value number> E  (non-negative integer types only)
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

Result<Policy> parse_policy_probe(std::string_view lowered) {
  auto bad = [&](const char* why) {
    return fail(ErrorCode::internal, std::string("policy probe name '") + std::string(lowered) +
                                         "' not understood: " + why);
  };
  Demangler d(lowered);
  if (!d.eat("_Z")) return bad("not a mangled name");
  auto name = d.source_name();
  if (!name || *name != kPolicyProbeName) return bad("not the probe");
  if (!d.eat("I")) return bad("no template arguments");
  std::uint64_t v[4];
  for (auto& x : v) {
    auto lit = d.integer_literal();
    if (!lit) return bad("template argument is not a non-negative integer literal");
    x = *lit;
  }
  if (!d.eat("E") || !d.eat("vv") || !d.at_end()) return bad("unexpected tail");
  if (v[0] == 0 || v[0] > 1024 || v[1] == 0 || v[1] % v[0] != 0 || v[1] > (1u << 20))
    return bad("implausible tile shape");
  return Policy{static_cast<std::uint32_t>(v[0]), static_cast<std::uint32_t>(v[1]), v[2], v[3]};
}

}  // namespace cccl_cache::algos::merge_sort::detail
