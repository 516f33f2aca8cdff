// NVRTC (CUDA C++ -> LTO IR) and nvJitLink (LTO IR -> cubin), behind move-only RAII
// handles, through the tables loaded at the first build (jit_libraries.hpp). Private
// to libalgos. Needs no GPU and no driver.
//
// Why LTO: nvJitLink assembles PTX input as relocatable code (ptxas -c), and for
// merge sort that code sorts 2-10% slower than what nvcc makes (ptxas whole-program);
// from LTO IR nvJitLink generates whole-program code, byte-identical in the kernels'
// .text to `ptxas` (whole-program) on NVRTC's PTX (GPU run 7). -optimize-unused-variables
// drops the ~1,300 module-scope variables NVRTC emits for CCCL's static constexpr
// members, -kernels-used keeps only the kernels asked for.
#pragma once

#include <nvJitLink.h>
#include <nvrtc.h>

#include <cstddef>
#include <cstdint>
#include <span>
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

// The CCCL include directory (holding cub/, thrust/, cuda/) NVRTC compiles against,
// ahead of cuda_include_dir(): $CCCL_CACHE_CCCL_INCLUDE if set and non-empty, else the
// installed copy of the pinned CCCL 3.5.0 (<binary dir>/../share/cccl_cache/cccl-3.5.0/
// include, when the binary holding libalgos is installed), else the directory CMake was
// configured with (CCCL_CACHE_CCCL_INCLUDE_DIR, .deps/cccl-3.5.0/include).
std::string cccl_include_dir();

// CCCL_VERSION as #defined in <include_dir>/cuda/std/__cccl/version.h (3005000 for
// 3.5.0); 0 if the file is missing or has none. (toolchain.cpp)
std::uint32_t read_cccl_version(const std::string& include_dir);

// NVRTC options common to every build (no paths, no arch): part of the toolchain
// fingerprint.
const std::vector<std::string>& common_nvrtc_options();

// nvJitLink options of the link step besides -arch and -kernels-used (part of the
// toolchain fingerprint).
const std::vector<std::string>& lto_link_options();

struct LtoOutput {
  std::vector<char> ltoir;
  std::vector<std::string> lowered_names;  // one per name expression, same order
  std::string log;                         // NVRTC's log (warnings), may be empty
};

// Compiles `source` to LTO IR for sm_<cc> (-dlto) with the common options plus
// include paths, registering `name_expressions` and reading back their lowered names.
// Errors: compile (message carries the NVRTC log), internal (NVRTC API failure).
Result<LtoOutput> compile_to_ltoir(const std::string& source, const std::string& program_name,
                                   std::uint32_t cc,
                                   const std::vector<std::string>& name_expressions,
                                   const std::vector<std::string>& extra_options = {});

// The same source compiled by NVRTC straight to a cubin: for measuring the naive
// size only.
Result<std::vector<std::byte>> compile_to_cubin_naive(
    const std::string& source, const std::string& program_name, std::uint32_t cc,
    const std::vector<std::string>& name_expressions,
    const std::vector<std::string>& extra_options = {});

// Links LTO IR into a cubin for sm_<cc> with nvJitLink (lto_link_options()), keeping
// only `kernels` (mangled names) and the variables they use. `program_name` names the
// input in nvJitLink's log.
// Errors: compile (message carries the nvJitLink log), internal.
Result<std::vector<std::byte>> link_ltoir(std::span<const char> ltoir, std::uint32_t cc,
                                          const std::vector<std::string>& kernels,
                                          const std::string& program_name);

// The CCs NVRTC compiles for, ascending (loads NVRTC: jit_libraries.hpp).
// Errors: compile (NVRTC cannot be loaded), internal.
Result<std::vector<int>> nvrtc_supported_archs();

}  // namespace cccl_cache::algos::detail
