// Loads libcuda.so.1 once and resolves the entry points through cuGetProcAddress,
// so that versioned symbols resolve as the toolkit's headers declare them (a plain
// dlsym("cuCtxPushCurrent") would find the old, unversioned ABI).
#include "cuda_driver.hpp"

#include <dlfcn.h>

#include <string>
#include <type_traits>

namespace cccl_cache::algos::detail {

namespace {

struct Loaded {
  Result<const DriverApi*> api;
  CUresult status = CUDA_SUCCESS;
};

// Written only while `loaded()`'s static is being initialized; read-only after.
DriverApi g_table;

Loaded no_driver(const std::string& why, CUresult status) {
  return Loaded{fail(ErrorCode::driver, "no NVIDIA driver found (" + why +
                                            "); GPU operations are unavailable, builds and the "
                                            "store still work"),
                status};
}

std::string path_of(void* symbol) {
  Dl_info info{};
  if (dladdr(symbol, &info) != 0 && info.dli_fname != nullptr) return info.dli_fname;
  return "libcuda.so.1";
}

Loaded load() {
  // Never dlclose'd: the driver cannot be unloaded safely while the process runs.
  void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr) {
    const char* why = dlerror();
    return no_driver(std::string("libcuda.so.1 could not be loaded: ") + (why ? why : "unknown"),
                     CUDA_ERROR_NO_DEVICE);
  }
  // The one symbol found by name; it exists from driver 12.0 on.
  using GetProcAddress = decltype(&::cuGetProcAddress_v2);
  auto get_proc = reinterpret_cast<GetProcAddress>(dlsym(lib, "cuGetProcAddress_v2"));
  if (get_proc == nullptr)
    return no_driver("libcuda.so.1 lacks cuGetProcAddress_v2: the driver predates CUDA 12.0",
                     CUDA_ERROR_NOT_FOUND);
  const std::string path = path_of(reinterpret_cast<void*>(get_proc));

  std::string missing;
  CUresult failure = CUDA_SUCCESS;
  auto resolve = [&](const char* symbol, auto& fn) {
    void* p = nullptr;
    CUdriverProcAddressQueryResult found = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    const CUresult rc = get_proc(symbol, &p, CUDA_VERSION, CU_GET_PROC_ADDRESS_DEFAULT, &found);
    if (rc == CUDA_SUCCESS && found == CU_GET_PROC_ADDRESS_SUCCESS && p != nullptr) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(p);
      return;
    }
    if (failure == CUDA_SUCCESS) failure = rc != CUDA_SUCCESS ? rc : CUDA_ERROR_NOT_FOUND;
    missing += (missing.empty() ? "" : ", ") + std::string(symbol);
  };
#define CCCL_CACHE_DRIVER_RESOLVE(name) resolve(#name, g_table.name);
  CCCL_CACHE_DRIVER_ENTRY_POINTS(CCCL_CACHE_DRIVER_RESOLVE)
#undef CCCL_CACHE_DRIVER_RESOLVE

  if (failure == CUDA_ERROR_STUB_LIBRARY)
    return no_driver(path + " is the CUDA toolkit's stub library, not a driver",
                     CUDA_ERROR_STUB_LIBRARY);
  if (!missing.empty()) {
    int version = 0;
    if (g_table.cuDriverGetVersion != nullptr) g_table.cuDriverGetVersion(&version);
    g_table = DriverApi{};  // all or nothing
    return no_driver(path + " (CUDA " + std::to_string(version / 1000) + "." +
                         std::to_string(version % 1000 / 10) + ") lacks " + missing + " of CUDA " +
                         std::to_string(CUDA_VERSION / 1000) + "." +
                         std::to_string(CUDA_VERSION % 1000 / 10) + ": update the NVIDIA driver",
                     CUDA_ERROR_NOT_FOUND);
  }
  return Loaded{&g_table, CUDA_SUCCESS};
}

// A function-local static: initialized once, thread-safe, on first use.
const Loaded& loaded() {
  static const Loaded instance = load();
  return instance;
}

}  // namespace

const Result<const DriverApi*>& driver() noexcept { return loaded().api; }

CUresult driver_load_status() noexcept { return loaded().status; }

Error driver_error(const char* what, CUresult rc) {
  const char* name = nullptr;
  const char* text = nullptr;
  if (const auto& api = driver(); api) {
    (*api)->cuGetErrorName(rc, &name);
    (*api)->cuGetErrorString(rc, &text);
  }
  return Error{ErrorCode::driver,
               std::string(what) + ": " +
                   (name ? std::string(name) : "CUresult " + std::to_string(static_cast<int>(rc))) +
                   " (" + (text ? text : "no description") + ")"};
}

}  // namespace cccl_cache::algos::detail
