// The inside of a bound merge sort (Executable::State). Private to libalgos.
#pragma once

#include "cccl_cache/algos/merge_sort/executable.hpp"
#include "core/bind.hpp"
#include "merge_sort/dispatch.hpp"

namespace cccl_cache::algos::merge_sort {

struct Executable::State {
  algos::detail::BoundModule bound;
  Spec spec;
  detail::DispatchParams params;
  detail::DispatchFn dispatch = nullptr;
  detail::TempLayout layout;
};

}  // namespace cccl_cache::algos::merge_sort
