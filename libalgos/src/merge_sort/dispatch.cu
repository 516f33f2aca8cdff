// CCCL 3.5's merge-sort host dispatch (cub::detail::merge_sort::dispatch, the
// policy-selector dispatch that replaces the deprecated cub::DispatchMergeSort; its
// host code compiled here by nvcc) driven by CUfunctions bound once: a kernel source
// returning them, a launcher factory launching them with cuLaunchKernelEx
// (programmatic dependent launch where CUB asks for it, at CC >= 9.0), and a policy
// selector returning the build's policy values at run time.
//
// The device kernels were instantiated by the build (codegen.cpp) as
//   DeviceMergeSortBlockSortKernel<policy_selector_from_types<K*>, K*, V*, K*, V*, OffsetT,
//                                  cccl_cache_compare, K, V>
// etc. with an empty comparator struct and cub::NullType values for keys-only sorts.
// Host-side stand-ins with the same size and alignment give the dispatch the same
// argument layout; nothing here depends on what the keys are.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

// The policy is a run-time value (the build's probe), so the dispatch is compiled the
// way CCCL.C compiles it: with runtime policies. The deprecated DispatchMergeSort can no
// longer take one (it reads the policy's members as constants), which is why the
// non-deprecated dispatch is used. One consequence: with runtime policies CUB allocates
// no virtual shared memory, so policies that need it (types too large for shared
// memory; never the 1..8-byte keys and values supported here) are refused below.
#define CUB_DEFINE_RUNTIME_POLICIES
// CUB wraps every status in CubDebug(), which calls cudaGetLastError() even in release
// builds: a runtime-API call (it initializes the runtime, and without a driver it
// fails) on the temp-storage path, which we want to be pure arithmetic. Our launches go
// through the driver and report their own errors (DriverLauncher), so the status is
// passed through unchanged.
#define CubDebug(e) static_cast<cudaError_t>(e)
// For the same reason the dispatch's cudaPeekAtLastError() after each launch (an
// unqualified call inside namespace cub) finds this one first: the runtime's error
// state says nothing about driver launches, and the runtime stays out of the call
// (no runtime initialization on the first sort).
#include <cuda_runtime_api.h>
namespace cub {
inline cudaError_t cudaPeekAtLastError() noexcept { return cudaSuccess; }
}  // namespace cub
#include <xxhash.h>

#include <cub/device/dispatch/dispatch_merge_sort.cuh>

#include "merge_sort/dispatch.hpp"

static_assert(CCCL_VERSION == CCCL_CACHE_CCCL_PINNED_VERSION,
              "dispatch.cu must be compiled against the pinned CCCL (cmake/cccl.cmake puts "
              "CCCL_CACHE_CCCL_INCLUDE_DIR before the toolkit's own CCCL)");

namespace cccl_cache::algos::merge_sort::detail {
namespace {

template <std::size_t N>
struct alignas(N) Bytes {
  unsigned char b[N];
};

// Stands in for the device-side comparator: an empty struct (one byte, as a kernel parameter).
struct EmptyCompare {};
static_assert(sizeof(EmptyCompare) == 1);

// The build already chose the policy for the target CC: only the tile shape matters
// to the host dispatch; the rest is what CUB's own selector returns (documentation).
struct RuntimePolicySelector {
  const DispatchParams* params;
  cub::MergeSortPolicy operator()(::cuda::compute_capability) const {
    return cub::MergeSortPolicy{params->block_threads,
                                params->items_per_tile / params->block_threads,
                                cub::BLOCK_LOAD_WARP_TRANSPOSE, cub::LOAD_DEFAULT,
                                cub::BLOCK_STORE_WARP_TRANSPOSE};
  }
};

template <std::size_t K, std::size_t V>
struct BoundKernels {
  const DispatchParams* params;
  CUfunction MergeSortBlockSortKernel() const { return params->block_sort; }
  CUfunction MergeSortPartitionKernel() const { return params->partition; }
  CUfunction MergeSortMergeKernel() const { return params->merge; }
  static constexpr std::size_t KeySize() { return K; }
  static constexpr std::size_t ValueSize() { return V; }
};

// CUB stops at the first launch whose doit() fails; the driver's code is kept in
// *status (the dispatch itself only sees cudaErrorLaunchFailure).
struct DriverLauncher {
  decltype(&::cuLaunchKernelEx) launch;
  dim3 grid;
  dim3 block;
  std::size_t shared_mem;
  CUstream stream;
  bool dependent_launch;
  CUresult* status;

