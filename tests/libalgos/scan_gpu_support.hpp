// What the GPU tests of scans over iterators and over struct items share: one scan call
// with its initial value given as the spec takes it.
#pragma once

#include <cuda.h>

#include <cstdint>
#include <type_traits>
#include <vector>

#include "cccl_cache/algos/iterator.hpp"
#include "cccl_cache/algos/scan/executable.hpp"
#include "gpu_support.hpp"

namespace test_support {

// How a call gives its initial value: none (an unseeded inclusive scan), on the host, or
// in device memory (scan::FutureValue).
enum class ScanInit { none, host, device };

// The scan of `in` (n items, an array or an iterator's values) on `exe` into a new device
// array, seeded with `init` as `how` says; the output on the host.
template <class T, class Exe>
std::vector<T> scan_on(const Exe& exe, const cccl_cache::algos::Input& in, std::uint64_t n, T init,
                       ScanInit how, CUstream stream) {
  namespace scan = cccl_cache::algos::scan;
  DeviceBuffer out(n * sizeof(T)), d_init(sizeof(T));
  copy_to_device(d_init, std::vector<T>{init});
  query_and_run(exe, n, stream, [&](void* temp, std::size_t& bytes) -> CUresult {
    if (how == ScanInit::device)
      return exe(temp, bytes, in, out.get(), n, scan::FutureValue{d_init.get()}, stream);
    if constexpr (std::is_same_v<Exe, scan::InclusiveExecutable>) {
      if (how == ScanInit::none) return exe(temp, bytes, in, out.get(), n, stream);
    }
    return exe(temp, bytes, in, out.get(), n, &init, stream);
  });
  return copy_to_host<T>(out, n);
}

}  // namespace test_support
