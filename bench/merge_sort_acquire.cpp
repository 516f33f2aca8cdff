// Benchmark 2: acquiring a bound merge sort (float32 keys, less, int64 offsets).
//   fresh build (NVRTC) and a full miss through AlgorithmCache; serialize;
//   a store hit in NEW processes (this program re-executed as a child): the store's
//   open and AlgorithmCache's per-process set-up (toolchain fingerprint, driver entry
//   points) on their own lines, then AlgorithmCache::merge_sort (key, get_with,
//   deserialize_view, bind from the store's map) whole and in pieces; the in-process
//   repeat; and beside them the bare driver cost of loading the same cubin and
//   resolving the same kernels (first time in a process, and warm), with the
//   driver's default lazy loading and with CUDA_MODULE_LOADING=EAGER, and bind's
//   driver calls one by one (anatomy).
// Process state matters (merge_sort_hit_anatomy, runs 19-21): the driver's load
// allocates host memory, which costs page faults where the process has no freed heap
// to reuse. The bare child reads its cubin file into a vector first, which leaves such
// heap behind; a store hit reads through the map and leaves none. So the hit is also
// compared in matched states: cold (bare_cold: the cubin read through a read-only file
// mapping, as the store's; bare_untouched: the same, not read before the load, as a
// hit's entry is not before its get) and warm (cache_warm: the hit after the same file
// read as the bare child's).
// Usage: merge_sort_acquire [children_per_mode]   (children: --child MODE DIR)
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include "cccl_cache/algos/algorithm_cache.hpp"
#include "cccl_cache/algos/device.hpp"
#include "cccl_cache/algos/merge_sort/build_result.hpp"
#include "cccl_cache/algos/core/built.hpp"
#include "bench_util.hpp"

namespace ms = cccl_cache::algos::merge_sort;
namespace fs = std::filesystem;
using bench::Clock;

