// The canonical encoding of a spec's fields, derived from its field list
// (spec_fields.hpp). It is what a cache key hashes and what a blob stores:
//
//   fields := field*                      (in declaration order)
//   field  := tag:u8 | length:u32 | bytes[length]          (little-endian)
//   bytes  := ScalarType: u8 | bool: u8 (0/1) | u32: u32 |
//             Operator: kind:u8 | name_length:u32 | name | source (the rest)
//             stateful Operator: (kind | 0x80):u8 | name_length:u32 | name |
//                       state_size:u32 | state_alignment:u32 | source (the rest)
//             Iterator: kind:u8 | type:u8 | index_type:u8 | counting_base:u8 |
//                       [transform: the Operator's bytes as above]
//                       [cache_modified: load:u8]
//   An Iterator field holding the default (a pointer) is not written: a reader that
//   finds another tag (or the end) where it is due takes the default. So is a false bool
//   field declared Need::added (spec_fields.hpp); a true one is written as any bool.
//             ElementType: a scalar as ScalarType (u8: one byte, as before structs), a
//                       struct as 13:u8 | size:u32 | alignment:u32 | name_length:u32 |
//                       name | definition (the rest)
//
// Tagged and length-delimited, so no two different specs encode equal.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

#include "cccl_cache/algos/core/spec_fields.hpp"

namespace cccl_cache::algos {

namespace detail {

// Appends fields; reads them back with every length checked against what is left.
class FieldWriter {
 public:
  void put(const Field& f, ScalarType v);
  void put(const Field& f, const ElementType& v);
  void put(const Field& f, const Operator& v);
  void put(const Field& f, bool v);
  void put(const Field& f, std::uint32_t v);
  void put(const Field& f, const Iterator& v);
  std::vector<std::byte> take() { return std::move(out_); }

 private:
  void header(const Field& f, std::size_t length);
  std::vector<std::byte> out_;
};

class FieldReader {
 public:
  explicit FieldReader(std::span<const std::byte> bytes) : rest_(bytes) {}
  // Each reads the next field, which must carry `f`'s tag; on any mismatch the
  // reader keeps the first error and later reads do nothing.
  void get(const Field& f, ScalarType& v);
  void get(const Field& f, ElementType& v);
  void get(const Field& f, Operator& v);
  void get(const Field& f, bool& v);
  void get(const Field& f, std::uint32_t& v);
  void get(const Field& f, Iterator& v);
  // The first error, or one for bytes left over.
  Result<void> finish() const;

 private:
  std::span<const std::byte> next(const Field& f);
  std::span<const std::byte> rest_;
  std::optional<Error> error_;
};

}  // namespace detail

// The canonical bytes of `spec`'s fields.
template <class Spec>
[[nodiscard]] std::vector<std::byte> encode_fields(const Spec& spec) {
  detail::FieldWriter w;
  Spec::fields(spec, [&](const Field& f, const auto& value) { w.put(f, value); });
  return w.take();
}

// The spec those bytes encode, validated (Spec::validate). Never reads past `bytes`.
// Errors: corrupt (malformed bytes: wrong tag, length or trailing bytes), and
// invalid_argument from validate().
template <class Spec>
[[nodiscard]] Result<Spec> decode_fields(std::span<const std::byte> bytes) {
  Spec spec;
  detail::FieldReader r(bytes);
  Spec::fields(spec, [&](const Field& f, auto& value) { r.get(f, value); });
  if (auto ok = r.finish(); !ok) return tl::unexpected(ok.error());
  if (auto ok = spec.validate(); !ok) return tl::unexpected(ok.error());
  return spec;
}

}  // namespace cccl_cache::algos
