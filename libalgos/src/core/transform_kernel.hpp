// What the algorithms on CUB's transform kernel (transform, binary search) share on the
// build side: the kernel's source for any operator, and the checks of its policy and
// kernel. Private to libalgos.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cccl_cache/algos/core/build_record.hpp"
#include "cccl_cache/algos/core/transform_kernel.hpp"
#include "cccl_cache/algos/iterator.hpp"
#include "cccl_cache/algos/types.hpp"
#include "cccl_cache/cache/error.hpp"
#include "core/jit.hpp"

namespace cccl_cache::algos::transform_kernel::detail {

// The kernel's argument types in a generated source: each input's and the output's, an
// array's ("const In*", "Out*") or a generated iterator struct's name, and the value
// types such structs read or write (for the headers they need).
struct ArgumentTypes {
  std::vector<std::string> in;
  std::string out;
  std::vector<ScalarType> iterator_types;
};
// Arrays of the element types `in` and `out`.
ArgumentTypes array_arguments(std::span<const ElementType> in, const ElementType& out);
// Each input (element types `in`) and the output (`out`) an array or an iterator in its
// place: an iterator's struct, named cccl_cache_in<k>_t or cccl_cache_out_t, is appended
// to `definitions` with its custom operator's source unless an operator in `defined`
// has that source (algos::detail::argument_type). An array spec's source is
// array_arguments'.
ArgumentTypes iterator_arguments(std::string& definitions, std::span<const ElementType> in,
                                 std::span<const Iterator> inputs, const ElementType& out,
                                 const Iterator& output, std::vector<const Operator*> defined);

// The source naming CUB's transform_kernel as cub::DeviceTransform instantiates it for
// `args` (for raw pointers: transform_kernel<policy_selector_from_types<false, true,
// tuple<const In*...>, Out*>, int64_t, always_true, cccl_cache_op, Out*, const In*...>)
// and the policy probe (values in Policy's field order). `in` and `out` are the element
// types (structs among them defined first: struct_source). `definitions` defines the
// functor type `cccl_cache_op` and any iterator struct `args` names; `header`, if not
// empty, is included before them.
algos::detail::GeneratedSource kernel_source(std::span<const ElementType> in, const ElementType& out,
                                             std::string_view definitions,
                                             const ArgumentTypes& args,
                                             std::string_view header = {});

// A plausible policy for the record's CC, and one kernel that is CUB's transform kernel
// compiled with the policy's block size as its launch bounds (core/check.hpp). Error
// corrupt naming "transform".
[[nodiscard]] Result<void> check(const Policy& policy, const BuildRecordView& record);

}  // namespace cccl_cache::algos::transform_kernel::detail
