// bool elements on a GPU (skips without one), each spec of bool_specs.hpp against a host
// reference at kGpuCounts, fresh (build -> bind) and store-loaded executables bitwise
// identical: a comparison's mask, all and any, a running "seen yet", the stable
// partitions of both sorts by a flag, the trues kept by select, runs of equal flags and
// the first true by lower bound. Host flags are bytes 0 and 1 (bool's representation).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "bool_specs.hpp"
#include "gpu_support.hpp"
#include "iterator_specs.hpp"

using namespace cccl_cache::algos;
using namespace test_support;
using Flags = std::vector<std::uint8_t>;

namespace {

// n flags, each 1 with probability one in `one_in`.
Flags random_flags(std::size_t n, std::uint32_t one_in, std::uint32_t seed) {
  std::mt19937 rng(seed);
  Flags f(n);
  for (auto& x : f) x = rng() % one_in == 0 ? 1 : 0;
  return f;
}

std::vector<std::int32_t> positions(std::size_t n) {
  std::vector<std::int32_t> v(n);
  std::iota(v.begin(), v.end(), 0);
  return v;
}

template <auto Make, class Check>
void fresh_and_loaded_of(Check check) {
  with_fresh_and_loaded<Make>("cccl-bool-", check);
}

TEST(BoolGpu, AComparisonsMaskMatchesTheHost) {
  SKIP_WITHOUT_GPU();
  fresh_and_loaded_of<&bools::less_mask>([](const auto& fresh, const auto& loaded, CUstream stream) {
    for (const std::uint64_t n : kGpuCounts) {
      SCOPED_TRACE("n = " + std::to_string(n));
      const auto a = random_values<float>(n, -50, 50, 3), b = random_values<float>(n, -50, 50, 5);
      Flags want(n);
      for (std::size_t i = 0; i < n; ++i) want[i] = a[i] < b[i] ? 1 : 0;
      std::vector<std::unique_ptr<DeviceBuffer>> keep;
      const void* d_a = on_device(a, keep);
      const void* d_b = on_device(b, keep);
      Flags got[2];
      for (int e = 0; e < 2; ++e) {
        auto out = zeroed<std::uint8_t>(n);
        const auto& exe = e == 0 ? fresh : loaded;
        ASSERT_EQ(exe(d_a, d_b, out->get(), n, stream), CUDA_SUCCESS);
        ASSERT_EQ(cuStreamSynchronize(stream), CUDA_SUCCESS);
        got[e] = copy_to_host<std::uint8_t>(*out, n);
      }
      expect_fresh_and_loaded(got, want, "a < b");
    }
  });
}

// The reduction of `flags` by `exe` from `init`, as a byte.
template <class Exe>
std::uint8_t reduce_flags(const Exe& exe, const Flags& flags, std::uint8_t init, CUstream stream) {
  std::vector<std::unique_ptr<DeviceBuffer>> keep;
  const void* d_in = on_device(flags, keep);
  auto out = zeroed<std::uint8_t>(1);
  const bool h_init = init != 0;
  query_and_run(exe, flags.size(), stream, [&](void* temp, std::size_t& bytes) {
    return exe(temp, bytes, d_in, out->get(), flags.size(), &h_init, stream);
  });
  return copy_to_host<std::uint8_t>(*out, 1)[0];
}

// all over all-true flags but (where `hole`) one false at a random place; any over
// all-false flags but (where `hole`) one true.
template <auto Make>
void expect_all_or_any(bool all) {
  fresh_and_loaded_of<Make>([&](const auto& fresh, const auto& loaded, CUstream stream) {
    for (const std::uint64_t n : kGpuCounts) {
      for (const bool hole : {false, true}) {
        SCOPED_TRACE("n = " + std::to_string(n) + (hole ? ", one odd flag" : ""));
        Flags flags(n, all ? 1 : 0);
        if (hole && n > 0) flags[std::mt19937(static_cast<std::uint32_t>(n))() % n] = all ? 0 : 1;
        const std::uint8_t init = all ? 1 : 0;
        const std::uint8_t want = hole && n > 0 ? !init : init;
        const std::uint8_t f = reduce_flags(fresh, flags, init, stream);
        EXPECT_EQ(f, want);
        EXPECT_EQ(reduce_flags(loaded, flags, init, stream), f) << "fresh and store-loaded differ";
      }
    }
  });
}

TEST(BoolGpu, AllMatchesTheHost) {
  SKIP_WITHOUT_GPU();
  expect_all_or_any<&bools::all_of>(true);
}

TEST(BoolGpu, AnyMatchesTheHost) {
  SKIP_WITHOUT_GPU();
  expect_all_or_any<&bools::any_of>(false);
}

TEST(BoolGpu, ARunningSeenYetMatchesTheHost) {
  SKIP_WITHOUT_GPU();
  fresh_and_loaded_of<&bools::seen_yet>([](const auto& fresh, const auto& loaded, CUstream stream) {
    for (const std::uint64_t n : kGpuCounts) {
      SCOPED_TRACE("n = " + std::to_string(n));
      // A true about every n/3 items: long false stretches, then all true.
      const Flags flags = random_flags(n, std::max<std::uint32_t>(3, static_cast<std::uint32_t>(n / 3)), 7);
      Flags want(n);
      std::uint8_t seen = 0;
      for (std::size_t i = 0; i < n; ++i) want[i] = seen = seen | flags[i];
      std::vector<std::unique_ptr<DeviceBuffer>> keep;
      const void* d_in = on_device(flags, keep);
      Flags got[2];
      for (int e = 0; e < 2; ++e) {
        const auto& exe = e == 0 ? fresh : loaded;
        auto out = zeroed<std::uint8_t>(n);
        query_and_run(exe, n, stream, [&](void* temp, std::size_t& bytes) {
          return exe(temp, bytes, d_in, out->get(), n, stream);
        });
        got[e] = copy_to_host<std::uint8_t>(*out, n);
      }
      expect_fresh_and_loaded(got, want, "seen yet");
    }
  });
}

// The stable partition of positions by flag, `trues_first` or falses first.
void partition_by_flag(const Flags& flags, bool trues_first, Flags& keys,
                       std::vector<std::int32_t>& values) {
  keys.clear();
  values.clear();
  for (const std::uint8_t part : {std::uint8_t(trues_first ? 1 : 0), std::uint8_t(trues_first ? 0 : 1)})
    for (std::size_t i = 0; i < flags.size(); ++i)
      if (flags[i] == part) {
        keys.push_back(part);
        values.push_back(static_cast<std::int32_t>(i));
      }
}

// sort(exe, d_keys, d_values, k_out, v_out, n) on each count: the stable partition.
template <auto Make, class Sort>
void expect_stable_partition(bool trues_first, Sort sort) {
  fresh_and_loaded_of<Make>([&](const auto& fresh, const auto& loaded, CUstream stream) {
    for (const std::uint64_t n : kGpuCounts) {
      SCOPED_TRACE("n = " + std::to_string(n));
      const Flags flags = random_flags(n, 3, 11);
      Flags want_keys;
      std::vector<std::int32_t> want_values;
      partition_by_flag(flags, trues_first, want_keys, want_values);
      std::vector<std::unique_ptr<DeviceBuffer>> keep;
      const void* d_keys = on_device(flags, keep);
      const void* d_values = on_device(positions(n), keep);
      Flags keys[2];
      std::vector<std::int32_t> values[2];
      for (int e = 0; e < 2; ++e) {
        const auto& exe = e == 0 ? fresh : loaded;
        auto k_out = zeroed<std::uint8_t>(n);
        auto v_out = zeroed<std::int32_t>(n);
        query_and_run(exe, n, stream, [&](void* temp, std::size_t& bytes) {
          return sort(exe, temp, bytes, d_keys, d_values, k_out->get(), v_out->get(), n, stream);
        });
        keys[e] = copy_to_host<std::uint8_t>(*k_out, n);
        values[e] = copy_to_host<std::int32_t>(*v_out, n);
      }
      expect_fresh_and_loaded(keys, want_keys, "keys");
      expect_fresh_and_loaded(values, want_values, "values");
    }
  });
}

TEST(BoolGpu, RadixSortByAFlagIsAStablePartition) {
  SKIP_WITHOUT_GPU();
  expect_stable_partition<&bools::radix_by_flag>(
      false, [](const auto& exe, void* temp, std::size_t& bytes, const void* keys,
                const void* values, void* k_out, void* v_out, std::uint64_t n, CUstream stream) {
        return exe(temp, bytes, keys, k_out, values, v_out, n, 0, exe.key_bits(), stream);
      });
}

TEST(BoolGpu, MergeSortByGreaterPutsTheTruesFirstStably) {
  SKIP_WITHOUT_GPU();
  expect_stable_partition<&bools::merge_trues_first>(
      true, [](const auto& exe, void* temp, std::size_t& bytes, const void* keys,
               const void* values, void* k_out, void* v_out, std::uint64_t n, CUstream stream) {
        return exe(temp, bytes, keys, values, k_out, v_out, n, stream);
      });
}

TEST(BoolGpu, SelectKeepsTheTrues) {
  SKIP_WITHOUT_GPU();
  fresh_and_loaded_of<&bools::keep_trues>([](const auto& fresh, const auto& loaded, CUstream stream) {
    for (const std::uint64_t n : kGpuCounts) {
      SCOPED_TRACE("n = " + std::to_string(n));
      const Flags flags = random_flags(n, 4, 13);
      const std::uint64_t trues = std::count(flags.begin(), flags.end(), 1);
      std::vector<std::unique_ptr<DeviceBuffer>> keep;
      const void* d_in = on_device(flags, keep);
      Flags got[2];
      std::uint64_t counts[2] = {};
      for (int e = 0; e < 2; ++e) {
        const auto& exe = e == 0 ? fresh : loaded;
        auto out = zeroed<std::uint8_t>(n);
        auto count = zeroed<std::uint64_t>(1);
        query_and_run(exe, n, stream, [&](void* temp, std::size_t& bytes) {
          return exe(temp, bytes, d_in, out->get(), count->get(), n, stream);
        });
        counts[e] = copy_to_host<std::uint64_t>(*count, 1)[0];
        got[e] = copy_to_host<std::uint8_t>(*out, trues);
      }
      EXPECT_EQ(counts[0], trues);
      EXPECT_EQ(counts[1], counts[0]);
      expect_fresh_and_loaded(got, Flags(trues, 1), "kept");
    }
  });
}

TEST(BoolGpu, UniqueByKeyFindsTheRunsOfEqualFlags) {
  SKIP_WITHOUT_GPU();
  fresh_and_loaded_of<&bools::flag_runs>([](const auto& fresh, const auto& loaded, CUstream stream) {
    for (const std::uint64_t n : kGpuCounts) {
      SCOPED_TRACE("n = " + std::to_string(n));
      // Runs of 1 to 40 flags, alternating.
      Flags flags;
      std::mt19937 rng(17);
      for (std::uint8_t f = 0; flags.size() < n; f ^= 1) flags.resize(std::min<std::size_t>(n, flags.size() + 1 + rng() % 40), f);
      Flags want_keys;
      std::vector<std::int32_t> want_firsts;
      for (std::size_t i = 0; i < n; ++i)
        if (i == 0 || flags[i] != flags[i - 1]) {
          want_keys.push_back(flags[i]);
          want_firsts.push_back(static_cast<std::int32_t>(i));
        }
      std::vector<std::unique_ptr<DeviceBuffer>> keep;
      const void* d_keys = on_device(flags, keep);
      const void* d_values = on_device(positions(n), keep);
      Flags keys[2];
      std::vector<std::int32_t> firsts[2];
      std::uint64_t counts[2] = {};
      for (int e = 0; e < 2; ++e) {
        const auto& exe = e == 0 ? fresh : loaded;
        auto k_out = zeroed<std::uint8_t>(n);
        auto v_out = zeroed<std::int32_t>(n);
        auto count = zeroed<std::uint64_t>(1);
        query_and_run(exe, n, stream, [&](void* temp, std::size_t& bytes) {
          return exe(temp, bytes, d_keys, d_values, k_out->get(), v_out->get(), count->get(), n,
                     stream);
        });
        counts[e] = copy_to_host<std::uint64_t>(*count, 1)[0];
        keys[e] = copy_to_host<std::uint8_t>(*k_out, want_keys.size());
        firsts[e] = copy_to_host<std::int32_t>(*v_out, want_keys.size());
      }
      EXPECT_EQ(counts[0], want_keys.size());
      EXPECT_EQ(counts[1], counts[0]);
      expect_fresh_and_loaded(keys, want_keys, "run keys");
      expect_fresh_and_loaded(firsts, want_firsts, "run starts");
    }
  });
}

TEST(BoolGpu, LowerBoundOfTrueCountsTheFalses) {
  SKIP_WITHOUT_GPU();
  fresh_and_loaded_of<&bools::first_true>([](const auto& fresh, const auto& loaded, CUstream stream) {
    const Flags values = {0, 1, 1, 0};
    std::vector<std::unique_ptr<DeviceBuffer>> keep;
    const void* d_values = on_device(values, keep);
    for (const std::uint64_t n : kGpuCounts) {
      SCOPED_TRACE("n = " + std::to_string(n));
      Flags data = random_flags(n, 2, 19);
      std::sort(data.begin(), data.end());
      const auto falses = static_cast<std::int64_t>(std::count(data.begin(), data.end(), 0));
      const std::vector<std::int64_t> want = {0, falses, falses, 0};
      const void* d_data = on_device(data, keep);
      std::vector<std::int64_t> got[2];
      for (int e = 0; e < 2; ++e) {
        const auto& exe = e == 0 ? fresh : loaded;
        auto out = zeroed<std::int64_t>(values.size());
        query_and_run(exe, n, stream, [&](void* temp, std::size_t& bytes) {
          return exe(temp, bytes, d_data, n, d_values, values.size(), out->get(), stream);
        });
        got[e] = copy_to_host<std::int64_t>(*out, values.size());
      }
      expect_fresh_and_loaded(got, want, "lower bounds");
    }
  });
}

}  // namespace
