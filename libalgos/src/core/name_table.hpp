// Enum values by name and back, from one table of pairs (the names spec text writes).
// Private to libalgos.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace cccl_cache::algos::detail {

template <class V>
struct Named {
  V value;
  std::string_view name;
};

// The name of `v` in `table`, or "unknown".
template <class V, std::size_t N>
constexpr std::string_view name_in(const Named<V> (&table)[N], V v) noexcept {
  for (const auto& e : table)
    if (e.value == v) return e.name;
  return "unknown";
}

// The value named `name` in `table`, or nullopt.
template <class V, std::size_t N>
constexpr std::optional<V> value_in(const Named<V> (&table)[N], std::string_view name) noexcept {
  for (const auto& e : table)
    if (e.name == name) return e.value;
  return std::nullopt;
}

}  // namespace cccl_cache::algos::detail
