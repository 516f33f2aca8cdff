// cccl_cache.Cache: the store, opened from the same configuration as C++'s
// (Config::load: defaults < TOML file < environment < these arguments), and one
// AlgorithmCache over it. Builds and binds run with the GIL released.
#include <optional>
#include <string>

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>

#include "bound.hpp"
#include "errors.hpp"

namespace cccl_cache::python {

namespace {

using namespace nb::literals;

struct PyCache {
  std::string dir;
  std::shared_ptr<Store> store;
  std::unique_ptr<algos::AlgorithmCache> cache;
};

template <class Spec>
nb::object acquire_as(algos::AlgorithmCache& cache, const algos::AnySpec& any, int device) {
  Spec spec = take(algos::decode_fields<Spec>(any.fields));
  Result<std::shared_ptr<const algos::ExecutableOf<Spec>>> exe;
  {
    nb::gil_scoped_release unlocked;
    exe = cache.acquire(spec, device);
  }
  return nb::cast(Bound<algos::ExecutableOf<Spec>>{take(std::move(exe))});
}

nb::object acquire(PyCache& c, const PySpec& spec, int device) {
  using algos::AlgorithmId;
  switch (spec.any.algorithm) {
    case AlgorithmId::merge_sort: return acquire_as<algos::merge_sort::Spec>(*c.cache, spec.any, device);
    case AlgorithmId::reduce: return acquire_as<algos::reduce::Spec>(*c.cache, spec.any, device);
    case AlgorithmId::inclusive_scan: return acquire_as<algos::scan::InclusiveSpec>(*c.cache, spec.any, device);
    case AlgorithmId::exclusive_scan: return acquire_as<algos::scan::ExclusiveSpec>(*c.cache, spec.any, device);
    case AlgorithmId::unary_transform: return acquire_as<algos::transform::UnarySpec>(*c.cache, spec.any, device);
    case AlgorithmId::binary_transform: return acquire_as<algos::transform::BinarySpec>(*c.cache, spec.any, device);
    case AlgorithmId::radix_sort: return acquire_as<algos::radix_sort::Spec>(*c.cache, spec.any, device);
    case AlgorithmId::segmented_reduce:
      return acquire_as<algos::segmented_reduce::Spec>(*c.cache, spec.any, device);
    case AlgorithmId::unique_by_key:
      return acquire_as<algos::unique_by_key::Spec>(*c.cache, spec.any, device);
    case AlgorithmId::select: return acquire_as<algos::select::Spec>(*c.cache, spec.any, device);
    case AlgorithmId::three_way_partition:
      return acquire_as<algos::three_way_partition::Spec>(*c.cache, spec.any, device);
    case AlgorithmId::histogram_even:
      return acquire_as<algos::histogram_even::Spec>(*c.cache, spec.any, device);
    case AlgorithmId::segmented_sort:
      return acquire_as<algos::segmented_sort::Spec>(*c.cache, spec.any, device);
    case AlgorithmId::binary_search:
      return acquire_as<algos::binary_search::Spec>(*c.cache, spec.any, device);
    case AlgorithmId::scan_by_key:
      return acquire_as<algos::scan_by_key::Spec>(*c.cache, spec.any, device);
    case AlgorithmId::for_each: return acquire_as<algos::for_each::Spec>(*c.cache, spec.any, device);
  }
  throw nb::value_error(("acquire: no Python binding for " + algos::spec_text(spec.any)).c_str());
}

}  // namespace

void bind_cache(nb::module_& m) {
  nb::class_<PyCache>(m, "Cache",
                      "The store and an AlgorithmCache over it. Settings as C++'s Config::load() "
                      "(defaults < TOML file < CCCL_CACHE_* environment), then these arguments. "
                      "Keep one per process (cccl_cache.default_cache()).")
      .def(
          "__init__",
          [](PyCache* self, std::optional<std::string> dir, std::optional<bool> disabled,
             std::optional<bool> read_only) {
            Config config = take(Config::load());
            if (dir) config.dir = *dir;
            if (disabled) config.disabled = *disabled;
            if (read_only) config.read_only = *read_only;
            Result<std::shared_ptr<Store>> opened;
            {
              nb::gil_scoped_release unlocked;
              opened = Store::open(config);
            }
            std::shared_ptr<Store> store = take(std::move(opened));
            new (self) PyCache{config.dir.string(), store, std::make_unique<algos::AlgorithmCache>(store)};
          },
          "cache_dir"_a = nb::none(), "disabled"_a = nb::none(), "read_only"_a = nb::none())
      .def_prop_ro("dir", [](const PyCache& c) { return c.dir; })
      .def("acquire", &acquire, "spec"_a, "device"_a = 0,
           "The executable of `spec` bound to `device`: in-process hit, else store hit + bind, else "
           "NVRTC build + store + bind. Raises ValueError for a bad spec, cccl_cache.Error otherwise "
           "(no driver or device: code 'driver'; build failure: 'compile').")
      .def(
          "prewarm",
          [](PyCache& c, const PySpec& spec, std::uint32_t cc) {
            Result<bool> built;
            {
              nb::gil_scoped_release unlocked;
              built = c.cache->prewarm(spec.any, cc);
            }
            return take(std::move(built));
          },
          "spec"_a, "cc"_a,
          "Builds `spec` for sm_<cc> and stores it unless the store has it (no GPU needed). True if it built.")
      .def("stats", [](const PyCache& c) {
        auto s = c.cache->stats();
        nb::dict d;
        d["builds"] = s.builds;
        d["store_hits"] = s.store_hits;
        d["memory_hits"] = s.memory_hits;
        return d;
      }, "This cache's builds, store hits and in-process hits.");
}

}  // namespace cccl_cache::python
