// The one-step entry point: spec + device -> bound executable, through the store.
#pragma once

#include <cstdint>
#include <memory>

#include "cccl_cache/algos/merge_sort/executable.hpp"
#include "cccl_cache/algos/merge_sort/spec.hpp"
#include "cccl_cache/cache/store.hpp"

namespace cccl_cache::algos {

namespace detail {
struct AlgorithmCacheAccess;  // tests' view of the private state (src/)
}

struct AcquireStats {
  std::uint64_t builds = 0;         // NVRTC builds done by this cache
  std::uint64_t store_hits = 0;     // blobs loaded from the store
  std::uint64_t memory_hits = 0;    // already-bound executables returned
};

// Thread-safe. Holds the store (may be null: no disk caching) and the executables
// bound so far in this process. Fork-safe: in a fork()ed child it never returns an
// executable bound by the parent (nor waits for the parent's builds in flight); the
// child binds its own, or gets a driver error where its parent had initialized CUDA
// (CUDA cannot be used in such a child). Stats carry over into the child.
class AlgorithmCache {
 public:
  explicit AlgorithmCache(std::shared_ptr<Store> store);
  ~AlgorithmCache();

  // Key from the spec and the device's CC. In-process hit: the bound executable,
  // without touching the store. Store hit: deserialize, bind. Miss: build, store,
  // bind. A corrupt blob, one built by another toolchain than this process's, or a
  // store error degrades to a build (logged once).
  // Concurrent requests for one (spec, device) build once.
  Result<std::shared_ptr<const merge_sort::Executable>> merge_sort(const merge_sort::Spec& spec, int device);

  // Builds (or finds in the store) without a GPU: for prewarming. Returns true if it built.
  Result<bool> prewarm_merge_sort(const merge_sort::Spec& spec, std::uint32_t cc);

  AcquireStats stats() const;

 private:
  friend struct detail::AlgorithmCacheAccess;
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace cccl_cache::algos