  template <class... Args>
  cudaError_t doit(CUfunction fn, const Args&... args) const {
    if (*status != CUDA_SUCCESS) return cudaErrorLaunchFailure;
    void* kernel_args[] = {const_cast<void*>(static_cast<const void*>(&args))...};
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
        launch ? launch(&config, fn, kernel_args, nullptr) : CUDA_ERROR_NOT_INITIALIZED;
    if (rc != CUDA_SUCCESS) *status = rc;
    return rc == CUDA_SUCCESS ? cudaSuccess : cudaErrorLaunchFailure;
  }
};

struct DriverLauncherFactory {
  const DispatchParams* params;
  CUresult* status;

  DriverLauncher operator()(dim3 grid, dim3 block, std::size_t shared_mem, cudaStream_t stream,
                            bool dependent_launch = false) const {
    const bool pdl = dependent_launch && params->dependent_launch;
    return DriverLauncher{params->launch, grid, block, shared_mem, stream, pdl, status};
  }
  cudaError_t PtxComputeCap(::cuda::compute_capability& cc) const {
    cc = ::cuda::compute_capability{params->ptx_version / 10};
    return cudaSuccess;
  }
};

template <std::size_t K, std::size_t V, class OffsetT>
CUresult run_dispatch(const DispatchParams& params, void* d_temp_storage,
                      std::size_t& temp_storage_bytes, const void* d_keys_in,
                      const void* d_values_in, void* d_keys_out, void* d_values_out,
                      std::uint64_t num_items, CUstream stream) noexcept {
  using KeyT = Bytes<K>;
  using ValueT = std::conditional_t<V == 0, cub::NullType, Bytes<V>>;
  if (!policy_supported(params)) return CUDA_ERROR_NOT_SUPPORTED;
  if (num_items > static_cast<std::uint64_t>(std::numeric_limits<OffsetT>::max()))
    return CUDA_ERROR_INVALID_VALUE;
  CUresult status = CUDA_SUCCESS;
  const cudaError_t err =
      cub::detail::merge_sort::dispatch<KeyT*, ValueT*, KeyT*, ValueT*, OffsetT, EmptyCompare,
                                        RuntimePolicySelector, BoundKernels<K, V>,
                                        DriverLauncherFactory, KeyT, ValueT>(
          d_temp_storage, temp_storage_bytes, static_cast<KeyT*>(const_cast<void*>(d_keys_in)),
          static_cast<ValueT*>(const_cast<void*>(d_values_in)), static_cast<KeyT*>(d_keys_out),
          static_cast<ValueT*>(d_values_out), static_cast<OffsetT>(num_items), EmptyCompare{},
          stream, RuntimePolicySelector{&params}, BoundKernels<K, V>{&params},
          DriverLauncherFactory{&params, &status});
  if (status != CUDA_SUCCESS) return status;
  if (err == cudaSuccess) return CUDA_SUCCESS;
  if (err == cudaErrorInvalidValue) return CUDA_ERROR_INVALID_VALUE;
  return CUDA_ERROR_UNKNOWN;
}

template <std::size_t K, std::size_t V>
DispatchFn for_offset(ScalarType offset_type) noexcept {
  switch (offset_type) {
    case ScalarType::int32:
      return &run_dispatch<K, V, std::int32_t>;
    case ScalarType::uint32:
      return &run_dispatch<K, V, std::uint32_t>;
    case ScalarType::int64:
      return &run_dispatch<K, V, std::int64_t>;
    case ScalarType::uint64:
      return &run_dispatch<K, V, std::uint64_t>;
    default:
      return nullptr;
  }
}

template <std::size_t K>
DispatchFn for_value(std::size_t value_size, ScalarType offset_type) noexcept {
  switch (value_size) {
    case 0:
      return for_offset<K, 0>(offset_type);
    case 1:
      return for_offset<K, 1>(offset_type);
    case 2:
      return for_offset<K, 2>(offset_type);
    case 4:
      return for_offset<K, 4>(offset_type);
    case 8:
      return for_offset<K, 8>(offset_type);
    default:
      return nullptr;
  }
}

std::uint64_t offset_max(ScalarType offset_type) noexcept {
  switch (offset_type) {
    case ScalarType::int32:
      return std::numeric_limits<std::int32_t>::max();
    case ScalarType::uint32:
      return std::numeric_limits<std::uint32_t>::max();
    case ScalarType::int64:
      return std::numeric_limits<std::int64_t>::max();
    case ScalarType::uint64:
      return std::numeric_limits<std::uint64_t>::max();
    default:
      return 0;
  }
}

}  // namespace

DispatchFn select_dispatch(std::size_t key_size, std::size_t value_size,
                           ScalarType offset_type) noexcept {
  switch (key_size) {
    case 1:
      return for_value<1>(value_size, offset_type);
    case 2:
      return for_value<2>(value_size, offset_type);
    case 4:
      return for_value<4>(value_size, offset_type);
    case 8:
      return for_value<8>(value_size, offset_type);
    default:
      return nullptr;
  }
}

TempLayout make_layout(std::size_t key_size, std::size_t value_size, ScalarType offset_type,
                       const DispatchParams& params) noexcept {
  TempLayout layout;
  layout.items_per_tile =
      params.items_per_tile > 0 ? static_cast<std::uint64_t>(params.items_per_tile) : 1;
  layout.key_size = key_size;
  layout.value_size = value_size;
  layout.offset_size = offset_max(offset_type) > std::numeric_limits<std::uint32_t>::max() ? 8 : 4;
  layout.max_items = policy_supported(params) ? offset_max(offset_type) : 0;
  return layout;
}

bool policy_supported(const DispatchParams& params) noexcept {
  return params.block_threads > 0 && params.items_per_tile > 0 &&
         params.items_per_tile % params.block_threads == 0 &&
         params.block_sort_vsmem_per_block == 0 && params.merge_vsmem_per_block == 0;
}

std::uint32_t host_cccl_version() noexcept { return CCCL_VERSION; }

namespace {

template <class T>
void describe_type(std::string& out, const char* name) {
  out += ' ';
  out += name;
  out += '=';
  out += std::to_string(sizeof(T));
  out += '/';
  out += std::to_string(alignof(T));
}

#define CCCL_CACHE_FIELD(f)                                   \
  out += " " #f "@";                                         \
  out += std::to_string(offsetof(DispatchParams, f));       \
  out += ':';                                                \
  out += std::to_string(sizeof(DispatchParams::f));

std::string make_abi_description() {
  std::string out = "cub=" + std::to_string(CUB_VERSION) + " cccl=" + std::to_string(CCCL_VERSION);
  out += " params=" + std::to_string(sizeof(DispatchParams));
  CCCL_CACHE_FIELD(block_sort)
  CCCL_CACHE_FIELD(partition)
  CCCL_CACHE_FIELD(merge)
  CCCL_CACHE_FIELD(launch)
  CCCL_CACHE_FIELD(ptx_version)
  CCCL_CACHE_FIELD(dependent_launch)
  CCCL_CACHE_FIELD(block_threads)
  CCCL_CACHE_FIELD(items_per_tile)
  CCCL_CACHE_FIELD(block_sort_vsmem_per_block)
  CCCL_CACHE_FIELD(merge_vsmem_per_block)
  // The kernels' argument types (their order is CUB's, covered by cub=).
  describe_type<cub::NullType>(out, "null");
  describe_type<EmptyCompare>(out, "compare");
  describe_type<cub::detail::vsmem_t>(out, "vsmem");
  describe_type<Bytes<1>>(out, "b1");
  describe_type<Bytes<2>>(out, "b2");
  describe_type<Bytes<4>>(out, "b4");
  describe_type<Bytes<8>>(out, "b8");
  describe_type<cub::MergeSortPolicy>(out, "policy");
  return out;
}
#undef CCCL_CACHE_FIELD

}  // namespace

const std::string& dispatch_abi_description() {
  static const std::string description = make_abi_description();
  return description;
}

std::uint64_t dispatch_abi_digest() noexcept {
  static const std::uint64_t digest =
      XXH3_64bits(dispatch_abi_description().data(), dispatch_abi_description().size());
  return digest;
}

}  // namespace cccl_cache::algos::merge_sort::detail
