// BuildResult <-> bytes (cereal, binary, versioned).
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

#include "cccl_cache/algos/merge_sort/build_result.hpp"
#include "cccl_cache/cache/error.hpp"

namespace cccl_cache::algos::merge_sort {

std::vector<std::byte> serialize(const BuildResult& result);

// Validates everything: magic, build format version, spec fields, sizes, that the
// cubin is an ELF for the recorded CC and the kernel names are non-empty.
// `expected_cc`, when given, must match. Never crashes on any input.
// Errors: corrupt (truncated or garbage), format (another format version),
// unsupported (wrong CC).
Result<BuildResult> deserialize(std::span<const std::byte> bytes,
                                std::optional<std::uint32_t> expected_cc = std::nullopt);

}  // namespace cccl_cache::algos::merge_sort