namespace {

double ms_since(Clock::time_point t0) { return bench::ns_since(t0) / 1e6; }

// First sort call after acquisition and a second one (2,048 keys, incl. sync): shows
// whether any loading was left for the first launch.
void time_first_calls(const ms::Executable& exe, std::map<std::string, double>& out) {
  const std::uint64_t n = 2048;
  std::vector<float> keys(n);
  for (std::uint64_t i = 0; i < n; ++i) keys[i] = static_cast<float>((i * 7919) % 2048);
  CUdeviceptr d_keys = 0, d_temp = 0;
  std::size_t temp = exe.temp_storage_bytes(n);
  bench::check_cu(cuMemAlloc(&d_keys, n * 4), "cuMemAlloc");
  bench::check_cu(cuMemAlloc(&d_temp, temp), "cuMemAlloc");
  for (const char* key : {"first_sort_ms", "second_sort_ms"}) {
    bench::check_cu(cuMemcpyHtoD(d_keys, keys.data(), n * 4), "cuMemcpyHtoD");
    auto* k = reinterpret_cast<void*>(d_keys);
    const auto t0 = Clock::now();
    bench::check_cu(exe(reinterpret_cast<void*>(d_temp), temp, k, nullptr, k, nullptr, n, nullptr),
                    "sort");
    bench::check_cu(cuCtxSynchronize(), "cuCtxSynchronize");
    out[key] = ms_since(t0);
  }
  cuMemFree(d_keys);
  cuMemFree(d_temp);
}

void write_cubin_and_names(const ms::BuildResult& r, const fs::path& cubin, const fs::path& names) {
  std::ofstream(cubin, std::ios::binary)
      .write(reinterpret_cast<const char*>(r.record.cubin.data()),
             static_cast<std::streamsize>(r.record.cubin.size()));
  std::ofstream(names) << r.record.kernels[0] << "\n"
                       << r.record.kernels[1] << "\n"
                       << r.record.kernels[2] << "\n";
}

double bare_load(const std::vector<char>& cubin, const std::vector<std::string>& names) {
  const auto t0 = Clock::now();
  CUlibrary lib = nullptr;
  bench::check_cu(cuLibraryLoadData(&lib, cubin.data(), nullptr, nullptr, 0, nullptr, nullptr, 0),
                  "cuLibraryLoadData");
  for (const auto& name : names) {
    CUkernel kernel = nullptr;
    CUfunction fn = nullptr;
    bench::check_cu(cuLibraryGetKernel(&kernel, lib, name.c_str()), "cuLibraryGetKernel");
    bench::check_cu(cuKernelGetFunction(&fn, kernel), "cuKernelGetFunction");
    bench::check_cu(cuFuncLoad(fn), "cuFuncLoad");
  }
  const double t = ms_since(t0);
  cuLibraryUnload(lib);
  return t;
}

// bind's driver calls, made one by one with the driver linked directly and timed per
// kind (summed over the three kernels): where does a first bind spend its time beyond
// the bare load? Runs first in its process, like bare_load. (Whether the cubin lies on
// the heap or in LMDB's map makes no difference: pieces vs pieces_heap, run 10.)
void bind_anatomy(const void* image, const std::vector<std::string>& names,
                  std::map<std::string, double>& out) {
  auto step = [&out](const char* key, auto&& call) {
    const auto t0 = Clock::now();
    bench::check_cu(call(), key);
    out[std::string("anat_") + key + "_ms"] += ms_since(t0);
  };
  const auto all0 = Clock::now();
  CUdevice dev = 0;
  CUcontext ctx = nullptr, popped = nullptr;
  CUmodule mod = nullptr;
  int count = 0, major = 0, minor = 0;
  step("device_queries", [&] {  // what device_cc does
    CUresult rc = cuInit(0);
    if (rc == CUDA_SUCCESS) rc = cuDeviceGetCount(&count);
    if (rc == CUDA_SUCCESS) rc = cuDeviceGet(&dev, 0);
    if (rc == CUDA_SUCCESS)
      rc = cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
    if (rc == CUDA_SUCCESS)
      rc = cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
    return rc;
  });
  step("retain", [&] { return cuDevicePrimaryCtxRetain(&ctx, dev); });
  step("push", [&] { return cuCtxPushCurrent(ctx); });
  step("load", [&] { return cuModuleLoadData(&mod, image); });
  for (const auto& name : names) {
    CUfunction fn = nullptr;
    step("get_function", [&] { return cuModuleGetFunction(&fn, mod, name.c_str()); });
    step("func_load", [&] { return cuFuncLoad(fn); });
  }
  step("pop", [&] { return cuCtxPopCurrent(&popped); });
  out["anat_total_ms"] = ms_since(all0);
}

// The same with the context-bound module API (cuModuleLoadData): is the library API
// (what bind uses, context-independent) dearer?
double bare_module_load(const std::vector<char>& cubin, const std::vector<std::string>& names) {
  const auto t0 = Clock::now();
  CUmodule mod = bench::load_module(cubin.data(), names);
  const double t = ms_since(t0);
  cuModuleUnload(mod);
  return t;
}

// A second spec (greater instead of less), stored by the parent: a later acquisition
// in the same process, when our code and the driver are warm.
ms::Spec second_spec() {
  ms::Spec s;
  s.comparator = cccl_cache::algos::Comparator::greater();
  return s;
}

// A third (int32 keys, less), acquired after sorts have run.
ms::Spec third_spec() {
  ms::Spec s;
  s.key_type = cccl_cache::algos::ScalarType::int32;
  return s;
}

int child(std::string mode, const fs::path& dir) {
  std::map<std::string, double> out;
  // cache_warm: the hit in the bare child's heap state, its cubin file read (and freed)
  // right before (runs 22-23 read it before the context's creation instead).
  const bool warm = mode == "cache_warm";
  if (warm) mode = "cache";
  auto t0 = Clock::now();
  int device_cc = 0;
  bench::gpu_context(&device_cc);
  out["context_ms"] = ms_since(t0);
  const auto cc = static_cast<std::uint32_t>(device_cc);
  if (mode == "bare_cold" || mode == "bare_untouched") {
    // bare_untouched: the image not read before, so the load faults it in and reads it
    // from memory, as the hit's get does with the entry.
    const void* image = bench::map_read_only(dir / "cubin.bin", MAP_PRIVATE, mode == "bare_cold");
    const auto names = bench::read_lines(dir / "kernels.txt");
    const auto t1 = Clock::now();
    CUmodule mod = bench::load_module(image, names);
    out["bare_cold_first_ms"] = ms_since(t1);
    cuModuleUnload(mod);
  } else if (mode == "bare" || mode == "anatomy" || mode == "bare_module") {
    const auto cubin = bench::read_file(dir / "cubin.bin");
    const auto names = bench::read_lines(dir / "kernels.txt");
    if (mode == "anatomy" || mode == "bare_module") {
      if (mode == "anatomy") {
        bind_anatomy(cubin.data(), names, out);
      } else {
        out["bare_module_first_ms"] = bare_module_load(cubin, names);
        // The second spec's cubin next: what a second store hit loads.
        out["bare_module_second_ms"] = bare_module_load(bench::read_file(dir / "cubin2.bin"),
                                                        bench::read_lines(dir / "kernels2.txt"));
        std::vector<double> warm;
        for (int i = 0; i < 10; ++i) warm.push_back(bare_module_load(cubin, names));
        out["bare_module_warm_ms"] = bench::median(warm);
      }
      std::printf("CHILD");
      for (const auto& [k, v] : out) std::printf(" %s=%.6f", k.c_str(), v);
      std::printf("\n");
      return 0;
    }
    out["bare_first_ms"] = bare_load(cubin, names);
    std::vector<double> warm;
    for (int i = 0; i < 10; ++i) warm.push_back(bare_load(cubin, names));
    out["bare_warm_ms"] = bench::median(warm);
  } else {
    t0 = Clock::now();
    auto store = bench::open_store(dir / "store");
    out["store_open_ms"] = ms_since(t0);
    ms::Spec spec;
    if (mode == "cache") {
      t0 = Clock::now();
      cccl_cache::algos::AlgorithmCache cache(store);  // per-process set-up, like the open
      out["cache_setup_ms"] = ms_since(t0);
      if (warm) (void)bench::read_file(dir / "cubin.bin");
      t0 = Clock::now();
      auto exe = cache.acquire(spec, 0);
      out["acquire_ms"] = ms_since(t0);
      if (!exe || cache.stats().store_hits != 1 || cache.stats().builds != 0)
        bench::die("child: not a store hit");
      t0 = Clock::now();
      std::size_t bytes = 0;
      (**exe)(nullptr, bytes, nullptr, nullptr, nullptr, nullptr, 2048, nullptr);
      out["first_query_us"] = ms_since(t0) * 1e3;
      // The second spec right away (as the bare child loads its second cubin), then
      // once more after sorts have run: does loading code after kernels ran cost more?
      t0 = Clock::now();
      auto second = cache.acquire(second_spec(), 0);
      out["acquire_second_ms"] = ms_since(t0);
      if (!second || cache.stats().store_hits != 2 || cache.stats().builds != 0)
        bench::die("child: the second spec was not a store hit");
      time_first_calls(**exe, out);
      t0 = Clock::now();
      auto third = cache.acquire(third_spec(), 0);
      out["acquire_after_sorts_ms"] = ms_since(t0);
      if (!third || cache.stats().store_hits != 3 || cache.stats().builds != 0)
        bench::die("child: the third spec was not a store hit");
    } else {  // pieces: AlgorithmCache's steps one by one, after the same set-up
      cccl_cache::algos::AlgorithmCache setup(store);  // toolchain fingerprint, driver table
      // Key, get_with, deserialize_view and bind of `which`, timed under `prefix`.
      auto acquire_pieces = [&](const ms::Spec& which, const std::string& prefix) {
        auto t = Clock::now();
        const auto key = ms::cache_key(which, cc);
        out[prefix + "key_ms"] = ms_since(t);
        std::optional<ms::Executable> bound_exe;
        t = Clock::now();
        // As AlgorithmCache reads a hit: the payload only, verified by the store.
        auto hit = store->get_payload_with(key, [&](std::span<const std::byte> payload) {
          out[prefix + "get_ms"] = ms_since(t);  // verified (checksum), mapped, not copied
          auto t1 = Clock::now();
          auto view = cccl_cache::algos::deserialize_view<cccl_cache::algos::MergeSort>(payload, cc);
          out[prefix + "deserialize_ms"] = ms_since(t1);
          if (!view) bench::die(view.error().describe());
          std::optional<ms::BuildResult> owned;  // pieces_heap: the cubin copied out first
          if (mode == "pieces_heap") {
            t1 = Clock::now();
            owned.emplace(ms::BuildResult{view->spec, view->policy, cccl_cache::algos::to_owned(view->record)});
            out[prefix + "copy_ms"] = ms_since(t1);
          }
          t1 = Clock::now();
          auto bound = owned ? ms::bind(*owned, 0) : ms::bind(*view, 0);  // from the map by default
          out[prefix + "bind_first_ms"] = ms_since(t1);
          if (!bound) bench::die(bound.error().describe());
          bound_exe.emplace(std::move(*bound));
        });
        if (!hit || !*hit || !bound_exe) bench::die("child: store miss");
        return std::move(*bound_exe);
      };
      auto exe = acquire_pieces(spec, "");
      auto second = acquire_pieces(second_spec(), "second_");
      const auto key = ms::cache_key(spec, cc);
      auto entry = store->get(key);
      if (!entry || !*entry) bench::die("child: store miss");
      auto result = cccl_cache::algos::deserialize<cccl_cache::algos::MergeSort>((*entry)->payload, cc);
      if (!result) bench::die(result.error().describe());
      std::vector<double> warm;
      for (int i = 0; i < 10; ++i) {
        t0 = Clock::now();
        auto again = ms::bind(*result, 0);
        warm.push_back(ms_since(t0));
        if (!again) bench::die(again.error().describe());
      }
      out["bind_warm_ms"] = bench::median(warm);
    }
  }
  std::printf("CHILD");
  for (const auto& [k, v] : out) std::printf(" %s=%.6f", k.c_str(), v);
  std::printf("\n");
  return 0;
}

// One new process of `mode`; its values are appended to `into`.
void run_child(const std::string& mode, bool eager, const fs::path& dir,
               std::map<std::string, std::vector<double>>& into) {
  bench::run_self_child(eager ? "CUDA_MODULE_LOADING=EAGER " : "CUDA_MODULE_LOADING=LAZY ",
                        mode + " '" + dir.string() + "'", into);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 4 && std::string(argv[1]) == "--child") return child(argv[2], argv[3]);
  const int per_mode = argc > 1 ? std::atoi(argv[1]) : 8;
  int cc = 0;
  auto t0 = Clock::now();
  bench::gpu_context(&cc);
  const double ctx_ms = ms_since(t0);
  const fs::path dir = bench::bench_dir("acquire");
  t0 = Clock::now();
  auto store = bench::open_store(dir / "store");
  const double open_create_ms = ms_since(t0);
  ms::Spec spec;

