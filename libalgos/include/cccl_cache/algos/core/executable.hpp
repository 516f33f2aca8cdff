// What every algorithm's Executable is besides its call: the owner of a bound state
// (the module loaded into the device's primary context, the resolved kernels, the
// device facts and the algorithm's dispatch values, all fixed at bind), move-only,
// with the spec and device it was bound for. Each algorithm's Executable derives from
// BoundExecutable<A> and adds CUB's two-phase call (see ARCHITECTURE.md, "Adding an
// algorithm"). Never persisted.
#pragma once

#include <cuda.h>

#include <cstddef>
#include <cstdint>
#include <memory>

#include "cccl_cache/algos/core/built.hpp"

namespace cccl_cache::algos {

namespace detail {
// The inside of a bound algorithm: the core's bound module and spec plus the
// algorithm's dispatch values (src/core/executable_state.hpp and the algorithm's
// bind.cpp). Private to libalgos.
template <class A>
struct ExecutableState;
}  // namespace detail

// Move-only. Calls are thread-safe (const). A moved-from executable may only be
// assigned to or destroyed: its calls return CUDA_ERROR_INVALID_HANDLE (temp-storage
// answers 0), and spec(), device() and cc() must not be called on it.
template <class A>
class BoundExecutable {
 public:
  BoundExecutable(BoundExecutable&&) noexcept;
  BoundExecutable& operator=(BoundExecutable&&) noexcept;
  ~BoundExecutable();

  const typename A::Spec& spec() const noexcept;
  int device() const noexcept;  // device ordinal bound to
  std::uint32_t cc() const noexcept;

 protected:
  using State = detail::ExecutableState<A>;
  explicit BoundExecutable(std::unique_ptr<State> state) noexcept;
  // Whether a call may go on: CUDA_ERROR_INVALID_HANDLE (moved from), for a call that
  // launches CUDA_ERROR_NOT_INITIALIZED in a fork()ed child of the process that bound it
  // (CUDA state is not inherited across fork()), else CUDA_SUCCESS. Lock-free.
  CUresult usable(bool launches) const noexcept;
  // The bound host dispatch, `dispatch(params, args...)`, after usable(launches)
  // (src/core/executable_state.hpp).
  template <class... Args>
  CUresult call(bool launches, Args&&... args) const noexcept;
  // call(launches, args..., arg) with `arg` the address the kernels' operator argument
  // is copied from for the call's state `s` of the spec's operator `spec.*op`
  // (detail::op_state_arg): CUDA_ERROR_INVALID_VALUE where `s` does not fit its layout.
  template <class... Args>
  CUresult call_op(Operator A::Spec::*op, OpState s, bool launches, Args&&... args) const noexcept;
  // call_op for two operators, each with its own state: call(launches, args..., arg1,
  // arg2) with arg1 for `s1` of `spec.*op1` and arg2 for `s2` of `spec.*op2`.
  template <class... Args>
  CUresult call_op2(Operator A::Spec::*op1, OpState s1, Operator A::Spec::*op2, OpState s2,
                    bool launches, Args&&... args) const noexcept;
  // A size query through the bound host dispatch, `dispatch(params, nullptr, bytes,
  // args...)` (CUB's first phase, no launch): the bytes, or 0 where it fails.
  template <class... Args>
  std::size_t query_bytes(Args&&... args) const noexcept;

  std::unique_ptr<State> state_;
};

// Binds a build result to `device` (A::bind): the core bind (the cubin loaded into the
// device's primary context, every kernel resolved once, the device facts fixed) plus
// what the algorithm's dispatch needs. The one way to make an Executable: fresh builds
// (view_of) and store hits (deserialize_view, the cubin still in the store's map) both
// come through here; the driver copies the cubin, so `result` may go away afterwards.
// Each algorithm's namespace names it (`merge_sort::bind`). Errors: driver (no usable
// NVIDIA driver: "no NVIDIA driver found (...)", see device.hpp; no such device; load
// failure), unsupported (the device's CC differs from result.cc; types the algorithm's
// dispatch has no instantiation for), invalid_argument (a malformed result).
template <class A>
[[nodiscard]] Result<typename A::Executable> bind(const BuiltView<A>& result, int device) {
  return A::bind(result, device);
}
template <class A>
[[nodiscard]] Result<typename A::Executable> bind(const Built<A>& result, int device) {
  return A::bind(view_of(result), device);
}

}  // namespace cccl_cache::algos
