// Build-time helper for the codegen A/B of bench_merge_sort_vs_cub (no GPU needed;
// driven by bench/codegen_ab.sh): writes the CUDA C++ that ms::build hands NVRTC for
// a spec, plus a line taking the three kernels' addresses so that nvcc instantiates
// them. int64/uint64 are spelled `long long` so that nvcc mangles the kernel names
// exactly as NVRTC does (for nvcc's host pass ::cuda::std::int64_t is `long`).
// Usage: merge_sort_codegen_ab_tool KIND OUT.cu
//   KIND: keys (float32, less, uint64 offsets) or pairs (int64 keys + uint32 values).
#include <cstdio>
#include <fstream>
#include <regex>
#include <string>

#include "merge_sort/codegen.hpp"

namespace ms = cccl_cache::algos::merge_sort;
using cccl_cache::algos::ScalarType;

int main(int argc, char** argv) {
  const std::string kind = argc == 3 ? argv[1] : "";
  if (kind != "keys" && kind != "pairs") {
    std::fprintf(stderr, "usage: %s keys|pairs OUT.cu\n", argv[0]);
    return 2;
  }
  ms::Spec spec;  // the specs bench_merge_sort_vs_cub times
  spec.offset_type = ScalarType::uint64;
  if (kind == "pairs") {
    spec.key_type = ScalarType::int64;
    spec.value_type = ScalarType::uint32;
  }
  const auto gen = ms::detail::generate_source(spec);
  std::string text = gen.source + "\nvoid* cccl_cache_ab_kernels[] = {\n";
  for (std::size_t i = 0; i < 3; ++i) text += "  (void*)&" + gen.kernels[i] + ",\n";
  text += "};\n";
  text = std::regex_replace(text, std::regex("::cuda::std::uint64_t"), "unsigned long long");
  text = std::regex_replace(text, std::regex("::cuda::std::int64_t"), "long long");
  std::ofstream(argv[2]) << text;
  return 0;
}
