// Iterators' kernel-argument layouts (iterator_layout.hpp): extents, member offsets and
// the packing text a generated struct carries.
#include "core/iterator_layout.hpp"

#include <algorithm>
#include <cstdio>

namespace cccl_cache::algos::detail {

std::string shuffle_rounds() { return std::to_string(ShuffleState::kRounds); }
std::string shuffle_multiplier() {
  char hex[19];
  std::snprintf(hex, sizeof hex, "0x%016llX",
                static_cast<unsigned long long>(ShuffleState::kMultiplier));
  return hex;
}

ZipLayout zip_layout(const Iterator& it) noexcept {
  Extent members[kMaxZipComponents];
  const std::size_t n = std::min(it.components.size(), kMaxZipComponents);
  for (std::size_t k = 0; k < n; ++k) {
    const Iterator& c = it.components[k];
    members[k] = c.kind == IteratorKind::discard ? Extent{0, 1}
                                                 : member_extent(c, component_value_type(c));
  }
  ZipLayout z;
  z.extent = natural_layout({members, n}, z.offset);
  return z;
}

namespace {
TailLayout tail_layout(Extent base, Extent tail) noexcept {
  const Extent members[2] = {base, tail};
  std::size_t at[2] = {};
  TailLayout r;
  r.extent = natural_layout(members, at);
  r.tail = at[1];
  return r;
}

// A transform's base: its components (nested), a count in V (over counting) or a pointer.
Extent transform_base_extent(const Iterator& it, ScalarType element) noexcept {
  if (it.nested()) return zip_layout(it).extent;
  const std::size_t v = std::max<std::size_t>(1, size_of(iterator_value_type(it, element)));
  return it.counting_base ? Extent{v, v} : Extent{8, 8};
}

}  // namespace

TailLayout reverse_layout(const Iterator& it) noexcept { return tail_layout(zip_layout(it).extent, {8, 8}); }

TailLayout transform_layout(const Iterator& it, ScalarType element) noexcept {
  return tail_layout(transform_base_extent(it, element), {it.op.state_size, it.op.state_alignment});
}

Extent member_extent(const Iterator& it, ScalarType element) noexcept {
  const std::size_t v = size_of(iterator_value_type(it, element));
  switch (it.kind) {
    case IteratorKind::counting:
    case IteratorKind::constant:
      return {v, v};
    case IteratorKind::permutation:
      return it.nested() ? zip_layout(it).extent : Extent{16, 8};
    case IteratorKind::transform:
      return it.op.stateful() ? transform_layout(it, element).extent : transform_base_extent(it, element);
    case IteratorKind::zip:
      return zip_layout(it).extent;
    case IteratorKind::shuffle:
      return {sizeof(ShuffleState), alignof(ShuffleState)};
    case IteratorKind::reverse:
      if (it.nested()) return reverse_layout(it).extent;
      return {8, 8};
    default:  // pointer, discard
      return {8, 8};
  }
}

ArgumentExtent natural_layout(std::span<const ArgumentExtent> members, std::size_t* at) noexcept {
  ArgumentExtent s{0, 1};
  for (std::size_t k = 0; k < members.size(); ++k) {
    at[k] = (s.size + members[k].align - 1) / members[k].align * members[k].align;
    s.size = at[k] + members[k].size;
    s.align = std::max(s.align, members[k].align);
  }
  s.size = (s.size + s.align - 1) / s.align * s.align;
  return s;
}

bool pack_argument(const Iterator& it, ScalarType element, std::size_t element_size,
                   const IteratorValue& value, std::uint64_t num_items, bool as_iterators,
                   PackedIterator& packed, const void*& address) noexcept {
  packed.element = element;
  packed.element_size = element_size;
  packed.it = it.is_pointer() ? nullptr : &it;
  return argument_address(it, element, value, num_items, as_iterators, packed.arg, address);
}

ArgumentExtent argument_extent(const Iterator& it, ScalarType element) noexcept {
  const Extent e = member_extent(it, element);
  return {e.size, e.align};
}

namespace {

std::string components_text(const std::string& kind, const Iterator& it);

// What iterator_packing says of one iterator's members.
std::string layout_text(const Iterator& it) {
  switch (it.kind) {
    case IteratorKind::pointer:
      return "V* p@0";
    case IteratorKind::counting:
      return "V start@0";
    case IteratorKind::constant:
      return "V value@0";
    case IteratorKind::reverse:
      if (it.nested())
        return components_text("reverse", it) + ", i64 last@" + std::to_string(reverse_layout(it).tail) +
               " (num_items - 1)";
      return "V* end@0 (first + num_items)";
    case IteratorKind::permutation:
      return it.nested() ? components_text("permutation", it) : "V* values@0, I* idx@8";
    case IteratorKind::transform: {
      const std::string base = it.nested() ? components_text("transform", it)
                               : it.counting_base ? "V start@0"
                                                  : "V* p@0";
      if (!it.op.stateful()) return base;
      return base + ", op state " + std::to_string(it.op.state_size) + "/" +
             std::to_string(it.op.state_alignment) + " after the base at its alignment";
    }
    case IteratorKind::cache_modified:
      return "V* p@0 (loaded " + std::string(cache_load_name(it.load)) + ")";
    case IteratorKind::discard:
      return "ptrdiff_t pos@0 (0)";
    case IteratorKind::shuffle:
      return "u64 pos@0 (0), u64 n@8, u32 half_bits@16, u32 keys[" + shuffle_rounds() +
             "]@24 (SplitMix64 of the seed, low 32 bits); Feistel " + shuffle_rounds() +
             " rounds, F(r,k) = ((r ^ k) * " + shuffle_multiplier() + ") >> (64 - half_bits)";
    case IteratorKind::zip:
      return components_text("zip", it);
  }
  return {};
}

// A zip's or a nested iterator's components, each with its value type, layout and offset.
std::string components_text(const std::string& kind, const Iterator& it) {
  const ZipLayout z = zip_layout(it);
  std::string out = kind;
  for (std::size_t k = 0; k < it.components.size(); ++k) {
    const Iterator& c = it.components[k];
    out += (k == 0 ? " c" : ", c") + std::to_string(k) + " " +
           std::string(name(component_value_type(c))) + " ";
    out += c.kind == IteratorKind::discard
               ? "discard (no member)"
               : "{" + layout_text(c) + "}@" + std::to_string(k < kMaxZipComponents ? z.offset[k] : 0);
  }
  return out;
}
}  // namespace

std::string iterator_packing(const Iterator& it) {
  if (it.is_pointer()) return {};
  const std::string size = it.kind == IteratorKind::zip || it.nested()
                               ? std::to_string(member_extent(it, ScalarType::none).size)
                           : it.kind == IteratorKind::shuffle ? std::to_string(sizeof(ShuffleState))
                                                              : "16";
  return "// cccl-cache host packing 1: " + layout_text(it) + "; " + size +
         " bytes aligned 16, the rest zero\n";
}

}  // namespace cccl_cache::algos::detail
