// The inside of every Executable (core/executable.hpp) and the bind steps all algorithms
// share. An algorithm's bind.cpp defines ExecutableState<A> on BoundState, fills its
// dispatch values after bind_state, and instantiates BoundExecutable<A> (the members
// below). Private to libalgos.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <utility>

#include "cccl_cache/algos/core/built.hpp"
#include "cccl_cache/algos/core/executable.hpp"
#include "core/bind.hpp"
#include "core/launch.hpp"
#include "cuda_driver.hpp"

namespace cccl_cache::algos::detail {

// The bound module, the spec, and the algorithm's dispatch parameters (their `launch`
// points into the module's LaunchContext) and host-dispatch function.
template <class A, class Params, class DispatchFn>
struct BoundState {
  BoundModule bound;
  typename A::Spec spec;
  Params params;
  DispatchFn dispatch = nullptr;
};

// A bind's check of a view it was handed: A::check again (a view may be made by hand).
// Error invalid_argument "bind: ...".
template <class A>
[[nodiscard]] Result<void> bind_check(const BuiltView<A>& result) {
  if (auto ok = A::check(result.spec, result.policy, result.record); !ok)
    return fail(ErrorCode::invalid_argument, "bind: " + ok.error().message);
  return {};
}

// The core bind (bind_module: kernel i launched with block_threads[i]) of a view that
// passed bind_check into a new state holding the bound module, the spec and `dispatch`,
// with params.launch set. The algorithm then fills in the rest of its params. Errors:
// unsupported (no host dispatch was compiled for the spec's types: `dispatch` null), as
// bind_module.
template <class A, class DispatchFn>
[[nodiscard]] Result<std::unique_ptr<ExecutableState<A>>> bind_state(
    const BuiltView<A>& result, int device, std::span<const std::uint32_t> block_threads,
    DispatchFn dispatch) {
  if (dispatch == nullptr)
    return fail(ErrorCode::unsupported,
                "bind: no host dispatch for the types of " + summary(result.spec));
  CCCL_CACHE_TRY(BoundModule bound, bind_module(result.record, device, block_threads));
  auto state = std::make_unique<ExecutableState<A>>();
  state->bound = std::move(bound);
  state->spec = result.spec;
  state->params.launch = &state->bound.launch;
  state->dispatch = dispatch;
  return state;
}

// The bound state of an algorithm whose dispatch parameters are the launch context and
// its Policy (sorts): bind_check, bind_state with `threads(policy)` (kernel i's block
// size), params.policy = the build's policy. Errors: as bind_check and bind_state.
template <class A, class DispatchFn, class Threads>
[[nodiscard]] Result<std::unique_ptr<ExecutableState<A>>> bind_holding_policy(
    const BuiltView<A>& result, int device, DispatchFn dispatch, Threads&& threads) {
  CCCL_CACHE_CHECK(bind_check(result));
  const auto block_threads = threads(result.policy);
  CCCL_CACHE_TRY(auto state, bind_state(result, device, block_threads, dispatch));
  state->params.policy = result.policy;
  return state;
}

// A bind's dry run of its host dispatch, for what CUB computes once per process (a
// launch configuration): `run(dry)` (returning a CUresult) with a copy of the bound
// launch context that launches nothing and asks the driver for every occupancy the bind
// did not fix, the bound device's primary context current. Error driver "<what>: ..."
// for the context push, a failed occupancy query, or run's own failure.
template <class A, class Run>
[[nodiscard]] Result<void> dry_run(const ExecutableState<A>& state, const char* what, Run&& run) {
  CCCL_CACHE_TRY(auto current, ScopedCurrentContext::push(state.bound.context.get()));
  CUresult occupancy_error = CUDA_SUCCESS;
  LaunchContext dry = state.bound.launch;
  dry.launch = nullptr;
  dry.occupancy = loaded_driver().cuOccupancyMaxActiveBlocksPerMultiprocessor;
  dry.occupancy_error = &occupancy_error;
  const CUresult rc = run(static_cast<const LaunchContext&>(dry));
  if (occupancy_error != CUDA_SUCCESS) return tl::unexpected(driver_error(what, occupancy_error));
  if (rc != CUDA_SUCCESS) return tl::unexpected(driver_error(what, rc));
  return {};
}

}  // namespace cccl_cache::algos::detail

namespace cccl_cache::algos {

template <class A>
BoundExecutable<A>::BoundExecutable(std::unique_ptr<State> state) noexcept
    : state_(std::move(state)) {}
template <class A>
BoundExecutable<A>::BoundExecutable(BoundExecutable&&) noexcept = default;
template <class A>
BoundExecutable<A>& BoundExecutable<A>::operator=(BoundExecutable&&) noexcept = default;
template <class A>
BoundExecutable<A>::~BoundExecutable() = default;

template <class A>
CUresult BoundExecutable<A>::usable(bool launches) const noexcept {
  if (!state_) return CUDA_ERROR_INVALID_HANDLE;
  // A fork()ed child holds its parent's handles: CUDA state is not inherited.
  if (launches && !state_->bound.in_this_process()) return CUDA_ERROR_NOT_INITIALIZED;
  return CUDA_SUCCESS;
}

template <class A>
template <class... Args>
CUresult BoundExecutable<A>::call(bool launches, Args&&... args) const noexcept {
  if (CUresult rc = usable(launches); rc != CUDA_SUCCESS) return rc;
  return state_->dispatch(state_->params, std::forward<Args>(args)...);
}

template <class A>
template <class... Args>
CUresult BoundExecutable<A>::call_op(Operator A::Spec::*op, OpState s, bool launches,
                                     Args&&... args) const noexcept {
  if (CUresult rc = usable(launches); rc != CUDA_SUCCESS) return rc;
  const void* arg = detail::op_state_arg(state_->spec.*op, s, launches);
  if (arg == nullptr) return CUDA_ERROR_INVALID_VALUE;
  return state_->dispatch(state_->params, std::forward<Args>(args)..., arg);
}

template <class A>
template <class... Args>
CUresult BoundExecutable<A>::call_op2(Operator A::Spec::*op1, OpState s1, Operator A::Spec::*op2,
                                      OpState s2, bool launches, Args&&... args) const noexcept {
  if (CUresult rc = usable(launches); rc != CUDA_SUCCESS) return rc;
  const void* arg1 = detail::op_state_arg(state_->spec.*op1, s1, launches);
  const void* arg2 = detail::op_state_arg(state_->spec.*op2, s2, launches);
  if (arg1 == nullptr || arg2 == nullptr) return CUDA_ERROR_INVALID_VALUE;
  return state_->dispatch(state_->params, std::forward<Args>(args)..., arg1, arg2);
}

template <class A>
template <class... Args>
std::size_t BoundExecutable<A>::query_bytes(Args&&... args) const noexcept {
  std::size_t bytes = 0;
  return call(false, nullptr, bytes, std::forward<Args>(args)...) == CUDA_SUCCESS ? bytes : 0;
}

template <class A>
const typename A::Spec& BoundExecutable<A>::spec() const noexcept {
  return state_->spec;
}
template <class A>
int BoundExecutable<A>::device() const noexcept {
  return state_->bound.device;
}
template <class A>
std::uint32_t BoundExecutable<A>::cc() const noexcept {
  return state_->bound.cc;
}

}  // namespace cccl_cache::algos
