// The one-step entry point: spec + device -> bound executable, through the store.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include "cccl_cache/algos/algorithms.hpp"
#include "cccl_cache/algos/registry.hpp"
#include "cccl_cache/cache/store.hpp"
#include "cccl_cache/cache/tiers.hpp"

namespace cccl_cache::algos {

namespace detail {
struct AlgorithmCacheAccess;  // tests' view of the private state (src/)
}

struct AcquireStats {
  std::uint64_t builds = 0;         // NVRTC builds done by this cache
  std::uint64_t store_hits = 0;     // blobs loaded from a tier (local store, image, remote)
  std::uint64_t memory_hits = 0;    // already-bound executables returned
  std::uint64_t claim_waits = 0;    // misses that waited for another process's build claim
  std::uint64_t fallback_hits = 0;  // tier hits served by a lower minor's entry (cc_fallback)
  std::uint64_t prefetched = 0;     // entries prefetch() brought from a shared tier
};

// What one prefetch() found, per spec.
struct PrefetchReport {
  std::size_t local = 0;    // already in the local tier
  std::size_t fetched = 0;  // from an image or the remote, now backfilled into the local tier
  std::size_t missing = 0;  // in no tier (or rejected): acquire builds them
};

// The executable type of a spec type (merge_sort::Spec -> merge_sort::Executable).
template <class Spec>
using ExecutableOf = typename Spec::Algorithm::Executable;

// Thread-safe. Holds the tier stack (may be null: no disk caching) and the executables
// bound so far in this process. Works for every algorithm of the registry
// (registry.hpp); keep one per process. Fork-safe: in a fork()ed child it never returns
// an executable bound by the parent (nor waits for the parent's builds in flight); the
// child binds its own, or gets a driver error where its parent had initialized CUDA
// (CUDA cannot be used in such a child). Stats carry over into the child.
class AlgorithmCache {
 public:
  // Over TierStack::over(store): the local store, the images and remote tier its config
  // names (none by default), and its claims on misses (the host claim, then the cluster
  // lease; build_claim.hpp).
  explicit AlgorithmCache(std::shared_ptr<Store> store);
  // Over a tier stack (null: no caching beyond this process).
  explicit AlgorithmCache(std::shared_ptr<TierStack> tiers);
  // No caching beyond this process.
  explicit AlgorithmCache(std::nullptr_t) : AlgorithmCache(std::shared_ptr<TierStack>()) {}
  ~AlgorithmCache();
  AlgorithmCache(const AlgorithmCache&) = delete;
  AlgorithmCache& operator=(const AlgorithmCache&) = delete;

  // The executable of `spec` bound to `device`. In-process hit: the bound executable,
  // without touching the store or encoding the spec. Local hit of the device's CC: the
  // entry is verified, read as a view and bound while the store's read transaction
  // holds it (its cubin goes from the store's map to the driver uncopied); an entry
  // prefetch() fetched is read the same way from memory until its backfill is committed
  // (TierStack::get_local). Else the
  // entry of the device's CC in every tier (local, images, remote; a shared hit is
  // backfilled), then, with config cc_fallback on, the entry of the nearest lower minor
  // of the same major in every tier (cc_family.hpp). Miss: claim the key
  // (build_claim.hpp: while another process or host builds it, this one waits, bounded,
  // and loads that build), build, store locally, publish to the remote, bind. A corrupt
  // or rejected entry, one built by another toolchain than this process's, or a store
  // error degrades to a build (logged once). Concurrent requests for one
  // (spec, device) load or build once and bind once. Errors: invalid_argument (bad
  // spec), driver / unsupported (no such device, no driver), compile.
  template <class Spec>
  [[nodiscard]] Result<std::shared_ptr<const ExecutableOf<Spec>>> acquire(const Spec& spec, int device);

  // Builds (or finds in the store) for sm_<cc> without a GPU: for prewarming.
  // Returns true if it built. Concurrent calls for one key build once.
  template <class Spec>
  [[nodiscard]] Result<bool> prewarm(const Spec& spec, std::uint32_t cc);
  // The same for a spec of any algorithm (the CLI's prewarm).
  [[nodiscard]] Result<bool> prewarm(const AnySpec& spec, std::uint32_t cc);

  // Start-up in one batch, in O(1) round trips and local commits for any number of
  // specs: makes the entries of `specs` for `device` local so that acquiring them then
  // reads the local tier. Keys the local tier holds are left there (verified when
  // acquired); the others are looked up in every shared tier at once (the remote: one
  // MGET for all of them; with cc_fallback, one more for the lower minors' entries of
  // those still missing), each checked before it is taken as acquire checks a tier's
  // entry (signature gate, record, kernels, toolchain, spec), and the accepted ones are
  // backfilled into the local tier in one write transaction. Builds and binds nothing;
  // a dead remote costs at most its time bound (the specs are then missing). Errors:
  // driver / unsupported (no such device, no driver), invalid_argument (a spec of no
  // registered algorithm, or fields that do not decode).
  [[nodiscard]] Result<PrefetchReport> prefetch(std::span<const AnySpec> specs, int device);
  // The same for sm_<cc> without a GPU, exact entries only (prewarm's batch lookup).
  [[nodiscard]] Result<PrefetchReport> prefetch_for_cc(std::span<const AnySpec> specs,
                                                       std::uint32_t cc);

  AcquireStats stats() const;

  struct Impl;

 private:
  friend struct detail::AlgorithmCacheAccess;
  std::unique_ptr<Impl> impl_;
};

}  // namespace cccl_cache::algos
