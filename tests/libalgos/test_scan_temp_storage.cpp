// Scan's temp-storage answer in closed form (scan/dispatch.cu) equals what CCCL 3.5's own
// host dispatch answers (select_dispatch, closed_form false), and the tile state's shape
// what CUB's own ScanTileState asks: inclusive and exclusive,
// every (element, accumulator) size pair (int8 and int16 sums accumulate in int; structs'
// own accumulators of 12 to 32 bytes), both
// offset types, look-back tile shapes of CUB's sm_80 / sm_90 tunings and odd
// ones, look-ahead policies, many item counts. No GPU: neither route calls the driver.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "closed_form_support.hpp"
#include "scan/dispatch.hpp"
#include "tile_state_cub_reference.hpp"

namespace {

using namespace cccl_cache::algos;
namespace d = cccl_cache::algos::scan::detail;

detail::LaunchContext device(int ptx_version) {
  detail::LaunchContext c;
  c.ptx_version = ptx_version;
  c.sm_count = 132;
  return c;
}
const detail::LaunchContext kSm80 = device(800), kSm90 = device(900), kSm100 = device(1000);

d::DispatchParams lookback(const detail::LaunchContext& ctx, int threads, int items) {
  d::DispatchParams p;
  p.launch = &ctx;
  p.policy.block_threads = threads;
  p.policy.items_per_thread = items;
  return p;
}

// A look-ahead policy with the block size CUB derives from its warps (the one
// policy_supported accepts), or none.
d::DispatchParams lookahead(int warps, int items, int lookahead_items) {
  d::DispatchParams p;
  p.launch = &kSm100;
  p.policy.algorithm = 1;
  p.policy.items_per_thread = items;
  p.policy.reduce_and_scan_warps = warps;
  p.policy.lookahead_items_per_thread = lookahead_items;
  p.policy.lookahead_stages = 2;
  p.policy.block_idx_stages = -1;
  for (p.policy.block_threads = 32; p.policy.block_threads <= 1024; p.policy.block_threads += 32)
    if (d::policy_supported(p)) return p;
  ADD_FAILURE() << "no block size for " << warps << " warps";
  return p;
}

std::uint64_t tile_items(const d::DispatchParams& p) {
  return p.policy.algorithm == 0 ? std::uint64_t(p.policy.block_threads) * p.policy.items_per_thread
                          : std::uint64_t(p.policy.reduce_and_scan_warps) * 32 * p.policy.items_per_thread;
}

// (element, accumulator) sizes: the element's own, bool's, int's for narrower elements; a
// struct's of 12 to 32 bytes (CUB's multi-word tile state).
constexpr std::pair<std::size_t, std::size_t> kSizes[] = {{1, 1}, {1, 4}, {2, 2}, {2, 1}, {2, 4},
                                                          {4, 4}, {4, 1}, {8, 8}, {8, 1},
                                                          {12, 12}, {16, 16}, {24, 24}, {32, 32}};

TEST(ScanTempStorage, ClosedFormEqualsCubDispatch) {
  std::vector<d::DispatchParams> policies = {
      // CUB's tunings: sm_90 4-byte plus, sm_80 defaults, sm_100 1- and 2-byte plus.
      lookback(kSm90, 128, 24), lookback(kSm80, 128, 15), lookback(kSm80, 256, 9),
      lookback(kSm90, 512, 18), lookback(kSm90, 512, 13), lookback(kSm80, 192, 22),
      // edge shapes: one item per block, the largest block and tile.
      lookback(kSm80, 32, 1), lookback(kSm90, 1024, 64), lookback(kSm80, 96, 7),
      lookahead(4, 87, 3), lookahead(4, 63, 4), lookahead(4, 31, 4), lookahead(2, 127, 4),
      lookahead(8, 15, 4), lookahead(4, 1, 1)};
  int checked = 0;
  for (const d::DispatchParams& policy : policies)
    for (auto [size, accum] : kSizes)
      for (ScalarType offset : {ScalarType::uint32, ScalarType::uint64})
        for (bool exclusive : {false, true}) {
          d::DispatchParams p = policy;
          p.layout = d::state_layout(size, accum).value();
          const d::DispatchFn closed = d::select_dispatch(size, accum, offset, exclusive);
          const d::DispatchFn cub =
              d::select_dispatch(size, accum, offset, exclusive, /*closed_form=*/false);
          ASSERT_NE(closed, nullptr);
          ASSERT_NE(cub, nullptr);
          ASSERT_NE(closed, cub);
          const std::uint64_t tile = tile_items(p);
          for (std::uint64_t n : test_support::item_counts({tile, 2 * tile, 1000 * tile})) {
            std::size_t want = 12345, got = 54321;
            const CUresult want_rc =
                cub(p, nullptr, want, nullptr, nullptr, n, nullptr, nullptr, nullptr);
            const CUresult got_rc =
                closed(p, nullptr, got, nullptr, nullptr, n, nullptr, nullptr, nullptr);
            const std::string what = std::string(exclusive ? "exclusive" : "inclusive") +
                                     " algorithm " + std::to_string(p.policy.algorithm) + " tile " +
                                     std::to_string(tile) + " sizes " + std::to_string(size) + "/" + std::to_string(accum) +
                                     " n " + std::to_string(n);
            ASSERT_EQ(got_rc, want_rc) << what;
            if (offset == ScalarType::uint32 && n > std::numeric_limits<std::uint32_t>::max())
              EXPECT_EQ(got_rc, CUDA_ERROR_INVALID_VALUE) << what;
            if (got_rc == CUDA_SUCCESS) ASSERT_EQ(got, want) << what;
            ++checked;
          }
        }
  EXPECT_GT(checked, 30000);
}

// The look-back shape state_layout reads from CUB's ScanTileState of the accumulator's
// stand-in, used as the dispatch uses it, asks what CUB's own type asks for every tile
// count and every alignment the device's accumulator may have (a scalar's is its size; a
// struct's divides its size, up to 8).
TEST(ScanTileState, LayoutAsksWhatCubsOwnTileStateAsks) {
  for (auto [size, accum] : kSizes) {
    const auto layout = d::state_layout(size, accum);
    ASSERT_TRUE(layout) << size << "/" << accum;
    EXPECT_EQ(layout->element_size, size);
    EXPECT_EQ(layout->accum_size, accum);
    EXPECT_EQ(layout->lookback.single_word, accum <= 8);
    EXPECT_FALSE(layout->lookback.plain_words);
    EXPECT_GT(layout->lookahead_bytes, accum);
    for (std::size_t align = 1; align <= 8 && align <= accum; align *= 2) {
      // A promoted accumulator (an int sum of int8s) is a scalar; a struct's, any layout.
      if (accum % align != 0 || (size != accum && align != accum)) continue;
      SCOPED_TRACE(std::to_string(size) + "/" + std::to_string(accum) + " aligned " + std::to_string(align));
      for (int tiles : {0, 1, 2, 1025, 65536, 1 << 20, INT32_MAX - 32}) {
        const auto cub = test_support::cub_scan_tile_state_bytes(accum, align, tiles);
        ASSERT_TRUE(cub);
        EXPECT_EQ(detail::tile_state_bytes(layout->lookback, static_cast<std::uint64_t>(tiles)), *cub)
            << tiles << " tiles";
      }
    }
  }
  for (auto [size, accum] : {std::pair<std::size_t, std::size_t>{3, 3}, {4, 8}, {12, 4}, {48, 48}, {0, 0}}) {
    EXPECT_FALSE(d::state_layout(size, accum)) << size << "/" << accum;
    EXPECT_EQ(d::select_dispatch(size, accum, ScalarType::uint64, false), nullptr) << size << "/" << accum;
  }
}

// The initial value's bytes the dispatch passes are CUB's InputValue<T>, byte for byte
// where CUB writes any, for every element layout the scans take (sizes 1 to 32, aligned to
// at most 8), from a host value and from a device pointer (FutureValue).
TEST(ScanInitArg, BytesAreCubsInputValue) {
  int checked = 0;
  for (std::size_t size : {1, 2, 4, 8, 12, 16, 24, 32})
    for (std::size_t align = 1; align <= 8 && align <= size; align *= 2) {
      if (size % align != 0) continue;
      SCOPED_TRACE(std::to_string(size) + " bytes aligned " + std::to_string(align));
      unsigned char value[32];
      for (std::size_t i = 0; i < sizeof value; ++i) value[i] = static_cast<unsigned char>(0xa0 + i);
      for (bool future : {false, true}) {
        const auto cub = test_support::cub_input_value(size, align, value, future);
        ASSERT_TRUE(cub);
        ASSERT_LE(cub->bytes.size(), sizeof(d::InitArg));
        const d::InitValue initial = future ? d::InitValue::on_device(value) : d::InitValue(value);
        const d::InitArg ours = d::init_arg(initial, size);
        std::size_t known = 0;
        for (std::size_t i = 0; i < cub->bytes.size(); ++i) {
          if (!cub->known[i]) continue;
          EXPECT_EQ(ours.bytes[i], cub->bytes[i]) << "byte " << i << (future ? " (future)" : "");
          ++known;
        }
        // The flag and the value or pointer at least.
        EXPECT_GE(known, 1 + (future ? sizeof(void*) : size));
        ++checked;
      }
    }
  EXPECT_EQ(checked, 2 * 25);
}

// An unsupported policy and a count beyond what CUB's int tile count indexes are refused
// by both routes alike.
TEST(ScanTempStorage, ClosedFormRefusesWhatTheDispatchRefuses) {
  auto bad = lookahead(4, 87, 3);
  bad.policy.block_threads += 32;
  auto tiny = lookback(kSm80, 32, 1);  // 2^31 - 1 tiles of 32 items at most
  bad.layout = tiny.layout = d::state_layout(4, 4).value();
  for (bool closed : {true, false}) {
    const d::DispatchFn fn = d::select_dispatch(4, 4, ScalarType::uint64, false, closed);
    std::size_t bytes = 0;
    EXPECT_EQ(fn(bad, nullptr, bytes, nullptr, nullptr, 10, nullptr, nullptr, nullptr),
              CUDA_ERROR_NOT_SUPPORTED);
    const std::uint64_t most = 32ull * std::numeric_limits<int>::max();
    EXPECT_EQ(fn(tiny, nullptr, bytes, nullptr, nullptr, most, nullptr, nullptr, nullptr),
              CUDA_SUCCESS);
    EXPECT_EQ(fn(tiny, nullptr, bytes, nullptr, nullptr, most + 1, nullptr, nullptr, nullptr),
              CUDA_ERROR_INVALID_VALUE);
  }
}

}  // namespace
