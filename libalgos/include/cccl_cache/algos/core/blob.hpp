// BuildRecord <-> bytes: one grammar for every algorithm (cereal binary, little-endian).
//
//   blob      := magic:"CCBR" | format:u32 (kBuildFormatVersion) | algorithm:u8 | cc:u32 |
//                spec:bytes | toolchain:str | cubin:bytes |
//                kernel_count:u8 | kernel:str * kernel_count |
//                value_count:u8 | value:u64 * value_count
//   str, bytes := length:u64 | raw bytes (never longer than what is left)
//
// No checksum inside: the store's envelope (and the export archive's per-entry
// checksum) covers every byte of a blob, and one integrity layer is enough.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "cccl_cache/algos/core/build_record.hpp"
#include "cccl_cache/cache/error.hpp"

namespace cccl_cache::algos {

// The blob of `record`. Deterministic: equal records give equal bytes.
[[nodiscard]] std::vector<std::byte> serialize_record(const BuildRecord& record);

// Reads a blob without copying (the view borrows from `bytes`) and checks what is
// generic: magic, format version, a known algorithm, every length against the bytes
// left, counts within kMaxKernels/kMaxRuntimeValues, a non-empty toolchain, that
// the cubin is a CUDA ELF for the recorded CC, and that every kernel name is an
// entry function in it. `expected_cc`, when given, must match. The algorithm's own
// checks (spec fields, runtime values) are its `deserialize`'s. Never crashes on any
// input. Errors: corrupt (malformed), format (another format version), unsupported
// (another CC than expected).
[[nodiscard]] Result<BuildRecordView> parse_record(std::span<const std::byte> bytes,
                                     std::optional<std::uint32_t> expected_cc = std::nullopt);

}  // namespace cccl_cache::algos
