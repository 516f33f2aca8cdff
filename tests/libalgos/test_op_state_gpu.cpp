// Stateful custom operators on a GPU (skips without one): reduce, unary and binary
// transform, select, merge sort, both scans, segmented reduce, unique_by_key, three-way
// partition (two predicates, two states) and lower bound with operators whose state is a
// call argument,
// against host references; two states on one executable give the two results; fresh
// (build -> bind) and store-loaded executables agree; a state that does not fit the
// layout is refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "cccl_cache/algos/algorithms.hpp"
#include "gpu_support.hpp"
#include "op_state_specs.hpp"

using namespace cccl_cache::algos;
using namespace test_support;

namespace {

// Host data of `n` values in [0, bound).
std::vector<std::uint32_t> random_values(std::size_t n, std::uint32_t bound, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<std::uint32_t> v(n);
  for (auto& x : v) x = rng() % bound;
  return v;
}

// check(fresh, loaded, stream) for Make()'s spec, built once into its own store.
template <auto Make, class Check>
void fresh_and_loaded_of(Check check) {
  with_fresh_and_loaded<Make>("cccl-opstate-", check);
}

const std::size_t kCounts[] = {0, 1, 1000, (1u << 20) + 7};

// --- reduce: (a + b) % m, m the state ---

std::uint32_t reduce_on(const reduce::Executable& exe, const std::vector<std::uint32_t>& items,
                        std::uint32_t m, CUstream stream) {
  std::size_t bytes = 0;
  EXPECT_EQ(exe(nullptr, bytes, nullptr, nullptr, items.size(), nullptr, stream), CUDA_SUCCESS);
  DeviceBuffer in(items.size() * 4), out(4), temp(bytes);
  copy_to_device(in, items);
  const std::uint32_t init = 0;
  EXPECT_EQ(
      exe(temp.get(), bytes, in.get(), out.get(), items.size(), &init, stream, {&m, sizeof m}),
      CUDA_SUCCESS);
  EXPECT_EQ(cuStreamSynchronize(stream), CUDA_SUCCESS);
  return copy_to_host<std::uint32_t>(out, 1)[0];
}

TEST(OpStateGpu, ReduceWithStateMatchesTheHostForEachStateFreshAndLoaded) {
  SKIP_WITHOUT_GPU();
  fresh_and_loaded_of<&reduce_plus_mod>(
      [](const reduce::Executable& fresh, const reduce::Executable& loaded, CUstream stream) {
        for (const std::size_t n : kCounts) {
          const auto items = random_values(n, 1000, 7 + static_cast<std::uint32_t>(n));
          for (const std::uint32_t m : {1000003u, 97u}) {  // the state changes between calls
            SCOPED_TRACE("n = " + std::to_string(n) + ", m = " + std::to_string(m));
            std::uint32_t want = 0;
            for (const auto x : items) want = (want + x) % m;
            const std::uint32_t got = reduce_on(fresh, items, m, stream);
            EXPECT_EQ(got, want);
            EXPECT_EQ(reduce_on(loaded, items, m, stream), got) << "fresh and store-loaded differ";
          }
        }
        // A state that does not fit the layout is refused before any launch.
        std::size_t bytes = fresh.temp_storage_bytes(1000);
        DeviceBuffer buf(1 << 16);
        const std::uint32_t init = 0;
        const std::uint64_t wide = 5;
        EXPECT_EQ(fresh(buf.get(), bytes, buf.get(), buf.get(), 1000, &init, stream, {&wide, 8}),
                  CUDA_ERROR_INVALID_VALUE);
        EXPECT_EQ(fresh(buf.get(), bytes, buf.get(), buf.get(), 1000, &init, stream),
                  CUDA_ERROR_INVALID_VALUE);
      });
}

// --- transforms: x * k[0] + k[1] (int32, 8/4) and w[0] * a + w[1] * b (int32 -> int64, 16/16) ---

TEST(OpStateGpu, UnaryTransformWithStateMatchesTheHostForEachState) {
  SKIP_WITHOUT_GPU();
  fresh_and_loaded_of<&unary_affine>([](const transform::Executable<1>& fresh,
                                        const transform::Executable<1>& loaded, CUstream stream) {
    for (const std::size_t n : kCounts) {
      const auto raw = random_values(n, 1u << 16, 11);
      const std::vector<std::int32_t> in(raw.begin(), raw.end());
      DeviceBuffer d_in(n * 4), d_out(n * 4);
      copy_to_device(d_in, in);
      for (const auto& k :
           {std::array<std::int32_t, 2>{3, -7}, std::array<std::int32_t, 2>{-2, 5}}) {
        SCOPED_TRACE("n = " + std::to_string(n) + ", k = " + std::to_string(k[0]));
        std::vector<std::int32_t> want(n);
        for (std::size_t i = 0; i < n; ++i) want[i] = in[i] * k[0] + k[1];
        ASSERT_EQ(fresh(d_in.get(), d_out.get(), n, stream, {k.data(), 8}), CUDA_SUCCESS);
        ASSERT_CU(cuStreamSynchronize(stream));
        EXPECT_EQ(copy_to_host<std::int32_t>(d_out, n), want);
        ASSERT_EQ(loaded(d_in.get(), d_out.get(), n, stream, {k.data(), 8}), CUDA_SUCCESS);
        ASSERT_CU(cuStreamSynchronize(stream));
        EXPECT_EQ(copy_to_host<std::int32_t>(d_out, n), want) << "store-loaded";
      }
    }
    const std::int32_t short_state = 1;
    DeviceBuffer buf(64);
    EXPECT_EQ(fresh(buf.get(), buf.get(), 4, stream, {&short_state, 4}), CUDA_ERROR_INVALID_VALUE);
  });
}

TEST(OpStateGpu, BinaryTransformWithAlignedStateMatchesTheHost) {
  SKIP_WITHOUT_GPU();
  fresh_and_loaded_of<&binary_weighted>([](const transform::Executable<2>& fresh,
                                           const transform::Executable<2>& loaded,
                                           CUstream stream) {
    const std::size_t n = (1u << 20) + 3;
    const auto ra = random_values(n, 1u << 20, 1), rb = random_values(n, 1u << 20, 2);
    const std::vector<std::int32_t> a(ra.begin(), ra.end()), b(rb.begin(), rb.end());
    DeviceBuffer d_a(n * 4), d_b(n * 4), d_out(n * 8);
    copy_to_device(d_a, a);
    copy_to_device(d_b, b);
    for (const auto* exe : {&fresh, &loaded}) {
      for (const std::int64_t w0 : {std::int64_t{1} << 33, std::int64_t{-3}}) {
        alignas(16) const std::int64_t w[2] = {w0, 5};
        ASSERT_EQ((*exe)(d_a.get(), d_b.get(), d_out.get(), n, stream, {w, 16}), CUDA_SUCCESS);
        ASSERT_CU(cuStreamSynchronize(stream));
        const auto got = copy_to_host<std::int64_t>(d_out, n);
        for (std::size_t i = 0; i < n; i += 4099) ASSERT_EQ(got[i], w[0] * a[i] + w[1] * b[i]) << i;
      }
    }
  });
}

// --- select: x > t, t the state ---

TEST(OpStateGpu, SelectWithStateMatchesTheHostForEachState) {
  SKIP_WITHOUT_GPU();
  fresh_and_loaded_of<&select_above>([](const select::Executable& fresh,
                                        const select::Executable& loaded, CUstream stream) {
    for (const std::size_t n : kCounts) {
      const auto raw = random_values(n, 1000, 5);
      const std::vector<std::int32_t> in(raw.begin(), raw.end());
      DeviceBuffer d_in(n * 4), d_out(n * 4), d_count(8);
      copy_to_device(d_in, in);
      for (const std::int32_t t : {500, 900}) {
        SCOPED_TRACE("n = " + std::to_string(n) + ", t = " + std::to_string(t));
        std::vector<std::int32_t> want;
        std::copy_if(in.begin(), in.end(), std::back_inserter(want),
                     [&](std::int32_t x) { return x > t; });
        for (const auto* exe : {&fresh, &loaded}) {
          std::size_t bytes = 0;
          ASSERT_EQ((*exe)(nullptr, bytes, nullptr, nullptr, nullptr, n, stream), CUDA_SUCCESS);
          DeviceBuffer temp(bytes);
          ASSERT_EQ(
              (*exe)(temp.get(), bytes, d_in.get(), d_out.get(), d_count.get(), n, stream, {&t, 4}),
              CUDA_SUCCESS);
          ASSERT_CU(cuStreamSynchronize(stream));
          ASSERT_EQ(copy_to_host<std::uint64_t>(d_count, 1)[0], want.size());
          EXPECT_EQ(copy_to_host<std::int32_t>(d_out, want.size()), want);
        }
      }
    }
  });
}

// --- merge sort: by key % m, m the state (stable: the values keep their order) ---

TEST(OpStateGpu, MergeSortWithAStatefulComparatorMatchesAStableHostSort) {
  SKIP_WITHOUT_GPU();
  fresh_and_loaded_of<&sort_less_mod>([](const merge_sort::Executable& fresh,
                                         const merge_sort::Executable& loaded, CUstream stream) {
    for (const std::size_t n : kCounts) {
      const auto keys = random_values(n, 1u << 30, 3);
      std::vector<std::uint32_t> values(n);
      std::iota(values.begin(), values.end(), 0u);
      for (const std::uint32_t m : {10u, 1000u}) {
        SCOPED_TRACE("n = " + std::to_string(n) + ", m = " + std::to_string(m));
        std::vector<std::uint32_t> order = values;
        std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
          return keys[a] % m < keys[b] % m;
        });
        for (const auto* exe : {&fresh, &loaded}) {
          DeviceBuffer d_keys(n * 4), d_values(n * 4);
          copy_to_device(d_keys, keys);
          copy_to_device(d_values, values);
          std::size_t bytes = 0;
          ASSERT_EQ((*exe)(nullptr, bytes, nullptr, nullptr, nullptr, nullptr, n, stream),
                    CUDA_SUCCESS);
          DeviceBuffer temp(bytes);
          ASSERT_EQ((*exe)(temp.get(), bytes, d_keys.get(), d_values.get(), d_keys.get(),
                           d_values.get(), n, stream, {&m, 4}),
                    CUDA_SUCCESS);
          ASSERT_CU(cuStreamSynchronize(stream));
          EXPECT_EQ(copy_to_host<std::uint32_t>(d_values, n), order);
        }
      }
    }
  });
}

