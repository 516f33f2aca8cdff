// Our cubin against nvcc's for the same kernels (no GPU needed; driven by
// bench/cubin_sizes.sh, and by bench/codegen_ab.sh for merge sort's codegen A/B):
//   cubin_sizes_tool list                      the named specs, one a line
//   cubin_sizes_tool source NAME OUT.cu [CC]   the CUDA C++ our build hands NVRTC for
//       the spec, plus a table taking its kernels' addresses so that nvcc instantiates
//       exactly those kernels (int64/uint64 are spelled as the host's std::int64_t and
//       std::uint64_t, so nvcc's host pass mangles them as NVRTC does)
//   cubin_sizes_tool cubin NAME OUT.cubin [CC] our build's cubin for sm_<CC> (90)
// The specs: bench_algorithms_acquire's 15 defaults, the two merge-sort specs of
// bench_merge_sort_vs_cub's codegen A/B (merge_sort_ab_keys, merge_sort_ab_pairs), and
// bench_unique_by_key_vs_cub's int64 spec (unique_by_key_int64, its codegen A/B).
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <regex>
#include <string>
#include <vector>

#include "cccl_cache/algos/algorithms.hpp"
#include "merge_sort/codegen.hpp"
#include "radix_sort/codegen.hpp"
#include "radix_sort/dispatch.hpp"
#include "reduce/codegen.hpp"
#include "scan/codegen.hpp"
#include "transform/codegen.hpp"
#include "unique_by_key/codegen.hpp"

namespace ca = cccl_cache::algos;
using ca::OpKind;
using ca::Operator;
using ca::ScalarType;

namespace {

struct Named {
  std::string name;
  std::function<ca::detail::GeneratedSource(std::uint32_t cc)> source;
  std::function<cccl_cache::Result<std::vector<std::byte>>(std::uint32_t cc)> cubin;
};

template <class Spec, class Gen>
Named named(std::string name, Spec spec, Gen gen) {
  return {std::move(name), [spec, gen](std::uint32_t cc) { return gen(spec, cc); },
          [spec](std::uint32_t cc) -> cccl_cache::Result<std::vector<std::byte>> {
            auto built = Spec::Algorithm::build(spec, cc);
            if (!built) return tl::unexpected(built.error());
            return std::move(built->record.cubin);
          }};
}

std::vector<Named> specs() {
  std::vector<Named> out;
  for (ScalarType t : {ScalarType::float32, ScalarType::int64}) {
    const std::string ty(ca::name(t));
    auto reduce = [](const ca::reduce::Spec& s, std::uint32_t) {
      return ca::detail::BuildSteps<ca::Reduce>::source(s);
    };
    ca::reduce::Spec r;
    r.type = t;
    out.push_back(named("reduce_" + ty, r, reduce));
    r.op = Operator::of(OpKind::maximum);
    out.push_back(named("reduce_max_" + ty, r, reduce));
    ca::scan::InclusiveSpec in;
    in.type = t;
    out.push_back(named("inclusive_scan_" + ty, in, [](const auto& s, std::uint32_t) {
      return ca::detail::BuildSteps<ca::InclusiveScan>::source(s); }));
    ca::scan::ExclusiveSpec ex;
    ex.type = t;
    out.push_back(named("exclusive_scan_" + ty, ex, [](const auto& s, std::uint32_t) {
      return ca::detail::BuildSteps<ca::ExclusiveScan>::source(s); }));
    ca::transform::UnarySpec ut;
    ut.in = {t};
    ut.out = t;
    ut.op = Operator::of(OpKind::negate);
    out.push_back(named("unary_transform_" + ty, ut, [](const auto& s, std::uint32_t) {
      return ca::detail::BuildSteps<ca::UnaryTransform>::source(s); }));
    ca::transform::BinarySpec bt;
    bt.in = {t, t};
    bt.out = t;
    out.push_back(named("binary_transform_" + ty, bt, [](const auto& s, std::uint32_t) {
      return ca::detail::BuildSteps<ca::BinaryTransform>::source(s); }));
    ca::radix_sort::Spec rs;
    rs.key_type = t;
    out.push_back(named("radix_sort_" + ty, rs, [](const ca::radix_sort::Spec& s, std::uint32_t cc) {
      return ca::radix_sort::detail::generate_source(s, ca::radix_sort::detail::selects_onesweep(s, cc)); }));
  }
  auto merge = [](const ca::merge_sort::Spec& s, std::uint32_t) {
    return ca::detail::BuildSteps<ca::MergeSort>::source(s);
  };
  out.push_back(named("merge_sort_float32", ca::merge_sort::Spec{}, merge));
  ca::merge_sort::Spec keys;  // the codegen A/B's specs
  keys.offset_type = ScalarType::uint64;
  out.push_back(named("merge_sort_ab_keys", keys, merge));
  ca::merge_sort::Spec pairs = keys;
  pairs.key_type = ScalarType::int64;
  pairs.value_type = ScalarType::uint32;
  out.push_back(named("merge_sort_ab_pairs", pairs, merge));
  ca::unique_by_key::Spec ubk;  // int64 keys and values, uint64 offsets, int64 count
  ubk.key_type = ubk.value_type = ubk.selected_type = ScalarType::int64;
  ubk.offset_type = ScalarType::uint64;
  out.push_back(named("unique_by_key_int64", ubk, [](const auto& s, std::uint32_t) {
    return ca::detail::BuildSteps<ca::UniqueByKey>::source(s); }));
  return out;
}

int usage(const char* argv0) {
  std::fprintf(stderr, "usage: %s list | source NAME OUT.cu [CC] | cubin NAME OUT.cubin [CC]\n", argv0);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  const auto all = specs();
  if (mode == "list" && argc == 2) {
    for (const auto& s : all) std::printf("%s\n", s.name.c_str());
    return 0;
  }
  if ((mode != "source" && mode != "cubin") || (argc != 4 && argc != 5)) return usage(argv[0]);
  const std::uint32_t cc = argc == 5 ? static_cast<std::uint32_t>(std::atoi(argv[4])) : 90;
  const Named* spec = nullptr;
  for (const auto& s : all) spec = s.name == argv[2] ? &s : spec;
  if (!spec) {
    std::fprintf(stderr, "no spec named %s (see `list`)\n", argv[2]);
    return 2;
  }
  std::ofstream out(argv[3], std::ios::binary);
  if (mode == "source") {
    const auto gen = spec->source(cc);
    std::string text = gen.source + "\nvoid* cccl_cache_kernels[] = {\n";
    for (const auto& k : gen.kernels) text += "  (void*)&" + k + ",\n";
    text += "};\n";
    out << text;
  } else {
    auto cubin = spec->cubin(cc);
    if (!cubin) {
      std::fprintf(stderr, "%s: %s\n", argv[2], cubin.error().describe().c_str());
      return 1;
    }
    out.write(reinterpret_cast<const char*>(cubin->data()), static_cast<std::streamsize>(cubin->size()));
  }
  return out ? 0 : 1;
}
