// Segmented reduce of struct items on a GPU (skips without one): an argmax per segment
// over {value, index} (8 bytes), a count/min/max per segment (12 bytes), and the argmax
// of values zipped with their int64 positions into 16-byte structs; each against a host
// fold from the initial value, at 0, 1, 2, 1023, 1025, 2^20 + 3 and 2^26 items in no
// segment, one, many of mixed lengths (empty ones, one holding half the items) and one
// per item; fresh (build -> bind) and store-loaded executables bitwise identical (structs
// by their fields).
#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <vector>

#include "cccl_cache/algos/algorithms.hpp"
#include "gpu_support.hpp"
#include "segments.hpp"
#include "struct_specs.hpp"
#include "zip_specs.hpp"

using namespace cccl_cache::algos;
using namespace test_support;

namespace {

const std::uint64_t kCounts[] = {0, 1, 2, 1023, 1025, (1ull << 20) + 3, 1ull << 26};

// For each count and layout: the items and the call's input (make(n, rng, keep, parts)
// gives {host items, Input}, a zip's components kept in `parts`); the fresh and the loaded executables' per-segment results (into
// arrays of T) against the host fold of `fold` from `init`, compared by project(T).
template <auto Make, class T, class Item, class MakeItems, class Fold, class Project>
void segmented_matches_the_host(const T& init, MakeItems make, Fold fold, Project project) {
  SKIP_WITHOUT_GPU();
  for_each_count(
      built_once<Make>("cccl-struct-"), 0, kCounts,
      [&](std::uint64_t n, const auto& fresh, const auto& loaded, auto& keep, CUstream stream) {
        std::mt19937_64 rng(n + 59);
        std::vector<IteratorValue> parts;
        const auto [items, in] = make(n, rng, keep, parts);
        for (const Layout layout : {Layout::none, Layout::one, Layout::mixed, Layout::singles}) {
          if (layout == Layout::singles && n > (1u << 20) + 3) continue;  // 2^26 segments: mixed covers it
          SCOPED_TRACE("layout " + std::to_string(static_cast<int>(layout)));
          const Segments seg = segments(layout, n, rng);
          const std::size_t m = seg.begin.size();
          const std::vector<std::int64_t> begin(seg.begin.begin(), seg.begin.end());
          const std::vector<std::int64_t> end(seg.end.begin(), seg.end.end());
          const void* d_begin = on_device(begin, keep);
          const void* d_end = on_device(end, keep);
          std::vector<decltype(project(init))> got[2], want;
          int r = 0;
          for (const auto* exe : {&fresh, &loaded}) {
            const auto out = zeroed<T>(m);
            query_and_run(*exe, m, stream, [&](void* temp, std::size_t& bytes) {
              return (*exe)(temp, bytes, in, out->get(), m, d_begin, d_end, &init, stream);
            });
            for (const T& x : copy_to_host<T>(*out, m)) got[r].push_back(project(x));
            ++r;
          }
          for (std::size_t s = 0; s < m; ++s) {
            T acc = init;
            for (std::uint64_t j = seg.begin[s]; j < seg.end[s]; ++j) acc = fold(acc, items[j]);
            want.push_back(project(acc));
          }
          expect_fresh_and_loaded(got, want, "segments");
        }
      });
}

// The same bytes for any struct without padding.
template <class T>
T as_is(const T& x) {
  return x;
}

TEST(StructSegmentedGpu, ArgmaxPerSegmentMatchesTheHostFreshAndLoaded) {
  segmented_matches_the_host<&segmented_argmax, HostArgmax, HostArgmax>(
      HostArgmax{-1e30f, -1},
      [](std::uint64_t n, std::mt19937_64& rng, auto& keep, auto&) {
        std::vector<HostArgmax> items(n);
        for (std::uint64_t i = 0; i < n; ++i)
          items[i] = {static_cast<float>(rng() % 100), static_cast<std::int32_t>(i)};
        const Input in = on_device(items, keep);
        return std::pair{items, in};
      },
      host_argmax, as_is<HostArgmax>);
}

TEST(StructSegmentedGpu, CountMinMaxPerSegmentMatchesTheHostFreshAndLoaded) {
  segmented_matches_the_host<&segmented_stats3, HostStats3, HostStats3>(
      HostStats3{0, 1e30f, -1e30f},
      [](std::uint64_t n, std::mt19937_64& rng, auto& keep, auto&) {
        std::vector<HostStats3> items(n);
        for (auto& x : items) {
          const float v = static_cast<float>(static_cast<int>(rng() % 2001) - 1000) / 8;
          x = {1, v, v};
        }
        const Input in = on_device(items, keep);
        return std::pair{items, in};
      },
      host_merge_stats, as_is<HostStats3>);
}

TEST(StructSegmentedGpu, ArgmaxWithPositionsFromAZipMatchesTheHostFreshAndLoaded) {
  // The 16-byte struct has 4 bytes of padding: compared by its fields.
  auto fields = [](const HostArgmax64& x) {
    return std::array<std::int64_t, 2>{std::bit_cast<std::int32_t>(x.value), x.index};
  };
  segmented_matches_the_host<&zip_segmented_argmax64, HostArgmax64, HostArgmax64>(
      HostArgmax64{-1e30f, -1},
      [](std::uint64_t n, std::mt19937_64& rng, auto& keep, std::vector<IteratorValue>& parts) {
        std::vector<float> values(n);
        std::vector<HostArgmax64> items(n);
        for (std::uint64_t i = 0; i < n; ++i) {
          values[i] = static_cast<float>(rng() % 1000);
          items[i] = {values[i], static_cast<std::int64_t>(i)};
        }
        parts = {IteratorValue::array(on_device(values, keep)), IteratorValue::counting(std::int64_t{0})};
        return std::pair{items, Input(IteratorValue::zip(parts.data(), parts.size()))};
      },
      host_argmax64, fields);
}

}  // namespace
