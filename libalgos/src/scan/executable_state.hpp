// The inside of a bound scan (Executable<Id>::State). Private to libalgos.
#pragma once

#include "cccl_cache/algos/scan/executable.hpp"
#include "core/bind.hpp"
#include "scan/dispatch.hpp"

namespace cccl_cache::algos::scan {

template <AlgorithmId Id>
struct Executable<Id>::State {
  algos::detail::BoundModule bound;
  Spec<Id> spec;
  detail::DispatchParams params;
  detail::DispatchFn dispatch = nullptr;
};

}  // namespace cccl_cache::algos::scan
