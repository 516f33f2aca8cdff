// HistogramEven::bind: the core bind (core/executable_state.hpp) plus what the dispatch
// needs (the bounds' checks in the spec's types), and the Executable's call. Fresh builds
// and store hits both come through here.
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "cccl_cache/algos/histogram_even/executable.hpp"
#include "core/executable_state.hpp"
#include "core/host_types.hpp"
#include "core/iterator.hpp"
#include "histogram_even/dispatch.hpp"

namespace cccl_cache::algos {

template <>
struct detail::ExecutableState<HistogramEven>
    : BoundState<HistogramEven, histogram_even::detail::DispatchParams,
                 histogram_even::detail::DispatchFn> {};
template class BoundExecutable<HistogramEven>;

Result<histogram_even::Executable> HistogramEven::bind(const BuiltView<HistogramEven>& result,
                                                       int device) {
  namespace d = histogram_even::detail;
  const Spec& spec = result.spec;
  const Policy& p = result.policy;
  CCCL_CACHE_CHECK(detail::bind_check(result));
  const std::uint32_t block_threads[kKernels] = {histogram_even::kInitBlockThreads, p.threads,
                                                 p.threads};
  CCCL_CACHE_TRY(auto state,
                 detail::bind_state(result, device, block_threads,
                                    d::select_dispatch(spec.offset_type, size_of(spec.levels()),
                                                       spec.byte_samples(), true,
                                                       !spec.samples.is_pointer())));
  state->params.policy = p;
  state->params.ordered = d::select_ordered(spec.levels());
  state->params.may_overflow = d::select_may_overflow(spec.levels(), spec.type);
  state->params.counter_size = static_cast<std::uint32_t>(size_of(spec.counter_type));
  if (state->params.ordered == nullptr || state->params.may_overflow == nullptr)
    return fail(ErrorCode::unsupported, "bind: no level checks for the types of " + summary(spec));
  return Executable(std::move(state));
}

namespace histogram_even::detail {
namespace {

template <class T>
T load(const void* p) noexcept {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

template <class L>
bool ordered(const void* lower, const void* upper) noexcept {
  return load<L>(lower) < load<L>(upper);
}

// CUB's MayOverflow (DeviceHistogramKernelSource, CCCL 3.5): upper - lower in the
// levels' promoted type (wrapping, as on the device), converted to the unsigned type
// ScaleTransform bins integers in, against its maximum over the bin count.
template <class L, class S>
bool may_overflow(int num_bins, const void* upper, const void* lower) noexcept {
  using CommonT = std::common_type_t<L, S>;
  if constexpr (!std::is_integral_v<CommonT>) {
    return false;
  } else {
    using IntArithmeticT =
        std::conditional_t<sizeof(S) + sizeof(CommonT) <= 4, std::uint32_t, std::uint64_t>;
    using P = decltype(L{} - L{});
    using U = std::make_unsigned_t<P>;
    const auto range =
        static_cast<P>(static_cast<U>(load<L>(upper)) - static_cast<U>(load<L>(lower)));
    return static_cast<IntArithmeticT>(range) >
           std::numeric_limits<IntArithmeticT>::max() / static_cast<IntArithmeticT>(num_bins);
  }
}

}  // namespace

OrderedFn select_ordered(ScalarType levels) noexcept {
  return algos::detail::on_host_type(levels,
                     [](auto l) -> OrderedFn { return &ordered<typename decltype(l)::type>; });
}

OverflowFn select_may_overflow(ScalarType levels, ScalarType samples) noexcept {
  return algos::detail::on_host_type(levels, [&](auto l) {
    return algos::detail::on_host_type(samples, [](auto s) -> OverflowFn {
      return &may_overflow<typename decltype(l)::type, typename decltype(s)::type>;
    });
  });
}

}  // namespace histogram_even::detail

}  // namespace cccl_cache::algos

namespace cccl_cache::algos::histogram_even {

std::size_t Executable::temp_storage_bytes(std::uint64_t num_samples,
                                           int num_levels) const noexcept {
  if (num_levels < 2) return 0;
  return query_bytes(nullptr, nullptr, num_levels, nullptr, nullptr, num_samples, CUstream{});
}

CUresult Executable::operator()(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                Input d_samples, void* d_histogram, int num_levels,
                                const void* h_lower, const void* h_upper, std::uint64_t num_samples,
                                CUstream stream) const noexcept {
  if (!state_) return CUDA_ERROR_INVALID_HANDLE;  // moved from
  if (num_levels < 2 || h_lower == nullptr || h_upper == nullptr ||
      !state_->params.ordered(h_lower, h_upper))
    return CUDA_ERROR_INVALID_VALUE;
  // An array as it is; an iterator's values packed here (core/iterator.hpp). A size
  // query reads no sample.
  algos::detail::IteratorArg packed;
  const void* samples = nullptr;
  if (d_temp_storage != nullptr &&
      !algos::detail::iterator_address(spec().samples, spec().type, d_samples.value, num_samples,
                                       packed, samples))
    return CUDA_ERROR_INVALID_VALUE;
  return call(d_temp_storage != nullptr, d_temp_storage, temp_storage_bytes, samples, d_histogram,
              num_levels, h_lower, h_upper, num_samples, stream);
}

}  // namespace cccl_cache::algos::histogram_even
