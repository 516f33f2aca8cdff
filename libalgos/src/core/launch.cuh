// The glue every algorithm's dispatch.cu puts between CUB's host dispatch (compiled
// by nvcc against the pinned CCCL, with run-time policies) and the kernels a bind
// resolved: a launcher factory answering from the bound LaunchContext (no driver
// query), a launcher calling cuLaunchKernelEx, host stand-ins for element types and the
// closed-form dispatch entry. The fan-out over element sizes and offset types is
// core/fan_out.cuh's, the dispatch ABI description that goes into every key
// core/abi_text.cuh's. Include it FIRST in a dispatch.cu, before any CUB header.
#pragma once

// Policies are run-time values (the build's probe), so dispatches are compiled the
// way CCCL.C compiles them: with run-time policies.
#define CUB_DEFINE_RUNTIME_POLICIES
// CUB wraps every status in CubDebug(), which calls cudaGetLastError() even in release
// builds: a runtime-API call (it initializes the runtime, and without a driver it
// fails) on the temp-storage path, which must be pure arithmetic. Launches go through
// the driver and report their own errors (DriverLauncher), so statuses pass unchanged.
#define CubDebug(e) static_cast<cudaError_t>(e)
// For the same reason a dispatch's cudaPeekAtLastError() after a launch (an
// unqualified call inside namespace cub) finds this one first: the runtime's error
// state says nothing about driver launches, and the runtime stays out of the call.
#include <cuda_runtime_api.h>
// Our dispatches instantiate CUB with run-time policies and the stand-ins below: code
// that must not be merged with the CUB a program (or another library in it) compiles
// itself, where the same templates may be instantiated with the same arguments but
// compile-time policies. CUB and Thrust are therefore wrapped in a namespace of ours
// (CCCL's THRUST_CUB_WRAPPED_NAMESPACE), so none of our CUB symbols can collide with
// anyone's; `cub::` below names the wrapped namespace.
#define THRUST_CUB_WRAPPED_NAMESPACE cccl_cache_cccl
namespace cccl_cache::algos::detail {
// cub::SyncStream's cudaStreamSynchronize (segmented sort waits for the group sizes it
// copies to the host): answered through the running dispatch's factory (RuntimeAnswers
// below). Declared here, before CUB's headers, because SyncStream is no template: its
// call binds where util_device.cuh defines it.
struct RuntimeStreamSynchronize {
  cudaError_t operator()(cudaStream_t stream) const;
};
}  // namespace cccl_cache::algos::detail
namespace cccl_cache_cccl::cub {
inline cudaError_t cudaPeekAtLastError() noexcept { return cudaSuccess; }
inline constexpr cccl_cache::algos::detail::RuntimeStreamSynchronize cudaStreamSynchronize{};
}  // namespace cccl_cache_cccl::cub
namespace cub = ::cccl_cache_cccl::cub;

#include <cuda.h>

#include <cub/config.cuh>
#include <cub/device/dispatch/tuning/common.cuh>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>

#include "cccl_cache/algos/types.hpp"
#include "core/accumulator.hpp"
#include "core/launch.hpp"

static_assert(CCCL_VERSION == CCCL_CACHE_CCCL_PINNED_VERSION,
              "dispatch.cu must be compiled against the pinned CCCL (cmake/cccl.cmake puts "
              "CCCL_CACHE_CCCL_INCLUDE_DIR before the toolkit's own CCCL)");

namespace cccl_cache::algos::detail {

// Stands in for an element type of N bytes on the host side: the dispatch moves and
// sizes elements, it never looks inside them. Aligned to N's lowest set bit (N itself
// for 1, 2, 4, 8; a struct's 12 bytes: 4), but at most MaxAlign.
template <std::size_t N, std::size_t MaxAlign = N>
struct alignas((N & (~N + 1)) < MaxAlign ? (N & (~N + 1)) : MaxAlign) Bytes {
  unsigned char b[N];
};

// Stands in for a device-side function object (comparator, operator): CUB's function
// objects and the generated stateless operator structs are empty (one byte as a kernel
// parameter).
struct EmptyOp {};
static_assert(sizeof(EmptyOp) == 1 && alignof(EmptyOp) == 1);

// Stands in for an operator that may be stateful (c.parallel's indirect_arg_t): the
// kernel's parameter is the generated operator struct, empty or a stateful operator's N
// bytes of state, and OpArg holds the address of the bytes it is copied from (the call's
// state, or kNoOpState). DriverLauncher hands that address to the driver as the
// argument's pointer, so one instantiation of a dispatch serves every state layout.
struct OpArg {
  const void* bytes = kNoOpState;
};

// Stands in for a by-value kernel argument whose type only the device code names (scan by
// key's initial value, of the spec's value type): the address of the call's bytes of it.
// DriverLauncher hands that address to the driver, which reads as many bytes as the
// kernel's parameter has, so one instantiation of a dispatch serves every value type.
struct ValueArg {
  const void* bytes = nullptr;
};

// A kernel argument's address for cuLaunchKernelEx: the argument itself, or for OpArg and
// ValueArg the bytes they stand for.
template <class T>
void* arg_address(const T& arg) noexcept {
  return const_cast<void*>(static_cast<const void*>(&arg));
}
inline void* arg_address(const OpArg& arg) noexcept { return const_cast<void*>(arg.bytes); }
inline void* arg_address(const ValueArg& arg) noexcept { return const_cast<void*>(arg.bytes); }

// Launches through the bound cuLaunchKernelEx. CUB stops at the first launch whose
// doit() fails; the driver's code is kept in *status (CUB only sees a cudaError_t).
struct DriverLauncher {
  const LaunchContext* ctx;
  dim3 grid;
  dim3 block;
  std::size_t shared_mem;
  CUstream stream;
  bool dependent_launch;
  CUresult* status;

