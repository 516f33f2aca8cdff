// CCCL 3.5's segmented-sort host dispatch (cub::detail::segmented_sort::dispatch, the
// policy-selector dispatch; its host code compiled here by nvcc) driven by the kernels a
// bind resolved, through the core's launcher factory, with the build's probed policies as
// run-time policy selectors: the sort's and the three-way partition's that groups segment
// indices by size. Its host reads of the partition result (MemcpyAsync to the host, then
// cub::SyncStream) go to the driver through the factory (core/launch.cuh RuntimeAnswers);
// no CDP: the continuation runs on the host, as CUB compiles it without CUB_RDC_ENABLED.
//
// The device kernels were instantiated by the build (codegen.cpp) with the real key,
// value (cub::NullType for keys-only) and offset types and `const Offset*` offset
// iterators, or both offsets generated iterator structs; the dispatch only moves
// pointers and iterators, so host stand-ins of the same sizes give the same argument
// layout. The segment selectors are CUB's own types over offset arrays, or, over
// iterators, bytes laid out as the device's selector holds them (PackedSelector); the
// partition iterators are CUB's own. The sort order is the kernels': the host code is
// the same for both.
#include "core/launch.cuh"
#include "core/fan_out.cuh"
#include "core/abi_text.cuh"
#include "core/iterator_arg.cuh"

#include <cub/device/dispatch/dispatch_segmented_sort.cuh>

#include <algorithm>
#include <cstring>
#include <limits>

#include "core/temp_storage.hpp"
#include "segmented_sort/dispatch.hpp"

namespace cccl_cache::algos::segmented_sort::detail {
namespace {

namespace ss = cub::detail::segmented_sort;
namespace twp = cub::detail::three_way_partition;
using algos::detail::Bytes;
using algos::detail::DriverLauncherFactory;
using SegmentIndex = ss::local_segment_index_t;

using algos::detail::AdvancingIterArg;

template <class OffsetT>
using LargeSelector = ss::LargeSegmentsSelectorT<OffsetT, const OffsetT*, const OffsetT*>;
template <class OffsetT>
using SmallSelector = ss::SmallSegmentsSelectorT<OffsetT, const OffsetT*, const OffsetT*>;

// Stands in for CUB's Large/SmallSegmentsSelectorT<OffsetT, Begin, End> over offset
// iterators: the call's value and iterators' bytes (AdvancingIterArg) where
// selector_layout puts them. Handed to the driver by address, which copies the kernel's
// parameter size from it.
template <class OffsetT>
struct PackedSelector {
  alignas(16) unsigned char bytes[2 * sizeof(algos::detail::IteratorArg) + 48] = {};
  std::size_t base_at = 0;

  PackedSelector(OffsetT value, const AdvancingIterArg& begin, const AdvancingIterArg& end) noexcept {
    const algos::detail::ArgumentExtent b = algos::detail::argument_extent(begin.packed);
    const algos::detail::ArgumentExtent e = algos::detail::argument_extent(end.packed);
    const SelectorLayout l = selector_layout(sizeof(OffsetT), b, e);
    std::memcpy(bytes, &value, sizeof(OffsetT));
    std::memcpy(bytes + l.at[1], begin.packed.arg.bytes, b.size);
    std::memcpy(bytes + l.at[2], end.packed.arg.bytes, e.size);
    base_at = l.at[3];
  }
  void set_base(ss::global_segment_offset_t base) noexcept {
    std::memcpy(bytes + base_at, &base, sizeof base);
  }
};
static_assert(sizeof(ss::global_segment_offset_t) == sizeof(std::uint64_t));
template <class OffsetT>
void* arg_address(const PackedSelector<OffsetT>& s) noexcept {
  return const_cast<unsigned char*>(s.bytes);
}

// The build's policies, as CUB's selectors would return them for the bound CC: the fields
// the host dispatch reads, each Policy value into the member of CUB's policy it mirrors;
// the rest (load and store algorithms) only shape device code.
struct RuntimePolicySelector {
  const Policy* policy;
  cub::SegmentedSortPolicy operator()(::cuda::compute_capability) const {
    const Policy& p = *policy;
    const auto& v = algos::detail::policy_to_cub;
    cub::SegmentedSortPolicy r{};
    CCCL_CACHE_SEGMENTED_SORT_POLICY(CCCL_CACHE_POLICY_MIRROR)
    return r;
  }
};
struct RuntimePartitionSelector {
  const Policy* policy;
  cub::ThreeWayPartitionPolicy operator()(::cuda::compute_capability) const {
    const Policy& p = *policy;
    const auto& v = algos::detail::policy_to_cub;
    cub::ThreeWayPartitionPolicy r{};
    CCCL_CACHE_SEGMENTED_SORT_PARTITION_POLICY(CCCL_CACHE_POLICY_MIRROR)
    return r;
  }
};

// The bound kernels, as DeviceSegmentedSortKernelSource names them, with the offsets as
// `Offsets` (const OffsetT* arrays or AdvancingIterArg iterators).
template <std::size_t K, class OffsetT, class Offsets>
struct BoundKernels {
  static constexpr bool kIterators = std::is_same_v<Offsets, AdvancingIterArg>;
  const DispatchParams* params;
  CUfunction slot(Kernel k) const { return params->launch->kernels[k].function; }
  CUfunction SegmentedSortFallbackKernel() const { return slot(fallback); }
  CUfunction SegmentedSortKernelSmall() const { return slot(small); }
  CUfunction SegmentedSortKernelLarge() const { return slot(large); }
  static constexpr std::size_t KeySize() { return K; }

