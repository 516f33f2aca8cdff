// The toolchain fingerprint: everything besides the spec that changes what a
// build produces. It is part of every cache key and stored in every entry.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cccl_cache/cache/error.hpp"

namespace cccl_cache::algos {

// Version of our BuildResult serialization. Bump on any change of the format
// or of what a build produces for the same spec.
inline constexpr std::uint32_t kBuildFormatVersion = 2;

struct Toolchain {
  std::uint32_t cccl_version = 0;   // CCCL_VERSION compiled against (the pinned 3005000)
  // The libraries' versions: those of the toolkit headers libalgos was compiled with
  // where the library a build would load is the one it was compiled against (same name
  // and size), else the library's own (nvrtcVersion()); a build refuses a library whose
  // version differs from these.
  int nvrtc_major = 0, nvrtc_minor = 0;
  int nvjitlink_major = 0, nvjitlink_minor = 0;
  std::string compile_options;      // NVRTC's and nvJitLink's options common to every build
  std::uint32_t build_format_version = kBuildFormatVersion;
  // The NVRTC and nvJitLink libraries a build loads, found without loading them:
  // "<soname>@<size of the file it leads to>" (e.g. "libnvrtc.so.13@109338064"): the
  // file in $LD_LIBRARY_PATH or the toolkit's library directory, else the one libalgos
  // was compiled against (a build then accepts only that file). nvrtcVersion() says 13.0
  // for every 13.0.x, and the toolkit's file names carry no patch level, so the file's
  // size stands in for it.
  std::string nvrtc_library, nvjitlink_library;
  // Digest of every algorithm's host-dispatch ABI (parameter layout, kernel argument
  // stand-ins, CUB version: each traits type's dispatch_abi()).
  std::uint64_t dispatch_abi = 0;

  // "cccl-3.5.0 nvrtc-13.0 nvjitlink-13.0 fmt-1 opts-<8 hex digits of XXH3 of the options>
  //  so-<nvrtc_library>,<nvjitlink_library> abi-<8 hex digits of dispatch_abi>"
  std::string fingerprint() const;

  // The toolchain of this process (queried once, thread-safe; loads neither NVRTC nor
  // nvJitLink where their files are those libalgos was compiled against).
  static const Toolchain& current();
};

// The CCs (e.g. 90) this process's NVRTC compiles for, ascending. Loads NVRTC on first
// use (thread-safe). Error compile where it cannot be loaded (the message names the
// library and the loader's reason), internal where NVRTC cannot say.
Result<std::vector<int>> nvrtc_supported_ccs();

}  // namespace cccl_cache::algos
