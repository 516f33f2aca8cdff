// Build-time helper for the codegen A/B of bench_merge_sort_vs_cub (no GPU needed;
// driven by bench/codegen_ab.sh). Subcommands:
//   source KIND OUT.cu           the CUDA C++ ms::build hands NVRTC, plus a line taking
//                                the kernels' addresses so that nvcc instantiates them;
//                                int64/uint64 spelled `long long` so that nvcc mangles
//                                the names as NVRTC does (::cuda::std::int64_t is
//                                `long` in nvcc's host pass)
//   nvrtc-ptx KIND OUT.ptx NAMES NVRTC's PTX of that source, pruned as ms::build prunes
//                                it, and the three kernel names (one per line)
//   prune IN.ptx NAMES OUT.ptx   the same pruning, for nvcc's PTX
//   assemble IN.ptx OUT.cubin    nvJitLink, as ms::build assembles
// KIND: keys (float32, less, uint64 offsets) or pairs (int64 keys + uint32 values).
#include <cstdio>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include "merge_sort/codegen.hpp"
#include "nvrtc_compile.hpp"
#include "ptx_prune.hpp"

namespace ms = cccl_cache::algos::merge_sort;
namespace dt = cccl_cache::algos::detail;
using cccl_cache::algos::ScalarType;

namespace {

[[noreturn]] void die(const std::string& what) {
  std::fprintf(stderr, "merge_sort_codegen_ab_tool: %s\n", what.c_str());
  std::exit(1);
}

ms::Spec spec_of(const std::string& kind) {
  ms::Spec spec;  // the specs bench_merge_sort_vs_cub times
  spec.offset_type = ScalarType::uint64;
  if (kind == "pairs") {
    spec.key_type = ScalarType::int64;
    spec.value_type = ScalarType::uint32;
  } else if (kind != "keys") {
    die("unknown kind " + kind);
  }
  return spec;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  if (!in) die("cannot read " + path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> read_lines(const std::string& path) {
  std::istringstream in(read_text(path));
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);)
    if (!l.empty()) lines.push_back(l);
  return lines;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string cmd = argc > 1 ? argv[1] : "";
  if (cmd == "source" && argc == 4) {
    const auto gen = ms::detail::generate_source(spec_of(argv[2]));
    std::string text = gen.source + "\nvoid* cccl_cache_ab_kernels[] = {\n";
    for (std::size_t i = 0; i < 3; ++i) text += "  (void*)&" + gen.name_expressions[i] + ",\n";
    text += "};\n";
    text = std::regex_replace(text, std::regex("::cuda::std::uint64_t"), "unsigned long long");
    text = std::regex_replace(text, std::regex("::cuda::std::int64_t"), "long long");
    std::ofstream(argv[3]) << text;
  } else if (cmd == "nvrtc-ptx" && argc == 5) {
    const auto gen = ms::detail::generate_source(spec_of(argv[2]));
    auto ptx = dt::compile_to_ptx(gen.source, "ab.cu", 90, gen.name_expressions);
    if (!ptx) die(ptx.error().describe());
    const std::vector<std::string> names(ptx->lowered_names.begin(), ptx->lowered_names.begin() + 3);
    auto pruned = dt::prune_ptx(ptx->ptx, names);
    if (!pruned) die(pruned.error().message);
    std::ofstream(argv[3]) << pruned->ptx;
    std::ofstream out(argv[4]);
    for (const auto& n : names) out << n << "\n";
  } else if (cmd == "prune" && argc == 5) {
    auto pruned = dt::prune_ptx(read_text(argv[2]), read_lines(argv[3]));
    if (!pruned) die(pruned.error().message);
    std::ofstream(argv[4]) << pruned->ptx;
  } else if (cmd == "assemble" && argc == 4) {
    auto cubin = dt::assemble_ptx(read_text(argv[2]), 90);
    if (!cubin) die(cubin.error().describe());
    std::ofstream(argv[3], std::ios::binary)
        .write(reinterpret_cast<const char*>(cubin->data()),
               static_cast<std::streamsize>(cubin->size()));
  } else {
    die("usage: source|nvrtc-ptx|prune|assemble ... (see the file's head)");
  }
  return 0;
}
