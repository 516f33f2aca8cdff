#include "core/check.hpp"

#include <array>
#include <string>

namespace cccl_cache::algos::detail {
namespace {

// The most static shared memory a kernel can declare (larger needs dynamic memory).
constexpr std::uint64_t kMaxStaticSharedBytes = 48 * 1024;

std::string shape(const std::array<std::uint32_t, 3>& s) {
  return std::to_string(s[0]) + "x" + std::to_string(s[1]) + "x" + std::to_string(s[2]);
}

tl::unexpected<Error> bad(const std::string& what) { return fail(ErrorCode::corrupt, what); }

}  // namespace

Result<void> check_kernels(const BuildRecordView& r, std::span<const KernelRole> roles,
                           std::string_view algorithm) {
  if (r.num_kernels != roles.size()) return bad("wrong kernel count");
  for (std::size_t i = 0; i < roles.size(); ++i) {
    const auto name = r.kernel_names[i];
    for (std::size_t role = 0; role < roles.size(); ++role) {
      const KernelRole& candidate = roles[role];
      const bool spells =
          name.find(candidate.mangled) != std::string_view::npos &&
          (candidate.marker.empty() || name.find(candidate.marker) != std::string_view::npos);
      // Two roles may share a template (then both spell it): a missing own name or
      // marker, another role's distinct name, or a marker of another instance of its
      // template is a swap.
      const bool same_template = candidate.mangled == roles[i].mangled;
      const bool other_instance = same_template && !candidate.marker.empty() &&
                                  candidate.marker != roles[i].marker &&
                                  name.find(candidate.marker) != std::string_view::npos;
      if ((role == i && !spells) || (role != i && !same_template && spells) || other_instance ||
          !name.starts_with("_Z"))
        return bad("the " + std::string(roles[i].role) + " kernel's name " + std::string(name) +
                   " does not name a " + std::string(algorithm) + " " + std::string(roles[i].role) +
                   " kernel");
    }
  }
  if (!r.has_kernel_facts) return {};  // a fresh build's own view: checked as stored
  for (std::size_t i = 0; i < roles.size(); ++i) {
    const KernelRole& role = roles[i];
    const KernelFacts& k = r.kernel_facts[i];
    const std::string what = std::string(role.role) + " kernel " + std::string(r.kernel_names[i]);
    const std::array<std::uint32_t, 3> want = {role.threads, 1, 1};
    if (role.bounded && !k.has_max_threads)
      return bad(what + " carries no launch bounds (EIATTR_MAX_THREADS)");
    if (role.threads != 0 && k.has_max_threads &&
        (role.bounded ? k.max_threads != want
                      : std::uint64_t{k.max_threads[0]} * k.max_threads[1] * k.max_threads[2] <
                            role.threads))
      return bad(what + " was compiled for at most " + shape(k.max_threads) +
                 " threads (its launch bounds), the entry launches " + shape(want));
    if (role.threads != 0 && k.has_reqntid && k.reqntid != want)
      return bad(what + " requires " + shape(k.reqntid) + " threads, the entry launches " +
                 shape(want));
    if (role.needs_static_smem && k.static_shared_bytes == 0)
      return bad(what + " declares no static shared memory but keeps its tile there");
    if (k.static_shared_bytes > kMaxStaticSharedBytes)
      return bad(what + " declares " + std::to_string(k.static_shared_bytes) +
                 " bytes of static shared memory");
  }
  return {};
}

}  // namespace cccl_cache::algos::detail
