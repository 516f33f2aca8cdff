// The fan-out from run-time sizes and types to the instantiations of a host dispatch:
// element and accumulator sizes, struct layouts, offset types, flags, and a sort's
// (key, value, offset) with its dispatch entries. Include core/launch.cuh first.
#pragma once

#include "core/launch.cuh"

#include <cstddef>
#include <type_traits>

namespace cccl_cache::algos::detail {

// Fan-out over element sizes: f(std::integral_constant<std::size_t, N>{}) for N = n in
// {1, 2, 4, 8} (and 0 where allow_zero), else a value-initialized result (nullptr for a
// function pointer).
template <class F>
auto on_size(std::size_t n, F&& f, bool allow_zero = false) {
  using R = decltype(f(std::integral_constant<std::size_t, 1>{}));
  switch (n) {
    case 0:
      if constexpr (std::is_same_v<R, decltype(f(std::integral_constant<std::size_t, 0>{}))>)
        if (allow_zero) return f(std::integral_constant<std::size_t, 0>{});
      return R{};
    case 1:
      return f(std::integral_constant<std::size_t, 1>{});
    case 2:
      return f(std::integral_constant<std::size_t, 2>{});
    case 4:
      return f(std::integral_constant<std::size_t, 4>{});
    case 8:
      return f(std::integral_constant<std::size_t, 8>{});
    default:
      return R{};
  }
}

// Fan-out over (value, accumulator) sizes: f(integral_constant<V>, integral_constant<A>)
// for the pairs promoted_accumulator gives (core/accumulator.hpp: A = V, bool's, or int's
// for values narrower than int), else a value-initialized result: the scans' dispatches
// are instantiated for those only.
template <class F>
auto on_accumulator(std::size_t value_size, std::size_t accum_size, F&& f) {
  return on_size(value_size, [&](auto v) {
    return on_size(accum_size, [&](auto a) {
      using R = decltype(f(v, v));
      constexpr std::size_t kV = std::remove_reference_t<decltype(v)>::value;
      if constexpr (promoted_accumulator(kV, decltype(a)::value)) return f(v, a);
      else return R{};
    });
  });
}

// Fan-out over the element sizes of dispatches that take structs (whose host code, like
// merge sort's, moves elements as bytes of their size): on_size's, and 12, 16, 24, 32.
template <class F>
auto on_element_size(std::size_t n, F&& f, bool allow_zero = false) {
  switch (n) {
    case 12:
      return f(std::integral_constant<std::size_t, 12>{});
    case 16:
      return f(std::integral_constant<std::size_t, 16>{});
    case 24:
      return f(std::integral_constant<std::size_t, 24>{});
    case 32:
      return f(std::integral_constant<std::size_t, 32>{});
    default:
      return on_size(n, f, allow_zero);
  }
}

// Fan-out over struct layouts: f(std::type_identity<Bytes<N, Align>>{}) for a stand-in of
// exactly `size` bytes (on_element_size's) aligned to `align` (1, 2, 4, 8 or 16, dividing
// the size), else a value-initialized result: for host code whose sizes depend on an
// item's alignment too (scan_by_key's tile state of KeyValuePair<int, A>).
template <class F>
auto on_layout(std::size_t size, std::size_t align, F&& f) {
  using R = decltype(f(std::type_identity<Bytes<1>>{}));
  return on_element_size(size, [&](auto n) -> R {
    constexpr std::size_t kN = decltype(n)::value;
    auto aligned = [&]<std::size_t A>() -> R {
      if constexpr (kN % A == 0) return f(std::type_identity<Bytes<kN, A>>{});
      else return R{};
    };
    switch (align) {
      case 1: return aligned.template operator()<1>();
      case 2: return aligned.template operator()<2>();
      case 4: return aligned.template operator()<4>();
      case 8: return aligned.template operator()<8>();
      case 16: return aligned.template operator()<16>();
      default: return R{};
    }
  });
}

// Fan-out over offset types: f(std::type_identity<T>{}) for the integer type `t`
// names among int32, uint32, int64, uint64, else a value-initialized result.
template <class F>
auto on_offset(ScalarType t, F&& f) {
  using R = decltype(f(std::type_identity<std::int32_t>{}));
  switch (t) {
    case ScalarType::int32:
      return f(std::type_identity<std::int32_t>{});
    case ScalarType::uint32:
      return f(std::type_identity<std::uint32_t>{});
    case ScalarType::int64:
      return f(std::type_identity<std::int64_t>{});
    case ScalarType::uint64:
      return f(std::type_identity<std::uint64_t>{});
    default:
      return R{};
  }
}

// f(OffsetT{}) with CUB's offset for 4- and 8-byte counts (choose_offset_t): std::uint32_t
// for uint32, unsigned long long for uint64 (the caller has checked is_unsigned_offset).
template <class F>
auto on_unsigned_offset(ScalarType t, F&& f) {
  return t == ScalarType::uint32 ? f(std::uint32_t{}) : f(0ull);
}

// f(std::true_type{}) or f(std::false_type{}) as `flag` says: a run-time choice as a
// template argument.
template <class F>
auto on_flag(bool flag, F&& f) {
  return flag ? f(std::true_type{}) : f(std::false_type{});
}

// Which of a sort's items may be structs, whose sizes on_element_size takes: none,
// the values (radix and segmented sort: keys are ordered by their bits), or keys and
// values (merge sort, by a comparator).
enum class SortStructs { none, values, keys_and_values };

// Fan-out over a sort's (key size, value size, offset type): f.operator()<K, V, OffsetT>()
// for the sizes on_size takes (on_element_size's where Structs says; V 0: keys only) and
// the offset types on_offset takes; else a value-initialized result.
template <SortStructs Structs = SortStructs::none, class F>
auto on_sort_types(std::size_t key_size, std::size_t value_size, ScalarType offset, F&& f) {
  auto sizes = []<bool S>(std::bool_constant<S>, std::size_t n, auto&& g, bool allow_zero = false) {
    if constexpr (S) return on_element_size(n, g, allow_zero);
    else return on_size(n, g, allow_zero);
  };
  return sizes(std::bool_constant<Structs == SortStructs::keys_and_values>{}, key_size, [&](auto k) {
    return sizes(
        std::bool_constant<Structs != SortStructs::none>{}, value_size,
        [&](auto v) {
          return on_offset(offset, [&](auto o) {
            return f.template operator()<decltype(k)::value, decltype(v)::value,
                                         typename decltype(o)::type>();
          });
        },
        /*allow_zero=*/true);
  });
}

// A sort's dispatch entry over the types on_sort_types<Structs> takes: ClosedForm<Fn> of
// Entries<K, V, OffsetT>::query (the closed-form temp storage) and ::dispatch (CUB's host
// dispatch); null for other sizes and offset types.
template <class Fn, template <std::size_t, std::size_t, class> class Entries,
          SortStructs Structs = SortStructs::none>
Fn select_sort_dispatch(std::size_t key_size, std::size_t value_size, ScalarType offset,
                        bool closed_form) noexcept {
  return on_sort_types<Structs>(key_size, value_size, offset,
                       [&]<std::size_t K, std::size_t V, class OffsetT>() {
                         using E = Entries<K, V, OffsetT>;
                         return ClosedForm<Fn>::template select<E::query, E::dispatch>(
                             closed_form);
                       });
}

// As select_sort_dispatch, for a sort some of whose arguments may be iterators:
// Entries<K, V, OffsetT, true> (the iterator forms, over the types
// on_sort_types<IteratorStructs> takes) where `iterators`, else Entries<K, V, OffsetT,
// false> over the types on_sort_types<Structs> takes.
template <class Fn, template <std::size_t, std::size_t, class, bool> class Entries,
          SortStructs Structs = SortStructs::none, SortStructs IteratorStructs = SortStructs::none>
Fn select_sort_dispatch(std::size_t key_size, std::size_t value_size, ScalarType offset,
                        bool closed_form, bool iterators) noexcept {
  auto entry = [&]<std::size_t K, std::size_t V, class OffsetT, bool Iterators>() {
    using E = Entries<K, V, OffsetT, Iterators>;
    return ClosedForm<Fn>::template select<E::query, E::dispatch>(closed_form);
  };
  if (iterators)
    return on_sort_types<IteratorStructs>(key_size, value_size, offset,
                         [&]<std::size_t K, std::size_t V, class OffsetT>() {
                           return entry.template operator()<K, V, OffsetT, true>();
                         });
  return on_sort_types<Structs>(key_size, value_size, offset,
                                [&]<std::size_t K, std::size_t V, class OffsetT>() {
                                  return entry.template operator()<K, V, OffsetT, false>();
                                });
}

}  // namespace cccl_cache::algos::detail
