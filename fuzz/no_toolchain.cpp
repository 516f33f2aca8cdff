// The parsers under fuzz never compute a cache key, but spec.cpp's key functions name
// the toolchain, whose real definition needs NVRTC. These definitions only satisfy
// the linker: calling one is a harness bug and aborts (a crash the fuzzer reports).
#include <cstdio>
#include <cstdlib>

#include "cccl_cache/algos/toolchain.hpp"

namespace cccl_cache::algos {

std::string Toolchain::fingerprint() const {
  std::fputs("fuzz: Toolchain::fingerprint called; the parsers must not need it\n", stderr);
  std::abort();
}

const Toolchain& Toolchain::current() {
  std::fputs("fuzz: Toolchain::current called; the parsers must not need it\n", stderr);
  std::abort();
}

}  // namespace cccl_cache::algos
