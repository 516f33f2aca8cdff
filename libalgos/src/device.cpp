// Device queries for callers outside libalgos (the CLI, embedders) and for bind().
#include "cccl_cache/algos/device.hpp"

#include <array>
#include <atomic>
#include <mutex>
#include <pthread.h>
#include <string>
#include <utility>

#include "cuda_driver.hpp"
#include "device_facts.hpp"

namespace cccl_cache::algos {

namespace detail {
namespace {

std::atomic<std::uint64_t> g_fork_generation{0};
std::atomic<bool> g_driver_initialized{false};  // cuInit was called in this process image
std::atomic<bool> g_driver_inherited{false};    // ... by a parent, before fork()

void install_fork_handler() {
  static std::once_flag once;
  std::call_once(once, [] {
    pthread_atfork(nullptr, nullptr, [] {
      g_fork_generation.fetch_add(1, std::memory_order_relaxed);
      if (g_driver_initialized.load(std::memory_order_relaxed))
        g_driver_inherited.store(true, std::memory_order_relaxed);
    });
  });
}

}  // namespace

// Before the first cuInit: a fork after it leaves the child without a usable driver.
void note_driver_initialized() {
  install_fork_handler();
  g_driver_initialized.store(true, std::memory_order_relaxed);
}

std::uint64_t fork_generation() noexcept {
  install_fork_handler();
  return g_fork_generation.load(std::memory_order_relaxed);
}

Result<void> driver_used_after_fork() {
  install_fork_handler();
  if (!g_driver_inherited.load(std::memory_order_relaxed)) return {};
  return fail(ErrorCode::driver,
              "CUDA cannot be used in this process: it is a fork() child of a process that had "
              "initialized the CUDA driver (CUDA state is not inherited across fork); initialize "
              "CUDA only after forking, or start workers with spawn/exec");
}

}  // namespace detail

using detail::driver;
using detail::driver_error;

Result<void> driver_status() {
  if (auto forked = detail::driver_used_after_fork(); !forked) return forked;
  const auto& api = driver();
  if (!api) return tl::unexpected(api.error());
  detail::note_driver_initialized();
  // Repeated calls return the first call's result at once.
  if (CUresult rc = (*api)->cuInit(0); rc != CUDA_SUCCESS)
    return tl::unexpected(driver_error("cuInit", rc));
  return {};
}

Result<int> device_count() {
  if (!driver_status()) return 0;
  int count = 0;
  if (CUresult rc = (*driver())->cuDeviceGetCount(&count); rc != CUDA_SUCCESS)
    return tl::unexpected(driver_error("cuDeviceGetCount", rc));
  return count;
}

namespace detail {

namespace {

// Facts of the first kMaxCached ordinals, each queried once per process (a device's
// handle and compute capability cannot change while the process runs). Errors are
// not kept: a later call asks the driver again.
constexpr int kMaxCached = 64;
struct Slot {
  std::atomic<bool> ready{false};
  DeviceFacts facts;
};
std::array<Slot, kMaxCached> g_slots;
std::mutex g_fill;

Result<DeviceFacts> query_facts(int device) {
  if (auto status = driver_status(); !status) return tl::unexpected(status.error());
  const DriverApi& cu = **driver();
  int count = 0;
  if (CUresult rc = cu.cuDeviceGetCount(&count); rc != CUDA_SUCCESS)
    return tl::unexpected(driver_error("cuDeviceGetCount", rc));
  if (device < 0 || device >= count)
    return fail(ErrorCode::driver, "no CUDA device " + std::to_string(device) + " (" +
                                       std::to_string(count) + " present)");
  DeviceFacts facts;
  if (CUresult rc = cu.cuDeviceGet(&facts.device, device); rc != CUDA_SUCCESS)
    return tl::unexpected(driver_error("cuDeviceGet", rc));
  // Every fact a dispatch may need, asked once here so that no bind asks again.
  int major = 0, minor = 0, sms = 0, smem_optin = 0, smem = 0, grid_x = 0;
  const std::pair<int*, CUdevice_attribute> attributes[] = {
      {&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR},
      {&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR},
      {&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT},
      {&smem_optin, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN},
      {&smem, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK},
      {&grid_x, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X}};
  for (const auto& [out, attribute] : attributes) {
    if (CUresult rc = cu.cuDeviceGetAttribute(out, attribute, facts.device); rc != CUDA_SUCCESS)
      return tl::unexpected(driver_error("cuDeviceGetAttribute", rc));
  }
  facts.cc = static_cast<std::uint32_t>(major * 10 + minor);
  facts.sm_count = sms;
  facts.max_shared_memory_optin = smem_optin;
  facts.max_shared_memory = smem;
  facts.max_grid_dim_x = grid_x;
  return facts;
}

}  // namespace

Result<DeviceFacts> device_facts(int device) {
  if (auto forked = driver_used_after_fork(); !forked) return tl::unexpected(forked.error());
  if (device < 0 || device >= kMaxCached) return query_facts(device);
  Slot& slot = g_slots[static_cast<std::size_t>(device)];
  if (slot.ready.load(std::memory_order_acquire)) return slot.facts;
  std::lock_guard lock(g_fill);
  if (slot.ready.load(std::memory_order_relaxed)) return slot.facts;
  auto facts = query_facts(device);
  if (facts) {
    slot.facts = *facts;
    slot.ready.store(true, std::memory_order_release);
  }
  return facts;
}

}  // namespace detail

Result<std::uint32_t> device_cc(int device) {
  auto facts = detail::device_facts(device);
  if (!facts) return tl::unexpected(facts.error());
  return facts->cc;
}

Result<int> pointer_device(const void* ptr) {
  if (auto status = driver_status(); !status) return tl::unexpected(status.error());
  // cuPointerGetAttributes (not ...Attribute) leaves unknown host pointers at "no
  // memory type" instead of failing: one call answers every case.
  unsigned int memory_type = 0;
  int ordinal = -1;
  CUpointer_attribute attributes[] = {CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                                      CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL};
  void* values[] = {&memory_type, &ordinal};
  if (CUresult rc = (*driver())->cuPointerGetAttributes(2, attributes, values,
                                                        reinterpret_cast<CUdeviceptr>(ptr));
      rc != CUDA_SUCCESS)
    return tl::unexpected(driver_error("cuPointerGetAttributes", rc));
  if (memory_type == CU_MEMORYTYPE_HOST)
    return fail(ErrorCode::invalid_argument, "not device memory (page-locked host memory)");
  if ((memory_type != CU_MEMORYTYPE_DEVICE && memory_type != CU_MEMORYTYPE_UNIFIED) || ordinal < 0)
    return fail(ErrorCode::invalid_argument, "not device memory (host memory)");
  return ordinal;
}

}  // namespace cccl_cache::algos
