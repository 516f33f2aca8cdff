// An iterator descriptor's device struct in a generated source and a call's values
// packed into its bytes (the layouts iterator.hpp documents). Private to libalgos.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cccl_cache/algos/iterator.hpp"

namespace cccl_cache::algos::detail {

// A struct member's (or a whole struct's) size and alignment.
struct ArgumentExtent {
  std::size_t size = 0, align = 1;
};
// Where a struct of `members`, in order, each at its natural alignment (as the device lays
// a struct out), holds member k (`at[k]`), and the struct's extent. No allocation.
ArgumentExtent natural_layout(std::span<const ArgumentExtent> members, std::size_t* at) noexcept;

// The iterator's value type V: its own type, or the algorithm's element type.
inline ScalarType iterator_value_type(const Iterator& it, ScalarType element) noexcept {
  return it.type == ScalarType::none ? element : it.type;
}

// Defines `struct <name>`, a random-access iterator over `element` (the algorithm's
// type: value_type, what operator[] returns) with the state layout of `it`'s kind
// (iterator.hpp), for a valid non-pointer `it` (or a zip's array component, a pointer
// with its V). A transform's operator is defined before it as `<name>_op`; a zip's
// components as `<name>_<k>`, `element` being the struct they are read into.
std::string iterator_struct(std::string_view name, const Iterator& it, const ElementType& element);

// Defines `struct <name>`, a random-access output iterator for the algorithm's values of
// type `element`, with the state layout of `it`'s kind as an output (iterator.hpp), for a
// valid non-pointer output `it`: operator[] returns a proxy whose assignment of an
// `element` value stores it (converted to V; a transform's operator applied first) or,
// for discard, nothing. A transform's operator is defined before it as `<name>_op`; a
// zip writes the fields of an `element` struct through its components (`<name>_<k>`).
std::string output_iterator_struct(std::string_view name, const Iterator& it,
                                   const ElementType& element);

// The argument types a generated source names for an algorithm's input and output: `array`
// (e.g. "cccl_cache_t*") for a pointer, else cccl_cache_in_t (iterator_struct) and
// cccl_cache_out_t (output_iterator_struct), whose definitions, after their custom
// operators' sources (each operator once, none that is `op`), are appended to `source`.
struct IteratorTypes {
  std::string in, out;
};
IteratorTypes iterator_types(std::string& source, const Iterator& input, const Iterator& output,
                             const Operator& op, const ElementType& element,
                             const std::string& array);

// One kernel argument's type in a generated source: `array` for a pointer `it`, unless the
// dispatch takes every argument as an iterator (`as_iterators`: an algorithm whose host
// dispatch is instantiated for all arrays or all iterators), where a pointer is an array
// iterator over `element` (Iterator::array); else `name`, defined (an output's struct
// where `output`) and appended to `source` after its custom operator's source, unless an
// operator in `defined` has that source (the operator is added to `defined`).
std::string argument_type(std::string& source, const std::string& name, const Iterator& it,
                          const ElementType& element, bool output, bool as_iterators,
                          const std::string& array, std::vector<const Operator*>& defined);

// What pack_iterator writes for `it` (a valid non-pointer iterator), as a line of source
// comment: the packing's version, each member's type and byte offset, the argument's
// size and alignment. iterator_struct starts with it, so the codegen digest, hence the
// key, of a spec with an iterator covers the host packing, which the generated struct's
// text alone does not (a pointer has no struct, no packing and no line: its keys do not
// depend on it). Change it with pack_iterator (test_iterator pins both).
std::string iterator_packing(const Iterator& it);

// A shuffle iterator's state (iterator.hpp's layout): the permutation of [0, n) that
// `seed` fixes, from position `pos`. What pack_iterator writes for one.
struct ShuffleState {
  static constexpr std::size_t kRounds = 8;
  // The round function F(r, k) = ((r ^ k) * kMultiplier) >> (64 - half_bits).
  static constexpr std::uint64_t kMultiplier = 0xD2B74407B1CE6E93ull;
  std::uint64_t pos = 0, n = 0;
  std::uint32_t half_bits = 1, unused = 0;
  std::uint32_t keys[kRounds] = {};
};
ShuffleState shuffle_state(std::uint64_t n, std::uint64_t seed) noexcept;
// Element i (< s.n - s.pos) of the shuffle: what the generated struct's operator[]
// computes on the device, here on the host (tests' reference).
std::uint64_t shuffle_index(const ShuffleState& s, std::uint64_t i) noexcept;

// The bytes of an iterator's kernel argument, handed to the driver by address: 16 for
// every kind but a zip, whose components' are laid out one after another, and a shuffle
// (sizeof(ShuffleState)).
struct IteratorArg {
  alignas(16) unsigned char bytes[16 * kMaxZipComponents];
};

// Packs a call's `value` for the spec's `it` over `element` into `out` (`num_items`:
// the length a reverse iterator's end is computed from). False where the value's kind
// (a zip's: or one of its components' kinds, or their number) is not the spec's. No
// allocation.
bool pack_iterator(const Iterator& it, ScalarType element, const IteratorValue& value,
                   std::uint64_t num_items, IteratorArg& out) noexcept;

// What an executable's dispatch takes as its input or output for a call's `value` (an
// Input's or Output's) under the spec's iterator `it` over `element`: a pointer spec, the
// array (value's kind must be pointer); any other, the address of `packed`, into which
// the values are packed. False where value's kind is not the spec's. No allocation.
bool iterator_address(const Iterator& it, ScalarType element, const IteratorValue& value,
                      std::uint64_t num_items, IteratorArg& packed, const void*& address) noexcept;

// As iterator_address, for a dispatch that takes every argument as an iterator where
// `as_iterators` (argument_type): a pointer spec's array is then packed as an array
// iterator's `{V* p}`. No allocation.
bool argument_address(const Iterator& it, ScalarType element, const IteratorValue& value,
                      std::uint64_t num_items, bool as_iterators, IteratorArg& packed,
                      const void*& address) noexcept;

// Advances a call's packed bytes for `it` over `element` (a pointer: an array of
// `element`) by n elements, as the generated struct's `+= n` does on the device: a
// pointer moves by n elements (a reverse's end back, a permutation's indices), a count
// adds n in its type, a constant stays, a zip advances each component. For a host
// dispatch that moves its iterators between launches (segmented reduce's launches of
// 2^31 - 1 segments each). No allocation.
void advance_packed(const Iterator& it, ScalarType element, unsigned char* bytes,
                    std::int64_t n) noexcept;

// Advances the packed bytes of an array (its pointer first) by n elements of
// `element_size` bytes. No allocation.
void advance_array(unsigned char* bytes, std::int64_t n, std::size_t element_size) noexcept;

// A call's packed argument and what advancing it needs: `it` null for an array of
// `element` (of `element_size` bytes: a struct's too) packed as an array iterator. `arg`
// comes first: the address of a PackedIterator is its bytes' (what argument_address
// gives).
struct PackedIterator {
  IteratorArg arg;
  const Iterator* it = nullptr;
  ScalarType element = ScalarType::none;
  std::size_t element_size = 0;
};

// The size and alignment of an argument's device struct over `element` (a pointer `it`:
// an array iterator's {V* p}), for a host stand-in that embeds it in a larger kernel
// argument (segmented sort's segment selectors). No allocation.
ArgumentExtent argument_extent(const Iterator& it, ScalarType element) noexcept;
// The same for a call's packed argument.
inline ArgumentExtent argument_extent(const PackedIterator& packed) noexcept {
  return packed.it == nullptr ? argument_extent(Iterator{}, packed.element)
                              : argument_extent(*packed.it, packed.element);
}
// argument_address into `packed`, with what advancing it needs (`it` null for a pointer
// spec: an array of `element_size`-byte elements). False where the value's kind is not the
// spec's. No allocation.
bool pack_argument(const Iterator& it, ScalarType element, std::size_t element_size,
                   const IteratorValue& value, std::uint64_t num_items, bool as_iterators,
                   PackedIterator& packed, const void*& address) noexcept;
// A call's input and output as a dispatch takes them (iterator_address of each: the
// input of num_items elements, the output of out_items), their packed bytes held here.
struct IteratorArgs {
  IteratorArg in_bytes, out_bytes;
  const void* in = nullptr;
  void* out = nullptr;
  // False where `in` or `out` is not of the spec's `input` or `output` kind. The output's
  // element type is `out_element`, where given, else `element`.
  bool set(const Iterator& input, const Iterator& output, ScalarType element, const Input& in_value,
           const Output& out_value, std::uint64_t num_items, std::uint64_t out_items,
           ScalarType out_element = ScalarType::none) noexcept {
    const void* o = nullptr;
    if (out_element == ScalarType::none) out_element = element;
    const bool ok = iterator_address(input, element, in_value.value, num_items, in_bytes, in) &&
                    iterator_address(output, out_element, out_value.value, out_items, out_bytes, o);
    out = const_cast<void*>(o);
    return ok;
  }
};

// A call's N arguments as a dispatch instantiated for all arrays or all iterators takes
// them (argument_address of each, `as_iterators` where the spec has any iterator: an
// array then packed as an array iterator), their packed bytes held here. No allocation.
template <std::size_t N>
struct AllArguments {
  struct Arg {
    const Iterator* it;  // the spec's
    ScalarType element;
    const IteratorValue* value;  // the call's
  };
  IteratorArg packed[N];
  const void* at[N] = {};
  // False where a value is not of its spec's kind.
  bool set(const Arg (&args)[N], std::uint64_t num_items, bool as_iterators) noexcept {
    for (std::size_t k = 0; k < N; ++k)
      if (!argument_address(*args[k].it, args[k].element, *args[k].value, num_items, as_iterators,
                            packed[k], at[k]))
        return false;
    return true;
  }
  void* out(std::size_t k) const noexcept { return const_cast<void*>(at[k]); }
};

}  // namespace cccl_cache::algos::detail