  template <class... Args>
  cudaError_t doit(CUfunction fn, const Args&... args) const {
    if (*status != CUDA_SUCCESS) return cudaErrorLaunchFailure;
    void* kernel_args[] = {arg_address(args)..., nullptr};
    CUlaunchAttribute attribute[1];
    attribute[0].id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
    attribute[0].value.programmaticStreamSerializationAllowed = 1;
    CUlaunchConfig config{};
    config.gridDimX = grid.x;
    config.gridDimY = grid.y;
    config.gridDimZ = grid.z;
    config.blockDimX = block.x;
    config.blockDimY = block.y;
    config.blockDimZ = block.z;
    config.sharedMemBytes = static_cast<unsigned>(shared_mem);
    config.hStream = stream;
    config.attrs = attribute;
    config.numAttrs = dependent_launch ? 1u : 0u;
    const CUresult rc =
        ctx->launch ? ctx->launch(&config, fn, kernel_args, nullptr) : CUDA_ERROR_NOT_INITIALIZED;
    if (rc != CUDA_SUCCESS) *status = rc;
    return rc == CUDA_SUCCESS ? cudaSuccess : cudaErrorLaunchFailure;
  }
};

// CUB's launcher-factory interface (cub/detail/launcher/cuda_runtime.cuh), answered
// from the LaunchContext fixed at bind: the facts and occupancies are lookups, the
// launches and memsets go to the driver. A question the context cannot answer (an
// occupancy for a block size the bind did not fix) fails the dispatch with
// cudaErrorInvalidValue rather than asking the driver.
struct DriverLauncherFactory {
  const LaunchContext* ctx;
  CUresult* status;

