#include "core/bind.hpp"

#include <string>

#include "cccl_cache/cache/cc_family.hpp"
#include "cuda_driver.hpp"

namespace cccl_cache::algos::detail {

Result<BoundModule> bind_module(const BuildRecordView& record, int device,
                                std::span<const std::uint32_t> block_threads) {
  if (record.cubin.empty())
    return fail(ErrorCode::invalid_argument, "bind: build record has no cubin");
  if (record.num_kernels == 0 || record.num_kernels > kMaxKernels ||
      block_threads.size() != record.num_kernels)
    return fail(ErrorCode::invalid_argument, "bind: build record has no kernels, or not as many "
                                             "as block sizes given");
  // No driver: device_facts says so ("no NVIDIA driver found ..."), before anything is
  // loaded. The device's facts are queried once per process, not per bind.
  const auto facts = device_facts(device);
  if (!facts) return tl::unexpected(facts.error());
  // A cubin runs on its own CC and on higher minors of its major (cc_family.hpp).
  if (!runs_on(record.cc, facts->cc))
    return fail(ErrorCode::unsupported, "bind: the build record is for sm_" +
                                            std::to_string(record.cc) + " but device " +
                                            std::to_string(device) + " is sm_" +
                                            std::to_string(facts->cc) + "; build for this device");
  const DriverApi& cu = loaded_driver();

  BoundModule out;
  out.facts = *facts;
  auto context = PrimaryContext::retain(facts->device);
  if (!context) return tl::unexpected(context.error());
  out.context = std::move(*context);
  auto current = ScopedCurrentContext::push(out.context.get());
  if (!current) return tl::unexpected(current.error());
  auto module = Module::load_data(out.context.get(), record.cubin.data());
  if (!module) return tl::unexpected(module.error());
  out.module = std::move(*module);

  for (std::size_t i = 0; i < record.num_kernels; ++i) {
    const std::string name(record.kernel_names[i]);  // NUL-terminated for the driver
    if (name.empty()) return fail(ErrorCode::invalid_argument, "bind: empty kernel name");
    CUfunction fn = nullptr;
    if (CUresult rc = cu.cuModuleGetFunction(&fn, out.module.get(), name.c_str()); rc != CUDA_SUCCESS)
      return tl::unexpected(driver_error(("cuModuleGetFunction(" + name + ")").c_str(), rc));
    // Under lazy loading (the driver's default) a function's code is loaded on first
    // use: load it now (a no-op when loaded) so that the first call is not the slow one.
    if (CUresult rc = cu.cuFuncLoad(fn); rc != CUDA_SUCCESS)
      return tl::unexpected(driver_error("cuFuncLoad", rc));
    // The record's checks compared the cubin's launch bounds with the policy; the
    // driver has the last word (registers can lower the limit below the bounds).
    int max_threads = 0;
    if (CUresult rc = cu.cuFuncGetAttribute(&max_threads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, fn);
        rc != CUDA_SUCCESS)
      return tl::unexpected(driver_error("cuFuncGetAttribute", rc));
    if (max_threads < 0 || static_cast<std::uint32_t>(max_threads) < block_threads[i])
      return fail(ErrorCode::corrupt, "bind: kernel " + name + " runs at most " +
                                          std::to_string(max_threads) +
                                          " threads per block, the build result launches " +
                                          std::to_string(block_threads[i]) + "; rebuild it");
    out.functions[i] = fn;
    KernelLaunch& k = out.launch.kernels[i];
    k.function = fn;
    k.block_threads = static_cast<int>(block_threads[i]);
    if (CUresult rc = cu.cuOccupancyMaxActiveBlocksPerMultiprocessor(&k.occupancy, fn,
                                                                     k.block_threads, 0);
        rc != CUDA_SUCCESS)
      return tl::unexpected(driver_error("cuOccupancyMaxActiveBlocksPerMultiprocessor", rc));
    int static_smem = 0;
    if (CUresult rc = cu.cuFuncGetAttribute(&static_smem, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, fn);
        rc != CUDA_SUCCESS)
      return tl::unexpected(driver_error("cuFuncGetAttribute", rc));
    k.max_dynamic_smem = facts->max_shared_memory_optin - static_smem;
    // Allow the whole opt-in once, so that no dispatch needs to (core/launch.cuh).
    if (CUresult rc = cu.cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                            k.max_dynamic_smem);
        rc != CUDA_SUCCESS)
      return tl::unexpected(driver_error("cuFuncSetAttribute", rc));
  }
  out.device = device;
  out.cc = record.cc;
  LaunchContext& l = out.launch;
  l.num_kernels = record.num_kernels;
  l.launch = cu.cuLaunchKernelEx;
  l.memset = cu.cuMemsetD8Async;
  l.memcpy = cu.cuMemcpyDtoHAsync;
  l.synchronize = cu.cuStreamSynchronize;
  l.set_attribute = cu.cuFuncSetAttribute;
  l.device = device;
  l.ptx_version = static_cast<int>(record.cc) * 10;
  l.dependent_launch = record.cc >= 90;
  l.sm_count = facts->sm_count;
  l.max_grid_dim_x = facts->max_grid_dim_x;
  l.max_shared_memory = facts->max_shared_memory;
  return out;
}

}  // namespace cccl_cache::algos::detail
