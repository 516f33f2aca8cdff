// The host's C++ type of an element type, for code that handles values on the host
// (bounds checks at a call, test references).
#pragma once

#include <cstdint>
#include <type_traits>

#include "cccl_cache/algos/types.hpp"

namespace cccl_cache::algos::detail {

// f(std::type_identity<T>{}) with T the host type of `t`: the integers, float and double.
// The 16-bit floats have no standard host type: for them, as for any other type, the
// result is f's result type value-initialized (`void`: nothing).
template <class F>
auto on_host_type(ScalarType t, F&& f) {
  using R = decltype(f(std::type_identity<std::int32_t>{}));
  switch (t) {
    case ScalarType::int8: return f(std::type_identity<std::int8_t>{});
    case ScalarType::int16: return f(std::type_identity<std::int16_t>{});
    case ScalarType::int32: return f(std::type_identity<std::int32_t>{});
    case ScalarType::int64: return f(std::type_identity<std::int64_t>{});
    case ScalarType::uint8: return f(std::type_identity<std::uint8_t>{});
    case ScalarType::uint16: return f(std::type_identity<std::uint16_t>{});
    case ScalarType::uint32: return f(std::type_identity<std::uint32_t>{});
    case ScalarType::uint64: return f(std::type_identity<std::uint64_t>{});
    case ScalarType::float32: return f(std::type_identity<float>{});
    case ScalarType::float64: return f(std::type_identity<double>{});
    default: return R();
  }
}

}  // namespace cccl_cache::algos::detail