// The counts of the later algorithms' checks.
const std::size_t kEdgeCounts[] = {0, 1, 2, 1023, 1025, (1u << 20) + 3};

// --- scans: (a + b) % m, m the state ---

// The scan of `items` by (a + b) % m: inclusive (the first item as it is, then every
// prefix's sum mod m) or exclusive from 0 (every earlier prefix's sum mod m).
std::vector<std::uint32_t> scan_reference(const std::vector<std::uint32_t>& items, std::uint32_t m,
                                          bool exclusive) {
  std::vector<std::uint32_t> out(items.size());
  std::uint64_t sum = 0;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (exclusive) out[i] = static_cast<std::uint32_t>(sum % m);
    sum += items[i];
    if (!exclusive) out[i] = i == 0 ? items[0] : static_cast<std::uint32_t>(sum % m);
  }
  return out;
}

// One call of a scan executable: the exclusive scan's from 0.
template <AlgorithmId Id>
CUresult scan_call(const scan::Executable<Id>& exe, void* temp, std::size_t& bytes, const void* in,
                   void* out, std::size_t n, CUstream stream, OpState state = {}) {
  if constexpr (Id == AlgorithmId::exclusive_scan) {
    const std::uint32_t init = 0;
    return exe(temp, bytes, in, out, n, &init, stream, state);
  } else {
    return exe(temp, bytes, in, out, n, stream, state);
  }
}

