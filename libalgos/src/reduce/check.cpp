// Reduce's checks of a build record (Reduce::check): a plausible policy, and what the
// cubin says of its kernels agreeing with the record. Every stored entry and every
// fresh build goes through them.
#include <array>
#include <string>

#include "cccl_cache/algos/reduce/build_result.hpp"

namespace cccl_cache::algos {
namespace {

// Each kernel's role as its lowered name spells it (Itanium <source-name>s): CUB's
// kernel template and the selector subclass codegen.cpp gives each role.
struct Role {
  std::string_view kernel, selector, what;
};
constexpr Role kRoles[Reduce::kKernels] = {
    {"28DeviceReduceSingleTileKernel", "22cccl_cache_single_tile", "single-tile"},
    {"18DeviceReduceKernel", "21cccl_cache_first_pass", "first-pass"},
    {"28DeviceReduceSingleTileKernel", "22cccl_cache_second_pass", "second-pass"}};
constexpr std::uint64_t kMaxStaticSharedBytes = 48 * 1024;

tl::unexpected<Error> bad(const std::string& what) { return fail(ErrorCode::corrupt, what); }

bool plausible_pass(std::uint32_t threads, std::uint32_t items) {
  return threads >= 32 && threads <= 1024 && threads % 32 == 0 && items >= 1 && items <= 256;
}

}  // namespace

Result<void> Reduce::check(const Spec&, const Policy& p, const BuildRecordView& r) {
  const bool accum_ok = p.accum_size >= 1 && p.accum_size <= 4096 && p.accum_align >= 1 &&
                        (p.accum_align & (p.accum_align - 1)) == 0 &&
                        p.accum_size % p.accum_align == 0;
  if (!plausible_pass(p.multi_tile_threads, p.multi_tile_items) ||
      !plausible_pass(p.single_tile_threads, p.single_tile_items) || !accum_ok)
    return bad("implausible reduce policy (" + std::to_string(p.multi_tile_threads) + "x" +
               std::to_string(p.multi_tile_items) + ", " + std::to_string(p.single_tile_threads) +
               "x" + std::to_string(p.single_tile_items) + ", accumulator " +
               std::to_string(p.accum_size) + "/" + std::to_string(p.accum_align) + ")");
  for (std::size_t i = 0; i < kKernels; ++i) {
    const auto name = r.kernel_names[i];
    bool spells_other = false;
    for (std::size_t j = 0; j < kKernels; ++j)
      spells_other |= j != i && name.find(kRoles[j].selector) != std::string_view::npos;
    if (!name.starts_with("_Z") || name.find(kRoles[i].kernel) == std::string_view::npos ||
        name.find(kRoles[i].selector) == std::string_view::npos || spells_other)
      return bad("the " + std::string(kRoles[i].what) + " kernel's name " + std::string(name) +
                 " does not name a reduce " + std::string(kRoles[i].what) + " kernel");
  }
  if (!r.has_kernel_facts) return {};  // a fresh build's own view: checked as stored
  for (std::size_t i = 0; i < kKernels; ++i) {
    const auto& k = r.kernel_facts[i];
    const std::uint32_t threads =
        i == reduce::reduce_kernel ? p.multi_tile_threads : p.single_tile_threads;
    const std::string what =
        std::string(kRoles[i].what) + " kernel " + std::string(r.kernel_names[i]);
    // Every reduce kernel is compiled with __launch_bounds__(its pass's threads).
    if (!k.has_max_threads || k.max_threads != std::array<std::uint32_t, 3>{threads, 1, 1})
      return bad(what + " was not compiled for the " + std::to_string(threads) +
                 " threads per block the entry launches");
    if (k.has_reqntid && k.reqntid != std::array<std::uint32_t, 3>{threads, 1, 1})
      return bad(what + " requires another block size than the entry launches");
    if (k.static_shared_bytes > kMaxStaticSharedBytes)
      return bad(what + " declares " + std::to_string(k.static_shared_bytes) +
                 " bytes of static shared memory");
  }
  return {};
}

}  // namespace cccl_cache::algos
