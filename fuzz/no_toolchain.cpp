// The parsers under fuzz never compute a cache key or build, but the registry's table
// names the key, build and code generation of every algorithm, whose real definitions
// need NVRTC. These definitions only satisfy the linker: calling one is a harness bug
// and aborts (a crash the fuzzer reports).
#include <cstdio>
#include <cstdlib>

#include "cccl_cache/algos/algorithm_list.hpp"
#include "cccl_cache/algos/toolchain.hpp"

namespace cccl_cache::algos {

std::string Toolchain::fingerprint(std::string_view) const {
  std::fputs("fuzz: Toolchain::fingerprint called; the parsers must not need it\n", stderr);
  std::abort();
}

std::uint64_t Toolchain::dispatch_abi_of(std::string_view) const noexcept {
  std::fputs("fuzz: Toolchain::dispatch_abi_of called; the parsers must not need it\n", stderr);
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

// Every algorithm's code generation and build (AlgorithmBase's members, core/built.hpp).
#define CCCL_CACHE_NEVER(A)                                                          \
  template <>                                                                        \
  std::uint64_t AlgorithmBase<A, A::Spec>::codegen_digest(const A::Spec&) {          \
    never(#A "::codegen_digest");                                                    \
  }                                                                                  \
  template <>                                                                        \
  Result<Built<A>> AlgorithmBase<A, A::Spec>::build(const A::Spec&, std::uint32_t) { \
    never(#A "::build");                                                             \
  }
CCCL_CACHE_ALGORITHMS(CCCL_CACHE_NEVER)
#undef CCCL_CACHE_NEVER

}  // namespace cccl_cache::algos
