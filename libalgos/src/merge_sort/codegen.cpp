#include "merge_sort/codegen.hpp"

#include <cstdint>
#include <limits>
#include <optional>

namespace cccl_cache::algos::merge_sort::detail {
namespace {

// CUB 3.0.1's tuning header declares MergeSortPolicyWrapper with
// CUB_RUNTIME_FUNCTION (= __host__ without RDC), which NVRTC rejects, and a
// sub-policy getter built on PolicyWrapper, which CUB hides from NVRTC. We need
// only its policy_hub (the tuning table the host dispatch uses too), so the
// wrapper is made host-device and the getter empty while that header is read.
// The kernel header comes first, so the kernels see CUB's own macros.
constexpr std::string_view kPrelude = R"(#include <cuda_device_runtime_api.h>
#include <cub/device/dispatch/kernels/merge_sort.cuh>
#undef CUB_RUNTIME_FUNCTION
#define CUB_RUNTIME_FUNCTION __host__ __device__
#undef CUB_DEFINE_SUB_POLICY_GETTER
#define CUB_DEFINE_SUB_POLICY_GETTER(name)
#include <cub/device/dispatch/tuning/tuning_merge_sort.cuh>
#undef CUB_RUNTIME_FUNCTION
#define CUB_RUNTIME_FUNCTION __host__

template <int BlockThreads, int ItemsPerTile, unsigned long long BlockSortVsmem, unsigned long long MergeVsmem>
__global__ void cccl_cache_policy_probe() {}
)";

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
  out.source = kPrelude;
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
  out.source +=
      "using cccl_cache_max_policy = "
      "cub::detail::merge_sort::policy_hub<cccl_cache_key_t*>::MaxPolicy;\n"
      "using cccl_cache_helper = cub::detail::merge_sort::merge_sort_vsmem_helper_t<\n"
      "    cccl_cache_max_policy::ActivePolicy::MergeSortPolicy, cccl_cache_key_t*, "
      "cccl_cache_value_t*,\n"
      "    cccl_cache_key_t*, cccl_cache_value_t*, cccl_cache_offset_t, cccl_cache_compare, "
      "cccl_cache_key_t,\n"
      "    cccl_cache_value_t>;\n";

  // Exactly DispatchMergeSort<KeyT*, ValueT*, KeyT*, ValueT*, OffsetT, Compare>'s kernels
  // (ValueT = cub::NullType for keys-only, as DeviceMergeSort::SortKeys does).
  const std::string iters = key + "*, " + value + "*, " + key + "*, " + value + "*, " + offset +
                            ", cccl_cache_compare, " + key + ", " + value;
  out.name_expressions = {
      "cub::detail::merge_sort::DeviceMergeSortBlockSortKernel<cccl_cache_max_policy, " + iters +
          ">",
      "cub::detail::merge_sort::DeviceMergeSortPartitionKernel<" + key + "*, " + offset +
          ", cccl_cache_compare, " + key + ">",
      "cub::detail::merge_sort::DeviceMergeSortMergeKernel<cccl_cache_max_policy, " + iters + ">",
      std::string(kPolicyProbeName) +
          "<cccl_cache_helper::policy_t::BLOCK_THREADS, "
          "cccl_cache_helper::policy_t::ITEMS_PER_TILE, "
          "cub::detail::vsmem_helper_impl<cccl_cache_helper::block_sort_agent_t>::vsmem_per_block, "
          "cub::detail::vsmem_helper_impl<cccl_cache_helper::merge_agent_t>::vsmem_per_block>",
  };
  return out;
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
