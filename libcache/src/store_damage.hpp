// The store's answer to a damaged data.mdb, called once per environment open.
#pragma once

#include "cccl_cache/cache/error.hpp"
#include "dir_safety.hpp"
#include "shared_env.hpp"

namespace cccl_cache::detail {

// Runs the structural check (integrity.hpp) on dir/data.mdb before LMDB maps it.
// Clean, absent or empty: false. Damaged and `writable`: moves data.mdb and lock.mdb
// into dir/quarantine/<UTC time>-<pid>/ (under an flock of the directory, so once
// across processes), logs one warning saying what was found and where the files went,
// and returns true: the caller then starts an empty store. Damaged and read-only:
// ErrorCode::corrupt saying what was found and what to run. Errors: io, permission.
Result<bool> vet_store_files(const DirInfo& dir, bool writable);

// Adds one to Counter::quarantined in `env` (logs a warning when it cannot).
void count_quarantine(SharedEnv& env);

}  // namespace cccl_cache::detail
