// Transform's checks of a build record (Transform<N>::check): a plausible policy for the
// record's CC, and a kernel that is CUB's transform kernel compiled for the policy's
// block size (core/check.hpp). Every stored entry and every fresh build goes through them.
#include "core/check.hpp"

#include "cccl_cache/algos/transform/build_result.hpp"

namespace cccl_cache::algos {
namespace {

using namespace transform;

// The threads per block CUB launches the kernel with (get_threads_per_block).
std::uint32_t launched_threads(const Policy& p) {
  switch (p.algorithm) {
    case prefetch:
      return p.prefetch_threads;
    case vectorized:
      return p.vectorized_threads;
    default: return p.async_threads;
  }
}

bool plausible(const Policy& p, std::uint32_t cc) {
  auto items_ok = [](std::uint32_t lo, std::uint32_t hi) { return lo >= 1 && lo <= hi && hi <= 1024; };
  const std::uint32_t threads = launched_threads(p);
  const bool async = p.algorithm != prefetch && p.algorithm != vectorized;
  return p.algorithm <= ublkcp && threads == p.block_threads &&
         algos::detail::warp_block(threads) && p.min_bytes_in_flight > 0 &&
         (async ? items_ok(p.async_min_items, p.async_max_items) && threads % 128 == 0
                : items_ok(p.prefetch_min_items, p.prefetch_max_items) &&
                      p.prefetch_items_no_input >= 1) &&
         (p.algorithm != vectorized ||
          (p.vec_size >= 1 && p.vectorized_items % p.vec_size == 0 && p.vectorized_items >= 1)) &&
         (p.algorithm != ldgsts || cc >= 80) && (p.algorithm != ublkcp || cc >= 90);
}

}  // namespace

template <int N>
Result<void> Transform<N>::check(const Spec&, const Policy& p, const BuildRecordView& record) {
  if (!plausible(p, record.cc))
    return algos::detail::implausible_policy("transform (sm_" + std::to_string(record.cc) + ")", p);
  // Compiled with __launch_bounds__(get_threads_per_block<selector>): the policy's.
  const algos::detail::KernelRole roles[kKernels] = {
      {"transform", "16transform_kernel", p.block_threads, true, false}};
  return algos::detail::check_kernels(record, roles, "transform");
}

template Result<void> UnaryTransform::check(const UnaryTransform::Spec&, const transform::Policy&,
                                            const BuildRecordView&);
template Result<void> BinaryTransform::check(const BinaryTransform::Spec&, const transform::Policy&,
                                             const BuildRecordView&);

}  // namespace cccl_cache::algos
