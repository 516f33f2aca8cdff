// The parsers under fuzz never compute a cache key or build, but the registry's table
// names the key, build and code generation of every algorithm, whose real definitions
// need NVRTC. These definitions only satisfy the linker: calling one is a harness bug
// and aborts (a crash the fuzzer reports).
#include <cstdio>
#include <cstdlib>

#include "cccl_cache/algos/algorithm_list.hpp"
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

// Every algorithm's code generation and build (traits types and class-template
// specializations alike).
#define CCCL_CACHE_NEVER(A, prefix)                                                   \
  prefix std::uint64_t A::codegen_digest(const A::Spec&) { never(#A "::codegen_digest"); } \
  prefix Result<Built<A>> A::build(const A::Spec&, std::uint32_t) { never(#A "::build"); }
CCCL_CACHE_NEVER(MergeSort, )
CCCL_CACHE_NEVER(Reduce, )
CCCL_CACHE_NEVER(RadixSort, )
CCCL_CACHE_NEVER(InclusiveScan, template <>)
CCCL_CACHE_NEVER(ExclusiveScan, template <>)
CCCL_CACHE_NEVER(UnaryTransform, template <>)
CCCL_CACHE_NEVER(BinaryTransform, template <>)
#undef CCCL_CACHE_NEVER

}  // namespace cccl_cache::algos
