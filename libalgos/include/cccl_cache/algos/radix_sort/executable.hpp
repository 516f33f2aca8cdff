// A radix sort bound to one device: the only thing that runs. Never persisted.
#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda.h>

#include "cccl_cache/algos/core/executable.hpp"
#include "cccl_cache/algos/iterator.hpp"
#include "cccl_cache/algos/radix_sort/build_result.hpp"
#include "cccl_cache/cache/error.hpp"

namespace cccl_cache::algos::radix_sort {

// Two key buffers and two value buffers (null for keys-only), as CUB's DoubleBuffer:
// keys[selector] / values[selector] hold the input; a sort may use both buffers of each
// pair and sets selector to the one holding the output.
struct DoubleBuffers {
  void* keys[2] = {nullptr, nullptr};
  void* values[2] = {nullptr, nullptr};
  int selector = 0;
};

// Holds the loaded module, the per-device functions and every device fact its calls
// need, all fixed at bind time: a call makes no device, context, attribute or store
// query and allocates nothing. The bound device's primary context must be current on the
// calling thread. Move-only (core/executable.hpp).
//
// Keys are sorted by their bits [begin_bit, end_bit) after CUB's transformations (signed:
// sign bit flipped; floats: -0.0 and +0.0 equal, NaNs by their bits), stably: pairs with
// equal keys keep their input order. 0 <= begin_bit < end_bit <= key_bits(), else the
// calls return CUDA_ERROR_INVALID_VALUE (check_bits says why).
//
// An argsort (Spec::values_in counting): CUB's DeviceRadixSort reads values from
// pointers only, so the values start + i are materialized first, by the record's seventh
// kernel (core/materialize.hpp) launched on `stream` through the bound launch context,
// then sorted with the keys. The plain form lays its temp storage out as [values:
// round_up(num_items * sizeof(value), 256) | CUB's temp storage] (temp_storage_bytes
// counts both); the DoubleBuffers form writes the values into
// buffers.values[buffers.selector] itself and needs no more temp storage than a sort of
// pairs. Either form takes the start as an IteratorValue::counting of the iterator's type
// and refuses a value array for such a spec (CUDA_ERROR_INVALID_VALUE), as it refuses a
// counting value for a value-array spec.
class Executable : public BoundExecutable<RadixSort> {
 public:
  // The temp-storage bytes a sort of `num_items` needs (CUB's own dispatch answers, from
  // values fixed at bind: no driver call); double_buffer: for the DoubleBuffers form (it
  // needs no third buffer). 0 for invalid bits or more items than the offset type holds.
  std::size_t temp_storage_bytes(std::uint64_t num_items, int begin_bit, int end_bit,
                                 bool double_buffer = false) const noexcept;
  std::size_t temp_storage_bytes(std::uint64_t num_items) const noexcept {
    return temp_storage_bytes(num_items, 0, key_bits());
  }

  // CUB's two-phase convention (DeviceRadixSort::SortKeys/SortPairs and their Descending
  // forms: the order is the spec's). d_temp_storage == nullptr: sets temp_storage_bytes and
  // returns CUDA_SUCCESS. Otherwise sorts d_keys_in (and the values) into d_keys_out (and
  // d_values_out; the values are ignored for keys-only) on `stream`, which must belong to
  // the bound device's primary context. The inputs are left unchanged. `d_values_in`: the
  // value array (a pointer, or IteratorValue::array), or for an argsort the start as
  // IteratorValue::counting (above), whose d_temp_storage must be aligned to the value
  // size (any allocation's start is).
  // Errors: CUDA_ERROR_INVALID_VALUE (bits, num_items over the offset type, temp storage
  // too small, a value input of another kind than the spec's), CUDA_ERROR_NOT_INITIALIZED
  // (a fork()ed child), or the first launch error.
  CUresult operator()(void* d_temp_storage, std::size_t& temp_storage_bytes,
                      const void* d_keys_in, void* d_keys_out, Input d_values_in,
                      void* d_values_out, std::uint64_t num_items, int begin_bit, int end_bit,
                      CUstream stream) const noexcept;

  // The DoubleBuffers form (CUB's DoubleBuffer overloads): sorts in place between the two
  // buffers of each pair, updating buffers.selector; needs less temp storage.
  CUresult operator()(void* d_temp_storage, std::size_t& temp_storage_bytes,
                      DoubleBuffers& buffers, std::uint64_t num_items, int begin_bit, int end_bit,
                      CUstream stream) const noexcept;
  // The same for an argsort: fills buffers.values[buffers.selector] with the counting
  // values (not on a size query), then sorts.
  CUresult operator()(void* d_temp_storage, std::size_t& temp_storage_bytes,
                      DoubleBuffers& buffers, const IteratorValue& values_in,
                      std::uint64_t num_items, int begin_bit, int end_bit,
                      CUstream stream) const noexcept;

  // invalid_argument naming the range unless 0 <= begin_bit < end_bit <= key_bits().
  Result<void> check_bits(int begin_bit, int end_bit) const;
  int key_bits() const noexcept;  // the key type's width: the default end_bit

  const Policy& policy() const noexcept;

 private:
  using BoundExecutable::BoundExecutable;
  friend struct algos::RadixSort;
};

using algos::bind;  // core/executable.hpp

}  // namespace cccl_cache::algos::radix_sort
