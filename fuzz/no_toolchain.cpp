// The parsers under fuzz never compute a cache key or build, but the registry's table
// names the key, build and code generation of every algorithm, whose real definitions
// need NVRTC. These definitions only satisfy the linker: calling one is a harness bug
// and aborts (a crash the fuzzer reports).
#include <cstdio>
#include <cstdlib>

#include "cccl_cache/algos/merge_sort/build_result.hpp"
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

[[noreturn]] static void never(const char* what) {
  std::fprintf(stderr, "fuzz: %s called; the parsers must not need it\n", what);
  std::abort();
}

std::uint64_t MergeSort::codegen_digest(const Spec&) { never("MergeSort::codegen_digest"); }
Result<Built<MergeSort>> MergeSort::build(const Spec&, std::uint32_t) { never("MergeSort::build"); }

}  // namespace cccl_cache::algos
