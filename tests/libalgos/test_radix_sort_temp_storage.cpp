// Radix sort's temp-storage answer in closed form (radix_sort/dispatch.cu) equals what
// CCCL 3.5's own host dispatch answers (select_dispatch, closed_form false): every key
// and value size, keys and pairs, the plain and DoubleBuffer forms, many bit ranges, both offset types,
// CUB's sm_80 and sm_90 policies for each (onesweep and multi-pass) and multi-pass
// occupancies, many item counts. The sort order is the kernels' alone (the host code is
// the same for descending sorts). No GPU: neither route calls the driver.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "closed_form_support.hpp"
#include "radix_sort/dispatch.hpp"

namespace {

using namespace cccl_cache::algos;
namespace rs = cccl_cache::algos::radix_sort;

// A device as bind fixes it: `sms` SMs, each slot at its launch block size, the
// downsweep kernels at the given occupancies (the others at 2).
detail::LaunchContext bound(std::uint32_t cc, const rs::Policy& p, int sms, int down, int alt) {
  detail::LaunchContext c;
  c.device = 0;
  c.ptx_version = int(cc) * 10;
  c.sm_count = sms;
  c.num_kernels = rs::kSlots;
  const auto threads = rs::detail::launch_threads(p);
  for (std::size_t i = 0; i < rs::kSlots; ++i)
    c.kernels[i] = {reinterpret_cast<CUfunction>(0x100 + i), int(threads[i]), 2, 0};
  if (!p.onesweep) {
    c.kernels[rs::downsweep].occupancy = down;
    c.kernels[rs::alt_downsweep].occupancy = alt;
  }
  return c;
}

// The counts where the policy's answer changes shape: one tile, the onesweep tile, a
// portion and two, the multi-pass tiles.
std::vector<std::uint64_t> counts(const rs::Policy& p) {
  const std::uint64_t single = std::uint64_t{p.single_tile_threads} * p.single_tile_items;
  const std::uint64_t tile = std::uint64_t{p.onesweep_threads} * p.onesweep_items;
  const std::uint64_t portion = tile ? ((1u << 28) - 1) / tile * tile : 1;
  return test_support::item_counts(
      {single, tile, 2 * tile, portion, 2 * portion, 3 * portion,
       std::uint64_t{p.downsweep_threads} * p.downsweep_items,
       std::uint64_t{p.alt_downsweep_threads} * p.alt_downsweep_items});
}

// Bit ranges [begin, end) within a key of `bits` bits: whole, one bit, one pass and a bit
// more, odd ranges, the top bit.
std::vector<std::pair<int, int>> bit_ranges(int bits) {
  std::vector<std::pair<int, int>> r = {{0, bits}, {0, 1}, {bits - 1, bits}, {1, bits}};
  for (auto [b, e] : {std::pair{0, 8}, std::pair{0, 9}, std::pair{3, 17}, std::pair{0, 16},
                      std::pair{5, 29}, std::pair{0, 33}, std::pair{7, 64}, std::pair{0, 48}})
    if (e <= bits) r.emplace_back(b, e);
  return r;
}

// Both routes for every count, bit range and form; the number of comparisons.
int compare(const rs::detail::DispatchParams& params, std::size_t key_size,
            std::size_t value_size, ScalarType offset, const std::string& what) {
  const auto closed = rs::detail::select_dispatch(key_size, value_size, offset);
  const auto cub = rs::detail::select_dispatch(key_size, value_size, offset, /*closed_form=*/false);
  EXPECT_NE(closed, nullptr);
  EXPECT_NE(cub, nullptr);
  if (closed == nullptr || cub == nullptr || closed == cub) return 0;
  const std::uint64_t max = offset == ScalarType::uint32 ? std::numeric_limits<std::uint32_t>::max()
                                                         : std::numeric_limits<std::uint64_t>::max();
  int n = 0;
  for (std::uint64_t items : counts(params.policy))
    for (auto [begin, end] : bit_ranges(int(key_size) * 8))
      for (bool overwrite : {false, true}) {
        rs::DoubleBuffers none;
        std::size_t want = 12345, got = 54321;
        const CUresult want_rc = cub(params, nullptr, want, none, items, begin, end, overwrite, nullptr);
        const CUresult got_rc = closed(params, nullptr, got, none, items, begin, end, overwrite, nullptr);
        if (items > max) {
          EXPECT_EQ(got_rc, CUDA_ERROR_INVALID_VALUE) << what << " n " << items;
        } else {
          EXPECT_EQ(want_rc, CUDA_SUCCESS) << what << " n " << items;
        }
        EXPECT_EQ(got_rc, want_rc) << what << " n " << items;
        if (want_rc == CUDA_SUCCESS)
          EXPECT_EQ(got, want) << what << " n " << items << " bits [" << begin << ", " << end
                               << ")" << (overwrite ? " double buffer" : " plain");
        if (::testing::Test::HasFailure()) return n;
        ++n;
      }
  return n;
}

const ScalarType kKeys[] = {ScalarType::uint8,   ScalarType::int16,   ScalarType::float16,
                            ScalarType::uint32,  ScalarType::float32, ScalarType::int64,
                            ScalarType::float64};
const ScalarType kValues[] = {ScalarType::none, ScalarType::uint8, ScalarType::int16,
                              ScalarType::float32, ScalarType::uint64};

TEST(RadixSortTempStorage, ClosedFormEqualsCubDispatchOnCubsPolicies) {
  int checked = 0, multi_pass = 0;
  for (std::uint32_t cc : {80u, 90u})
    for (ScalarType key : kKeys)
      for (ScalarType value : kValues)
        for (ScalarType offset : {ScalarType::uint32, ScalarType::uint64}) {
          rs::Spec spec;
          spec.key_type = key, spec.value_type = value, spec.offset_type = offset;
          const rs::Policy p = rs::detail::selected_policy(spec, cc);
          multi_pass += p.onesweep == 0;
          const auto ctx = bound(cc, p, cc == 80 ? 108 : 132, 3, 2);
          const std::string what = summary(spec) + " sm_" + std::to_string(cc);
          checked += compare({&ctx, p}, size_of(key), size_of(value), offset, what);
          if (HasFailure()) return;
        }
  EXPECT_GT(multi_pass, 0) << "CUB's policies include multi-pass ones";
  EXPECT_GT(checked, 100000);
}

// Multi-pass: the spine follows the larger of the two downsweep occupancies, the SM
// count and the radix bits; a slot bound at another block size fails as CUB's
// occupancy question does.
TEST(RadixSortTempStorage, ClosedFormEqualsCubDispatchForMultiPassOccupancies) {
  rs::Spec spec;
  spec.key_type = ScalarType::uint16;
  rs::Policy p = rs::detail::selected_policy(spec, 80);
  ASSERT_EQ(p.onesweep, 0u) << "CUB sorts 2-byte keys in passes on sm_80";
  int checked = 0;
  for (auto [down, alt] : {std::pair{1, 1}, std::pair{1, 4}, std::pair{5, 2}, std::pair{8, 8}})
    for (int sms : {1, 108, 132})
      for (std::uint32_t bits : {4u, 7u, 8u}) {
        p.downsweep_radix_bits = bits, p.alt_downsweep_radix_bits = bits - 1;
        const auto ctx = bound(80, p, sms, down, alt);
        for (std::size_t key : {1u, 2u, 4u, 8u})
          for (std::size_t value : {0u, 4u})
            checked += compare({&ctx, p}, key, value, ScalarType::uint64, "multi-pass");
        if (HasFailure()) return;
      }
  EXPECT_GT(checked, 10000);
  for (rs::Kernel k : {rs::upsweep, rs::scan_bins, rs::downsweep, rs::alt_upsweep, rs::alt_downsweep}) {
    auto ctx = bound(80, p, 132, 2, 2);
    ctx.kernels[k].block_threads += 32;
    const rs::detail::DispatchParams params{&ctx, p};
    for (auto fn : {rs::detail::select_dispatch(2, 0, ScalarType::uint32),
                    rs::detail::select_dispatch(2, 0, ScalarType::uint32, /*closed_form=*/false)}) {
      std::size_t bytes = 0;
      rs::DoubleBuffers none;
      EXPECT_EQ(fn(params, nullptr, bytes, none, 1u << 20, 0, 16, false, nullptr),
                CUDA_ERROR_INVALID_VALUE) << "slot " << k;
    }
  }
}

// The onesweep answer needs nothing from the launch context: no device fact at all.
TEST(RadixSortTempStorage, OnesweepClosedFormReadsOnlyThePolicy) {
  rs::Spec spec;
  spec.key_type = ScalarType::float32;
  const rs::Policy p = rs::detail::selected_policy(spec, 90);
  ASSERT_EQ(p.onesweep, 1u);
  const auto ctx = bound(90, p, 132, 2, 2);
  const rs::detail::DispatchParams with{&ctx, p}, without{nullptr, p};
  const auto fn = rs::detail::select_dispatch(4, 0, ScalarType::uint64);
  for (std::uint64_t n : {1ull, 5000ull, 1ull << 20, (1ull << 30) + 1}) {
    std::size_t a = 0, b = 0;
    rs::DoubleBuffers none;
    ASSERT_EQ(fn(with, nullptr, a, none, n, 0, 32, false, nullptr), CUDA_SUCCESS);
    ASSERT_EQ(fn(without, nullptr, b, none, n, 0, 32, false, nullptr), CUDA_SUCCESS);
    EXPECT_EQ(a, b) << n;
  }
}

}  // namespace
