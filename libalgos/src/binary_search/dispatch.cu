// CCCL 3.5's DeviceFind::LowerBound / UpperBound host side (cub/device/device_find.cuh:
// a one-byte temp-storage answer, then DeviceTransform over the values with CUB's search
// operator), driven by the kernel a bind resolved through the transform kernel's dispatch
// (core/transform_dispatch.cuh) and the core's launcher factory.
//
// The device kernel was instantiated by the build (codegen.cpp) as
//   transform_kernel<policy_selector_from_types<false, true, tuple<const T*>, Out*>,
//                    int64_t, always_true, cccl_cache_op, Out*, const T*>
// with cccl_cache_op = binary_search_transform_op_t<const T*, unsigned long long,
// cccl_cache_compare, lower_bound | upper_bound>: a pointer, a count and the comparator,
// empty or a stateful one's state (at most kMaxOpStateSize bytes aligned to at most 16,
// its only member). Its stand-in below has the stateless layout for every T, comparator
// and side; a stateful comparator's operator is those bytes with the state at 16. The
// values and the output may be iterators in place of the arrays (the build names them),
// one instantiation per choice; the range may be an iterator, the operator then the
// generated search over it (codegen.cpp), its bytes packed here.
#include "core/launch.cuh"
#include "core/fan_out.cuh"
#include "core/abi_text.cuh"

#include <cub/detail/binary_search_helpers.cuh>

#include <cstddef>
#include <cstring>
#include <limits>

#include "binary_search/dispatch.hpp"
#include "core/transform_dispatch.cuh"

namespace cccl_cache::algos::binary_search::detail {
namespace {

using algos::detail::DriverLauncherFactory;
using algos::detail::EmptyOp;
using SearchOp = cub::detail::find::binary_search_transform_op_t<const unsigned char*, unsigned long long,
                                                                 EmptyOp, cub::detail::find::lower_bound>;
static_assert(sizeof(SearchOp) == 24 && alignof(SearchOp) == 8 && offsetof(SearchOp, op) == 16);

// A search operator's bytes, passed as an OpArg: the range's RangeBytes bytes, the count
// after them, a stateful comparator's state at StateAt (a multiple of every state
// alignment). A range array and a stateful comparator: the pointer, the count as SearchOp
// holds them and the state at 16. A range iterator: its packed bytes, the count at
// kRangeBytes and the state at kRangeBytes + 16 (codegen.cpp's cccl_cache_op).
template <std::size_t RangeBytes, std::size_t StateAt>
struct SearchOpBytes {
  alignas(16) unsigned char bytes[StateAt + kMaxOpStateSize + 16] = {};
  SearchOpBytes(const void* range, std::uint64_t num_items, std::uint32_t state_size,
                const void* state) noexcept {
    std::memcpy(bytes, range, RangeBytes);
    std::memcpy(bytes + RangeBytes, &num_items, sizeof num_items);
    if (state_size != 0) std::memcpy(bytes + StateAt, state, state_size);
  }
};
using StatefulSearchOp = SearchOpBytes<sizeof(const void*), 16>;
using IteratorSearchOp = SearchOpBytes<kRangeBytes, kRangeBytes + 16>;

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
// (Out, In) or iterators (IterArg); DataIterator: d_data the range iterator's packed bytes.
template <class OutT, class OutArg = Out, class InArg = In, bool DataIterator = false>
CUresult run_dispatch(const DispatchParams& params, void* d_temp_storage,
                      std::size_t& temp_storage_bytes, const void* d_data, std::uint64_t num_items,
                      const void* d_values, std::uint64_t num_values, void* d_out,
                      CUstream stream, std::uint32_t state_size, const void* op_state) noexcept {
  if (!counts_fit<OutT>(num_items, num_values)) return CUDA_ERROR_INVALID_VALUE;
  if (d_temp_storage == nullptr) {
    temp_storage_bytes = kTempBytes;
    return CUDA_SUCCESS;
  }
  if (temp_storage_bytes < kTempBytes) return CUDA_ERROR_INVALID_VALUE;
  if (num_values != 0 &&
      (d_values == nullptr || d_out == nullptr || (num_items != 0 && d_data == nullptr)))
    return CUDA_ERROR_INVALID_VALUE;
  if (state_size > kMaxOpStateSize) return CUDA_ERROR_INVALID_VALUE;
  const void* ins[1] = {d_values};
  CUresult status = CUDA_SUCCESS;
  const DriverLauncherFactory factory{params.launch, &status};
  const auto n = static_cast<std::int64_t>(num_values);
  cudaError_t err;
  auto call_with = [&](const unsigned char* bytes) {
    return transform_kernel::detail::call<1, algos::detail::OpArg, OutArg, InArg>(
        params, nullptr, factory, ins, d_out, n, stream, algos::detail::OpArg{bytes});
  };
  if constexpr (DataIterator) {
    err = call_with(IteratorSearchOp(d_data, num_items, state_size, op_state).bytes);
  } else if (state_size == 0) {
    const SearchOp op{static_cast<const unsigned char*>(d_data), num_items, EmptyOp{}};
    err = transform_kernel::detail::call<1, SearchOp, OutArg, InArg>(params, nullptr, factory, ins,
                                                                     d_out, n, stream, op);
  } else {
    err = call_with(StatefulSearchOp(&d_data, num_items, state_size, op_state).bytes);
  }
  return algos::detail::dispatch_result(err, status);
}

// The size query in closed form (dispatch.hpp DispatchFn): DeviceFind's constant.
template <class OutT>
CUresult closed_form_bytes(const DispatchParams&, void*, std::size_t& temp_storage_bytes,
                           const void*, std::uint64_t num_items, const void*,
                           std::uint64_t num_values, void*, CUstream, std::uint32_t,
                           const void*) noexcept {
  if (!counts_fit<OutT>(num_items, num_values)) return CUDA_ERROR_INVALID_VALUE;
  temp_storage_bytes = kTempBytes;
  return CUDA_SUCCESS;
}

template <class OutT, class OutArg, class InArg>
DispatchFn with_args(bool closed_form, bool data_iterator) noexcept {
  using Select = algos::detail::ClosedForm<DispatchFn>;
  if (data_iterator)
    return Select::select<&closed_form_bytes<OutT>, &run_dispatch<OutT, OutArg, InArg, true>>(
        closed_form);
  return Select::select<&closed_form_bytes<OutT>, &run_dispatch<OutT, OutArg, InArg>>(closed_form);
}

}  // namespace

DispatchFn select_dispatch(ScalarType out_type, bool closed_form, bool values_iterator,
                           bool output_iterator, bool data_iterator) noexcept {
  return algos::detail::on_offset(out_type, [&](auto o) -> DispatchFn {
    using OutT = typename decltype(o)::type;
    if (output_iterator)
      return values_iterator ? with_args<OutT, IterArg, IterArg>(closed_form, data_iterator)
                             : with_args<OutT, IterArg, In>(closed_form, data_iterator);
    return values_iterator ? with_args<OutT, Out, IterArg>(closed_form, data_iterator)
                           : with_args<OutT, Out, In>(closed_form, data_iterator);
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
