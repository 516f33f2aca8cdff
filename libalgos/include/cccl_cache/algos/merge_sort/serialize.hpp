// BuildResult <-> bytes (cereal, binary, versioned).
//
// Envelope (all integers little-endian):
//   blob     := magic:"CCMS" | version:u32 (kBuildFormatVersion) | length:u64 | payload[length] |
//   check:u64 check    := XXH3-64 of payload payload  := cereal binary archive of, in order:
//     key_type:u8 value_type:u8 comparator_kind:u8 comparator_name:str comparator_source:str
//     offset_type:u8 cc:u32 toolchain:str cubin:bytes block_sort:str partition:str merge:str
//     block_threads:u32 items_per_tile:u32 block_sort_vsmem:u64 merge_vsmem:u64
//   str, bytes := length:u64 | raw bytes (never longer than what is left of the payload)
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

#include "cccl_cache/algos/merge_sort/build_result.hpp"
#include "cccl_cache/cache/error.hpp"

namespace cccl_cache::algos::merge_sort {

// The blob for `result`, as above. Deterministic: equal results give equal bytes.
std::vector<std::byte> serialize(const BuildResult& result);

// Validates everything: magic, build format version, length and checksum, every
// length field against the bytes left (nothing larger is allocated), spec fields,
// policy values, that the cubin is a CUDA ELF for the recorded CC and that the
// three kernel names are in its symbol table.
// `expected_cc`, when given, must match. Never crashes on any input.
// Errors: corrupt (truncated or garbage), format (another format version),
// unsupported (wrong CC).
Result<BuildResult> deserialize(std::span<const std::byte> bytes,
                                std::optional<std::uint32_t> expected_cc = std::nullopt);

// Whether deserialize_view() checks the blob's own checksum. A store hit passes
// verified_by_store: Store::get/get_with verified the entry's envelope checksum, which
// covers every byte of the blob, so a second pass over the same ~80 KB would only
// repeat it. Every other check (lengths, fields, ELF, kernel names) still runs, so no
// input can crash either way.
enum class Integrity { check_checksum, verified_by_store };

// The same validation, but nothing is copied: the view's cubin, kernel names and
// toolchain point into `bytes` (valid while they are). What a store hit binds from.
Result<BuildResultView> deserialize_view(std::span<const std::byte> bytes,
                                         std::optional<std::uint32_t> expected_cc = std::nullopt,
                                         Integrity integrity = Integrity::check_checksum);

}  // namespace cccl_cache::algos::merge_sort
