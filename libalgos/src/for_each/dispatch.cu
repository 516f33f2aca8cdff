// for_each's host dispatch: CCCL 3.5's DeviceFor dispatch launches its kernel with <<<>>>
// (no launcher factory), so this mirrors invoke_static_block_size over the bound kernel.
#include "core/launch.cuh"
#include "core/abi_text.cuh"

#include <cstring>
#include <limits>

#include "for_each/dispatch.hpp"

namespace cccl_cache::algos::for_each::detail {
namespace {

template <class Offset>
CUresult run(const DispatchParams& p, const void* items, std::uint64_t num_items, CUstream stream,
             const void* op_state) noexcept {
  if (num_items > static_cast<std::uint64_t>(std::numeric_limits<Offset>::max()))
    return CUDA_ERROR_INVALID_VALUE;
  if (num_items == 0) return CUDA_SUCCESS;
  const algos::detail::LaunchContext& ctx = *p.launch;
  if (ctx.launch == nullptr) return CUDA_ERROR_NOT_INITIALIZED;
  const std::uint64_t tile = std::uint64_t{p.policy.block_threads} * p.policy.items_per_thread;
  const std::uint64_t tiles = (num_items + tile - 1) / tile;
  if (tiles > static_cast<std::uint64_t>(ctx.max_grid_dim_x)) return CUDA_ERROR_INVALID_VALUE;
  alignas(16) unsigned char wrapper[kMaxWrapperBytes];
  std::memcpy(wrapper, items, p.items_size);
  std::memcpy(wrapper + p.op_offset, op_state, p.op_size);
  Offset n = static_cast<Offset>(num_items);
  void* args[] = {&n, wrapper};
  CUlaunchConfig config{};
  config.gridDimX = static_cast<unsigned>(tiles);
  config.gridDimY = config.gridDimZ = 1;
  config.blockDimX = p.policy.block_threads;
  config.blockDimY = config.blockDimZ = 1;
  config.hStream = stream;
  return ctx.launch(&config, ctx.kernels[0].function, args, nullptr);
}

}  // namespace

DispatchFn dispatch_for(ScalarType offset_type) noexcept {
  switch (offset_type) {
    case ScalarType::int32: return &run<std::int32_t>;
    case ScalarType::uint32: return &run<std::uint32_t>;
    case ScalarType::int64: return &run<std::int64_t>;
    case ScalarType::uint64: return &run<std::uint64_t>;
    default: return nullptr;
  }
}

}  // namespace cccl_cache::algos::for_each::detail

namespace cccl_cache::algos {

const std::string& ForEach::dispatch_abi() {
  using for_each::detail::DispatchParams;
  return detail::describe_abi<DispatchParams>([](detail::AbiText& abi) {
    abi.policy_fields<DispatchParams>(&DispatchParams::policy);
    CCCL_CACHE_ABI_FIELD(abi, DispatchParams, items_size);
    CCCL_CACHE_ABI_FIELD(abi, DispatchParams, op_offset);
    CCCL_CACHE_ABI_FIELD(abi, DispatchParams, op_size);
    abi.field("wrapper_max", 0, for_each::detail::kMaxWrapperBytes);
  });
}

}  // namespace cccl_cache::algos
