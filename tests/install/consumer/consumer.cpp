// A plain consumer of the installed C++ package: the public headers (C++20) and a link
// that pulls in libalgos' nvcc-compiled dispatch (AlgorithmCache::acquire). It opens a
// store in $1, parses a spec, prints its key and, without a GPU, checks that acquire
// says why it cannot bind.
#include <cstdio>

#include "cccl_cache/algos/algorithm_cache.hpp"
#include "cccl_cache/algos/device.hpp"
#include "cccl_cache/algos/spec_text.hpp"
#include "cccl_cache/cache/config.hpp"

int main(int argc, char** argv) {
  if (argc != 2) return std::fprintf(stderr, "usage: consumer STORE_DIR\n"), 2;
  auto config = cccl_cache::Config::defaults();
  config.dir = argv[1];
  auto store = cccl_cache::Store::open(config);
  if (!store) return std::fprintf(stderr, "%s\n", store.error().describe().c_str()), 1;
  cccl_cache::algos::AlgorithmCache cache(*store);
  auto spec = cccl_cache::algos::parse_spec_text("merge_sort keys=float32");
  if (!spec) return std::fprintf(stderr, "%s\n", spec.error().describe().c_str()), 1;
  std::printf("%s: %s\n", cccl_cache::algos::spec_text(*spec).c_str(),
              cccl_cache::algos::cache_key(*spec, 90).to_string().c_str());
  auto devices = cccl_cache::algos::device_count();
  if (devices && *devices > 0) {
    std::printf("a GPU is present: acquire is linked, not run here (it would build)\n");
    return 0;
  }
  auto exe = cache.acquire(cccl_cache::algos::merge_sort::Spec{}, 0);
  if (exe) return std::fprintf(stderr, "acquire succeeded without a GPU\n"), 1;
  std::printf("no GPU: acquire says %s\n", exe.error().describe().c_str());
  return exe.error().code == cccl_cache::ErrorCode::driver ? 0 : 1;
}
