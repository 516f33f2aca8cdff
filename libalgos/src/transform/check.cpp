// Transform's checks of a build record (Transform<N>::check): a plausible policy for the
// record's CC, and a kernel that is CUB's transform kernel compiled for the policy's
// block size. Every stored entry and every fresh build goes through them.
#include <array>
#include <string>

#include "cccl_cache/algos/transform/build_result.hpp"

namespace cccl_cache::algos {
namespace {

tl::unexpected<Error> bad(const std::string& what) { return fail(ErrorCode::corrupt, what); }

// The threads per block CUB launches the kernel with (get_threads_per_block).
std::uint32_t launched_threads(const transform::Policy& p) {
  switch (p.algorithm) {
    case transform::prefetch: return p.prefetch_threads;
    case transform::vectorized: return p.vectorized_threads;
    default: return p.async_threads;
  }
}

Result<void> check_policy(const transform::Policy& p, std::uint32_t cc) {
  auto items_ok = [](std::uint32_t lo, std::uint32_t hi) { return lo >= 1 && lo <= hi && hi <= 1024; };
  const std::uint32_t threads = launched_threads(p);
  const bool ok =
      p.algorithm <= transform::ublkcp && threads == p.block_threads && threads >= 32 &&
      threads <= 1024 && threads % 32 == 0 && p.min_bytes_in_flight > 0 &&
      (p.algorithm != transform::prefetch && p.algorithm != transform::vectorized
           ? items_ok(p.async_min_items, p.async_max_items) && threads % 128 == 0
           : items_ok(p.prefetch_min_items, p.prefetch_max_items) &&
                 p.prefetch_items_no_input >= 1) &&
      (p.algorithm != transform::vectorized ||
       (p.vec_size >= 1 && p.vectorized_items % p.vec_size == 0 && p.vectorized_items >= 1)) &&
      (p.algorithm != transform::ldgsts || cc >= 80) && (p.algorithm != transform::ublkcp || cc >= 90);
  if (!ok)
    return bad("implausible transform policy for sm_" + std::to_string(cc) + " (algorithm " +
               std::to_string(p.algorithm) + ", block_threads " + std::to_string(p.block_threads) + ")");
  return {};
}

}  // namespace

template <int N>
Result<void> Transform<N>::check(const Spec&, const Policy& p, const BuildRecordView& r) {
  if (auto ok = check_policy(p, r.cc); !ok) return ok;
  // The kernel template's <source-name> in the Itanium mangling.
  const auto name = r.kernel_names[0];
  if (!name.starts_with("_Z") || name.find("16transform_kernel") == std::string_view::npos)
    return bad("the transform kernel's name " + std::string(name) + " does not name CUB's transform kernel");
  if (!r.has_kernel_facts) return {};  // a fresh build's own view: checked as stored
  const KernelFacts& k = r.kernel_facts[0];
  const std::array<std::uint32_t, 3> want = {p.block_threads, 1, 1};
  // Compiled with __launch_bounds__(get_threads_per_block<selector>): the policy's.
  if (!k.has_max_threads || k.max_threads != want)
    return bad("the transform kernel was not compiled for " + std::to_string(p.block_threads) +
               " threads per block (its launch bounds)");
  if (k.has_reqntid && k.reqntid != want) return bad("the transform kernel requires another block size");
  if (k.static_shared_bytes > 48 * 1024) return bad("the transform kernel declares too much static shared memory");
  return {};
}

template Result<void> Transform<1>::check(const Transform<1>::Spec&, const transform::Policy&,
                                          const BuildRecordView&);
template Result<void> Transform<2>::check(const Transform<2>::Spec&, const transform::Policy&,
                                          const BuildRecordView&);

}  // namespace cccl_cache::algos
