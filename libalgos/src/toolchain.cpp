#include "cccl_cache/algos/toolchain.hpp"

#include <xxhash.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "nvrtc_compile.hpp"

namespace cccl_cache::algos {
namespace {

// CCCL_VERSION of the headers NVRTC will compile against (not of whatever this
// library was built with): those are what decide the generated code.
std::uint32_t read_cccl_version(const std::string& include_dir) {
  std::ifstream in(include_dir + "/cccl/cuda/std/__cccl/version.h");
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string hash, macro;
    std::uint64_t value = 0;
    if (words >> hash >> macro >> value && hash == "#define" && macro == "CCCL_VERSION") {
      return static_cast<std::uint32_t>(value);
    }
  }
  return 0;
}

}  // namespace

std::string Toolchain::fingerprint() const {
  const auto opts_hash = XXH3_64bits(compile_options.data(), compile_options.size());
  char buf[160];
  std::snprintf(buf, sizeof buf, "cccl-%u.%u.%u nvrtc-%d.%d nvjitlink-%d.%d fmt-%u opts-%08x",
                cccl_version / 1000000, (cccl_version / 1000) % 1000, cccl_version % 1000,
                nvrtc_major, nvrtc_minor, nvjitlink_major, nvjitlink_minor, build_format_version,
                static_cast<unsigned>(opts_hash >> 32));
  return buf;
}

const Toolchain& Toolchain::current() {
  static const Toolchain tc = [] {
    Toolchain t;
    t.cccl_version = read_cccl_version(detail::cuda_include_dir());
    std::tie(t.nvrtc_major, t.nvrtc_minor) = detail::nvrtc_version();
    std::tie(t.nvjitlink_major, t.nvjitlink_minor) = detail::nvjitlink_version();
    for (const auto& o : detail::common_nvrtc_options()) {
      if (!t.compile_options.empty()) t.compile_options += ' ';
      t.compile_options += o;
    }
    t.compile_options += " | nvjitlink -O3";  // the assembly step is part of what a build produces
    return t;
  }();
  return tc;
}

}  // namespace cccl_cache::algos
