// The scans' checks of a build record (Scan<Id>::check): a plausible policy, and what
// the cubin says of its kernels agreeing with the record. Every stored entry and every
// fresh build goes through them (core/built.hpp typed_view, core/build.hpp).
#include <string>

#include "cccl_cache/algos/scan/build_result.hpp"

namespace cccl_cache::algos {
namespace {

// The role of each kernel (Kernel order) as its lowered name spells it: the kernel
// template's <source-name> in the Itanium mangling.
constexpr std::string_view kMangledRoles[2] = {"20DeviceScanInitKernel", "16DeviceScanKernel"};
constexpr const char* kRoles[2] = {"init", "scan"};
constexpr std::uint64_t kMaxStaticSharedBytes = 48 * 1024;

tl::unexpected<Error> bad(const std::string& what) { return fail(ErrorCode::corrupt, what); }

Result<void> check_policy(const scan::Policy& p) {
  const bool lookahead = p.algorithm == 1;
  const bool plausible =
      p.algorithm <= 1 && p.block_threads > 0 && p.block_threads <= 1024 &&
      p.block_threads % 32 == 0 && p.items_per_thread > 0 && p.items_per_thread <= 1024 &&
      (!lookahead || (p.reduce_and_scan_warps > 0 && p.reduce_and_scan_warps <= 32 &&
                      p.lookahead_items_per_thread > 0 && p.lookahead_items_per_thread <= 1024));
  if (!plausible)
    return bad("implausible scan policy (algorithm " + std::to_string(p.algorithm) +
               ", block_threads " + std::to_string(p.block_threads) + ", items_per_thread " +
               std::to_string(p.items_per_thread) + ")");
  return {};
}

// Each name names the role it is used for (no swaps); the init kernel is compiled for
// CUB's 128 threads and the scan kernel for the policy's block size (its launch bounds);
// a look-back scan kernel keeps its tile in static shared memory.
Result<void> check_kernels(const scan::Policy& p, const BuildRecordView& r) {
  for (std::size_t i = 0; i < 2; ++i) {
    const auto name = r.kernel_names[i];
    for (std::size_t role = 0; role < 2; ++role) {
      const bool spells = name.find(kMangledRoles[role]) != std::string_view::npos;
      if (spells != (role == i) || !name.starts_with("_Z"))
        return bad("the " + std::string(kRoles[i]) + " kernel's name " + std::string(name) +
                   " does not name a scan " + kRoles[i] + " kernel");
    }
  }
  if (!r.has_kernel_facts) return {};  // a fresh build's own view: checked as stored
  const std::uint32_t threads[2] = {scan::kInitBlockThreads, p.block_threads};
  for (std::size_t i = 0; i < 2; ++i) {
    const auto& k = r.kernel_facts[i];
    const std::string what = std::string(kRoles[i]) + " kernel " + std::string(r.kernel_names[i]);
    const std::array<std::uint32_t, 3> want = {threads[i], 1, 1};
    if (!k.has_max_threads) return bad(what + " carries no launch bounds (EIATTR_MAX_THREADS)");
    if (k.max_threads != want || (k.has_reqntid && k.reqntid != want))
      return bad(what + " was compiled for " + std::to_string(k.max_threads[0]) +
                 " threads, the entry launches " + std::to_string(threads[i]));
    if (k.static_shared_bytes > kMaxStaticSharedBytes)
      return bad(what + " declares " + std::to_string(k.static_shared_bytes) +
                 " bytes of static shared memory");
  }
  if (p.algorithm == 0 && r.kernel_facts[scan::scan_kernel].static_shared_bytes == 0)
    return bad("the look-back scan kernel declares no shared memory for its tile");
  return {};
}

}  // namespace

template <AlgorithmId Id>
Result<void> Scan<Id>::check(const Spec&, const Policy& p, const BuildRecordView& record) {
  CCCL_CACHE_CHECK(check_policy(p));
  return check_kernels(p, record);
}

template Result<void> InclusiveScan::check(const InclusiveScan::Spec&, const scan::Policy&,
                                           const BuildRecordView&);
template Result<void> ExclusiveScan::check(const ExclusiveScan::Spec&, const scan::Policy&,
                                           const BuildRecordView&);

}  // namespace cccl_cache::algos
