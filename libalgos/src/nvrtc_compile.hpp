// NVRTC (CUDA C++ -> PTX) and nvJitLink (PTX -> cubin), behind move-only RAII
// handles. Private to libalgos. Needs no GPU and no driver.
#pragma once

#include <nvJitLink.h>
#include <nvrtc.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cccl_cache/cache/error.hpp"

namespace cccl_cache::algos::detail {

// Owns one nvrtcProgram; destroyed with the wrapper.
class NvrtcProgram {
 public:
  explicit NvrtcProgram(nvrtcProgram handle) noexcept : handle_(handle) {}
  NvrtcProgram(NvrtcProgram&& other) noexcept : handle_(other.handle_) { other.handle_ = nullptr; }
  NvrtcProgram& operator=(NvrtcProgram&& other) noexcept;
  NvrtcProgram(const NvrtcProgram&) = delete;
  NvrtcProgram& operator=(const NvrtcProgram&) = delete;
  ~NvrtcProgram();
  nvrtcProgram get() const noexcept { return handle_; }

 private:
  nvrtcProgram handle_ = nullptr;
};

// Owns one nvJitLinkHandle; destroyed with the wrapper.
class NvJitLinkHandle {
 public:
  explicit NvJitLinkHandle(nvJitLinkHandle handle) noexcept : handle_(handle) {}
  NvJitLinkHandle(NvJitLinkHandle&& other) noexcept : handle_(other.handle_) {
    other.handle_ = nullptr;
  }
  NvJitLinkHandle& operator=(NvJitLinkHandle&& other) noexcept;
  NvJitLinkHandle(const NvJitLinkHandle&) = delete;
  NvJitLinkHandle& operator=(const NvJitLinkHandle&) = delete;
  ~NvJitLinkHandle();
  nvJitLinkHandle get() const noexcept { return handle_; }

 private:
  nvJitLinkHandle handle_ = nullptr;
};

// The toolkit include directory NVRTC compiles against: $CCCL_CACHE_CUDA_INCLUDE if
// set and non-empty, else the directory CMake found at configure time.
std::string cuda_include_dir();

// NVRTC options common to every build (no paths, no arch): part of the toolchain
// fingerprint.
const std::vector<std::string>& common_nvrtc_options();

struct PtxOutput {
  std::string ptx;
  std::vector<std::string> lowered_names;  // one per name expression, same order
  std::string log;                         // NVRTC's log (warnings), may be empty
};

// Compiles `source` to PTX for compute_<cc> with the common options plus include
// paths, registering `name_expressions` and reading back their lowered names.
// Errors: compile (message carries the NVRTC log), internal (NVRTC API failure).
Result<PtxOutput> compile_to_ptx(const std::string& source, const std::string& program_name,
                                 std::uint32_t cc,
                                 const std::vector<std::string>& name_expressions);

// Same compile, but NVRTC produces the cubin directly (no pruning): for measuring
// the naive size only.
Result<std::vector<std::byte>> compile_to_cubin_naive(
    const std::string& source, const std::string& program_name, std::uint32_t cc,
    const std::vector<std::string>& name_expressions);

// Assembles PTX into a cubin for sm_<cc> with nvJitLink (-O3).
// Errors: compile (message carries the nvJitLink log).
Result<std::vector<std::byte>> assemble_ptx(const std::string& ptx, std::uint32_t cc);

// nvrtcVersion() / nvJitLinkVersion().
std::pair<int, int> nvrtc_version();
std::pair<int, int> nvjitlink_version();

}  // namespace cccl_cache::algos::detail
