// CUB's own tile states and initial value (tile_state_cub_reference.hpp).
// core/launch.cuh first: CUB's statuses pass unchanged (no runtime call), as in libalgos'
// dispatches.
#include "core/launch.cuh"
#include "core/fan_out.cuh"

#include <cub/agent/single_pass_scan_operators.cuh>
#include <cub/device/dispatch/dispatch_scan.cuh>

#include <cstring>
#include <new>

#include "tile_state_cub_reference.hpp"

namespace test_support {
namespace {

using cccl_cache::algos::detail::Bytes;
using cccl_cache::algos::detail::on_layout;

// on_layout's fan-out also names a zero-byte stand-in, which it never calls.
template <class>
constexpr bool kEmpty = false;
template <std::size_t A>
constexpr bool kEmpty<Bytes<0, A>> = true;

template <template <class> class TileState>
std::optional<std::size_t> allocation_size(std::size_t size, std::size_t align, int num_tiles) {
  return on_layout(size, align, [&](auto a) -> std::optional<std::size_t> {
    using A = typename decltype(a)::type;
    std::size_t bytes = 0;
    if constexpr (kEmpty<A>)
      return std::nullopt;
    else if (TileState<A>::AllocationSize(num_tiles, bytes) != cudaSuccess)
      return std::nullopt;
    return bytes;
  });
}

template <class A>
using ScanState = cub::ScanTileState<A>;
template <class A>
using ByKeyState = cub::ReduceByKeyScanTileState<A, int>;

}  // namespace

std::optional<std::size_t> cub_scan_tile_state_bytes(std::size_t size, std::size_t align,
                                                     int num_tiles) {
  return allocation_size<ScanState>(size, align, num_tiles);
}

std::optional<std::size_t> cub_by_key_tile_state_bytes(std::size_t size, std::size_t align,
                                                       int num_tiles) {
  return allocation_size<ByKeyState>(size, align, num_tiles);
}

std::optional<InputValueBytes> cub_input_value(std::size_t size, std::size_t align,
                                               const void* value, bool future) {
  return on_layout(size, align, [&](auto t) -> std::optional<InputValueBytes> {
    using T = typename decltype(t)::type;
    if constexpr (kEmpty<T>) {
      return std::nullopt;
    } else {
      using Cub = cub::detail::InputValue<T>;
      auto made_over = [&](unsigned char fill) {
        alignas(Cub) unsigned char storage[sizeof(Cub)];
        std::memset(storage, fill, sizeof storage);
        if (future) {
          new (storage) Cub(cub::FutureValue<T>(static_cast<T*>(const_cast<void*>(value))));
        } else {
          T v;
          std::memcpy(&v, value, sizeof v);
          new (storage) Cub(v);
        }
        return std::vector<unsigned char>(storage, storage + sizeof storage);
      };
      const std::vector<unsigned char> zeroed = made_over(0x00), set = made_over(0xff);
      InputValueBytes out{zeroed, std::vector<bool>(zeroed.size())};
      for (std::size_t i = 0; i < zeroed.size(); ++i) out.known[i] = zeroed[i] == set[i];
      return out;
    }
  });
}

}  // namespace test_support
