// NVRTC and nvJitLink, loaded at run time. libalgos does not link them: each costs
// ~40 ms to map and relocate, which every program (and `import cccl_cache`) paid at
// start-up though only builds use them. A store hit never loads them, and works on a
// machine without them. Private to libalgos.
//
// Which files: the library is *located* without being loaded, by its soname
// (libnvrtc.so.<major of the toolkit libalgos was compiled with>) in each directory of
// $LD_LIBRARY_PATH, then in the toolkit's library directory CMake found. The toolchain
// fingerprint names the located file ("<soname>@<its size>", as ld.so would name it)
// and the loader dlopens exactly that file, so every key names the library that builds
// under it. Not located: the fingerprint names the library libalgos was compiled
// against, and the loader asks ld.so for the soname (its cache, system directories),
// accepting only a file with that identity. Versions: the toolkit headers' (CUDA_VERSION)
// when the located file is the compiled-against one (same name and size), else the
// loaded library's own answer (nvrtcVersion(): the only case that loads it for a key).
// A loaded library whose version differs from the one the keys name fails every build.
#pragma once

#include <nvJitLink.h>
#include <nvrtc.h>

#include <string>

#include "cccl_cache/cache/error.hpp"

namespace cccl_cache::algos::detail {

// The NVRTC entry points libalgos calls (names as in nvrtc.h).
#define CCCL_CACHE_NVRTC_ENTRY_POINTS(X) \
  X(nvrtcVersion, nvrtcVersion)        \
  X(nvrtcGetErrorString, nvrtcGetErrorString) \
  X(nvrtcGetNumSupportedArchs, nvrtcGetNumSupportedArchs) \
  X(nvrtcGetSupportedArchs, nvrtcGetSupportedArchs) \
  X(nvrtcCreateProgram, nvrtcCreateProgram) \
  X(nvrtcDestroyProgram, nvrtcDestroyProgram) \
  X(nvrtcAddNameExpression, nvrtcAddNameExpression) \
  X(nvrtcCompileProgram, nvrtcCompileProgram) \
  X(nvrtcGetProgramLogSize, nvrtcGetProgramLogSize) \
  X(nvrtcGetProgramLog, nvrtcGetProgramLog) \
  X(nvrtcGetLoweredName, nvrtcGetLoweredName) \
  X(nvrtcGetLTOIRSize, nvrtcGetLTOIRSize) \
  X(nvrtcGetLTOIR, nvrtcGetLTOIR) \
  X(nvrtcGetCUBINSize, nvrtcGetCUBINSize) \
  X(nvrtcGetCUBIN, nvrtcGetCUBIN)

// nvJitLink.h's calls are inline wrappers of versioned symbols (__nvJitLinkCreate_13_0):
// the members carry the wrappers' names and resolve the symbols the header's wrappers
// call, so a header of another ABI fails to compile here rather than mismatch.
#define CCCL_CACHE_NVJITLINK_ENTRY_POINTS(X) \
  X(nvJitLinkVersion, nvJitLinkVersion)    \
  X(nvJitLinkCreate, __nvJitLinkCreate_13_0) \
  X(nvJitLinkDestroy, __nvJitLinkDestroy_13_0) \
  X(nvJitLinkAddData, __nvJitLinkAddData_13_0) \
  X(nvJitLinkComplete, __nvJitLinkComplete_13_0) \
  X(nvJitLinkGetLinkedCubinSize, __nvJitLinkGetLinkedCubinSize_13_0) \
  X(nvJitLinkGetLinkedCubin, __nvJitLinkGetLinkedCubin_13_0) \
  X(nvJitLinkGetErrorLogSize, __nvJitLinkGetErrorLogSize_13_0) \
  X(nvJitLinkGetErrorLog, __nvJitLinkGetErrorLog_13_0) \
  X(nvJitLinkGetInfoLogSize, __nvJitLinkGetInfoLogSize_13_0) \
  X(nvJitLinkGetInfoLog, __nvJitLinkGetInfoLog_13_0)

// Members named as the headers' calls, typed as the symbols they resolve.
#define CCCL_CACHE_JIT_MEMBER(name, symbol) decltype(&::symbol) name = nullptr;
struct NvrtcApi {
  CCCL_CACHE_NVRTC_ENTRY_POINTS(CCCL_CACHE_JIT_MEMBER)
};
struct NvJitLinkApi {
  CCCL_CACHE_NVJITLINK_ENTRY_POINTS(CCCL_CACHE_JIT_MEMBER)
};
#undef CCCL_CACHE_JIT_MEMBER

// What the toolchain fingerprint says of one library: "<soname>@<size>" and its
// version (see the file comment for where each comes from). Computed once per process
// (thread-safe); loads the library only when the located file is not the one libalgos
// was compiled against.
struct JitLibrary {
  std::string identity;
  int major = 0, minor = 0;
};
const JitLibrary& nvrtc_identity();
const JitLibrary& nvjitlink_identity();

// The entry points, loaded on the first call (thread-safe; later calls only read the
// result; never unloaded). Error compile, the same on every call, naming the library and
// what failed: "NVRTC (libnvrtc.so.13) could not be loaded: <dlerror()>; builds need the
// CUDA Toolkit's NVRTC (store hits do not): ...", a missing entry point, or a loaded
// library of another version or file than the cache keys name.
const Result<const NvrtcApi*>& nvrtc() noexcept;
const Result<const NvJitLinkApi*>& nvjitlink() noexcept;

}  // namespace cccl_cache::algos::detail
