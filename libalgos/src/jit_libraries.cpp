// Locates NVRTC and nvJitLink without loading them, names them in the fingerprint,
// and loads exactly the named file at the first build (jit_libraries.hpp says why).
#include "jit_libraries.hpp"

#include <cuda.h>
#include <dlfcn.h>
#include <link.h>
#include <sys/auxv.h>
#include <sys/stat.h>

#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

namespace cccl_cache::algos::detail {
namespace {

constexpr int kHeaderMajor = CUDA_VERSION / 1000;
constexpr int kHeaderMinor = CUDA_VERSION % 1000 / 10;

std::optional<std::uint64_t> file_size(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  return static_cast<std::uint64_t>(st.st_size);
}

// "<soname>@<size>" (the fingerprint's spelling; sonames hold no spaces or commas).
std::string identity_of(const std::string& soname, std::uint64_t size) {
  return soname + "@" + std::to_string(size);
}

struct Located {
  std::string path;  // empty: not located (ld.so's own search at load)
  std::string identity;
};

// The soname in $LD_LIBRARY_PATH (as ld.so reads it: ignored for set-id programs), then
// in the toolkit's library directory. A file found there is the one the loader opens;
// none found: the fingerprint names the compiled-against file.
Located locate(const std::string& soname, std::uint64_t compiled_size) {
  auto try_dir = [&](std::string_view dir) -> std::optional<Located> {
    if (dir.empty()) return std::nullopt;
    std::string path(dir);
    path += '/';
    path += soname;
    if (auto size = file_size(path)) return Located{path, identity_of(soname, *size)};
    return std::nullopt;
  };
  const char* env = ::getauxval(AT_SECURE) != 0 ? nullptr : std::getenv("LD_LIBRARY_PATH");
  for (std::string_view rest = env != nullptr ? env : ""; !rest.empty();) {
    const auto sep = rest.find_first_of(":;");
    const auto dir = rest.substr(0, sep);
    rest.remove_prefix(sep == std::string_view::npos ? rest.size() : sep + 1);
    if (auto found = try_dir(dir)) return *found;
  }
  if (auto found = try_dir(CCCL_CACHE_CUDA_LIBRARY_DIR)) return *found;
  return Located{{}, identity_of(soname, compiled_size)};
}

// One library: its name, what libalgos was compiled against, where it is (located once,
// at the first use of either the fingerprint or the loader).
struct Library {
  const char* what;             // "NVRTC"
  std::string soname;           // "libnvrtc.so.13"
  std::uint64_t compiled_size;  // size of the toolkit's file CMake found (0: unknown)
  Located where;
  Library(const char* w, std::string name, std::uint64_t size)
      : what(w), soname(std::move(name)), compiled_size(size), where(locate(soname, size)) {}
};

const Library& nvrtc_library() {
  static const Library lib("NVRTC", "libnvrtc.so." + std::to_string(kHeaderMajor),
                           CCCL_CACHE_NVRTC_COMPILED_SIZE);
  return lib;
}

const Library& nvjitlink_library() {
  static const Library lib("nvJitLink", "libnvJitLink.so." + std::to_string(kHeaderMajor),
                           CCCL_CACHE_NVJITLINK_COMPILED_SIZE);
  return lib;
}

// The version the located file has, known without loading it: the headers' when it is
// the file libalgos was compiled against.
std::optional<std::pair<int, int>> known_version(const Library& lib) {
  if (lib.compiled_size != 0 && lib.where.identity == identity_of(lib.soname, lib.compiled_size))
    return std::pair{kHeaderMajor, kHeaderMinor};
  return std::nullopt;
}

template <class Api>
struct Loaded {
  Result<const Api*> api;
  std::pair<int, int> version{0, 0};  // the loaded library's own (0.0 if not loaded)
};

template <class Fn>
void resolve(void* handle, const char* symbol, Fn& fn, std::string& missing) {
  void* p = ::dlsym(handle, symbol);
  if (p == nullptr) missing += (missing.empty() ? "" : ", ") + std::string(symbol);
  fn = reinterpret_cast<Fn>(p);
}

// Opens the located file (or the soname through ld.so), resolves every entry point
// into `table` with `resolve_all(handle, missing)` and reads its version with
// `version()`; refuses a file or version other than the fingerprint's.
template <class Api, class ResolveAll, class Version>
Loaded<Api> load(const Library& lib, Api& table, ResolveAll&& resolve_all, Version&& version) {
  const Located& where = lib.where;
  const std::string name = where.path.empty() ? lib.soname : where.path;
  auto failed = [&](const std::string& why) {
    return Loaded<Api>{fail(ErrorCode::compile, std::string(lib.what) + " (" + name + ") " + why)};
  };
  const std::string hint = "; builds need the CUDA Toolkit's " + std::string(lib.what) + " " +
                           std::to_string(kHeaderMajor) +
                           ".x (store hits do not): install it or add its directory to "
                           "LD_LIBRARY_PATH";
  // Never dlclose'd: the entry points live as long as the process.
  void* handle = ::dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* why = ::dlerror();
    return failed(std::string("could not be loaded: ") + (why != nullptr ? why : "unknown") + hint);
  }
  // The file opened, by the path ld.so recorded: the one the fingerprint named?
  link_map* map = nullptr;
  std::string opened = "?";
  if (::dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map != nullptr && map->l_name != nullptr) {
    if (auto size = file_size(map->l_name)) opened = identity_of(lib.soname, *size);
  }
  if (opened != where.identity)
    return failed("is " + opened + ", not the " + where.identity +
                  " the cache keys of this process name (libalgos was compiled against " +
                  identity_of(lib.soname, lib.compiled_size) + " in " CCCL_CACHE_CUDA_LIBRARY_DIR
                  "): put the directory of the right one first in LD_LIBRARY_PATH");
  std::string missing;
  resolve_all(handle, missing);
  if (!missing.empty()) {
    table = Api{};
    return failed("lacks " + missing + " (older than CUDA " + std::to_string(kHeaderMajor) + "." +
                  std::to_string(kHeaderMinor) + ")" + hint);
  }
  const auto v = version(table);
  if (auto known = known_version(lib); known && *known != v) {
    table = Api{};
    return failed("is version " + std::to_string(v.first) + "." + std::to_string(v.second) +
                  ", but the cache keys name " + std::to_string(known->first) + "." +
                  std::to_string(known->second) + " (the toolkit libalgos was compiled against)");
  }
  return Loaded<Api>{&table, v};
}

// Written only while the statics below are initialized; read-only after.
NvrtcApi g_nvrtc;
NvJitLinkApi g_nvjitlink;

const Loaded<NvrtcApi>& loaded_nvrtc() {
  static const Loaded<NvrtcApi> instance = load(
      nvrtc_library(), g_nvrtc,
      [](void* handle, std::string& missing) {
#define CCCL_CACHE_NVRTC_RESOLVE(name, symbol) resolve(handle, #symbol, g_nvrtc.name, missing);
        CCCL_CACHE_NVRTC_ENTRY_POINTS(CCCL_CACHE_NVRTC_RESOLVE)
#undef CCCL_CACHE_NVRTC_RESOLVE
      },
      [](const NvrtcApi& api) {
        int major = 0, minor = 0;
        if (api.nvrtcVersion(&major, &minor) != NVRTC_SUCCESS) return std::pair{0, 0};
        return std::pair{major, minor};
      });
  return instance;
}

const Loaded<NvJitLinkApi>& loaded_nvjitlink() {
  static const Loaded<NvJitLinkApi> instance = load(
      nvjitlink_library(), g_nvjitlink,
      [](void* handle, std::string& missing) {
#define CCCL_CACHE_NVJITLINK_RESOLVE(name, symbol) \
  resolve(handle, #symbol, g_nvjitlink.name, missing);
        CCCL_CACHE_NVJITLINK_ENTRY_POINTS(CCCL_CACHE_NVJITLINK_RESOLVE)
#undef CCCL_CACHE_NVJITLINK_RESOLVE
      },
      [](const NvJitLinkApi& api) {
        unsigned major = 0, minor = 0;
        if (api.nvJitLinkVersion(&major, &minor) != NVJITLINK_SUCCESS) return std::pair{0, 0};
        return std::pair{static_cast<int>(major), static_cast<int>(minor)};
      });
  return instance;
}

template <class Api>
JitLibrary identity(const Library& lib, const Loaded<Api>& (*loaded)()) {
  JitLibrary out{lib.where.identity};
  // Unknown without loading only where the located file is not the compiled-against one.
  const auto known = known_version(lib);
  std::tie(out.major, out.minor) = known ? *known : loaded().version;
  return out;
}

}  // namespace

const JitLibrary& nvrtc_identity() {
  static const JitLibrary id = identity(nvrtc_library(), &loaded_nvrtc);
  return id;
}

const JitLibrary& nvjitlink_identity() {
  static const JitLibrary id = identity(nvjitlink_library(), &loaded_nvjitlink);
  return id;
}

const Result<const NvrtcApi*>& nvrtc() noexcept { return loaded_nvrtc().api; }
const Result<const NvJitLinkApi*>& nvjitlink() noexcept { return loaded_nvjitlink().api; }

}  // namespace cccl_cache::algos::detail
