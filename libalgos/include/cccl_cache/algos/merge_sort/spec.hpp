// Merge sort specification and its canonical, versioned encoding.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cccl_cache/algos/toolchain.hpp"
#include "cccl_cache/algos/types.hpp"
#include "cccl_cache/cache/error.hpp"
#include "cccl_cache/cache/key.hpp"

namespace cccl_cache::algos::merge_sort {

inline constexpr const char* kAlgorithmName = "merge_sort";

struct Spec {
  ScalarType key_type = ScalarType::float32;
  ScalarType value_type = ScalarType::none;  // none: keys only
  Comparator comparator;                     // less by default
  ScalarType offset_type = ScalarType::int64;  // int32, uint32, int64 or uint64

  bool keys_only() const { return value_type == ScalarType::none; }
  bool operator==(const Spec&) const = default;
};

// Checks the spec: key type not none, integer offset type, custom comparator with a
// name that is a C++ identifier and non-empty source. Error: invalid_argument.
Result<void> validate(const Spec& spec);

// Canonical encoding: tagged, length-delimited fields (spec-encoding version, every
// spec field, target CC, and the toolchain fingerprint), so that no two different
// inputs encode equal. Contains no addresses or times.
std::vector<std::byte> canonical_bytes(const Spec& spec, std::uint32_t cc, const Toolchain& tc);

// The store key: XXH3-128 of canonical_bytes() with `cc`.
CacheKey cache_key(const Spec& spec, std::uint32_t cc, const Toolchain& tc = Toolchain::current());

// "keys=float32 values=none cmp=less offset=int64".
std::string summary(const Spec& spec);

}  // namespace cccl_cache::algos::merge_sort
