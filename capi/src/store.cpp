// Stores, prewarming and acquiring through the C ABI: one Store and one AlgorithmCache
// per handle, the same configuration sources as the C++ API and the CLI.
#include <optional>
#include <string>

#include "cccl_cache/algos/algorithm_cache.hpp"
#include "cccl_cache/cache/config.hpp"
#include "handles.hpp"

namespace cccl_cache::capi {
namespace {

template <class Traits>
cccl_cache_status acquire_typed(algos::AlgorithmCache& cache, const algos::AnySpec& any,
                                int device, cccl_cache_algorithm** out) {
  auto spec = algos::decode_fields<typename Traits::Spec>(any.fields);
  if (!spec) return set_error(spec.error());
  auto exe = cache.acquire(*spec, device);
  if (!exe) return set_error(exe.error());
  auto handle = std::make_unique<cccl_cache_algorithm>();
  handle->kind = Traits::Spec::kAlgorithm;
  handle->exe = exe->get();
  handle->device = (*exe)->device();
  handle->cc = (*exe)->cc();
  handle->owner = std::move(*exe);
  *out = handle.release();
  return CCCL_CACHE_OK;
}

cccl_cache_status acquire_any(algos::AlgorithmCache& cache, const algos::AnySpec& any, int device,
                              cccl_cache_algorithm** out) {
#define CCCL_CACHE_C_ACQUIRE(T) \
  if (any.algorithm == T::Spec::kAlgorithm) return acquire_typed<T>(cache, any, device, out);
  CCCL_CACHE_ALGORITHMS(CCCL_CACHE_C_ACQUIRE)
#undef CCCL_CACHE_C_ACQUIRE
  return set_error(CCCL_CACHE_ERROR_INTERNAL, "cccl_cache_acquire: the spec's algorithm is not registered");
}

}  // namespace
}  // namespace cccl_cache::capi

using namespace cccl_cache;
using namespace cccl_cache::capi;

extern "C" {

cccl_cache_status cccl_cache_store_open(const char* dir, const char* config_file,
                                        cccl_cache_store** out) {
  return guarded("cccl_cache_store_open", [&] {
    if (out == nullptr) return null_argument("cccl_cache_store_open", "out");
    *out = nullptr;
    if (dir != nullptr && *dir == '\0')
      return set_error(CCCL_CACHE_ERROR_INVALID_ARGUMENT,
                       "cccl_cache_store_open: dir is empty (NULL: the configured directory)");
    std::optional<std::filesystem::path> file;
    if (config_file != nullptr) file = config_file;
    auto config = Config::load(file);
    if (!config) return set_error(config.error());
    if (dir != nullptr) config->dir = dir;
    auto store = Store::open(*config);
    if (!store) return set_error(store.error());
    auto handle = std::make_unique<cccl_cache_store>();
    handle->dir = (*store)->config().dir.string();
    handle->cache = std::make_unique<algos::AlgorithmCache>(*store);
    handle->store = std::move(*store);
    *out = handle.release();
    return CCCL_CACHE_OK;
  });
}

const char* cccl_cache_store_dir(const cccl_cache_store* store) {
  return store == nullptr ? nullptr : store->dir.c_str();
}

void cccl_cache_store_close(cccl_cache_store* store) { delete store; }

cccl_cache_status cccl_cache_prewarm(cccl_cache_store* store, const cccl_cache_spec* spec,
                                     uint32_t cc, int* built) {
  return guarded("cccl_cache_prewarm", [&] {
    if (store == nullptr) return null_argument("cccl_cache_prewarm", "store");
    if (spec == nullptr) return null_argument("cccl_cache_prewarm", "spec");
    auto did = store->cache->prewarm(spec->any, cc);
    if (!did) return set_error(did.error());
    if (built != nullptr) *built = *did ? 1 : 0;
    return CCCL_CACHE_OK;
  });
}

cccl_cache_status cccl_cache_acquire(cccl_cache_store* store, const cccl_cache_spec* spec,
                                     int device, cccl_cache_algorithm** out) {
  return guarded("cccl_cache_acquire", [&] {
    if (out == nullptr) return null_argument("cccl_cache_acquire", "out");
    *out = nullptr;
    if (store == nullptr) return null_argument("cccl_cache_acquire", "store");
    if (spec == nullptr) return null_argument("cccl_cache_acquire", "spec");
    return acquire_any(*store->cache, spec->any, device, out);
  });
}

void cccl_cache_algorithm_release(cccl_cache_algorithm* algorithm) { delete algorithm; }

cccl_cache_algorithm_kind cccl_cache_algorithm_kind_of(const cccl_cache_algorithm* a) {
  return a == nullptr ? cccl_cache_algorithm_kind{} : static_cast<cccl_cache_algorithm_kind>(a->kind);
}

int cccl_cache_algorithm_device(const cccl_cache_algorithm* algorithm) {
  return algorithm == nullptr ? -1 : algorithm->device;
}

uint32_t cccl_cache_algorithm_cc(const cccl_cache_algorithm* algorithm) {
  return algorithm == nullptr ? 0 : algorithm->cc;
}

}  // extern "C"
