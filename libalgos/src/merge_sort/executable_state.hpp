// The inside of a bound merge sort (Executable::State). Private to libalgos.
#pragma once

#include "cccl_cache/algos/merge_sort/executable.hpp"
#include "cuda_handles.hpp"
#include "device_facts.hpp"
#include "merge_sort/dispatch.hpp"

namespace cccl_cache::algos::merge_sort {

struct Executable::State {
  // Declaration order matters: the module is unloaded before the context is released.
  algos::detail::PrimaryContext context;
  algos::detail::Module module;
  Spec spec;
  int device = -1;
  std::uint32_t cc = 0;
  detail::DispatchParams params;
  detail::DispatchFn dispatch = nullptr;
  detail::TempLayout layout;
  // detail::fork_generation() at bind. In a fork()ed child the handles belong to the
  // parent's CUDA state: launches fail and destruction leaves them alone.
  std::uint64_t generation = algos::detail::fork_generation();

  State() = default;
  State(const State&) = delete;
  State& operator=(const State&) = delete;
  ~State() {
    if (generation != algos::detail::fork_generation()) {
      module.abandon();
      context.abandon();
    }
  }
};

}  // namespace cccl_cache::algos::merge_sort