  DriverLauncher operator()(dim3 grid, dim3 block, std::size_t shared_mem, cudaStream_t stream,
                            bool dependent_launch = false) const {
    const bool pdl = dependent_launch && ctx->dependent_launch;
    return DriverLauncher{ctx, grid, block, shared_mem, stream, pdl, status};
  }
  cudaError_t PtxVersion(int& version) const {
    version = ctx->ptx_version;
    return cudaSuccess;
  }
  cudaError_t PtxComputeCap(::cuda::compute_capability& cc) const {
    cc = ::cuda::compute_capability{ctx->ptx_version / 10};
    return cudaSuccess;
  }
  cudaError_t MultiProcessorCount(int& sm_count) const {
    sm_count = ctx->sm_count;
    return cudaSuccess;
  }
  cudaError_t MaxGridDimX(int& max_grid_dim_x) const {
    max_grid_dim_x = ctx->max_grid_dim_x;
    return cudaSuccess;
  }
  cudaError_t MaxSharedMemory(int& max_shared_memory) const {
    max_shared_memory = ctx->max_shared_memory;
    return cudaSuccess;
  }
  cudaError_t MaxSmOccupancy(int& sm_occupancy, CUfunction fn, int block_size,
                             int dynamic_smem_bytes = 0) const {
    const KernelLaunch* k = ctx->find(fn);
    if (k != nullptr && k->block_threads == block_size && dynamic_smem_bytes == 0) {
      sm_occupancy = k->occupancy;
      return cudaSuccess;
    }
    if (k == nullptr || ctx->occupancy == nullptr) return cudaErrorInvalidValue;
    // A bind's dry run (LaunchContext::occupancy): the driver answers.
    const CUresult rc = ctx->occupancy(&sm_occupancy, fn, block_size,
                                       static_cast<std::size_t>(dynamic_smem_bytes));
    if (rc != CUDA_SUCCESS && ctx->occupancy_error != nullptr) *ctx->occupancy_error = rc;
    return rc == CUDA_SUCCESS ? cudaSuccess : cudaErrorInvalidValue;
  }
  cudaError_t max_dynamic_smem_size_for(int& max_dynamic_smem, CUfunction fn) const {
    const KernelLaunch* k = ctx->find(fn);
    if (k == nullptr) return cudaErrorInvalidValue;
    max_dynamic_smem = k->max_dynamic_smem;
    return cudaSuccess;
  }
  // Bind already allowed every kernel its whole opt-in (core/bind.cpp): a size within
  // it needs no driver call.
  cudaError_t set_max_dynamic_smem_size_for(CUfunction fn, int smem) const {
    const KernelLaunch* k = ctx->find(fn);
    return k != nullptr && smem <= k->max_dynamic_smem ? cudaSuccess : cudaErrorInvalidValue;
  }
  // A device result the dispatch reads on the host after a StreamSynchronize (the only
  // copy a CCCL 3.5 dispatch makes through its factory: device to host; any other kind is
  // refused).
  cudaError_t MemcpyAsync(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind,
                          cudaStream_t stream) const {
    if (kind != cudaMemcpyDeviceToHost) return cudaErrorInvalidValue;
    if (*status != CUDA_SUCCESS) return cudaErrorLaunchFailure;
    const CUresult rc = ctx->memcpy ? ctx->memcpy(dst, reinterpret_cast<CUdeviceptr>(src), bytes, stream)
                                    : CUDA_ERROR_NOT_INITIALIZED;
    if (rc != CUDA_SUCCESS) *status = rc;
    return rc == CUDA_SUCCESS ? cudaSuccess : cudaErrorLaunchFailure;
  }
  cudaError_t StreamSynchronize(cudaStream_t stream) const {
    if (*status != CUDA_SUCCESS) return cudaErrorLaunchFailure;
    const CUresult rc = ctx->synchronize ? ctx->synchronize(stream) : CUDA_ERROR_NOT_INITIALIZED;
    if (rc != CUDA_SUCCESS) *status = rc;
    return rc == CUDA_SUCCESS ? cudaSuccess : cudaErrorLaunchFailure;
  }
  cudaError_t MemsetAsync(void* dst, unsigned char value, std::size_t bytes,
                          cudaStream_t stream) const {
    if (*status != CUDA_SUCCESS) return cudaErrorLaunchFailure;
    const CUresult rc = ctx->memset ? ctx->memset(reinterpret_cast<CUdeviceptr>(dst), value,
                                                  bytes, stream)
                                    : CUDA_ERROR_NOT_INITIALIZED;
    if (rc != CUDA_SUCCESS) *status = rc;
    return rc == CUDA_SUCCESS ? cudaSuccess : cudaErrorLaunchFailure;
  }
};

// Some CCCL 3.5 dispatches ask the CUDA runtime directly instead of their launcher
// factory: radix sort reads the device and its SM count (cudaGetDevice,
// cudaDeviceGetAttribute, even for a temp-storage query) and clears its look-back counters
// with cudaMemsetAsync (below CC 9.0, or above 2^24 items); segmented sort waits for its
// partition's group sizes with cub::SyncStream (cudaStreamSynchronize). These are unqualified calls
// inside namespace cub: the function objects of the same names declared there below are
// found first (objects, so that argument-dependent lookup does not bring the runtime's
// functions back). They answer from the factory of the dispatch running on this thread
// (RuntimeAnswers), and pass to the runtime only when none runs (other CUB code of the
// same program, which then behaves as without them).
inline thread_local const DriverLauncherFactory* t_running_factory = nullptr;

// For its lifetime, `factory` answers this thread's runtime calls above. Put one around a
// dispatch whose CUB code makes them.
class RuntimeAnswers {
 public:
  explicit RuntimeAnswers(const DriverLauncherFactory& factory) noexcept
      : previous_(t_running_factory) {
    t_running_factory = &factory;
  }
  ~RuntimeAnswers() { t_running_factory = previous_; }
  RuntimeAnswers(const RuntimeAnswers&) = delete;
  RuntimeAnswers& operator=(const RuntimeAnswers&) = delete;

