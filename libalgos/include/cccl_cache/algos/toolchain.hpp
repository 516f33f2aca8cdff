// The toolchain fingerprint: everything besides the spec that changes what a
// build produces. It is part of every cache key and stored in every entry.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
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
  // Each algorithm's host-dispatch ABI (its DispatchParams layout, kernel-argument
  // stand-ins, CUB version: the traits' dispatch_abi() text) as XXH3-64, by algorithm
  // name. A key and an entry's fingerprint cover only their own algorithm's digest, so
  // adding or changing one algorithm leaves every other algorithm's keys and entries
  // valid.
  std::map<std::string, std::uint64_t, std::less<>> dispatch_abi;

  // `algorithm`'s digest in dispatch_abi; 0 for a name it does not hold.
  std::uint64_t dispatch_abi_of(std::string_view algorithm) const noexcept;

  // What every algorithm's builds share: "cccl-3.5.0 nvrtc-13.0 nvjitlink-13.0 fmt-2
  // opts-<8 hex digits of XXH3 of the options> so-<nvrtc_library>,<nvjitlink_library>"
  std::string shared_fingerprint() const;
  // The fingerprint of `algorithm`'s builds, in its keys and stored in its entries:
  // shared_fingerprint() + " abi-<8 hex digits of dispatch_abi_of(algorithm)>".
  std::string fingerprint(std::string_view algorithm) const;

  // The toolchain of this process (queried once, thread-safe; loads neither NVRTC nor
  // nvJitLink where their files are those libalgos was compiled against).
  static const Toolchain& current();
};

// The CCs (e.g. 90) this process's NVRTC compiles for, ascending. Loads NVRTC on first
// use (thread-safe). Error compile where it cannot be loaded (the message names the
// library and the loader's reason), internal where NVRTC cannot say.
Result<std::vector<int>> nvrtc_supported_ccs();

// A fingerprint() text split at its last " abi-" word: the shared part and the word
// ("abi-c01a7724"); abi is empty where the text has no such word (shared is then the
// whole text). Views into `fingerprint`.
struct FingerprintParts {
  std::string_view shared, abi;
};
FingerprintParts split_fingerprint(std::string_view fingerprint) noexcept;

}  // namespace cccl_cache::algos
