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
  if (!state_) return 0;
  std::size_t bytes = 0;
  DoubleBuffers none;
  const IteratorValue values{state_->spec.values_in.kind};
  const CUresult rc =
      double_buffer ? (*this)(nullptr, bytes, none, values, num_items, begin_bit, end_bit, {})
                    : (*this)(nullptr, bytes, nullptr, nullptr, values, nullptr, num_items,
                              begin_bit, end_bit, {});
  return rc == CUDA_SUCCESS ? bytes : 0;
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
  const Spec& spec = state_->spec;
  if (!bits_ok(begin_bit, end_bit, key_bits()) || values_in.kind != spec.values_in.kind)
    return CUDA_ERROR_INVALID_VALUE;
  // An argsort: its values materialized into the current value buffer.
  if (const CUresult rc = algos::detail::materialize_into(
          *state_->params.launch, materialize_values, spec.values_in, spec.value_type.scalar, values_in,
          d_temp_storage != nullptr, buffers.values[buffers.selector & 1], num_items, stream,
          [&] { return usable(true); });
      rc != CUDA_SUCCESS)
    return rc;
  DoubleBuffers b = buffers;
  if (spec.keys_only()) b.values[0] = b.values[1] = nullptr;  // ignored, never offset
  const CUresult rc = call(d_temp_storage != nullptr, d_temp_storage, temp_storage_bytes, b,
                           num_items, begin_bit, end_bit, /*overwrite=*/true, stream);
  buffers.selector = b.selector;
  return rc;
}

CUresult Executable::operator()(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                const void* d_keys_in, void* d_keys_out, Input d_values_in,
                                void* d_values_out, std::uint64_t num_items, int begin_bit,
                                int end_bit, CUstream stream) const noexcept {
  if (!state_) return CUDA_ERROR_INVALID_HANDLE;
  const Spec& spec = state_->spec;
  const IteratorValue& values_in = d_values_in.value;
  if (!bits_ok(begin_bit, end_bit, key_bits()) || values_in.kind != spec.values_in.kind)
    return CUDA_ERROR_INVALID_VALUE;
  // CUB's plain form: a DoubleBuffer {in, out} the dispatch may not overwrite.
  DoubleBuffers buffers{{const_cast<void*>(d_keys_in), d_keys_out}, {nullptr, nullptr}, 0};
  if (!spec.keys_only()) buffers.values[0] = const_cast<void*>(values_in.pointer);
  if (!spec.keys_only()) buffers.values[1] = d_values_out;
  auto sort = [&](void* temp, std::size_t& bytes, void* d_values) {
    if (d_values != nullptr) buffers.values[0] = d_values;
    return call(temp != nullptr, temp, bytes, buffers, num_items, begin_bit, end_bit,
                /*overwrite=*/false, stream);
  };
  if (spec.values_in.is_pointer()) return sort(d_temp_storage, temp_storage_bytes, nullptr);
  // An argsort: temp storage [the values, materialized | CUB's].
  if (CUresult rc = usable(d_temp_storage != nullptr); rc != CUDA_SUCCESS) return rc;
  return algos::detail::materialized_call(*state_->params.launch, materialize_values,
                                          spec.values_in, spec.value_type.scalar, values_in,
                                          d_temp_storage, temp_storage_bytes, num_items, stream,
                                          sort);
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
