// RadixSort::bind: the core bind (core/executable_state.hpp) with the block size each
// kernel slot is launched with, plus what radix sort's dispatch needs, and the
// Executable's calls. Fresh builds and store hits both come through here.
#include <algorithm>
#include <string>

#include "core/executable_state.hpp"
#include "core/materialize.hpp"
#include "radix_sort/dispatch.hpp"

namespace cccl_cache::algos {

template <>
struct detail::ExecutableState<RadixSort>
    : BoundState<RadixSort, radix_sort::detail::DispatchParams, radix_sort::detail::DispatchFn> {};
template class BoundExecutable<RadixSort>;

Result<radix_sort::Executable> RadixSort::bind(const BuiltView<RadixSort>& result, int device) {
  namespace d = radix_sort::detail;
  const d::DispatchFn dispatch = d::select_dispatch(
      size_of(result.spec.key_type), size_of(result.spec.value_type), result.spec.offset_type);
  std::array<std::uint32_t, radix_sort::kSlots + 1> threads{};
  CCCL_CACHE_TRY(auto state,
                 detail::bind_holding_policy(result, device, dispatch, [&](const Policy& p) {
                   const auto slots = d::launch_threads(p);
                   std::copy(slots.begin(), slots.end(), threads.begin());
                   threads[radix_sort::materialize_values] = detail::kMaterializeThreads;
                   return std::span<const std::uint32_t>(threads.data(), kernel_count(result.spec));
                 }));
  return Executable(std::move(state));
}

}  // namespace cccl_cache::algos