  std::vector<double> builds;
  ms::BuildResult result;
  for (int i = 0; i < 2; ++i) {
    t0 = Clock::now();
    auto r = ms::build(spec, static_cast<std::uint32_t>(cc));
    builds.push_back(ms_since(t0));
    if (!r) bench::die(r.error().describe());
    result = std::move(*r);
  }
  std::vector<double> ser;
  std::vector<std::byte> blob;
  for (int i = 0; i < 101; ++i) {
    t0 = Clock::now();
    blob = cccl_cache::algos::serialize(result);
    ser.push_back(ms_since(t0));
  }
  cccl_cache::algos::AlgorithmCache cache(store);
  t0 = Clock::now();
  auto exe = cache.acquire(spec, 0);
  const double miss_ms = ms_since(t0);
  if (!exe || cache.stats().builds != 1)
    bench::die("the first AlgorithmCache request did not build");
  for (const auto& other : {second_spec(), third_spec()})
    if (auto built = cache.prewarm(other, static_cast<std::uint32_t>(cc));
        !built || !*built)
      bench::die("a second or third spec was not built");
  std::vector<double> repeat_ns;
  for (int b = 0; b < 21; ++b) {
    t0 = Clock::now();
    for (int i = 0; i < 10000; ++i) {
      auto again = cache.acquire(spec, 0);
      if (!again) bench::die("repeat failed");
    }
    repeat_ns.push_back(bench::ns_since(t0) / 10000);
  }
  write_cubin_and_names(result, dir / "cubin.bin", dir / "kernels.txt");
  {
    auto entry = store->get(ms::cache_key(second_spec(), static_cast<std::uint32_t>(cc)));
    if (!entry || !*entry) bench::die("the second spec is not in the store");
    auto second = cccl_cache::algos::deserialize<cccl_cache::algos::MergeSort>((*entry)->payload, static_cast<std::uint32_t>(cc));
    if (!second) bench::die(second.error().describe());
    write_cubin_and_names(*second, dir / "cubin2.bin", dir / "kernels2.txt");
  }
  store.reset();  // children open it themselves