 private:
  const DriverLauncherFactory* previous_;
};

struct RuntimeGetDevice {
  cudaError_t operator()(int* device) const {
    if (const DriverLauncherFactory* f = t_running_factory) {
      *device = f->ctx->device;
      return cudaSuccess;
    }
    return ::cudaGetDevice(device);
  }
};
struct RuntimeDeviceGetAttribute {
  cudaError_t operator()(int* value, cudaDeviceAttr attr, int device) const {
    const DriverLauncherFactory* f = t_running_factory;
    if (f == nullptr) return ::cudaDeviceGetAttribute(value, attr, device);
    if (device != f->ctx->device) return cudaErrorInvalidDevice;
    switch (attr) {
      case cudaDevAttrMultiProcessorCount: return f->MultiProcessorCount(*value);
      case cudaDevAttrMaxGridDimX: return f->MaxGridDimX(*value);
      case cudaDevAttrMaxSharedMemoryPerBlock: return f->MaxSharedMemory(*value);
      default: return cudaErrorInvalidValue;  // nothing the bind fixed
    }
  }
};
struct RuntimeMemsetAsync {
  cudaError_t operator()(void* dst, int value, std::size_t bytes, cudaStream_t stream = nullptr) const {
    if (const DriverLauncherFactory* f = t_running_factory)
      return f->MemsetAsync(dst, static_cast<unsigned char>(value), bytes, stream);
    return ::cudaMemsetAsync(dst, value, bytes, stream);
  }
};

inline cudaError_t RuntimeStreamSynchronize::operator()(cudaStream_t stream) const {
  if (const DriverLauncherFactory* f = t_running_factory) return f->StreamSynchronize(stream);
  return ::cudaStreamSynchronize(stream);
}

// A dispatch's outcome as the driver's code: the launch error kept by the launcher
// first, then CUB's own status.
inline CUresult dispatch_result(cudaError_t err, CUresult status) noexcept {
  if (status != CUDA_SUCCESS) return status;
  if (err == cudaSuccess) return CUDA_SUCCESS;
  if (err == cudaErrorInvalidValue) return CUDA_ERROR_INVALID_VALUE;
  if (err == cudaErrorNotSupported) return CUDA_ERROR_NOT_SUPPORTED;
  return CUDA_ERROR_UNKNOWN;
}

// CUB's grid for an even-share kernel (reduce's, radix sort's multi-pass passes): resident
// blocks per SM at the kernel's bound block size, times SMs, times CUB's subscription
// factor. What a closed-form size query sizes per-block scratch by.
inline std::uint64_t even_share_blocks(const LaunchContext& ctx, std::size_t kernel) noexcept {
  return std::uint64_t(ctx.kernels[kernel].occupancy) * std::uint64_t(ctx.sm_count) *
         cub::detail::subscription_factor;
}

// The shape of every executable's dispatch entry whose temp-storage answer has a closed
// form: an algorithm writes `Query` and `Dispatch` with the signature of its DispatchFn
// `Fn` (params, d_temp_storage, temp_storage_bytes, args...); run<Query, Dispatch> answers
// a size query (d_temp_storage == nullptr) with Query (no dispatch, no driver call) and
// hands everything else to Dispatch (CUB's host dispatch). `Dispatch` alone answers
// every size query through CUB: the reference each closed form is tested equal to.
template <class Fn>
struct ClosedForm;
template <class Params, class... Args>
struct ClosedForm<CUresult (*)(const Params&, void*, std::size_t&, Args...) noexcept> {
  using Fn = CUresult (*)(const Params&, void*, std::size_t&, Args...) noexcept;
  template <Fn Query, Fn Dispatch>
  static CUresult run(const Params& params, void* d_temp_storage, std::size_t& temp_storage_bytes,
                      Args... args) noexcept {
    if (d_temp_storage == nullptr) return Query(params, nullptr, temp_storage_bytes, args...);
    return Dispatch(params, d_temp_storage, temp_storage_bytes, args...);
  }
  // The executables' entry (closed_form) or CUB's whole dispatch.
  template <Fn Query, Fn Dispatch>
  static constexpr Fn select(bool closed_form) noexcept {
    return closed_form ? &run<Query, Dispatch> : Dispatch;
  }
};

// The element-type class CUB's policy selectors key on (cub::detail::classify_type of
// the element type), from our ScalarType.
inline cub::detail::type_t cub_type_of(ScalarType t) noexcept {
  using cub::detail::type_t;
  switch (t) {
    case ScalarType::int8: return type_t::int8;
    case ScalarType::int16: return type_t::int16;
    case ScalarType::int32: return type_t::int32;
    case ScalarType::int64: return type_t::int64;
    case ScalarType::uint8: return type_t::uint8;
    case ScalarType::uint16: return type_t::uint16;
    case ScalarType::uint32: return type_t::uint32;
    case ScalarType::uint64: return type_t::uint64;
    case ScalarType::float32: return type_t::float32;
    case ScalarType::float64: return type_t::float64;
    case ScalarType::boolean: return type_t::boolean;
    default: return type_t::other;  // __half, __nv_bfloat16 (as cub::detail::classify_type)
  }
}

}  // namespace cccl_cache::algos::detail

namespace cccl_cache_cccl::cub {
// The runtime calls CUB's dispatches make themselves (see RuntimeAnswers).
inline constexpr cccl_cache::algos::detail::RuntimeGetDevice cudaGetDevice{};
inline constexpr cccl_cache::algos::detail::RuntimeDeviceGetAttribute cudaDeviceGetAttribute{};
inline constexpr cccl_cache::algos::detail::RuntimeMemsetAsync cudaMemsetAsync{};
}  // namespace cccl_cache_cccl::cub
