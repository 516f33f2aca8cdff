// CCCL 3.5's DeviceFind::LowerBound / UpperBound host side (cub/device/device_find.cuh:
// a one-byte temp-storage answer, then DeviceTransform over the values with CUB's search
// operator), driven by the kernel a bind resolved through the transform kernel's dispatch
// (core/transform_dispatch.cuh) and the core's launcher factory.
//
// The device kernel was instantiated by the build (codegen.cpp) as
//   transform_kernel<policy_selector_from_types<false, true, tuple<const T*>, Out*>,
//                    int64_t, always_true, cccl_cache_op, Out*, const T*>
// with cccl_cache_op = binary_search_transform_op_t<const T*, unsigned long long,
// cccl_cache_compare, lower_bound | upper_bound>: a pointer, a count and an empty
// comparator. Its stand-in below has that layout for every T, comparator and side. The
// values and the output may be iterators in place of the arrays (the build names them),
// one instantiation per choice.
#include "core/launch.cuh"

#include <cub/detail/binary_search_helpers.cuh>

#include <limits>

#include "binary_search/dispatch.hpp"
#include "core/transform_dispatch.cuh"

namespace cccl_cache::algos::binary_search::detail {
namespace {

using algos::detail::DriverLauncherFactory;
using algos::detail::EmptyOp;
using SearchOp = cub::detail::find::binary_search_transform_op_t<const unsigned char*, unsigned long long,
                                                                 EmptyOp, cub::detail::find::lower_bound>;
static_assert(sizeof(SearchOp) == 24 && alignof(SearchOp) == 8);

// DeviceFind asks for one byte of temp storage and never touches it.
constexpr std::size_t kTempBytes = 1;

// The values' count is DeviceTransform's int64; an index is a ptrdiff_t converted to OutT.
template <class OutT>
bool counts_fit(std::uint64_t num_items, std::uint64_t num_values) noexcept {
  constexpr auto kInt64Max = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  return num_values <= kInt64Max && num_items <= kInt64Max &&
         num_items <= static_cast<std::uint64_t>(std::numeric_limits<OutT>::max());
}

using transform_kernel::detail::In;
using transform_kernel::detail::IterArg;
using transform_kernel::detail::Out;

// OutT: the indices' type; OutArg, InArg: the output's and the values' stand-ins, arrays
// (Out, In) or iterators (IterArg).
template <class OutT, class OutArg = Out, class InArg = In>
CUresult run_dispatch(const DispatchParams& params, void* d_temp_storage,
                      std::size_t& temp_storage_bytes, const void* d_data, std::uint64_t num_items,
                      const void* d_values, std::uint64_t num_values, void* d_out,
                      CUstream stream) noexcept {
  if (!counts_fit<OutT>(num_items, num_values)) return CUDA_ERROR_INVALID_VALUE;
  if (d_temp_storage == nullptr) {
    temp_storage_bytes = kTempBytes;
    return CUDA_SUCCESS;
  }
  if (temp_storage_bytes < kTempBytes) return CUDA_ERROR_INVALID_VALUE;
  if (num_values != 0 &&
      (d_values == nullptr || d_out == nullptr || (num_items != 0 && d_data == nullptr)))
    return CUDA_ERROR_INVALID_VALUE;
  const SearchOp op{static_cast<const unsigned char*>(d_data), num_items, EmptyOp{}};
  const void* ins[1] = {d_values};
  CUresult status = CUDA_SUCCESS;
  const cudaError_t err = transform_kernel::detail::call<1, SearchOp, OutArg, InArg>(
      params, nullptr, DriverLauncherFactory{params.launch, &status}, ins, d_out,
      static_cast<std::int64_t>(num_values), stream, op);
  return algos::detail::dispatch_result(err, status);
}

// The size query in closed form (dispatch.hpp DispatchFn): DeviceFind's constant.
template <class OutT>
CUresult closed_form_bytes(const DispatchParams&, void*, std::size_t& temp_storage_bytes,
                           const void*, std::uint64_t num_items, const void*,
                           std::uint64_t num_values, void*, CUstream) noexcept {
  if (!counts_fit<OutT>(num_items, num_values)) return CUDA_ERROR_INVALID_VALUE;
  temp_storage_bytes = kTempBytes;
  return CUDA_SUCCESS;
}

template <class OutT, class OutArg, class InArg>
DispatchFn with_args(bool closed_form) noexcept {
  return algos::detail::ClosedForm<DispatchFn>::select<&closed_form_bytes<OutT>,
                                                       &run_dispatch<OutT, OutArg, InArg>>(
      closed_form);
}

}  // namespace

DispatchFn select_dispatch(ScalarType out_type, bool closed_form, bool values_iterator,
                           bool output_iterator) noexcept {
  return algos::detail::on_offset(out_type, [&](auto o) -> DispatchFn {
    using OutT = typename decltype(o)::type;
    if (output_iterator)
      return values_iterator ? with_args<OutT, IterArg, IterArg>(closed_form)
                             : with_args<OutT, IterArg, In>(closed_form);
    return values_iterator ? with_args<OutT, Out, IterArg>(closed_form)
                           : with_args<OutT, Out, In>(closed_form);
  });
}

}  // namespace cccl_cache::algos::binary_search::detail

namespace cccl_cache::algos {

const std::string& BinarySearch::dispatch_abi() {
  using namespace binary_search::detail;  // its stand-ins
  return algos::detail::describe_abi<DispatchParams>([](algos::detail::AbiText& abi) {
    transform_kernel::detail::describe_dispatch<SearchOp>(abi);
  });
}

}  // namespace cccl_cache::algos
