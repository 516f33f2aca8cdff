// Diagnostic for benchmark 2's open goal (store hit within 1.1x of the bare driver
// load): where does a store hit spend what the bare load does not? Each child is a
// new process (device 0's primary context current, like merge_sort_acquire's) doing
// one thing; every timed step also reports its page faults and context switches
// (getrusage), so that time spent faulting in fresh memory shows as such.
//   bare          cuModuleLoadData + resolve (module API) of cubin 1, kept loaded,
//                 then of cubin 2 (another spec) with cubin 1 still loaded
//   bare_unload   the same, but cubin 1 unloaded before cubin 2 (acquire's bare_module)
//   bare_push     bare, with the primary context retained and pushed again (as bind does)
//   bare_map      bare, of the cubin as it lies in the store's map (inside get_with)
//   bare_map_copy bare_map, but the cubin copied first to a fresh anonymous mapping
//                 (copy_ms: the copy)
//   bare_brk      bare, of a copy on malloc's heap (brk; made before the timing)
//   bare_file_shared, bare_file_private   bare, of cubin files mapped read-only
//                 (MAP_SHARED as LMDB maps, or MAP_PRIVATE), read through first
//   *_bindnow     the mode with LD_BIND_NOW=1 (every dynamic symbol bound at start)
//   bind_file     ms::bind of both from blobs read from files (heap, no store); its
//                 first bind also loads libalgos' driver table
//   bind_ready    the same with the driver table loaded before
//   bind_traced   bind_ready with every driver call bind makes timed (the table's
//                 entries wrapped): _drv_<call>_ms, and _own_ms, bind minus its calls
//   pieces        open, set-up, then key, get_with, deserialize_view, bind of both
// (Run 19 also had bare_setup, cache and *_warmheap modes, since removed: bare after
// the store's open and AlgorithmCache's set-up, AlgorithmCache::merge_sort, and both
// after 8 MiB of heap was touched and freed; none differed from bare or pieces, but the
// warm-heap modes asked mallopt for an mmap threshold above glibc's 32 MiB maximum, so
// they probably warmed nothing.)
// Usage: merge_sort_hit_anatomy [children_per_mode [mode,mode,...]]
//        (default modes: DEFAULT_MODES below; children: --child MODE DIR)
#include <malloc.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <optional>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include "cccl_cache/algos/algorithm_cache.hpp"
#include "cccl_cache/algos/merge_sort/build_result.hpp"
#include "cccl_cache/algos/core/built.hpp"
#include "cuda_driver.hpp"  // private: bind_traced wraps the table
#include "bench_util.hpp"

namespace ms = cccl_cache::algos::merge_sort;
namespace fs = std::filesystem;
using bench::Clock;

