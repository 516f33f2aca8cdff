// Reduce's checks of a build record (Reduce::check): a plausible policy, and what the
// cubin says of its kernels agreeing with the record (core/check.hpp). Every stored
// entry and every fresh build goes through them.
#include <string>

#include "cccl_cache/algos/reduce/build_result.hpp"
#include "core/check.hpp"

namespace cccl_cache::algos {
namespace {

bool plausible_pass(std::uint32_t threads, std::uint32_t items) {
  return threads >= 32 && threads <= 1024 && threads % 32 == 0 && items >= 1 && items <= 256;
}

}  // namespace

Result<void> Reduce::check(const Spec&, const Policy& p, const BuildRecordView& record) {
  const bool accum_ok = p.accum_size >= 1 && p.accum_size <= 4096 && p.accum_align >= 1 &&
                        (p.accum_align & (p.accum_align - 1)) == 0 &&
                        p.accum_size % p.accum_align == 0;
  if (!plausible_pass(p.multi_tile_threads, p.multi_tile_items) ||
      !plausible_pass(p.single_tile_threads, p.single_tile_items) || !accum_ok)
    return fail(ErrorCode::corrupt,
                "implausible reduce policy (" + std::to_string(p.multi_tile_threads) + "x" +
                    std::to_string(p.multi_tile_items) + ", " +
                    std::to_string(p.single_tile_threads) + "x" +
                    std::to_string(p.single_tile_items) + ", accumulator " +
                    std::to_string(p.accum_size) + "/" + std::to_string(p.accum_align) + ")");
  // The single-tile and second-pass kernels share CUB's template: each role is named by
  // the selector subclass codegen.cpp gives it. Every kernel is compiled with
  // __launch_bounds__(its pass's threads).
  const algos::detail::KernelRole roles[kKernels] = {
      {"single-tile", "22cccl_cache_single_tile", p.single_tile_threads, true, false},
      {"first-pass", "21cccl_cache_first_pass", p.multi_tile_threads, true, false},
      {"second-pass", "22cccl_cache_second_pass", p.single_tile_threads, true, false}};
  if (auto ok = algos::detail::check_kernels(record, roles, "reduce"); !ok) return ok;
  constexpr std::string_view kTemplates[kKernels] = {
      "28DeviceReduceSingleTileKernel", "18DeviceReduceKernel", "28DeviceReduceSingleTileKernel"};
  for (std::size_t i = 0; i < kKernels; ++i)
    if (record.kernel_names[i].find(kTemplates[i]) == std::string_view::npos)
      return fail(ErrorCode::corrupt, "the " + std::string(roles[i].role) + " kernel's name " +
                                          std::string(record.kernel_names[i]) +
                                          " does not name CUB's " + std::string(kTemplates[i]));
  return {};
}

}  // namespace cccl_cache::algos
