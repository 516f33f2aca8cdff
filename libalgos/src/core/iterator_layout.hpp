// How an iterator's state lies in its kernel argument: the extents and member offsets
// at which the host packs a call's values (iterator_pack.cpp), which the generated device
// structs assert (iterator_codegen.cpp) and iterator_packing describes
// (iterator_layout.cpp). Private to libalgos.
#pragma once

#include <cstddef>
#include <string>

#include "core/iterator.hpp"

namespace cccl_cache::algos::detail {

using Extent = ArgumentExtent;

// One iterator's state in its kernel argument: its size and alignment (a zip's
// components over their own V). No allocation: packing a call uses it.
Extent member_extent(const Iterator& it, ScalarType element) noexcept;

// Where a zip's (or a nested iterator's) components lie in its argument (a discard
// component has no state: no member), and the argument's extent.
struct ZipLayout {
  std::size_t offset[kMaxZipComponents] = {};
  Extent extent;
};
ZipLayout zip_layout(const Iterator& it) noexcept;

// An iterator's base at 0 and one member after it at its alignment (`tail`): a nested
// reverse's `last`, a stateful transform's operator (its state).
struct TailLayout {
  std::size_t tail = 0;
  Extent extent;
};
// A reverse over an iterator: its base, then `last` (an int64).
TailLayout reverse_layout(const Iterator& it) noexcept;
// A stateful transform: its base, then its operator's state.
TailLayout transform_layout(const Iterator& it, ScalarType element) noexcept;

// The shuffle's round count and multiplier as its layout text and device code spell them.
std::string shuffle_rounds();
std::string shuffle_multiplier();

}  // namespace cccl_cache::algos::detail