  using LargeSegmentsSelectorT =
      std::conditional_t<kIterators, PackedSelector<OffsetT>, LargeSelector<OffsetT>>;
  using SmallSegmentsSelectorT =
      std::conditional_t<kIterators, PackedSelector<OffsetT>, SmallSelector<OffsetT>>;
  static LargeSegmentsSelectorT LargeSegmentsSelector(OffsetT offset, const Offsets& begin,
                                                      const Offsets& end) {
    return LargeSegmentsSelectorT(offset, begin, end);
  }
  static SmallSegmentsSelectorT SmallSegmentsSelector(OffsetT offset, const Offsets& begin,
                                                      const Offsets& end) {
    return SmallSegmentsSelectorT(offset, begin, end);
  }
  template <class Selector>
  static void SetSegmentOffset(Selector& selector, ss::global_segment_offset_t base) {
    if constexpr (kIterators)
      selector.set_base(base);
    else
      selector.base_segment_offset = base;
  }
};

// The three-way partition's bound kernels, as DeviceThreeWayPartitionKernelSource names them.
struct BoundPartitionKernels {
  const DispatchParams* params;
  CUfunction ThreeWayPartitionInitKernel() const {
    return params->launch->kernels[partition_init].function;
  }
  CUfunction ThreeWayPartitionKernel() const { return params->launch->kernels[partition].function; }
};

constexpr std::uint64_t kInt64Max = static_cast<std::uint64_t>(INT64_MAX);

// Iterators: the offsets as AdvancingIterArg (a PackedIterator at each address), else
// OffsetT arrays.
template <std::size_t K, std::size_t V, class OffsetT, bool Iterators>
CUresult run_dispatch(const DispatchParams& params, void* d_temp_storage,
                      std::size_t& temp_storage_bytes, const void* d_keys_in, void* d_keys_out,
                      const void* d_values_in, void* d_values_out, std::uint64_t num_items,
                      std::uint64_t num_segments, const void* d_begin_offsets,
                      const void* d_end_offsets, CUstream stream) noexcept {
  using KeyT = Bytes<K>;
  using ValueT = std::conditional_t<V == 0, cub::NullType, Bytes<V>>;
  using Offsets = std::conditional_t<Iterators, AdvancingIterArg, const OffsetT*>;
  using Kernels = BoundKernels<K, OffsetT, Offsets>;
  using algos::detail::iterator_arg;
  if (num_items > kInt64Max || num_segments > kInt64Max) return CUDA_ERROR_INVALID_VALUE;
  // CUB's plain form: DoubleBuffers {in, out} it may not overwrite.
  cub::DoubleBuffer<KeyT> keys(static_cast<KeyT*>(const_cast<void*>(d_keys_in)),
                               static_cast<KeyT*>(d_keys_out));
  cub::DoubleBuffer<ValueT> values(static_cast<ValueT*>(const_cast<void*>(d_values_in)),
                                   static_cast<ValueT*>(d_values_out));
  CUresult status = CUDA_SUCCESS;
  const DriverLauncherFactory factory{params.launch, &status};
  const algos::detail::RuntimeAnswers answers(factory);
  const cudaError_t err =
      ss::dispatch<cub::SortOrder::Ascending, OffsetT, KeyT, ValueT, Offsets, Offsets,
                   RuntimePolicySelector, Kernels, RuntimePartitionSelector, BoundPartitionKernels,
                   DriverLauncherFactory>(
          d_temp_storage, temp_storage_bytes, keys, values,
          static_cast<::cuda::std::int64_t>(num_items),
          static_cast<ss::global_segment_offset_t>(num_segments),
          iterator_arg<Offsets, const OffsetT>(d_begin_offsets),
          iterator_arg<Offsets, const OffsetT>(d_end_offsets),
          /*is_overwrite_okay=*/false, stream, RuntimePolicySelector{&params.policy},
          RuntimePartitionSelector{&params.policy}, Kernels{&params}, BoundPartitionKernels{&params},
          factory);
  return algos::detail::dispatch_result(err, status);
}

// CUB's answer to a size query (cub::detail::segmented_sort::dispatch in CCCL 3.5) in
// closed form, from the bound policy: its five-slot temporary_storage::layout (a copy of
// the keys, sharing its slot with the three-way partition's temp storage; a copy of the
// values; the large-and-medium and small segment indices and the two group sizes when
// segments are partitioned), each slot the largest of its aliases, through
// alias_temporaries' arithmetic.
template <std::size_t K, std::size_t V, class OffsetT>
CUresult closed_form_bytes(const DispatchParams& params, void*, std::size_t& temp_storage_bytes,
                           const void*, void*, const void*, void*, std::uint64_t num_items,
                           std::uint64_t num_segments, const void*, const void*, CUstream) noexcept {
  using algos::detail::alias_bytes;
  using algos::detail::ceil_div;
  if (num_items > kInt64Max || num_segments > kInt64Max) return CUDA_ERROR_INVALID_VALUE;
  const Policy& p = params.policy;
  std::uint64_t keys = num_items * K, indices = 0, groups = 0;
  if (num_segments > p.partitioning_threshold) {
    // One partition per at most INT_MAX segments; the partition's own temp storage is
    // its tile states for that many segment indices (one streaming partition).
    const std::uint64_t segments =
        std::min<std::uint64_t>(num_segments, std::numeric_limits<int>::max());
    indices = segments * sizeof(SegmentIndex);
    groups = ss::num_selected_groups * sizeof(SegmentIndex);
    const std::uint64_t tiles = ceil_div(segments, p.partition_threads * p.partition_items);
    const std::uint64_t states =
        algos::detail::tile_state_bytes(tiles, sizeof(twp::ScanTileStateT::TxnWord));
    keys = std::max(keys, alias_bytes(states, 0));  // no streaming counters: one partition
  }
  temp_storage_bytes =
      static_cast<std::size_t>(alias_bytes(keys, num_items * V, indices, indices, groups));
  return CUDA_SUCCESS;
}

// This sort's entries for core's select_sort_dispatch, over offset arrays or iterators
// (the temp storage is the same: the offsets are only read).
template <std::size_t K, std::size_t V, class OffsetT, bool Iterators>
struct Entries {
  static constexpr DispatchFn query = &closed_form_bytes<K, V, OffsetT>;
  static constexpr DispatchFn dispatch = &run_dispatch<K, V, OffsetT, Iterators>;
};

}  // namespace

DispatchFn select_dispatch(std::size_t key_size, std::size_t value_size, ScalarType offset_type,
                           bool closed_form, bool iterators) noexcept {
  using algos::detail::SortStructs;
  return algos::detail::select_sort_dispatch<DispatchFn, Entries, SortStructs::values, SortStructs::values>(
      key_size, value_size, offset_type, closed_form, iterators);
}

}  // namespace cccl_cache::algos::segmented_sort::detail

