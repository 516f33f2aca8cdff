// A call's iterator values packed into the bytes of their kernel arguments, at the
// layout iterator_layout.hpp gives, and advanced between partitions of a call.
#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstring>

#include "core/iterator_layout.hpp"

namespace cccl_cache::algos::detail {

ShuffleState shuffle_state(std::uint64_t n, std::uint64_t seed) noexcept {
  ShuffleState s;
  s.n = n;
  const int bits = n < 2 ? 0 : static_cast<int>(std::bit_width(n - 1));
  s.half_bits = static_cast<std::uint32_t>(std::max(1, (bits + 1) / 2));
  std::uint64_t state = seed;  // SplitMix64
  for (std::uint32_t& key : s.keys) {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    key = static_cast<std::uint32_t>(z ^ (z >> 31));
  }
  return s;
}

std::uint64_t shuffle_index(const ShuffleState& s, std::uint64_t i) noexcept {
  const std::uint32_t h = s.half_bits;
  const std::uint64_t mask = (std::uint64_t{1} << h) - 1;
  std::uint64_t x = s.pos + i;
  do {
    auto l = static_cast<std::uint32_t>(x >> h), r = static_cast<std::uint32_t>(x & mask);
    for (const std::uint32_t key : s.keys) {
      const auto f = static_cast<std::uint32_t>(
          (static_cast<std::uint64_t>(r ^ key) * ShuffleState::kMultiplier) >> (64 - h));
      const std::uint32_t t = l ^ f;
      l = r;
      r = t;
    }
    x = (static_cast<std::uint64_t>(l) << h) | r;
  } while (x >= s.n);
  return x;
}

static_assert(sizeof(ShuffleState) == 56 && alignof(ShuffleState) == 8,
              "the shuffle's layout (iterator.hpp, iterator_packing)");
static_assert(sizeof(ShuffleState) <= sizeof(IteratorArg::bytes));

namespace {
// Writes a call's `value` for `it` over `element` at `out` (the layout member_extent
// gives); false where a kind is not the spec's.
bool pack_at(const Iterator& it, ScalarType element, const IteratorValue& value,
             std::uint64_t num_items, unsigned char* out) noexcept;

// A zip's or a nested iterator's components' values (value.pointer, value.value of them)
// at their offsets.
bool pack_components(const Iterator& it, const IteratorValue& value, std::uint64_t num_items,
                     unsigned char* out) noexcept {
  std::uint64_t count = 0;
  std::memcpy(&count, value.value, sizeof count);
  const auto* components = static_cast<const IteratorValue*>(value.pointer);
  if (count != it.components.size() || components == nullptr || count > kMaxZipComponents)
    return false;
  const ZipLayout z = zip_layout(it);
  for (std::size_t k = 0; k < count; ++k) {
    const Iterator& c = it.components[k];
    if (!pack_at(c, component_value_type(c), components[k], num_items, out + z.offset[k])) return false;
  }
  return true;
}

bool pack_at(const Iterator& it, ScalarType element, const IteratorValue& value,
             std::uint64_t num_items, unsigned char* out) noexcept {
  if (value.kind != it.kind) return false;
  if (it.nested() && it.kind == IteratorKind::reverse) {
    const auto last = static_cast<std::int64_t>(num_items) - 1;
    std::memcpy(out + reverse_layout(it).tail, &last, sizeof last);
  }
  if (it.kind == IteratorKind::transform && it.op.stateful()) {  // the state after the base
    if (value.index == nullptr) return false;
    std::memcpy(out + transform_layout(it, element).tail, value.index, it.op.state_size);
  }
  if (it.nested()) return pack_components(it, value, num_items, out);
  const std::size_t v = size_of(iterator_value_type(it, element));
  auto put_pointer = [&](std::size_t at, const void* p) { std::memcpy(out + at, &p, sizeof p); };
  switch (it.kind) {
    case IteratorKind::pointer:  // a zip's array component
    case IteratorKind::cache_modified:
      put_pointer(0, value.pointer);
      return true;
    case IteratorKind::counting:
    case IteratorKind::constant:
      std::memcpy(out, value.value, v);
      return true;
    case IteratorKind::reverse:
      put_pointer(0, static_cast<const unsigned char*>(value.pointer) + num_items * v);
      return true;
    case IteratorKind::permutation:
      put_pointer(0, value.pointer);
      put_pointer(sizeof(void*), value.index);
      return true;
    case IteratorKind::transform:
      if (it.counting_base)
        std::memcpy(out, value.value, v);
      else
        put_pointer(0, value.pointer);
      return true;
    case IteratorKind::discard:
      return true;
    case IteratorKind::shuffle: {
      std::uint64_t seed = 0;
      std::memcpy(&seed, value.value, sizeof seed);
      const ShuffleState state = shuffle_state(num_items, seed);
      std::memcpy(out, &state, sizeof state);
      return true;
    }
    case IteratorKind::zip:
      return pack_components(it, value, num_items, out);
  }
  return false;
}
}  // namespace

bool pack_iterator(const Iterator& it, ScalarType element, const IteratorValue& value,
                   std::uint64_t num_items, IteratorArg& out) noexcept {
  std::memset(out.bytes, 0, sizeof(out.bytes));
  return pack_at(it, element, value, num_items, out.bytes);
}

static_assert(offsetof(PackedIterator, arg) == 0, "a PackedIterator's address is its bytes'");

void advance_array(unsigned char* bytes, std::int64_t n, std::size_t element_size) noexcept {
  std::uintptr_t p = 0;
  std::memcpy(&p, bytes, sizeof p);
  p += static_cast<std::uintptr_t>(n) * element_size;
  std::memcpy(bytes, &p, sizeof p);
}

void advance_packed(const Iterator& it, ScalarType element, unsigned char* bytes,
                    std::int64_t n) noexcept {
  const std::size_t v = size_of(iterator_value_type(it, element));
  // A pointer member at `at` moved by `count` elements of `size` bytes.
  auto move = [&](std::size_t at, std::int64_t count, std::size_t size) {
    advance_array(bytes + at, count, size);
  };
  // A count in V's low bytes (host order), wrapping as V does.
  auto count = [&] {
    std::uint64_t x = 0;
    std::memcpy(&x, bytes, v);
    x += static_cast<std::uint64_t>(n);
    std::memcpy(bytes, &x, v);
  };
  if (it.nested() && it.kind == IteratorKind::reverse) {  // its base stays, `last` moves back
    const std::size_t at = reverse_layout(it).tail;
    std::int64_t last = 0;
    std::memcpy(&last, bytes + at, sizeof last);
    last -= n;
    std::memcpy(bytes + at, &last, sizeof last);
    return;
  }
  if (it.nested()) {
    // A transform's base moves; a permutation's indices do, its values stay.
    const std::size_t k = it.kind == IteratorKind::permutation ? 1 : 0;
    const Iterator& c = it.components[k];
    advance_packed(c, component_value_type(c), bytes + zip_layout(it).offset[k], n);
    return;
  }
  switch (it.kind) {
    case IteratorKind::pointer:
    case IteratorKind::cache_modified:
      move(0, n, v);
      break;
    case IteratorKind::counting:
      count();
      break;
    case IteratorKind::reverse:
      move(0, -n, v);
      break;
    case IteratorKind::permutation:
      move(sizeof(void*), n, size_of(it.index_type));
      break;
    case IteratorKind::transform:
      if (it.counting_base)
        count();
      else
        move(0, n, v);
      break;
    case IteratorKind::discard:
    case IteratorKind::shuffle:
      move(0, n, 1);  // its position (a ptrdiff_t, a u64)
      break;
    case IteratorKind::zip: {
      const ZipLayout z = zip_layout(it);
      for (std::size_t k = 0; k < it.components.size() && k < kMaxZipComponents; ++k)
        if (it.components[k].kind != IteratorKind::discard)
          advance_packed(it.components[k], component_value_type(it.components[k]), bytes + z.offset[k], n);
      break;
    }
    case IteratorKind::constant:
      break;
  }
}

bool iterator_address(const Iterator& it, ScalarType element, const IteratorValue& value,
                      std::uint64_t num_items, IteratorArg& packed, const void*& address) noexcept {
  return argument_address(it, element, value, num_items, false, packed, address);
}

bool argument_address(const Iterator& it, ScalarType element, const IteratorValue& value,
                      std::uint64_t num_items, bool as_iterators, IteratorArg& packed,
                      const void*& address) noexcept {
  if (it.is_pointer() && !as_iterators) {
    address = value.pointer;
    return value.kind == IteratorKind::pointer;
  }
  address = packed.bytes;
  if (!it.is_pointer()) return pack_iterator(it, element, value, num_items, packed);
  std::memset(packed.bytes, 0, sizeof packed.bytes);
  return pack_at(Iterator::array(element), element, value, num_items, packed.bytes);
}

}  // namespace cccl_cache::algos::detail
