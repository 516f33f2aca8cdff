// CUB's accumulator type, `::cuda::std::__accumulator_t<Op, Input, Init>`: what
// DeviceReduce, DeviceSegmentedReduce, DeviceScan and DeviceScan*ByKey accumulate in. It
// may differ from the element type (int for integers narrower than int under plus,
// multiplies and the bitwise operators, bool under the logical ones, a custom
// operator's result). The host never derives it: the generated source names it
// (accumulator_source), the policy probe reads its size and alignment back from the
// kernels' compile (kAccumulatorProbe: a Policy's accum_size, accum_align), and the host
// dispatch takes the stand-in of that size. Private to libalgos.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "cccl_cache/algos/types.hpp"
#include "cccl_cache/cache/error.hpp"

namespace cccl_cache::algos::detail {

// "using cccl_cache_accum_t = ::cuda::std::__accumulator_t<op, input, init>;\n".
inline std::string accumulator_source(std::string_view op, std::string_view input,
                                      std::string_view init) {
  return "using cccl_cache_accum_t = ::cuda::std::__accumulator_t<" + std::string(op) + ", " +
         std::string(input) + ", " + std::string(init) + ">;\n";
}

// The policy probe's two values: the accumulator's size and alignment.
inline constexpr std::string_view kAccumulatorProbe =
    "sizeof(cccl_cache_accum_t), alignof(cccl_cache_accum_t)";

// A record's plausible accumulator: 1 to 4096 bytes, a power-of-two alignment dividing it.
constexpr bool plausible_accumulator(std::uint32_t size, std::uint32_t align) noexcept {
  return size >= 1 && size <= 4096 && align >= 1 && (align & (align - 1)) == 0 &&
         size % align == 0;
}

// The (value, accumulator) sizes of an operator whose result is the value type or its
// promotion (every well-known kind; the scans' custom operators return the value type):
// the value's own, bool's, or int's for values narrower than int.
constexpr bool promoted_accumulator(std::size_t value_size, std::size_t accum_size) noexcept {
  return accum_size == value_size || accum_size == 1 || (accum_size == 4 && value_size < 4);
}

// Whether a host dispatch has a stand-in for it: a 1, 2, 4 or 8-byte scalar aligned to
// its size, and where `value_size` is given (the scans), a promoted_accumulator of it.
constexpr bool stand_in_accumulator(std::uint32_t size, std::uint32_t align,
                                    std::size_t value_size = 0) noexcept {
  return (size == 1 || size == 2 || size == 4 || size == 8) && align == size &&
         (value_size == 0 || promoted_accumulator(value_size, size));
}

// stand_in_accumulator over values of element type `value`: a scalar's as above; over a
// struct the operator returns the struct, so the accumulator is it (its declared size and
// alignment), moved by the host as bytes of that size.
inline bool stand_in_accumulator(std::uint32_t size, std::uint32_t align, const ElementType& value) noexcept {
  if (!value.is_struct()) return stand_in_accumulator(size, align, size_of(value.scalar));
  return size == value.layout.size && align == value.layout.alignment;
}

// A build's acceptance of its accumulator: a stand_in_accumulator, else error
// unsupported naming the algorithm.
inline Result<void> accept_accumulator(std::string_view algorithm, std::uint32_t size,
                                       std::uint32_t align) {
  if (stand_in_accumulator(size, align)) return {};
  return fail(ErrorCode::unsupported, std::string(algorithm) +
                                          ": the operator's accumulator type (" +
                                          std::to_string(size) +
                                          " bytes) is not a 1, 2, 4 or 8-byte scalar");
}

// accept_accumulator over values of element type `value`: a scalar's as above; over a
// struct the operator returns the struct, so the accumulator must be it (its declared
// size and alignment; validate_stand_in_struct bounds the sizes), moved by the host as
// bytes of that size.
inline Result<void> accept_accumulator(std::string_view algorithm, std::uint32_t size,
                                       std::uint32_t align, const ElementType& value) {
  if (!value.is_struct()) return accept_accumulator(algorithm, size, align);
  if (size == value.layout.size && align == value.layout.alignment) return {};
  return fail(ErrorCode::unsupported,
              std::string(algorithm) + ": the operator's accumulator type (" + std::to_string(size) +
                  " bytes, alignment " + std::to_string(align) + ") is not the struct " +
                  value.layout.name + " (" + std::to_string(value.layout.size) +
                  " bytes): the operator must return the struct");
}

}  // namespace cccl_cache::algos::detail