namespace cccl_cache::algos {

const std::string& SegmentedSort::dispatch_abi() {
  using namespace segmented_sort::detail;  // its DispatchParams and stand-ins
  namespace ss = cub::detail::segmented_sort;
  namespace twp = cub::detail::three_way_partition;
  return algos::detail::describe_abi<DispatchParams>([](algos::detail::AbiText& abi) {
    abi.policy_fields(&DispatchParams::policy);
    // The kernels' argument types (their order is CUB's, covered by cub=).
    abi.type<cub::NullType>("null").byte_types();
    abi.type<cub::detail::device_double_buffer<algos::detail::Bytes<8>>>("double_buffer8");
    abi.type<LargeSelector<std::int32_t>>("selector32").type<LargeSelector<std::int64_t>>("selector64");
    abi.type<THRUST_NS_QUALIFIER::counting_iterator<SegmentIndex>>("indices");
    abi.type<::cuda::std::reverse_iterator<SegmentIndex*>>("medium_indices");
    abi.type<twp::ScanTileStateT>("tile").type<twp::per_partition_offset_t>("partition");
    abi.type<twp::streaming_context_t<ss::global_segment_offset_t>>("context");
    abi.field("partition_init_threads", 0, segmented_sort::kPartitionInitThreads);
  });
}

}  // namespace cccl_cache::algos
