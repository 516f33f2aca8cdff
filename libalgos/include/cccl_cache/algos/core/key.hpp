// Cache keys of every algorithm: XXH3-128 of canonical bytes plus the CC.
//
//   canonical := encoding_version | algorithm name | spec fields (spec_codec.hpp) |
//                codegen digest (of the algorithm's generated source for the spec) | cc |
//                CCCL version | NVRTC version | nvJitLink version | compile options |
//                build format version | toolchain fingerprint of the algorithm |
//                NVRTC library | nvJitLink library | the algorithm's dispatch ABI digest
//
// each as tag:u8 | length:u32 | bytes, so that no two different inputs encode equal.
// Contains no addresses or times: equal specs hash equal in every process and host.
// The toolchain parts are those every algorithm shares plus the algorithm's own host
// dispatch ABI (Toolchain::fingerprint(algorithm), Toolchain::dispatch_abi_of): adding
// or changing another algorithm changes none of its keys.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "cccl_cache/algos/core/algorithm.hpp"
#include "cccl_cache/algos/core/spec_codec.hpp"
#include "cccl_cache/algos/toolchain.hpp"
#include "cccl_cache/cache/key.hpp"

namespace cccl_cache::algos {

// The canonical bytes of an algorithm's encoded spec fields for `cc` and `tc`.
[[nodiscard]] std::vector<std::byte> canonical_bytes(AlgorithmId algorithm,
                                                   std::span<const std::byte> spec_fields,
                                                   std::uint64_t codegen_digest, std::uint32_t cc,
                                                   const Toolchain& tc);

// The store key of encoded spec fields with their algorithm's codegen digest.
[[nodiscard]] CacheKey spec_key(AlgorithmId algorithm, std::span<const std::byte> spec_fields,
                                std::uint64_t codegen_digest, std::uint32_t cc,
                                const Toolchain& tc = Toolchain::current());

// The store key of `spec` for sm_<cc> (its algorithm's traits give the codegen digest).
template <class Spec>
[[nodiscard]] CacheKey cache_key(const Spec& spec, std::uint32_t cc,
                                 const Toolchain& tc = Toolchain::current()) {
  return spec_key(Spec::kAlgorithm, encode_fields(spec), Spec::Algorithm::codegen_digest(spec), cc,
                  tc);
}

}  // namespace cccl_cache::algos