namespace cccl_cache::algos::radix_sort {

namespace {
bool bits_ok(int begin_bit, int end_bit, int key_bits) noexcept {
  return 0 <= begin_bit && begin_bit < end_bit && end_bit <= key_bits;
}
}  // namespace

std::size_t Executable::temp_storage_bytes(std::uint64_t num_items, int begin_bit, int end_bit,
                                           bool double_buffer) const noexcept {
  DoubleBuffers none;
  if (!bits_ok(begin_bit, end_bit, key_bits())) return 0;
  const std::size_t cub = query_bytes(none, num_items, begin_bit, end_bit, double_buffer, CUstream{});
  if (cub == 0 || double_buffer || state_->spec.values_in.is_pointer()) return cub;
  const auto values = algos::detail::materialized_bytes(num_items, state_->spec.value_type);
  return values ? *values + cub : 0;  // [values | CUB's]
}

CUresult Executable::operator()(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                DoubleBuffers& buffers, std::uint64_t num_items, int begin_bit,
                                int end_bit, CUstream stream) const noexcept {
  return (*this)(d_temp_storage, temp_storage_bytes, buffers, IteratorValue{}, num_items,
                 begin_bit, end_bit, stream);
}

CUresult Executable::operator()(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                DoubleBuffers& buffers, const IteratorValue& values_in,
                                std::uint64_t num_items, int begin_bit, int end_bit,
                                CUstream stream) const noexcept {
  if (!state_) return CUDA_ERROR_INVALID_HANDLE;  // moved from
  if (!bits_ok(begin_bit, end_bit, key_bits()) || values_in.kind != state_->spec.values_in.kind)
    return CUDA_ERROR_INVALID_VALUE;
  if (values_in.kind != IteratorKind::pointer && d_temp_storage != nullptr) {
    if (CUresult rc = fill_values(buffers.values[buffers.selector & 1], values_in, num_items, stream);
        rc != CUDA_SUCCESS)
      return rc;
  }
  DoubleBuffers b = buffers;
  if (state_->spec.keys_only()) b.values[0] = b.values[1] = nullptr;  // ignored, never offset
  const CUresult rc = call(d_temp_storage != nullptr, d_temp_storage, temp_storage_bytes, b,
                           num_items, begin_bit, end_bit, /*overwrite=*/true, stream);
  buffers.selector = b.selector;
  return rc;
}

CUresult Executable::operator()(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                const void* d_keys_in, void* d_keys_out, const void* d_values_in,
                                void* d_values_out, std::uint64_t num_items, int begin_bit,
                                int end_bit, CUstream stream) const noexcept {
  if (!state_) return CUDA_ERROR_INVALID_HANDLE;
  if (!bits_ok(begin_bit, end_bit, key_bits()) || !state_->spec.values_in.is_pointer())
    return CUDA_ERROR_INVALID_VALUE;
  // CUB's plain form: a DoubleBuffer {in, out} the dispatch may not overwrite.
  DoubleBuffers buffers{{const_cast<void*>(d_keys_in), d_keys_out}, {nullptr, nullptr}, 0};
  if (!state_->spec.keys_only()) buffers.values[0] = const_cast<void*>(d_values_in);
  if (!state_->spec.keys_only()) buffers.values[1] = d_values_out;
  return call(d_temp_storage != nullptr, d_temp_storage, temp_storage_bytes, buffers, num_items,
              begin_bit, end_bit, /*overwrite=*/false, stream);
}

CUresult Executable::operator()(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                const void* d_keys_in, void* d_keys_out,
                                const IteratorValue& values_in, void* d_values_out,
                                std::uint64_t num_items, int begin_bit, int end_bit,
                                CUstream stream) const noexcept {
  if (!state_) return CUDA_ERROR_INVALID_HANDLE;
  if (values_in.kind != state_->spec.values_in.kind) return CUDA_ERROR_INVALID_VALUE;
  if (values_in.kind == IteratorKind::pointer)
    return (*this)(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, values_in.pointer,
                   d_values_out, num_items, begin_bit, end_bit, stream);
  if (!bits_ok(begin_bit, end_bit, key_bits())) return CUDA_ERROR_INVALID_VALUE;
  // Temp storage: [the values, materialized | CUB's]; CUB reads the values from there.
  const auto values = algos::detail::materialized_bytes(num_items, state_->spec.value_type);
  if (!values) return CUDA_ERROR_INVALID_VALUE;
  auto* temp = static_cast<unsigned char*>(d_temp_storage);
  DoubleBuffers buffers{{const_cast<void*>(d_keys_in), d_keys_out}, {temp, d_values_out}, 0};
  std::size_t cub_bytes = temp_storage_bytes - std::min(temp_storage_bytes, *values);
  if (temp == nullptr) {
    const CUresult rc = call(false, nullptr, cub_bytes, buffers, num_items, begin_bit, end_bit,
                             /*overwrite=*/false, stream);
    if (rc == CUDA_SUCCESS) temp_storage_bytes = *values + cub_bytes;
    return rc;
  }
  if (temp_storage_bytes < *values ||
      reinterpret_cast<std::uintptr_t>(temp) % size_of(state_->spec.value_type) != 0)
    return CUDA_ERROR_INVALID_VALUE;
  if (CUresult rc = fill_values(temp, values_in, num_items, stream); rc != CUDA_SUCCESS) return rc;
  return call(true, temp + *values, cub_bytes, buffers, num_items, begin_bit, end_bit,
              /*overwrite=*/false, stream);
}

CUresult Executable::fill_values(void* d_values, const IteratorValue& values_in,
                                 std::uint64_t num_items, CUstream stream) const noexcept {
  if (CUresult rc = usable(true); rc != CUDA_SUCCESS) return rc;
  return algos::detail::materialize(*state_->params.launch, materialize_values,
                                    state_->spec.values_in, state_->spec.value_type, values_in,
                                    d_values, num_items, stream);
}

Result<void> Executable::check_bits(int begin_bit, int end_bit) const {
  if (bits_ok(begin_bit, end_bit, key_bits())) return {};
  return fail(ErrorCode::invalid_argument,
              "radix sort: bit range [" + std::to_string(begin_bit) + ", " +
                  std::to_string(end_bit) + ") must satisfy 0 <= begin_bit < end_bit <= " +
                  std::to_string(key_bits()) + " (the key's width)");
}

int Executable::key_bits() const noexcept { return state_ ? state_->spec.key_bits() : 0; }
const Policy& Executable::policy() const noexcept { return state_->params.policy; }

}  // namespace cccl_cache::algos::radix_sort
