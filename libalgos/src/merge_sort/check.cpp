// Merge sort's checks of a build record (MergeSort::check): a plausible tile shape, and
// what the cubin says of its kernels agreeing with the record. Every stored entry and
// every fresh build goes through them (core/built.hpp typed_view, core/build.hpp).
#include <array>
#include <string>

#include "cccl_cache/algos/merge_sort/build_result.hpp"
#include "merge_sort/dispatch.hpp"

namespace cccl_cache::algos {
namespace {

// The role of each kernel (Kernel order) as its lowered name spells it: the kernel
// template's <source-name> (length-prefixed identifier) in the Itanium mangling.
constexpr std::string_view kMangledRoles[MergeSort::kKernels] = {
    "30DeviceMergeSortBlockSortKernel", "30DeviceMergeSortPartitionKernel",
    "26DeviceMergeSortMergeKernel"};
constexpr const char* kRoles[MergeSort::kKernels] = {"block sort", "partition", "merge"};
// The most static shared memory a kernel can declare (larger needs dynamic memory).
constexpr std::uint64_t kMaxStaticSharedBytes = 48 * 1024;

std::string shape(const std::array<std::uint32_t, 3>& s) {
  return std::to_string(s[0]) + "x" + std::to_string(s[1]) + "x" + std::to_string(s[2]);
}

tl::unexpected<Error> bad(const std::string& what) { return fail(ErrorCode::corrupt, what); }

// What the cubin says of the kernels agrees with the record: each name names the role
// it is used for (no swaps), and the launch bounds the kernels were compiled with are
// the policy's block_threads.
Result<void> check_kernels(const merge_sort::Policy& p, const BuildRecordView& r) {
  for (std::size_t i = 0; i < MergeSort::kKernels; ++i) {
    const auto name = r.kernel_names[i];
    for (std::size_t role = 0; role < MergeSort::kKernels; ++role) {
      const bool spells = name.find(kMangledRoles[role]) != std::string_view::npos;
      if (spells != (role == i) || !name.starts_with("_Z"))
        return bad("the " + std::string(kRoles[i]) + " kernel's name " + std::string(name) +
                   " does not name a merge sort " + kRoles[i] + " kernel");
    }
  }
  if (!r.has_kernel_facts) return {};  // a fresh build's own view: checked as stored
  const std::uint32_t threads[3] = {p.block_threads, merge_sort::detail::kPartitionBlockThreads,
                                    p.block_threads};
  for (std::size_t i = 0; i < MergeSort::kKernels; ++i) {
    const auto& k = r.kernel_facts[i];
    const std::string what = std::string(kRoles[i]) + " kernel " + std::string(r.kernel_names[i]);
    const std::array<std::uint32_t, 3> want = {threads[i], 1, 1};
    // Block sort and merge are compiled with __launch_bounds__(block_threads): the cubin
    // records it, and it must be the policy's. Partition has no bounds of its own.
    if (i != merge_sort::partition_kernel && !k.has_max_threads)
      return bad(what + " carries no launch bounds (EIATTR_MAX_THREADS)");
    if (k.has_max_threads &&
        (i != merge_sort::partition_kernel
             ? k.max_threads != want
             : std::uint64_t{k.max_threads[0]} * k.max_threads[1] * k.max_threads[2] < threads[i]))
      return bad(what + " was compiled for at most " + shape(k.max_threads) +
                 " threads, the entry launches " + shape(want));
    if (k.has_reqntid && k.reqntid != want)
      return bad(what + " requires " + shape(k.reqntid) + " threads, the entry launches " +
                 shape(want));
    // Without virtual shared memory the kernels keep their tile in static shared memory;
    // a kernel without any expects its tile in global memory the entry does not provide.
    const std::uint64_t vsmem = i == 0   ? p.block_sort_vsmem_per_block
                                : i == 2 ? p.merge_vsmem_per_block
                                         : 1;
    if (vsmem == 0 && k.static_shared_bytes == 0)
      return bad(what + " declares no static shared memory but the entry provides no virtual "
                        "shared memory for it");
    if (k.static_shared_bytes > kMaxStaticSharedBytes)
      return bad(what + " declares " + std::to_string(k.static_shared_bytes) +
                 " bytes of static shared memory");
  }
  return {};
}

}  // namespace

Result<void> MergeSort::check(const Spec&, const Policy& p, const BuildRecordView& record) {
  if (p.block_threads == 0 || p.block_threads > 1024 || p.items_per_tile == 0 ||
      p.items_per_tile % p.block_threads != 0 || p.items_per_tile > (1u << 20))
    return fail(ErrorCode::corrupt, "implausible merge sort policy (block_threads " +
                                        std::to_string(p.block_threads) + ", items_per_tile " +
                                        std::to_string(p.items_per_tile) + ")");
  return check_kernels(p, record);
}

}  // namespace cccl_cache::algos
