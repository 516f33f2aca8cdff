// Counters persisted in the store, readable by any process and the CLI.
#pragma once

#include <cstdint>

namespace cccl_cache {

// Persisted counters. The numbers are part of the on-disk format: never reuse one.
enum class Counter : std::uint32_t {
  hits = 1,
  misses = 2,
  puts = 3,
  evictions = 4,
  corrupt = 5,
  bytes_written = 6,
  bytes_evicted = 7,
  quarantined = 8,  // damaged data files moved aside at open (integrity.hpp)
  // Cluster sharing (build_claim.hpp, tiers.hpp), counted by the processes using the store:
  host_claim_waits = 9,       // misses that waited for this host's other builder (flock)
  cluster_lease_waits = 10,   // misses that waited for another host's lease (Redis)
  wait_bound_builds = 11,     // waits that ran past build_wait_ms: built here as well
  cc_fallback_serves = 12,    // acquisitions served by a lower minor's entry (cc_fallback)
  signature_rejections = 13,  // shared entries refused for their signature (SignatureGate)
  put_requests = 14,  // put / put_many calls that wrote (a batch of many entries is one)
};
// Counters kFirstEventCounter .. kLastEventCounter are counted through Store::count.
inline constexpr std::uint32_t kFirstEventCounter = 9, kLastEventCounter = 13, kLastCounter = 14;

struct StoreStats {
  std::uint64_t hits = 0;
  std::uint64_t misses = 0;
  std::uint64_t puts = 0;
  std::uint64_t evictions = 0;
  std::uint64_t corrupt = 0;
  std::uint64_t bytes_written = 0;
  std::uint64_t bytes_evicted = 0;
  // 1 when this store was started empty after its damaged files were moved into
  // <dir>/quarantine/ (the count lives in the new file, so it restarts with it)
  std::uint64_t quarantined = 0;
  std::uint64_t host_claim_waits = 0;
  std::uint64_t cluster_lease_waits = 0;
  std::uint64_t wait_bound_builds = 0;
  std::uint64_t cc_fallback_serves = 0;
  std::uint64_t signature_rejections = 0;
  std::uint64_t put_requests = 0;
  std::uint64_t signed_entries = 0;  // entries stored with a signature
  std::uint64_t entries = 0;
  std::uint64_t live_bytes = 0;  // sum of payload sizes of live entries
  std::uint64_t budget_bytes = 0;
  std::uint64_t map_size = 0;  // current LMDB map size
  double hit_ratio() const { return hits + misses ? double(hits) / double(hits + misses) : 0.0; }
};

}  // namespace cccl_cache
