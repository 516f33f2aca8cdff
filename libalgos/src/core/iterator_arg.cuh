// The host stand-in for an iterator argument of a kernel, for the dispatch.cu of an
// algorithm that takes iterators; include it after core/launch.cuh.
#pragma once

#include "core/launch.cuh"
#include "core/iterator.hpp"

namespace cccl_cache::algos::detail {

// Stands in for an iterator (iterator.hpp) in place of an array: the kernel's parameter
// is the generated iterator struct, and IterArg holds the address of the call's packed
// bytes (core/iterator.hpp IteratorArg), handed to the driver as OpArg's are (found by
// DriverLauncher's arg_address call through argument-dependent lookup). A CUB host
// dispatch given it must pass it to its kernels unchanged (reduce's does).
struct IterArg {
  const void* bytes = nullptr;
};
inline void* arg_address(const IterArg& arg) noexcept { return const_cast<void*>(arg.bytes); }

// An IterArg whose iterator traits name T (the items' host stand-in), for a CUB host
// dispatch that sizes its temp storage by an input's value type (scan by key keeps each
// tile's last key: sizeof(it_value_t<KeysInputIteratorT>)). Passed to the kernels as an
// IterArg is.
template <class T>
struct ValuedIterArg : IterArg {
  using value_type = T;
  using difference_type = std::ptrdiff_t;
  using pointer = const T*;
  using reference = const T&;
  using iterator_category = ::cuda::std::random_access_iterator_tag;
};
template <class T>
void* arg_address(const ValuedIterArg<T>& arg) noexcept {
  return const_cast<void*>(arg.bytes);
}

// An IterArg that CUB's host dispatch may advance between launches (segmented reduce's,
// each of 2^31 - 1 segments; segmented sort's, from a copy): a copy of the call's
// PackedIterator (core/iterator.hpp), whose bytes `+= n` advances as the device struct's
// `+= n` does (advance_packed). A value: copies advance apart, as CUB's iterators do.
struct AdvancingIterArg {
  PackedIterator packed;
  AdvancingIterArg& operator+=(std::int64_t n) noexcept {
    if (packed.it == nullptr)
      advance_array(packed.arg.bytes, n, packed.element_size);
    else
      advance_packed(*packed.it, packed.element, packed.arg.bytes, n);
    return *this;
  }
};
inline void* arg_address(const AdvancingIterArg& arg) noexcept {
  return const_cast<unsigned char*>(arg.packed.arg.bytes);
}

// A dispatch's input or output argument of type It from the executable's address for it
// (iterator_address): IterArg over packed bytes, or the array as T*.
template <class It, class T>
It iterator_arg(const void* address) noexcept {
  if constexpr (std::is_base_of_v<IterArg, It>) {
    It arg;
    arg.bytes = address;
    return arg;
  } else if constexpr (std::is_same_v<It, AdvancingIterArg>) {
    return AdvancingIterArg{*static_cast<const PackedIterator*>(address)};
  } else {
    return static_cast<T*>(const_cast<void*>(address));
  }
}

// f(In{}, Out{}) for a dispatch's input and output argument types: each T* (an array) or
// IterArg (the spec's iterator), as the spec says; the instantiation it returns.
template <class T, class F>
auto on_iterator_args(bool iterator_input, bool iterator_output, F&& f) {
  auto with_output = [&](auto in) {
    return iterator_output ? f(in, IterArg{}) : f(in, static_cast<T*>(nullptr));
  };
  return iterator_input ? with_output(IterArg{}) : with_output(static_cast<T*>(nullptr));
}

}  // namespace cccl_cache::algos::detail