template <AlgorithmId Id>
void check_scan(const scan::Executable<Id>& fresh, const scan::Executable<Id>& loaded,
                CUstream stream) {
  constexpr bool kExclusive = Id == AlgorithmId::exclusive_scan;
  for (const std::size_t n : kEdgeCounts) {
    const auto items = random_values(n, 1000, 13 + static_cast<std::uint32_t>(n));
    DeviceBuffer d_in(n * 4), d_out(n * 4);
    copy_to_device(d_in, items);
    for (const std::uint32_t m : {1000003u, 97u}) {
      SCOPED_TRACE("n = " + std::to_string(n) + ", m = " + std::to_string(m));
      std::vector<std::uint32_t> got[2];
      for (int i = 0; i < 2; ++i) {
        const auto& exe = i == 0 ? fresh : loaded;
        std::size_t bytes = 0;
        ASSERT_EQ(scan_call(exe, nullptr, bytes, nullptr, nullptr, n, stream), CUDA_SUCCESS);
        DeviceBuffer temp(bytes);
        ASSERT_EQ(
            scan_call(exe, temp.get(), bytes, d_in.get(), d_out.get(), n, stream, {&m, sizeof m}),
            CUDA_SUCCESS);
        ASSERT_CU(cuStreamSynchronize(stream));
        got[i] = copy_to_host<std::uint32_t>(d_out, n);
      }
      expect_fresh_and_loaded(got, scan_reference(items, m, kExclusive));
    }
  }
  // A launch without the state, or with a state of another size, is refused.
  DeviceBuffer buf(1 << 16);
  std::size_t bytes = 1 << 16;
  const std::uint64_t wide = 5;
  EXPECT_EQ(scan_call(fresh, buf.get(), bytes, buf.get(), buf.get(), 100, stream),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(scan_call(fresh, buf.get(), bytes, buf.get(), buf.get(), 100, stream, {&wide, 8}),
            CUDA_ERROR_INVALID_VALUE);
}

template <AlgorithmId Id>
void check_scan_fresh_and_loaded() {
  fresh_and_loaded_of<&scan_plus_mod<Id>>(
      [](const scan::Executable<Id>& fresh, const scan::Executable<Id>& loaded, CUstream stream) {
        check_scan(fresh, loaded, stream);
      });
}

TEST(OpStateGpu, InclusiveScanWithStateMatchesTheHostFreshAndLoaded) {
  SKIP_WITHOUT_GPU();
  check_scan_fresh_and_loaded<AlgorithmId::inclusive_scan>();
}

TEST(OpStateGpu, ExclusiveScanWithStateMatchesTheHostFreshAndLoaded) {
  SKIP_WITHOUT_GPU();
  check_scan_fresh_and_loaded<AlgorithmId::exclusive_scan>();
}

// --- segmented reduce: (a + b) % m per segment, m the state ---

TEST(OpStateGpu, SegmentedReduceWithStateMatchesTheHostFreshAndLoaded) {
  SKIP_WITHOUT_GPU();
  fresh_and_loaded_of<&segmented_plus_mod>([](const segmented_reduce::Executable& fresh,
                                              const segmented_reduce::Executable& loaded,
                                              CUstream stream) {
    for (const std::size_t segments : kEdgeCounts) {
      // Segment i holds i % 13 items (empty ones too): offsets[i] .. offsets[i + 1].
      std::vector<std::int64_t> offsets(segments + 1, 0);
      for (std::size_t i = 0; i < segments; ++i)
        offsets[i + 1] = offsets[i] + static_cast<std::int64_t>(i % 13);
      const auto items = random_values(static_cast<std::size_t>(offsets.back()), 1u << 30, 17);
      DeviceBuffer d_items(items.size() * 4), d_offsets(offsets.size() * 8), d_out(segments * 4);
      copy_to_device(d_items, items);
      copy_to_device(d_offsets, offsets);
      const void* d_begin = d_offsets.get();
      const void* d_end = static_cast<const char*>(d_offsets.get()) + 8;
      for (const std::uint32_t m : {1000003u, 97u}) {
        SCOPED_TRACE("segments = " + std::to_string(segments) + ", m = " + std::to_string(m));
        std::vector<std::uint32_t> want(segments);
        for (std::size_t i = 0; i < segments; ++i) {
          std::uint64_t sum = 0;
          for (auto j = offsets[i]; j < offsets[i + 1]; ++j) sum += items[j];
          want[i] = static_cast<std::uint32_t>(sum % m);  // init 0: every segment is op(0, ...)
        }
        std::vector<std::uint32_t> got[2];
        for (int e = 0; e < 2; ++e) {
          const auto& exe = e == 0 ? fresh : loaded;
          std::size_t bytes = 0;
          ASSERT_EQ(
              exe(nullptr, bytes, nullptr, nullptr, segments, nullptr, nullptr, nullptr, stream),
              CUDA_SUCCESS);
          DeviceBuffer temp(bytes);
          const std::uint32_t init = 0;
          ASSERT_EQ(exe(temp.get(), bytes, d_items.get(), d_out.get(), segments, d_begin, d_end,
                        &init, stream, 0, {&m, 4}),
                    CUDA_SUCCESS);
          ASSERT_CU(cuStreamSynchronize(stream));
          got[e] = copy_to_host<std::uint32_t>(d_out, segments);
        }
        expect_fresh_and_loaded(got, want);
      }
    }
    DeviceBuffer buf(64);
    std::size_t bytes = 1;
    const std::uint32_t init = 0;
    EXPECT_EQ(fresh(buf.get(), bytes, buf.get(), buf.get(), 1, buf.get(), buf.get(), &init, stream),
              CUDA_ERROR_INVALID_VALUE);
  });
}

// --- unique_by_key: keys equal when a / d == b / d, d the state ---

TEST(OpStateGpu, UniqueByKeyWithAStatefulEqualityMatchesTheHostFreshAndLoaded) {
  SKIP_WITHOUT_GPU();
  fresh_and_loaded_of<&unique_div_equal>([](const unique_by_key::Executable& fresh,
                                            const unique_by_key::Executable& loaded,
                                            CUstream stream) {
    for (const std::size_t n : kEdgeCounts) {
      const auto raw = random_values(n, 60, 19);
      const std::vector<std::int32_t> keys(raw.begin(), raw.end());
      std::vector<std::int32_t> values(n);
      std::iota(values.begin(), values.end(), 0);
      DeviceBuffer d_keys(n * 4), d_values(n * 4), k_out(n * 4), v_out(n * 4), d_count(8);
      copy_to_device(d_keys, keys);
      copy_to_device(d_values, values);
      for (const std::int32_t d : {5, 20}) {
        SCOPED_TRACE("n = " + std::to_string(n) + ", d = " + std::to_string(d));
        std::vector<std::int32_t> want_keys, want_values;
        for (std::size_t i = 0; i < n; ++i)
          if (i == 0 || keys[i - 1] / d != keys[i] / d) {
            want_keys.push_back(keys[i]);
            want_values.push_back(values[i]);
          }
        std::vector<std::int32_t> got[2][2];
        for (int e = 0; e < 2; ++e) {
          const auto& exe = e == 0 ? fresh : loaded;
          query_and_run(exe, n, stream, [&](void* temp, std::size_t& bytes) {
            return exe(temp, bytes, d_keys.get(), d_values.get(), k_out.get(), v_out.get(),
                       d_count.get(), n, stream, {&d, 4});
          });
          ASSERT_EQ(copy_to_host<std::uint64_t>(d_count, 1)[0], want_keys.size());
          got[e][0] = copy_to_host<std::int32_t>(k_out, want_keys.size());
          got[e][1] = copy_to_host<std::int32_t>(v_out, want_keys.size());
        }
        EXPECT_EQ(got[0][0], want_keys);
        EXPECT_EQ(got[0][1], want_values);
        EXPECT_EQ(got[1][0], got[0][0]) << "fresh and store-loaded keys differ";
        EXPECT_EQ(got[1][1], got[0][1]) << "fresh and store-loaded values differ";
      }
    }
  });
}

// --- lower bound in a range ordered by distance from a pivot p (the state) ---

TEST(OpStateGpu, LowerBoundWithAStatefulComparatorMatchesTheHostFreshAndLoaded) {
  SKIP_WITHOUT_GPU();
  fresh_and_loaded_of<&search_closer>([](const binary_search::Executable& fresh,
                                         const binary_search::Executable& loaded,
                                         CUstream stream) {
    const std::size_t m = 1000;
    const auto raw_values = random_values(m, 2401, 23);
    std::vector<std::int32_t> values(m);
    for (std::size_t i = 0; i < m; ++i) values[i] = static_cast<std::int32_t>(raw_values[i]) - 1200;
    DeviceBuffer d_values(m * 4), d_out(m * 8);
    copy_to_device(d_values, values);
    for (const std::size_t n : kEdgeCounts) {
      const auto raw = random_values(n, 2001, 29);
      for (const std::int32_t p : {0, 300}) {
        SCOPED_TRACE("n = " + std::to_string(n) + ", p = " + std::to_string(p));
        auto distance = [p](std::int32_t x) { return x > p ? x - p : p - x; };
        std::vector<std::int32_t> data(n);
        for (std::size_t i = 0; i < n; ++i) data[i] = static_cast<std::int32_t>(raw[i]) - 1000;
        std::stable_sort(data.begin(), data.end(),
                         [&](std::int32_t a, std::int32_t b) { return distance(a) < distance(b); });
        // The lower bound of v: how many items are closer to p than v.
        std::vector<std::int64_t> want(m);
        for (std::size_t i = 0; i < m; ++i)
          want[i] = std::partition_point(data.begin(), data.end(),
                                         [&](std::int32_t x) { return distance(x) < distance(values[i]); }) -
                    data.begin();
        DeviceBuffer d_data(std::max<std::size_t>(n, 1) * 4);
        copy_to_device(d_data, data);
        std::vector<std::int64_t> got[2];
        for (int e = 0; e < 2; ++e) {
          const auto& exe = e == 0 ? fresh : loaded;
          query_and_run(exe, n, stream, [&](void* temp, std::size_t& bytes) {
            return exe(temp, bytes, d_data.get(), n, d_values.get(), m, d_out.get(), stream,
                       {&p, 4});
          });
          got[e] = copy_to_host<std::int64_t>(d_out, m);
        }
        expect_fresh_and_loaded(got, want);
      }
    }
    // A state of another size is refused.
    DeviceBuffer temp(1);
    std::size_t bytes = 1;
    const std::int64_t wide = 0;
    EXPECT_EQ(fresh(temp.get(), bytes, d_values.get(), m, d_values.get(), m, d_out.get(), stream,
                    {&wide, 8}),
              CUDA_ERROR_INVALID_VALUE);
  });
}

// --- three-way partition: x < lo (first, lo: int32), x > h[0] && x % h[1] == 0 (second,
// h: int64[2] aligned to 8); each predicate its own state ---

TEST(OpStateGpu, ThreeWayPartitionWithTwoStatesMatchesTheHostFreshAndLoaded) {
  SKIP_WITHOUT_GPU();
  fresh_and_loaded_of<&partition_below_above>([](const three_way_partition::Executable& fresh,
                                                 const three_way_partition::Executable& loaded,
                                                 CUstream stream) {
    for (const std::size_t n : kEdgeCounts) {
      const auto raw = random_values(n, 1000, 23);
      const std::vector<std::int32_t> in(raw.begin(), raw.end());
      DeviceBuffer d_in(n * 4), d_count(16);
      DeviceBuffer d_out[3] = {DeviceBuffer(n * 4), DeviceBuffer(n * 4), DeviceBuffer(n * 4)};
      copy_to_device(d_in, in);
      struct States {
        std::int32_t lo;
        alignas(8) std::int64_t h[2];
      };
      for (const States st : {States{100, {500, 3}}, States{300, {200, 7}}}) {
        SCOPED_TRACE("n = " + std::to_string(n) + ", lo = " + std::to_string(st.lo));
        std::vector<std::int32_t> want[3];
        for (const std::int32_t x : in)
          want[x < st.lo ? 0 : x > st.h[0] && x % st.h[1] == 0 ? 1 : 2].push_back(x);
        std::vector<std::int32_t> got[2][3];
        for (int e = 0; e < 2; ++e) {
          const auto& exe = e == 0 ? fresh : loaded;
          query_and_run(exe, n, stream, [&](void* temp, std::size_t& bytes) {
            return exe(temp, bytes, d_in.get(), d_out[0].get(), d_out[1].get(), d_out[2].get(),
                       d_count.get(), n, stream, {&st.lo, 4}, {st.h, 16});
          });
          const auto counts = copy_to_host<std::uint64_t>(d_count, 2);
          ASSERT_EQ(counts[0], want[0].size());
          ASSERT_EQ(counts[1], want[1].size());
          for (int p = 0; p < 3; ++p)
            got[e][p] = copy_to_host<std::int32_t>(d_out[p], want[p].size());
        }
        for (int p = 0; p < 3; ++p) {
          EXPECT_EQ(got[0][p], want[p]) << "part " << p;
          EXPECT_EQ(got[1][p], got[0][p]) << "part " << p << ": fresh and store-loaded differ";
        }
      }
    }
    // Each predicate's state must fit its own layout: swapped states are refused.
    DeviceBuffer buf(1 << 16);
    std::size_t bytes = 1 << 16;
    const std::int32_t lo = 1;
    alignas(8) const std::int64_t h[2] = {1, 1};
    EXPECT_EQ(fresh(buf.get(), bytes, buf.get(), buf.get(), buf.get(), buf.get(), buf.get(), 100,
                    stream, {h, 16}, {&lo, 4}),
              CUDA_ERROR_INVALID_VALUE);
    EXPECT_EQ(fresh(buf.get(), bytes, buf.get(), buf.get(), buf.get(), buf.get(), buf.get(), 100,
                    stream, {&lo, 4}),
              CUDA_ERROR_INVALID_VALUE);
  });
}

}  // namespace