  std::map<std::string, std::vector<double>> cache_lazy, pieces, bare_lazy, cache_eager, bare_eager,
      anatomy, bare_module, pieces_heap, bare_cold, cache_warm, bare_untouched;
  for (int round = 0; round < per_mode; ++round) {  // interleaved, one child of each mode per round
    run_child("cache", false, dir, cache_lazy);
    run_child("pieces", false, dir, pieces);
    run_child("pieces_heap", false, dir, pieces_heap);
    run_child("bare", false, dir, bare_lazy);
    run_child("bare_module", false, dir, bare_module);
    run_child("anatomy", false, dir, anatomy);
    run_child("cache", true, dir, cache_eager);
    run_child("bare", true, dir, bare_eager);
    run_child("bare_cold", false, dir, bare_cold);
    run_child("bare_untouched", false, dir, bare_untouched);
    run_child("cache_warm", false, dir, cache_warm);
  }

  std::printf("acquisition of a float32 merge sort on sm_%d; cubin %zu bytes, blob %zu bytes\n", cc,
              result.record.cubin.size(), blob.size());
  std::printf("this process: context %.1f ms, store create+open %.3f ms\n", ctx_ms, open_create_ms);
  bench::print_percentiles("fresh build (NVRTC, ms::build)", builds, "ms");
  bench::print_percentiles("serialize", ser, "ms");
  std::printf("%-44s %.3f ms (build + serialize + put + bind)\n",
              "AlgorithmCache miss, first request", miss_ms);
  bench::print_percentiles("in-process repeat (AlgorithmCache hit)", repeat_ns, "ns");
  std::printf("new processes (%d of each kind, interleaved; lazy = driver default):\n", per_mode);
  bench::print_percentiles("  context creation (not part of acquisition)", cache_lazy["context_ms"],
                           "ms");
  bench::print_percentiles("  store open", cache_lazy["store_open_ms"], "ms");
  bench::print_percentiles("  AlgorithmCache set-up (fingerprint, driver)",
                           cache_lazy["cache_setup_ms"], "ms");
  bench::print_percentiles("  store hit: AlgorithmCache.merge_sort, lazy", cache_lazy["acquire_ms"],
                           "ms");
  bench::print_percentiles("  store hit: AlgorithmCache.merge_sort, eager",
                           cache_eager["acquire_ms"], "ms");
  bench::print_percentiles("  pieces: cache key", pieces["key_ms"], "ms");
  bench::print_percentiles("  pieces: store get_with (verify, no copy)", pieces["get_ms"], "ms");
  bench::print_percentiles("  pieces: deserialize_view", pieces["deserialize_ms"], "ms");
  bench::print_percentiles("  pieces: bind from the view, first", pieces["bind_first_ms"], "ms");
  bench::print_percentiles("  pieces: copy the cubin out (heap variant)", pieces_heap["copy_ms"],
                           "ms");
  bench::print_percentiles("  pieces: bind from the heap copy, first", pieces_heap["bind_first_ms"],
                           "ms");
  bench::print_percentiles("  pieces, second spec: cache key", pieces["second_key_ms"], "ms");
  bench::print_percentiles("  pieces, second spec: get_with", pieces["second_get_ms"], "ms");
  bench::print_percentiles("  pieces, second spec: deserialize_view",
                           pieces["second_deserialize_ms"], "ms");
  bench::print_percentiles("  pieces, second spec: bind from the view",
                           pieces["second_bind_first_ms"], "ms");
  bench::print_percentiles("  pieces_heap, second spec: bind from a heap copy",
                           pieces_heap["second_bind_first_ms"], "ms");
  bench::print_percentiles("  pieces: bind, warm (median of 10)", pieces["bind_warm_ms"], "ms");
  bench::print_percentiles("  bare driver load+resolve, first, lazy", bare_lazy["bare_first_ms"],
                           "ms");
  bench::print_percentiles("  bare driver load+resolve, warm, lazy", bare_lazy["bare_warm_ms"],
                           "ms");
  bench::print_percentiles("  bare, module API (cuModuleLoadData), first",
                           bare_module["bare_module_first_ms"], "ms");
  bench::print_percentiles("  bare, module API, warm (median of 10)",
                           bare_module["bare_module_warm_ms"], "ms");
  bench::print_percentiles("  bare, module API, first, cold heap (file map)",
                           bare_cold["bare_cold_first_ms"], "ms");
  bench::print_percentiles("  bare, module API, first, cold heap, image unread",
                           bare_untouched["bare_cold_first_ms"], "ms");
  bench::print_percentiles("  store hit, warm heap (after the bare's file read)",
                           cache_warm["acquire_ms"], "ms");
  bench::print_percentiles("  bare, module API, the second spec's cubin next",
                           bare_module["bare_module_second_ms"], "ms");
  bench::print_percentiles("  store hit, a second spec in the same process",
                           cache_lazy["acquire_second_ms"], "ms");
  bench::print_percentiles("  store hit, a third spec, after two sorts",
                           cache_lazy["acquire_after_sorts_ms"], "ms");
  bench::print_percentiles("  bare driver load+resolve, first, eager", bare_eager["bare_first_ms"],
                           "ms");
  bench::print_percentiles("  bare driver load+resolve, warm, eager", bare_eager["bare_warm_ms"],
                           "ms");
  for (const auto& [k, v] : anatomy)
    bench::print_percentiles(("  bind anatomy (driver direct): " + k).c_str(), v, "ms");
  bench::print_percentiles("  first query after acquisition", cache_lazy["first_query_us"], "us");
  bench::print_percentiles("  first sort call (2,048 keys, incl. sync)",
                           cache_lazy["first_sort_ms"], "ms");
  bench::print_percentiles("  second sort call", cache_lazy["second_sort_ms"], "ms");
  const double hit = bench::median(cache_lazy["acquire_ms"]);
  // The reference is the cheaper of the two bare loads (bind uses the module API).
  const double bare_library = bench::median(bare_lazy["bare_first_ms"]);
  const double bare_mod = bench::median(bare_module["bare_module_first_ms"]);
  const double bare = std::min(bare_library, bare_mod);
  std::printf(
      "RESULT build_ms=%.3f serialize_ms=%.4f blob_bytes=%zu cubin_bytes=%zu "
      "inprocess_repeat_us=%.4f "
      "acquire_new_process_ms=%.4f store_open_ms=%.4f cache_setup_ms=%.4f load_ms=%.4f "
      "bind_first_ms=%.4f "
      "bind_warm_ms=%.4f "
      "bare_library_first_ms=%.4f bare_module_first_ms=%.4f bare_warm_ms=%.4f "
      "hit_over_bare=%.3f second_hit_ms=%.4f bare_module_second_ms=%.4f "
      "second_hit_over_bare_second=%.3f first_query_loaded_us=%.3f "
      "bare_cold_first_ms=%.4f hit_over_bare_cold=%.3f hit_warm_ms=%.4f hit_warm_over_bare=%.3f "
      "bare_untouched_first_ms=%.4f hit_over_bare_untouched=%.3f\n",
      bench::median(builds), bench::median(ser), blob.size(), result.record.cubin.size(),
      bench::median(repeat_ns) / 1e3, hit, bench::median(cache_lazy["store_open_ms"]),
      bench::median(cache_lazy["cache_setup_ms"]),
      bench::median(pieces["key_ms"]) + bench::median(pieces["get_ms"]) +
          bench::median(pieces["deserialize_ms"]) + bench::median(pieces["bind_first_ms"]),
      bench::median(pieces["bind_first_ms"]), bench::median(pieces["bind_warm_ms"]), bare_library,
      bare_mod, bench::median(bare_lazy["bare_warm_ms"]), hit / bare,
      bench::median(cache_lazy["acquire_second_ms"]),
      bench::median(bare_module["bare_module_second_ms"]),
      bench::median(cache_lazy["acquire_second_ms"]) /
          bench::median(bare_module["bare_module_second_ms"]),
      bench::median(cache_lazy["first_query_us"]), bench::median(bare_cold["bare_cold_first_ms"]),
      hit / bench::median(bare_cold["bare_cold_first_ms"]), bench::median(cache_warm["acquire_ms"]),
      bench::median(cache_warm["acquire_ms"]) / bare,
      bench::median(bare_untouched["bare_cold_first_ms"]),
      hit / bench::median(bare_untouched["bare_cold_first_ms"]));
  return 0;
}
