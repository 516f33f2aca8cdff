// bind(): the one way to make an Executable. Fresh builds and store hits both come
// through here, so nothing after bind can tell them apart.
#include <string>

#include "cccl_cache/algos/merge_sort/executable.hpp"
#include "cuda_driver.hpp"
#include "cuda_handles.hpp"
#include "device_facts.hpp"
#include "merge_sort/dispatch.hpp"
#include "merge_sort/executable_state.hpp"

namespace cccl_cache::algos::merge_sort {

namespace {

using algos::detail::driver_error;

// Resolves a kernel and checks that the driver lets it run with `block_threads` threads
// per block (its launch bounds and register use allow it): once, at bind time.
Result<CUfunction> resolve(const algos::detail::DriverApi& cu, CUmodule mod,
                           std::string_view name_view, int block_threads) {
  if (name_view.empty())
    return fail(ErrorCode::invalid_argument, "bind: build result has an empty kernel name");
  const std::string name(name_view);  // NUL-terminated for the driver
  CUfunction fn = nullptr;
  if (CUresult rc = cu.cuModuleGetFunction(&fn, mod, name.c_str()); rc != CUDA_SUCCESS)
    return tl::unexpected(driver_error(("cuModuleGetFunction(" + name + ")").c_str(), rc));
  // Under lazy loading (the driver's default) the function's code is loaded on first
  // use: load it now (a no-op when loaded) so that the first call is not the slow one.
  if (CUresult rc = cu.cuFuncLoad(fn); rc != CUDA_SUCCESS)
    return tl::unexpected(driver_error("cuFuncLoad", rc));
  // deserialize compared the cubin's launch bounds with the policy; the driver has the
  // last word (registers can lower the limit below the bounds).
  int max_threads = 0;
  if (CUresult rc =
          cu.cuFuncGetAttribute(&max_threads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, fn);
      rc != CUDA_SUCCESS)
    return tl::unexpected(driver_error("cuFuncGetAttribute", rc));
  if (max_threads < block_threads)
    return fail(ErrorCode::corrupt, "bind: kernel " + name + " runs at most " +
                                        std::to_string(max_threads) +
                                        " threads per block, the build result launches " +
                                        std::to_string(block_threads) + "; rebuild it");
  return fn;
}

}  // namespace

Result<Executable> bind(const BuildResultView& result, int device) {
  const Policy& policy = result.policy;
  const std::size_t key_size = size_of(result.spec.key_type);
  const std::size_t value_size = size_of(result.spec.value_type);
  const detail::DispatchFn dispatch =
      detail::select_dispatch(key_size, value_size, result.spec.offset_type);
  if (dispatch == nullptr)
    return fail(ErrorCode::unsupported,
                "bind: unsupported merge sort types (" + summary(result.spec) + ")");
  if (policy.block_threads == 0 || policy.block_threads > 1024 || policy.items_per_tile == 0 ||
      policy.items_per_tile % policy.block_threads != 0 || policy.items_per_tile > (1u << 20))
    return fail(ErrorCode::invalid_argument, "bind: implausible merge sort policy (block_threads " +
                                                 std::to_string(policy.block_threads) +
                                                 ", items_per_tile " +
                                                 std::to_string(policy.items_per_tile) + ")");
  if (result.cubin.empty())
    return fail(ErrorCode::invalid_argument, "bind: build result has no cubin");

  // No driver: device_facts says so ("no NVIDIA driver found ..."), before anything is
  // loaded. The device's facts are queried once per process, not per bind.
  const auto facts = algos::detail::device_facts(device);
  if (!facts) return tl::unexpected(facts.error());
  if (facts->cc != result.cc)
    return fail(ErrorCode::unsupported, "bind: the build result is for sm_" +
                                            std::to_string(result.cc) + " but device " +
                                            std::to_string(device) + " is sm_" +
                                            std::to_string(facts->cc) + "; build for this device");
  const algos::detail::DriverApi& cu = algos::detail::loaded_driver();

  auto state = std::make_unique<Executable::State>();
  auto context = algos::detail::PrimaryContext::retain(facts->device);
  if (!context) return tl::unexpected(context.error());
  state->context = std::move(*context);
  auto current = algos::detail::ScopedCurrentContext::push(state->context.get());
  if (!current) return tl::unexpected(current.error());
  auto module = algos::detail::Module::load_data(state->context.get(), result.cubin.data());
  if (!module) return tl::unexpected(module.error());
  state->module = std::move(*module);

  const int block_threads = static_cast<int>(policy.block_threads);
  auto block_sort = resolve(cu, state->module.get(), result.block_sort_kernel, block_threads);
  if (!block_sort) return tl::unexpected(block_sort.error());
  auto partition = resolve(cu, state->module.get(), result.partition_kernel,
                           static_cast<int>(detail::kPartitionBlockThreads));
  if (!partition) return tl::unexpected(partition.error());
  auto merge = resolve(cu, state->module.get(), result.merge_kernel, block_threads);
  if (!merge) return tl::unexpected(merge.error());

  detail::DispatchParams& p = state->params;
  p.block_sort = *block_sort;
  p.partition = *partition;
  p.merge = *merge;
  p.launch = cu.cuLaunchKernelEx;
  p.ptx_version = static_cast<int>(result.cc) * 10;
  p.dependent_launch = result.cc >= 90;
  p.block_threads = block_threads;
  p.items_per_tile = static_cast<int>(policy.items_per_tile);
  p.block_sort_vsmem_per_block = policy.block_sort_vsmem_per_block;
  p.merge_vsmem_per_block = policy.merge_vsmem_per_block;
  state->dispatch = dispatch;
  state->layout = detail::make_layout(key_size, value_size, result.spec.offset_type, p);
  state->spec = result.spec;
  state->device = device;
  state->cc = result.cc;
  return Executable(std::move(state));
}

Executable::Executable(std::unique_ptr<State> state) : state_(std::move(state)) {}
Executable::Executable(Executable&&) noexcept = default;
Executable& Executable::operator=(Executable&&) noexcept = default;
Executable::~Executable() = default;

std::size_t Executable::temp_storage_bytes(std::uint64_t num_items) const noexcept {
  return state_ ? state_->layout.bytes(num_items) : 0;
}

CUresult Executable::operator()(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                const void* d_keys_in, const void* d_values_in, void* d_keys_out,
                                void* d_values_out, std::uint64_t num_items,
                                CUstream stream) const noexcept {
  if (!state_) return CUDA_ERROR_INVALID_HANDLE;  // moved from
  const State& s = *state_;
  if (d_temp_storage == nullptr) {
    if (num_items > s.layout.max_items) return CUDA_ERROR_INVALID_VALUE;
    temp_storage_bytes = s.layout.bytes(num_items);
    return CUDA_SUCCESS;
  }
  // A fork()ed child holds its parent's handles: CUDA state is not inherited.
  if (s.generation != algos::detail::fork_generation()) return CUDA_ERROR_NOT_INITIALIZED;
  return s.dispatch(s.params, d_temp_storage, temp_storage_bytes, d_keys_in, d_values_in,
                    d_keys_out, d_values_out, num_items, stream);
}

const Spec& Executable::spec() const noexcept { return state_->spec; }
int Executable::device() const noexcept { return state_->device; }
std::uint32_t Executable::cc() const noexcept { return state_->cc; }

}  // namespace cccl_cache::algos::merge_sort
