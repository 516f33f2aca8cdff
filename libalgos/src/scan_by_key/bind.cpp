// ScanByKey::bind: the core bind (core/executable_state.hpp) plus what CUB's dispatch
// needs, and the Executable's call. Fresh builds and store hits both come through here.
#include "cccl_cache/algos/scan_by_key/executable.hpp"
#include "core/executable_state.hpp"
#include "core/iterator.hpp"
#include "scan_by_key/dispatch.hpp"

#include <string>

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
  const auto tile = d::tile_shape(p.accum_size, p.accum_align);
  if (!tile)  // ScanByKey::check admits only accumulators with a shape
    return fail(ErrorCode::unsupported, "scan_by_key: no tile state for an accumulator of " +
                                            std::to_string(p.accum_size) + " bytes aligned to " +
                                            std::to_string(p.accum_align));
  CCCL_CACHE_TRY(auto state,
                 detail::bind_state(result, device, block_threads,
                                    d::select_dispatch(size_of(spec.key_type), spec.offset_type,
                                                       spec.exclusive, /*closed_form=*/true,
                                                       spec.iterators())));
  state->params.policy = p;
  state->params.tile = *tile;
  return Executable(std::move(state));
}

}  // namespace cccl_cache::algos

namespace cccl_cache::algos::scan_by_key {

std::size_t Executable::temp_storage_bytes(std::uint64_t num_items) const noexcept {
  return query_bytes(nullptr, nullptr, nullptr, num_items, nullptr, CUstream{});
}

CUresult Executable::operator()(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                Input d_keys_in, Input d_values_in, Output d_values_out,
                                std::uint64_t num_items, const void* h_init,
                                CUstream stream) const noexcept {
  if (CUresult rc = usable(false); rc != CUDA_SUCCESS) return rc;
  // Each argument as the dispatch takes it: the arrays, or all three as iterators (an
  // array packed as an array iterator); a value of another kind is refused.
  const Spec& s = spec();
  algos::detail::AllArguments<3> a;
  const ScalarType k = s.key_type.scalar, v = s.value_type.scalar;
  if (!a.set({{&s.keys_in, k, &d_keys_in.value},
              {&s.values_in, v, &d_values_in.value},
              {&s.values_out, v, &d_values_out.value}},
             num_items, s.iterators()))
    return CUDA_ERROR_INVALID_VALUE;
  return call(d_temp_storage != nullptr, d_temp_storage, temp_storage_bytes, a.at[0], a.at[1],
              a.out(2), num_items, h_init, stream);
}

}  // namespace cccl_cache::algos::scan_by_key
