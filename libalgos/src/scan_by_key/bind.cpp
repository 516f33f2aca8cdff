// ScanByKey::bind: the core bind (core/executable_state.hpp) plus what CUB's dispatch
// needs, and the Executable's call. Fresh builds and store hits both come through here.
#include "cccl_cache/algos/scan_by_key/executable.hpp"
#include "core/executable_state.hpp"
#include "scan_by_key/dispatch.hpp"

namespace cccl_cache::algos {

template <>
struct detail::ExecutableState<ScanByKey>
    : BoundState<ScanByKey, scan_by_key::detail::DispatchParams, scan_by_key::detail::DispatchFn> {};
template class BoundExecutable<ScanByKey>;

Result<scan_by_key::Executable> ScanByKey::bind(const BuiltView<ScanByKey>& result, int device) {
  namespace d = scan_by_key::detail;
  const Policy& p = result.policy;
  const Spec& spec = result.spec;
  CCCL_CACHE_CHECK(detail::bind_check(result));
  const std::uint32_t block_threads[kKernels] = {scan_by_key::kInitBlockThreads, p.block_threads};
  CCCL_CACHE_TRY(auto state,
                 detail::bind_state(result, device, block_threads,
                                    d::select_dispatch(size_of(spec.key_type),
                                                       size_of(spec.value_type),
                                                       p.accum_size,
                                                       spec.offset_type, spec.exclusive)));
  state->params.policy = p;
  return Executable(std::move(state));
}

}  // namespace cccl_cache::algos

namespace cccl_cache::algos::scan_by_key {

std::size_t Executable::temp_storage_bytes(std::uint64_t num_items) const noexcept {
  return query_bytes(nullptr, nullptr, nullptr, num_items, nullptr, CUstream{});
}

CUresult Executable::operator()(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                const void* d_keys_in, const void* d_values_in,
                                void* d_values_out, std::uint64_t num_items, const void* h_init,
                                CUstream stream) const noexcept {
  return call(d_temp_storage != nullptr, d_temp_storage, temp_storage_bytes, d_keys_in,
              d_values_in, d_values_out, num_items, h_init, stream);
}

}  // namespace cccl_cache::algos::scan_by_key