namespace {

using Out = std::map<std::string, double>;

// Times `fn` under `key`: key_ms, key_flt (minor + major faults), key_csw (voluntary
// + involuntary context switches).
template <class Fn>
void timed(Out& out, const std::string& key, Fn&& fn) {
  rusage r0{}, r1{};
  getrusage(RUSAGE_SELF, &r0);
  const auto t0 = Clock::now();
  fn();
  const double ns = bench::ns_since(t0);
  getrusage(RUSAGE_SELF, &r1);
  out[key + "_ms"] = ns / 1e6;
  out[key + "_flt"] =
      static_cast<double>((r1.ru_minflt - r0.ru_minflt) + (r1.ru_majflt - r0.ru_majflt));
  out[key + "_csw"] =
      static_cast<double>((r1.ru_nvcsw - r0.ru_nvcsw) + (r1.ru_nivcsw - r0.ru_nivcsw));
}

// bind_traced: every driver call bind makes, timed. The table is libalgos' own
// (written once at its load, plain data), so its entries can be swapped for wrappers.
enum Call {
  kInit,
  kCount,
  kDeviceGet,
  kAttribute,
  kRetain,
  kPush,
  kPop,
  kLoad,
  kGetFunction,
  kFuncLoad,
  kCalls
};
const char* const kCallNames[kCalls] = {"init",         "device_count", "device_get", "attribute",
                                        "retain",       "push",         "pop",        "load",
                                        "get_function", "func_load"};
void* g_original[kCalls];
double g_call_ns[kCalls];

template <int Id, typename... A>
CUresult traced(A... args) {
  const auto t0 = Clock::now();
  const CUresult rc = reinterpret_cast<CUresult (*)(A...)>(g_original[Id])(args...);
  g_call_ns[Id] += bench::ns_since(t0);
  return rc;
}

template <int Id, typename... A>
void wrap(CUresult (*&slot)(A...)) {
  g_original[Id] = reinterpret_cast<void*>(slot);
  slot = &traced<Id, A...>;
}

void trace_driver() {
  const auto& api = cccl_cache::algos::detail::driver();
  if (!api) bench::die(api.error().describe());
  auto& t = const_cast<cccl_cache::algos::detail::DriverApi&>(**api);
  wrap<kInit>(t.cuInit);
  wrap<kCount>(t.cuDeviceGetCount);
  wrap<kDeviceGet>(t.cuDeviceGet);
  wrap<kAttribute>(t.cuDeviceGetAttribute);
  wrap<kRetain>(t.cuDevicePrimaryCtxRetain);
  wrap<kPush>(t.cuCtxPushCurrent);
  wrap<kPop>(t.cuCtxPopCurrent);
  wrap<kLoad>(t.cuModuleLoadData);
  wrap<kGetFunction>(t.cuModuleGetFunction);
  wrap<kFuncLoad>(t.cuFuncLoad);
}

// Moves the calls' times since the last take into out[prefix_drv_<call>_ms] and returns
// their sum in ms.
double take_calls(Out& out, const std::string& prefix) {
  double sum = 0;
  for (int i = 0; i < kCalls; ++i) {
    out[prefix + "_drv_" + kCallNames[i] + "_ms"] = g_call_ns[i] / 1e6;
    sum += g_call_ns[i] / 1e6;
    g_call_ns[i] = 0;
  }
  return sum;
}

// A fresh anonymous mapping holding a copy of `bytes` (the copy faults its pages in).
void* anon_copy(std::span<const std::byte> bytes) {
  void* m = mmap(nullptr, bytes.size(), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED) bench::die("mmap anonymous");
  std::memcpy(m, bytes.data(), bytes.size());
  return m;
}

ms::Spec spec_of(int which) {
  ms::Spec s;
  if (which == 2) s.comparator = cccl_cache::algos::Comparator::greater();
  return s;
}

int child(std::string mode, const fs::path& dir) {
  if (mode.ends_with("_bindnow")) mode.resize(mode.size() - std::strlen("_bindnow"));  // env set
  Out out;
  int device_cc = 0;
  bench::gpu_context(&device_cc);
  const auto cc = static_cast<std::uint32_t>(device_cc);
  if (mode == "bare_brk" || mode == "bare_file_shared" || mode == "bare_file_private") {
    std::vector<CUmodule> mods;
    for (int which : {1, 2}) {
      const std::string n = std::to_string(which);
      const auto names = bench::read_lines(dir / ("kernels" + n + ".txt"));
      const void* image = nullptr;
      if (mode == "bare_brk") {
        mallopt(M_MMAP_THRESHOLD, 64 << 20);  // from the heap, not a mapping of its own
        const auto bytes = bench::read_file(dir / ("cubin" + n + ".bin"));
        void* p = std::malloc(bytes.size());
        if (!p) bench::die("malloc");
        std::memcpy(p, bytes.data(), bytes.size());
        image = p;
      } else {
        image = bench::map_read_only(dir / ("cubin" + n + ".bin"),
                                     mode == "bare_file_shared" ? MAP_SHARED : MAP_PRIVATE);
      }
      timed(out, which == 1 ? "first" : "second",
            [&] { mods.push_back(bench::load_module(image, names)); });
    }
    for (CUmodule m : mods) cuModuleUnload(m);
  } else if (mode == "bare" || mode == "bare_unload" || mode == "bare_push") {
    CUcontext ctx = nullptr, popped = nullptr;
    CUdevice dev = 0;
    if (mode == "bare_push") {
      bench::check_cu(cuDeviceGet(&dev, 0), "cuDeviceGet");
      bench::check_cu(cuDevicePrimaryCtxRetain(&ctx, dev), "cuDevicePrimaryCtxRetain");
      bench::check_cu(cuCtxPushCurrent(ctx), "cuCtxPushCurrent");
    }
    const auto cubin1 = bench::read_file(dir / "cubin1.bin"),
               cubin2 = bench::read_file(dir / "cubin2.bin");
    const auto names1 = bench::read_lines(dir / "kernels1.txt"),
               names2 = bench::read_lines(dir / "kernels2.txt");
    CUmodule m1 = nullptr, m2 = nullptr;
    timed(out, "first", [&] { m1 = bench::load_module(cubin1.data(), names1); });
    if (mode == "bare_unload") {
      cuModuleUnload(m1);
      m1 = nullptr;
    }
    timed(out, "second", [&] { m2 = bench::load_module(cubin2.data(), names2); });
    if (m1) cuModuleUnload(m1);
    cuModuleUnload(m2);
    if (ctx) cuCtxPopCurrent(&popped);
  } else if (mode == "bare_map" || mode == "bare_map_copy") {
    auto store = bench::open_store(dir / "store");
    std::vector<CUmodule> mods;
    for (int which : {1, 2}) {
      auto hit = store->get_with(
          ms::cache_key(spec_of(which), cc),
          [&](const cccl_cache::EntryMeta&, std::span<const std::byte> payload) {
            auto view = cccl_cache::algos::deserialize_view<cccl_cache::algos::MergeSort>(payload, cc);
            if (!view) bench::die(view.error().describe());
            const std::vector<std::string> names = {std::string(view->record.kernel_names[0]),
                                                    std::string(view->record.kernel_names[1]),
                                                    std::string(view->record.kernel_names[2])};
            const std::string prefix = which == 1 ? "first" : "second";
            const void* image = view->record.cubin.data();
            if (mode == "bare_map_copy")
              timed(out, prefix + "_copy", [&] { image = anon_copy(view->record.cubin); });
            timed(out, prefix, [&] { mods.push_back(bench::load_module(image, names)); });
          });
      if (!hit || !*hit) bench::die("child: store miss");
    }
    for (CUmodule m : mods) cuModuleUnload(m);
  } else if (mode == "bind_file" || mode == "bind_ready" || mode == "bind_traced") {
    if (mode != "bind_file") (void)cccl_cache::algos::detail::driver();
    if (mode == "bind_traced") trace_driver();
    const auto blob1 = bench::read_file(dir / "blob1.bin"),
               blob2 = bench::read_file(dir / "blob2.bin");
    std::optional<ms::Executable> e1, e2;
    for (int which : {1, 2}) {
      const auto& blob = which == 1 ? blob1 : blob2;
      auto view = cccl_cache::algos::deserialize_view<cccl_cache::algos::MergeSort>(std::as_bytes(std::span(blob)), cc);
      if (!view) bench::die(view.error().describe());
      const std::string prefix = which == 1 ? "first" : "second";
      timed(out, prefix, [&] {
        auto bound = ms::bind(*view, 0);
        if (!bound) bench::die(bound.error().describe());
        (which == 1 ? e1 : e2).emplace(std::move(*bound));
      });
      if (mode == "bind_traced")
        out[prefix + "_own_ms"] = out[prefix + "_ms"] - take_calls(out, prefix);
    }
  } else if (mode == "pieces") {
    std::shared_ptr<cccl_cache::Store> store;
    timed(out, "open", [&] { store = bench::open_store(dir / "store"); });
    std::optional<cccl_cache::algos::AlgorithmCache> cache;
    timed(out, "setup", [&] { cache.emplace(store); });
    std::vector<ms::Executable> kept;
    for (int which : {1, 2}) {
      const std::string prefix = which == 1 ? "first" : "second";
      const ms::Spec spec = spec_of(which);
      timed(out, prefix, [&] {  // the whole hit; its steps timed inside
        cccl_cache::CacheKey key;
        timed(out, prefix + "_key", [&] { key = ms::cache_key(spec, cc); });
        const auto get0 = Clock::now();
        auto hit = store->get_payload_with(key, [&](std::span<const std::byte> payload) {
          out[prefix + "_get_ms"] = bench::ns_since(get0) / 1e6;  // found and verified
          std::optional<ms::BuildResultView> view;
          timed(out, prefix + "_deserialize", [&] {  // as AlgorithmCache does
            auto v = cccl_cache::algos::deserialize_view<cccl_cache::algos::MergeSort>(payload, cc);
            if (!v) bench::die(v.error().describe());
            view.emplace(*v);
          });
          timed(out, prefix + "_bind", [&] {
            auto bound = ms::bind(*view, 0);
            if (!bound) bench::die(bound.error().describe());
            kept.push_back(std::move(*bound));
          });
        });
        if (!hit || !*hit) bench::die("child: store miss");
      });
    }
  } else {
    bench::die("unknown mode " + mode);
  }
  std::printf("CHILD");
  for (const auto& [k, v] : out) std::printf(" %s=%.6f", k.c_str(), v);
  std::printf("\n");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 4 && std::string(argv[1]) == "--child") return child(argv[2], argv[3]);
  const int per_mode = argc > 1 ? std::atoi(argv[1]) : 8;
  int cc = 0;
  bench::gpu_context(&cc);
  const fs::path dir = bench::bench_dir("hit_anatomy");
  {
    auto store = bench::open_store(dir / "store");
    cccl_cache::algos::AlgorithmCache cache(store);
    for (int which : {1, 2}) {
      if (auto built = cache.prewarm(spec_of(which), static_cast<std::uint32_t>(cc));
          !built)
        bench::die(built.error().describe());
      auto entry = store->get(ms::cache_key(spec_of(which), static_cast<std::uint32_t>(cc)));
      if (!entry || !*entry) bench::die("the spec is not in the store");
      const auto& payload = (*entry)->payload;
      std::ofstream(dir / ("blob" + std::to_string(which) + ".bin"), std::ios::binary)
          .write(reinterpret_cast<const char*>(payload.data()),
                 static_cast<std::streamsize>(payload.size()));
      auto r = cccl_cache::algos::deserialize<cccl_cache::algos::MergeSort>(payload, static_cast<std::uint32_t>(cc));
      if (!r) bench::die(r.error().describe());
      std::ofstream(dir / ("cubin" + std::to_string(which) + ".bin"), std::ios::binary)
          .write(reinterpret_cast<const char*>(r->record.cubin.data()),
                 static_cast<std::streamsize>(r->record.cubin.size()));
      std::ofstream(dir / ("kernels" + std::to_string(which) + ".txt"))
          << r->record.kernels[0] << "\n"
          << r->record.kernels[1] << "\n"
          << r->record.kernels[2] << "\n";
    }
  }
  std::vector<std::string> modes = {
      // DEFAULT_MODES
      "bare",     "bare_brk",      "bare_file_shared", "bare_file_private",
      "bare_map", "bare_map_copy", "bare_bindnow",     "bind_ready",
      "pieces",   "pieces_bindnow"};
  if (argc > 2) {
    modes.clear();
    std::istringstream list(argv[2]);
    for (std::string m; std::getline(list, m, ',');) modes.push_back(m);
  }
  std::map<std::string, std::map<std::string, std::vector<double>>> all;
  for (int round = 0; round < per_mode; ++round)  // interleaved: one child of each mode per round
    for (const auto& mode : modes)
      bench::run_self_child(mode.ends_with("_bindnow") ? "CUDA_MODULE_LOADING=LAZY LD_BIND_NOW=1 "
                                                       : "CUDA_MODULE_LOADING=LAZY ",
                            mode + " '" + dir.string() + "'", all[mode]);
  std::printf("store hit anatomy, sm_%d, %d new processes per mode, interleaved\n", cc, per_mode);
  std::printf("(_ms: time, _flt: page faults, _csw: context switches, each over the step)\n");
  for (const auto& mode : modes)
    for (const auto& [k, v] : all[mode]) bench::print_percentiles((mode + ": " + k).c_str(), v, "");
  std::printf("RESULT");
  for (const auto& mode : modes)
    for (const char* k : {"first_ms", "second_ms", "first_flt", "second_flt"})
      if (all[mode].count(k))
        std::printf(" %s.%s=%.4f", mode.c_str(), k, bench::median(all[mode][k]));
  std::printf("\n");
  return 0;
}
