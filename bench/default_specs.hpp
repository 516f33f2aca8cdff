// The wave-1 default specs the acquisition benchmarks start up with (reduce plus and
// maximum, inclusive/exclusive scan, unary negate and binary plus transform and radix
// sort over float32 and int64, then a float32 merge sort: 15), each with how to prewarm
// it, acquire it and (where it has one) query its temp storage.
#pragma once

#include <functional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "bench_util.hpp"
#include "cccl_cache/algos/algorithm_cache.hpp"

namespace bench {

namespace ca = cccl_cache::algos;

// One default spec: the spec itself, how to acquire it, and (where it has one) a temp-storage query of
// the acquired executable for `n` items.
struct Entry {
  std::string name;
  ca::AnySpec any;  // the spec, for the batched calls (AlgorithmCache::prefetch)
  std::function<cccl_cache::Result<void>(ca::AlgorithmCache&, std::uint32_t cc)> prewarm;
  std::function<std::function<void(std::uint64_t)>(ca::AlgorithmCache&)> acquire;
};

template <class Spec, class Query>
Entry entry(std::string name, Spec spec, Query query) {
  Entry e;
  e.name = std::move(name);
  e.any = ca::to_any(spec);
  e.prewarm = [spec](ca::AlgorithmCache& c, std::uint32_t cc) -> cccl_cache::Result<void> {
    auto r = c.prewarm(spec, cc);
    if (!r) return tl::unexpected(r.error());
    return {};
  };
  e.acquire = [spec, query](ca::AlgorithmCache& c) -> std::function<void(std::uint64_t)> {
    auto exe = c.acquire(spec, 0);
    if (!exe) die(exe.error().describe());
    auto held = *exe;
    if constexpr (std::is_same_v<Query, std::nullptr_t>) {
      return {};
    } else {
      return [held, query](std::uint64_t n) { query(*held, n); };
    }
  };
  return e;
}

inline std::size_t g_sink = 0;  // keeps the queries' results alive

inline std::vector<Entry> defaults() {
  std::vector<Entry> out;
  for (ca::ScalarType t : {ca::ScalarType::float32, ca::ScalarType::int64}) {
    const std::string ty(ca::name(t));
    ca::reduce::Spec r;  // plus
    r.type = t;
    ca::reduce::Spec rmax = r;
    rmax.op = ca::Operator::of(ca::OpKind::maximum);
    for (const auto& [name, spec] : {std::pair{"reduce_", r}, std::pair{"reduce_max_", rmax}})
      out.push_back(entry(name + ty, spec, [](const ca::reduce::Executable& e, std::uint64_t n) {
        std::size_t b = 0;
        e(nullptr, b, nullptr, nullptr, n, nullptr, nullptr);
        g_sink += b;
      }));
    ca::scan::InclusiveSpec in;
    in.type = t;
    out.push_back(entry("inclusive_scan_" + ty, in,
                        [](const ca::scan::InclusiveExecutable& e, std::uint64_t n) {
                          std::size_t b = 0;
                          e(nullptr, b, nullptr, nullptr, n, nullptr);
                          g_sink += b;
                        }));
    ca::scan::ExclusiveSpec ex;
    ex.type = t;
    out.push_back(entry("exclusive_scan_" + ty, ex,
                        [](const ca::scan::ExclusiveExecutable& e, std::uint64_t n) {
                          std::size_t b = 0;
                          e(nullptr, b, nullptr, nullptr, n, nullptr, nullptr);
                          g_sink += b;
                        }));
    ca::transform::UnarySpec ut;
    ut.in = {t};
    ut.out = t;
    ut.op = ca::Operator::of(ca::OpKind::negate);
    out.push_back(entry("unary_transform_" + ty, ut, nullptr));
    ca::transform::BinarySpec bt;
    bt.in = {t, t};
    bt.out = t;
    out.push_back(entry("binary_transform_" + ty, bt, nullptr));
    ca::radix_sort::Spec rs;
    rs.key_type = t;
    out.push_back(entry("radix_sort_" + ty, rs, [](const ca::radix_sort::Executable& e, std::uint64_t n) {
      std::size_t b = 0;
      e(nullptr, b, nullptr, nullptr, nullptr, nullptr, n, 0, e.key_bits(), nullptr);
      g_sink += b;
    }));
  }
  out.push_back(entry("merge_sort_float32", ca::merge_sort::Spec{},
                      [](const ca::merge_sort::Executable& e, std::uint64_t n) {
                        std::size_t b = 0;
                        e(nullptr, b, nullptr, nullptr, nullptr, nullptr, n, nullptr);
                        g_sink += b;
                      }));
  return out;
}

// Specs of the algorithms added after wave 1 (segmented reduce, float32 plus; unique_by_key,
// int32 keys and values; select, int32 nonzero; three-way partition, int32 nonzero;
// histogram_even, int32 samples into 256 bins; binary search, int32 lower and upper bound),
// named as bench/peers/later_algos.py names the reference's: measured beside the defaults by
// bench_algorithms_acquire, never in the 15-spec cold start.
inline std::vector<Entry> later_specs() {
  std::vector<Entry> out;
  out.push_back(entry("segmented_reduce_float32", ca::segmented_reduce::Spec{},
                      [](const ca::segmented_reduce::Executable& e, std::uint64_t n) {
                        std::size_t b = 0;
                        e(nullptr, b, nullptr, nullptr, n, nullptr, nullptr, nullptr, nullptr);
                        g_sink += b;
                      }));
  out.push_back(entry("unique_by_key_int32", ca::unique_by_key::Spec{},
                      [](const ca::unique_by_key::Executable& e, std::uint64_t n) {
                        std::size_t b = 0;
                        e(nullptr, b, nullptr, nullptr, nullptr, nullptr, nullptr, n, nullptr);
                        g_sink += b;
                      }));
  out.push_back(entry("select_int32", ca::select::Spec{},
                      [](const ca::select::Executable& e, std::uint64_t n) {
                        std::size_t b = 0;
                        e(nullptr, b, nullptr, nullptr, nullptr, n, nullptr);
                        g_sink += b;
                      }));
  out.push_back(entry("three_way_partition_int32", ca::three_way_partition::Spec{},
                      [](const ca::three_way_partition::Executable& e, std::uint64_t n) {
                        std::size_t b = 0;
                        e(nullptr, b, nullptr, nullptr, nullptr, nullptr, nullptr, n, nullptr);
                        g_sink += b;
                      }));
  out.push_back(entry("histogram_even_int32", ca::histogram_even::Spec{},
                      [](const ca::histogram_even::Executable& e, std::uint64_t n) {
                        const std::int32_t lower = 0, upper = 1024;
                        std::size_t b = 0;
                        e(nullptr, b, nullptr, nullptr, 257, &lower, &upper, n, nullptr);
                        g_sink += b;
                      }));
  const auto bsearch_query = [](const ca::binary_search::Executable& e, std::uint64_t n) {
    std::size_t b = 0;
    e(nullptr, b, nullptr, n, nullptr, n, nullptr, nullptr);
    g_sink += b;
  };
  out.push_back(entry("lower_bound_int32", ca::binary_search::Spec{}, bsearch_query));
  ca::binary_search::Spec upper;
  upper.upper = true;
  out.push_back(entry("upper_bound_int32", upper, bsearch_query));
  return out;
}

}  // namespace bench
