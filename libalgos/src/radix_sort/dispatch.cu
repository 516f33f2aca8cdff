// CCCL 3.5's radix-sort host dispatch (cub::detail::radix_sort::dispatch, the policy-
// selector dispatch; its host code compiled here by nvcc) driven by the kernels a bind
// resolved, through the core's launcher factory, with the build's probed policy as a
// run-time policy selector. Its direct runtime calls (device, SM count, look-back memset)
// are answered from the bound launch context (core/launch.cuh RuntimeAnswers).
//
// The device kernels were instantiated by the build (codegen.cpp) with the real key,
// value (cub::NullType for keys-only) and offset types and the identity decomposer; the
// dispatch only moves pointers, so host stand-ins of the same sizes give the same
// argument layout. The sort order is the kernels' (a template argument there): the host
// code is the same for both.
#include "core/launch.cuh"
#include "core/fan_out.cuh"
#include "core/abi_text.cuh"

#include <cub/device/dispatch/dispatch_radix_sort.cuh>

#include "core/temp_storage.hpp"
#include "radix_sort/dispatch.hpp"

namespace cccl_cache::algos::radix_sort::detail {
namespace {

using algos::detail::Bytes;
using algos::detail::DriverLauncherFactory;
using Decomposer = cub::detail::identity_decomposer_t;

// Each Policy value with the member of CUB's RadixSortPolicy it mirrors: `v(ours, cubs)`
// for every pair (RuntimePolicySelector writes ours into CUB's, selected_policy reads
// CUB's into ours). The algorithm is an enum there, 0/1 here.
template <class P, class R, class V>
void mirror(P& p, R& r, V&& v) {
  CCCL_CACHE_RADIX_SORT_POLICY(CCCL_CACHE_POLICY_MIRROR)
}

// The build's policy, as CUB's selector would return it for the bound CC: the fields the
// host dispatch reads (an upsweep pass's digit bits are its downsweep's); the rest
// (load/rank/scan algorithms) only shape device code.
struct RuntimePolicySelector {
  const Policy* p;
  cub::RadixSortPolicy operator()(::cuda::compute_capability) const {
    cub::RadixSortPolicy r{};
    r.algorithm = p->onesweep ? cub::RadixSortAlgorithm::onesweep : cub::RadixSortAlgorithm::multi_pass;
    mirror(*p, r, algos::detail::policy_to_cub);
    r.upsweep.load_modifier = r.alt_upsweep.load_modifier = cub::LOAD_DEFAULT;
    r.upsweep.radix_bits = int(p->downsweep_radix_bits);
    r.alt_upsweep.radix_bits = int(p->alt_downsweep_radix_bits);
    r.scan.algorithm = cub::ScanAlgorithm::lookback;
    return r;
  }
};

// The bound kernels by slot; a kernel of the other algorithm's slots is never launched.
template <std::size_t K, class ValueT, class OffsetT>
struct BoundKernels {
  const DispatchParams* params;
  using KeyT = Bytes<K>;
  CUfunction slot(Kernel k) const { return params->launch->kernels[k].function; }
  CUfunction multi(Kernel k) const { return params->policy.onesweep ? nullptr : slot(k); }
  CUfunction one(Kernel k) const { return params->policy.onesweep ? slot(k) : nullptr; }
  CUfunction RadixSortSingleTileKernel() const { return slot(single_tile); }
  CUfunction RadixSortUpsweepKernel() const { return multi(upsweep); }
  CUfunction RadixSortAltUpsweepKernel() const { return multi(alt_upsweep); }
  CUfunction DeviceRadixSortScanBinsKernel() const { return multi(scan_bins); }
  CUfunction RadixSortDownsweepKernel() const { return multi(downsweep); }
  CUfunction RadixSortAltDownsweepKernel() const { return multi(alt_downsweep); }
  CUfunction RadixSortHistogramKernel() const { return one(histogram); }
  CUfunction RadixSortExclusiveSumKernel() const { return one(exclusive_sum); }
  CUfunction RadixSortInitBinsAndCountersKernel() const { return one(init_bins); }
  CUfunction RadixSortInitLookbackKernel() const { return one(init_lookback); }
  CUfunction RadixSortOnesweepKernel() const { return one(onesweep_kernel); }
  static constexpr std::size_t KeySize() { return K; }
  static constexpr std::size_t ValueSize() { return sizeof(ValueT); }
  static KeyT* AdvanceKeys(KeyT* p, OffsetT n) { return p + n; }
  static ValueT* AdvanceValues(ValueT* p, OffsetT n) { return p + n; }
};

template <std::size_t K, std::size_t V, class OffsetT>
CUresult run_dispatch(const DispatchParams& params, void* d_temp_storage,
                      std::size_t& temp_storage_bytes, DoubleBuffers& buffers,
                      std::uint64_t num_items, int begin_bit, int end_bit, bool overwrite,
                      CUstream stream) noexcept {
  using KeyT = Bytes<K>;
  using ValueT = std::conditional_t<V == 0, cub::NullType, Bytes<V>>;
  if (num_items > std::numeric_limits<OffsetT>::max()) return CUDA_ERROR_INVALID_VALUE;
  const int s = buffers.selector & 1;
  cub::DoubleBuffer<KeyT> keys(static_cast<KeyT*>(buffers.keys[s]),
                               static_cast<KeyT*>(buffers.keys[s ^ 1]));
  cub::DoubleBuffer<ValueT> values(static_cast<ValueT*>(buffers.values[s]),
                                   static_cast<ValueT*>(buffers.values[s ^ 1]));
  CUresult status = CUDA_SUCCESS;
  const DriverLauncherFactory factory{params.launch, &status};
  const algos::detail::RuntimeAnswers answers(factory);
  const cudaError_t err =
      cub::detail::radix_sort::dispatch<cub::SortOrder::Ascending, KeyT, ValueT, OffsetT, Decomposer,
                                        RuntimePolicySelector, BoundKernels<K, ValueT, OffsetT>,
                                        DriverLauncherFactory>(
          d_temp_storage, temp_storage_bytes, keys, values, static_cast<OffsetT>(num_items),
          begin_bit, end_bit, overwrite, stream, Decomposer{},
          RuntimePolicySelector{&params.policy}, BoundKernels<K, ValueT, OffsetT>{&params}, factory);
  const CUresult rc = algos::detail::dispatch_result(err, status);
  // Without overwrite, onesweep re-points the DoubleBuffer at temp storage on the way (the
  // sort still ends in the caller's second buffer): find the output by its address.
  if (rc == CUDA_SUCCESS && d_temp_storage != nullptr)
    buffers.selector = keys.Current() == buffers.keys[s] ? s : s ^ 1;
  return rc;
}

// CUB's answer to a size query (dispatch_impl::invoke, invoke_onesweep, invoke_passes in
// CCCL 3.5) in closed form, from the bound policy and launch context: the same
// allocations through alias_temporaries' arithmetic (dispatch.hpp DispatchFn). A range
// that is not 0 <= begin_bit < end_bit (the executables refuse it; CUB asks the runtime
// about UVA for an empty plain-form range) goes to CUB's dispatch.
template <std::size_t K, std::size_t V, class OffsetT>
CUresult closed_form_bytes(const DispatchParams& params, void*, std::size_t& temp_storage_bytes,
                           DoubleBuffers& buffers, std::uint64_t num_items, int begin_bit,
                           int end_bit, bool overwrite, CUstream stream) noexcept {
  using algos::detail::alias_bytes;
  using algos::detail::ceil_div;
  if (begin_bit < 0 || begin_bit >= end_bit)
    return run_dispatch<K, V, OffsetT>(params, nullptr, temp_storage_bytes, buffers, num_items,
                                       begin_bit, end_bit, overwrite, stream);
  if (num_items > std::numeric_limits<OffsetT>::max()) return CUDA_ERROR_INVALID_VALUE;
  const Policy& p = params.policy;
  if (num_items == 0 ||
      num_items <= std::uint64_t{p.single_tile_threads} * p.single_tile_items) {
    temp_storage_bytes = 1;
    return CUDA_SUCCESS;
  }
  const auto bits = static_cast<std::uint32_t>(end_bit - begin_bit);
  if (p.onesweep) {
    const std::uint32_t radix_bits = p.onesweep_radix_bits, digits = 1u << radix_bits;
    const std::uint32_t tile = p.onesweep_threads * p.onesweep_items;
    // Portions of at most 2^28 - 1 items, whole tiles (as CUB's portion_size).
    const std::uint32_t portion = ((1u << 28) - 1) / tile * tile;
    const std::uint64_t passes = ceil_div(bits, radix_bits);
    const std::uint64_t portions = num_items <= portion ? 1 : ceil_div(num_items, portion);
    const std::uint64_t max_blocks = ceil_div(std::min<std::uint64_t>(num_items, portion), tile);
    const std::uint64_t extra = overwrite || passes <= 1 ? 0 : num_items;
    temp_storage_bytes = static_cast<std::size_t>(
        alias_bytes(portions * passes * digits * sizeof(OffsetT),  // bins
                    max_blocks * digits * sizeof(int),              // look-back
                    extra * K, extra * V,                           // third key, value buffers
                    portions * passes * sizeof(int)));              // counters
    return CUDA_SUCCESS;
  }
  // Multi-pass: CUB asks the occupancy of each pass kernel at its policy's block size
  // (bind fixed each slot at it; anything else fails as the factory's answer would).
  const algos::detail::LaunchContext& ctx = *params.launch;
  const auto threads = launch_threads(p);
  for (Kernel k : {upsweep, scan_bins, downsweep, alt_upsweep, alt_downsweep})
    if (k >= ctx.num_kernels || ctx.kernels[k].block_threads != int(threads[k]))
      return CUDA_ERROR_INVALID_VALUE;
  const std::uint64_t grid = std::max(algos::detail::even_share_blocks(ctx, downsweep),
                                      algos::detail::even_share_blocks(ctx, alt_downsweep));
  const std::uint64_t spine = grid * (1u << p.downsweep_radix_bits) +
                              std::uint64_t{p.scan_threads} * p.scan_items;
  const std::uint64_t extra = overwrite ? 0 : num_items;
  temp_storage_bytes = static_cast<std::size_t>(
      alias_bytes(spine * sizeof(OffsetT), extra * K, extra * V));
  return CUDA_SUCCESS;
}

// This sort's entries for core's select_sort_dispatch.
template <std::size_t K, std::size_t V, class OffsetT>
struct Entries {
  static constexpr DispatchFn query = &closed_form_bytes<K, V, OffsetT>;
  static constexpr DispatchFn dispatch = &run_dispatch<K, V, OffsetT>;
};

}  // namespace

DispatchFn select_dispatch(std::size_t key_size, std::size_t value_size, ScalarType offset_type,
                           bool closed_form) noexcept {
  if (!is_unsigned_offset(offset_type)) return nullptr;
  return algos::detail::select_sort_dispatch<DispatchFn, Entries, algos::detail::SortStructs::values>(
      key_size, value_size, offset_type, closed_form);
}

Policy selected_policy(const Spec& spec, std::uint32_t cc) noexcept {
  const cub::detail::radix_sort::policy_selector selector{
      int(size_of(spec.key_type)), int(size_of(spec.value_type)), int(size_of(spec.offset_type)),
      algos::detail::cub_type_of(spec.key_type)};
  const cub::RadixSortPolicy r = selector(::cuda::compute_capability{int(cc)});
  Policy p;
  p.onesweep = r.algorithm == cub::RadixSortAlgorithm::onesweep ? 1 : 0;
  mirror(p, r, algos::detail::policy_from_cub);
  return p;
}

bool selects_onesweep(const Spec& spec, std::uint32_t cc) noexcept {
  return selected_policy(spec, cc).onesweep == 1;
}

}  // namespace cccl_cache::algos::radix_sort::detail

namespace cccl_cache::algos {

const std::string& RadixSort::dispatch_abi() {
  using namespace radix_sort::detail;  // its DispatchParams and stand-ins
  return algos::detail::describe_abi<DispatchParams>([](algos::detail::AbiText& abi) {
    CCCL_CACHE_ABI_FIELD(abi, DispatchParams, policy);
    // The kernels' argument types (their order is CUB's, covered by cub=).
    abi.type<cub::NullType>("null").type<Decomposer>("decomposer");
    abi.type<cub::GridEvenShare<std::uint32_t>>("even_share32");
    abi.type<cub::GridEvenShare<std::uint64_t>>("even_share64");
    abi.byte_types();
    abi.field("init_threads", 0, kInitThreads);
  });
}

}  // namespace cccl_cache::algos
