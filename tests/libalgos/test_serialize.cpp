#include <gtest/gtest.h>
#include <xxhash.h>

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <random>

#include "build_cache.hpp"
#include "elf_craft.hpp"
#include "cccl_cache/algos/merge_sort/serialize.hpp"

using namespace cccl_cache;
using namespace cccl_cache::algos;
using merge_sort::BuildResult;
using merge_sort::Spec;

namespace {

const BuildResult& built() {
  const auto& r = test_support::cached_build(Spec{}, 90);
  if (!r) throw std::runtime_error(r.error().describe());
  return r->result;
}

ErrorCode code_of(std::span<const std::byte> blob, std::optional<std::uint32_t> cc = std::nullopt) {
  auto r = merge_sort::deserialize(blob, cc);
  EXPECT_FALSE(r);
  return r ? ErrorCode::internal : r.error().code;
}

// Serializes `r` after a change: the envelope is valid, the content is not.
std::vector<std::byte> with(std::function<void(BuildResult&)> change) {
  BuildResult copy = built();
  change(copy);
  return merge_sort::serialize(copy);
}

}  // namespace

TEST(MergeSortSerialize, RoundTripIsExact) {
  const auto blob = merge_sort::serialize(built());
  auto back = merge_sort::deserialize(blob, 90);
  ASSERT_TRUE(back) << back.error().describe();
  EXPECT_EQ(*back, built());
  EXPECT_EQ(merge_sort::serialize(*back), blob);  // and stable
  auto unchecked_cc = merge_sort::deserialize(blob);
  ASSERT_TRUE(unchecked_cc);
  EXPECT_EQ(*unchecked_cc, built());
}

// A store hit binds from the view: it must borrow its long fields from the blob (no
// copy of the cubin) and read the same values as deserialize().
TEST(MergeSortSerialize, ViewBorrowsFromTheBlobAndMatchesTheCopy) {
  const auto blob = merge_sort::serialize(built());
  auto view = merge_sort::deserialize_view(blob, 90);
  ASSERT_TRUE(view) << view.error().describe();
  const auto* lo = blob.data();
  const auto* hi = blob.data() + blob.size();
  auto inside = [&](const void* p, std::size_t n) {
    const auto* b = static_cast<const std::byte*>(p);
    return b >= lo && b + n <= hi;
  };
  EXPECT_TRUE(inside(view->cubin.data(), view->cubin.size()));
  for (auto name :
       {view->block_sort_kernel, view->partition_kernel, view->merge_kernel, view->toolchain})
    EXPECT_TRUE(inside(name.data(), name.size())) << name;
  EXPECT_EQ(merge_sort::to_owned(*view), built());
  // The same rejections as the copying form.
  auto bad = blob;
  bad[bad.size() / 2] ^= std::byte{1};
  ASSERT_FALSE(merge_sort::deserialize_view(bad, 90));
  EXPECT_EQ(merge_sort::deserialize_view(bad, 90).error().code, ErrorCode::corrupt);
  EXPECT_EQ(merge_sort::deserialize_view(blob, 80).error().code, ErrorCode::unsupported);
}

TEST(MergeSortSerialize, RoundTripKeepsCustomComparatorAndPairs) {
  BuildResult r = built();
  r.spec.value_type = ScalarType::float64;
  r.spec.offset_type = ScalarType::uint32;
  r.spec.comparator = Comparator::custom(
      "f", std::string("__device__ bool f(float a, float b) { return a < b; }\0x", 56));
  auto back = merge_sort::deserialize(merge_sort::serialize(r));
  ASSERT_TRUE(back) << back.error().describe();
  EXPECT_EQ(*back, r);
}

TEST(MergeSortSerialize, EveryTruncationIsCorrupt) {
  const auto blob = merge_sort::serialize(built());
  // Every prefix of the header, payload fields and trailer, and a stride through the cubin.
  for (std::size_t n = 0; n < blob.size(); n += (n < 512 || n + 512 > blob.size()) ? 1 : 97) {
    ASSERT_EQ(code_of(std::span(blob).first(n)), ErrorCode::corrupt) << "prefix " << n;
  }
}

TEST(MergeSortSerialize, GarbageIsCorrupt) {
  std::mt19937_64 rng(42);
  for (std::size_t size : {0u, 1u, 3u, 4u, 16u, 24u, 100u, 4096u}) {
    std::vector<std::byte> noise(size);
    for (auto& b : noise) b = static_cast<std::byte>(rng());
    EXPECT_EQ(code_of(noise), ErrorCode::corrupt) << size;
    if (size >= 4) {  // right magic, garbage after it
      noise[0] = std::byte{'C'}, noise[1] = std::byte{'C'}, noise[2] = std::byte{'M'},
      noise[3] = std::byte{'S'};
      const auto code = code_of(noise);
      EXPECT_TRUE(code == ErrorCode::corrupt || code == ErrorCode::format) << size;
    }
  }
  // Bit flips anywhere in a real blob.
  const auto blob = merge_sort::serialize(built());
  for (int i = 0; i < 200; ++i) {
    auto copy = blob;
    const auto at = 16 + rng() % (copy.size() - 16);
    copy[at] ^= std::byte{static_cast<unsigned char>(1u << (rng() % 8))};
    EXPECT_EQ(code_of(copy), ErrorCode::corrupt) << "flip at " << at;
  }
}

TEST(MergeSortSerialize, FlippedMagicIsCorruptAndOtherVersionIsFormat) {
  auto blob = merge_sort::serialize(built());
  auto magic = blob;
  magic[0] = std::byte{'X'};
  EXPECT_EQ(code_of(magic), ErrorCode::corrupt);
  auto version = blob;
  version[4] = static_cast<std::byte>(kBuildFormatVersion + 1);
  auto r = merge_sort::deserialize(version);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::format);
  EXPECT_NE(r.error().message.find("version"), std::string::npos);
}

TEST(MergeSortSerialize, WrongExpectedCcIsUnsupported) {
  const auto blob = merge_sort::serialize(built());
  EXPECT_EQ(code_of(blob, 80), ErrorCode::unsupported);
  EXPECT_EQ(code_of(blob, 100), ErrorCode::unsupported);
}

TEST(MergeSortSerialize, InconsistentContentIsCorrupt) {
  struct Case {
    const char* what;
    std::function<void(BuildResult&)> change;
  };
  const Case cases[] = {
      {"cc differs from the cubin's arch", [](BuildResult& r) { r.cc = 80; }},
      {"cc out of range", [](BuildResult& r) { r.cc = 7; }},
      {"kernel not in the cubin", [](BuildResult& r) { r.merge_kernel += "x"; }},
      {"empty kernel name", [](BuildResult& r) { r.partition_kernel.clear(); }},
      {"cubin not an ELF", [](BuildResult& r) { r.cubin[1] = std::byte{'X'}; }},
      {"cubin truncated", [](BuildResult& r) { r.cubin.resize(r.cubin.size() / 2); }},
      {"cubin for another machine", [](BuildResult& r) { r.cubin[18] = std::byte{62}; }},
      {"empty cubin", [](BuildResult& r) { r.cubin.clear(); }},
      {"invalid key type", [](BuildResult& r) { r.spec.key_type = static_cast<ScalarType>(99); }},
      {"invalid comparator",
       [](BuildResult& r) { r.spec.comparator.kind = static_cast<ComparatorKind>(0); }},
      {"no toolchain", [](BuildResult& r) { r.toolchain.clear(); }},
      {"zero block threads", [](BuildResult& r) { r.policy.block_threads = 0; }},
      {"tile not a multiple of threads", [](BuildResult& r) { r.policy.items_per_tile += 1; }},
  };
  for (const auto& c : cases) {
    auto r = merge_sort::deserialize(with(c.change));
    ASSERT_FALSE(r) << c.what;
    EXPECT_EQ(r.error().code, ErrorCode::corrupt) << c.what << ": " << r.error().message;
  }
}

TEST(MergeSortSerialize, HugeLengthFieldsDoNotAllocate) {
  // A payload whose first string claims 2^63 bytes: rejected before any allocation
  // (the checksum is recomputed so only the length check can catch it).
  auto blob = merge_sort::serialize(built());
  // Payload starts at 16: 3 one-byte fields, then the comparator name's u64 length.
  for (int i = 0; i < 8; ++i) blob[16 + 3 + i] = std::byte{0};
  blob[16 + 3 + 7] = std::byte{0x80};
  const std::size_t payload = blob.size() - 24;
  const auto sum = XXH3_64bits(blob.data() + 16, payload);
  for (int i = 0; i < 8; ++i)
    blob[16 + payload + i] = static_cast<std::byte>((sum >> (8 * i)) & 0xff);
  auto r = merge_sort::deserialize(blob);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::corrupt);
  EXPECT_NE(r.error().message.find("length"), std::string::npos) << r.error().message;
}

// A store hit skips the blob's own checksum (the store verified the same bytes):
// everything else is still checked, so no input crashes it and every structural
// fault is still reported.
TEST(MergeSortSerialize, VerifiedByStoreSkipsOnlyTheChecksum) {
  using merge_sort::Integrity;
  const auto blob = merge_sort::serialize(built());
  auto view = merge_sort::deserialize_view(blob, 90, Integrity::verified_by_store);
  ASSERT_TRUE(view) << view.error().describe();
  EXPECT_EQ(merge_sort::to_owned(*view), built());
  // A flipped trailer byte: only the checksum can see it.
  auto trailer = blob;
  trailer.back() ^= std::byte{1};
  EXPECT_FALSE(merge_sort::deserialize_view(trailer, 90));
  EXPECT_TRUE(merge_sort::deserialize_view(trailer, 90, Integrity::verified_by_store));
  for (std::size_t n = 0; n < blob.size(); n += (n < 512 || n + 512 > blob.size()) ? 1 : 97) {
    auto r =
        merge_sort::deserialize_view(std::span(blob).first(n), 90, Integrity::verified_by_store);
    ASSERT_FALSE(r) << "prefix " << n;
    EXPECT_EQ(r.error().code, ErrorCode::corrupt) << "prefix " << n;
  }
  EXPECT_EQ(merge_sort::deserialize_view(blob, 80, Integrity::verified_by_store).error().code,
            ErrorCode::unsupported);
  // Content faults under a consistent envelope, as a store could hold them.
  for (auto change : std::initializer_list<std::function<void(BuildResult&)>>{
           [](BuildResult& r) { r.merge_kernel += "x"; },
           [](BuildResult& r) { r.cubin.resize(r.cubin.size() / 2); },
           [](BuildResult& r) { r.policy.block_threads = 0; }}) {
    auto r = merge_sort::deserialize_view(with(change), 90, Integrity::verified_by_store);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, ErrorCode::corrupt) << r.error().message;
  }
  // Every bit of the header (magic, version, length) flipped: always an error.
  for (std::size_t at = 0; at < 16; ++at)
    for (int bit = 0; bit < 8; ++bit) {
      auto copy = blob;
      copy[at] ^= std::byte{static_cast<unsigned char>(1u << bit)};
      EXPECT_FALSE(merge_sort::deserialize_view(copy, 90, Integrity::verified_by_store))
          << "header byte " << at << " bit " << bit;
    }
  // Random flips anywhere: never a crash, and whatever is accepted lies inside the blob
  // (a flip in the cubin's code can pass: only a checksum would see it).
  std::mt19937_64 rng(7);
  for (int i = 0; i < 300; ++i) {
    auto copy = blob;
    const auto at = rng() % copy.size();
    copy[at] ^= std::byte{static_cast<unsigned char>(1u << (rng() % 8))};
    auto r = merge_sort::deserialize_view(copy, 90, Integrity::verified_by_store);
    if (!r) continue;
    const auto* lo = copy.data();
    const auto* hi = copy.data() + copy.size();
    auto inside = [&](const void* p, std::size_t n) {
      const auto* b = static_cast<const std::byte*>(p);
      return b >= lo && b + n <= hi;
    };
    EXPECT_TRUE(inside(r->cubin.data(), r->cubin.size())) << "flip at " << at;
    for (auto name : {r->block_sort_kernel, r->partition_kernel, r->merge_kernel, r->toolchain})
      EXPECT_TRUE(inside(name.data(), name.size())) << "flip at " << at;
  }
}

// An entry is trusted no further than its cubin: kernel names that are swapped (each
// still a kernel of the cubin) or a policy that differs from the launch bounds the
// kernels were compiled with pass the checksum (re-serialized here) and must still be
// rejected, on the copying and the borrowing path alike.
TEST(MergeSortSerialize, EntriesDisagreeingWithTheirCubinAreCorrupt) {
  struct Case {
    const char* what;
    std::function<void(BuildResult&)> change;
    const char* error;
  };
  const auto rotate = [](BuildResult& r) {
    std::swap(r.block_sort_kernel, r.partition_kernel);
    std::swap(r.partition_kernel, r.merge_kernel);
  };
  const Case cases[] = {
      {"block sort and merge swapped",
       [](BuildResult& r) { std::swap(r.block_sort_kernel, r.merge_kernel); },
       "does not name a merge sort block sort kernel"},
      {"partition and merge swapped",
       [](BuildResult& r) { std::swap(r.partition_kernel, r.merge_kernel); },
       "does not name a merge sort partition kernel"},
      {"all three rotated", rotate, "does not name a merge sort"},
      {"one kernel named twice",
       [](BuildResult& r) { r.merge_kernel = r.block_sort_kernel; },
       "does not name a merge sort merge kernel"},
      {"block_threads doubled",
       [](BuildResult& r) {
         r.policy.block_threads *= 2;
         r.policy.items_per_tile *= 2;
       },
       "was compiled for at most"},
      {"block_threads halved",
       [](BuildResult& r) {
         r.policy.block_threads /= 2;
         r.policy.items_per_tile /= 2;
       },
       "was compiled for at most"},
  };
  for (const auto& c : cases) {
    const auto blob = with(c.change);
    for (auto integrity : {merge_sort::Integrity::check_checksum,
                           merge_sort::Integrity::verified_by_store}) {
      auto r = merge_sort::deserialize_view(blob, 90, integrity);
      ASSERT_FALSE(r) << c.what;
      EXPECT_EQ(r.error().code, ErrorCode::corrupt) << c.what;
      EXPECT_NE(r.error().message.find(c.error), std::string::npos)
          << c.what << ": " << r.error().message;
    }
    EXPECT_FALSE(merge_sort::deserialize(blob)) << c.what;
  }
}

// The same from the cubin's side: the policy stays, the cubin's records change.
TEST(MergeSortSerialize, CubinsDisagreeingWithTheirEntryAreCorrupt) {
  namespace craft = test_support::elf;
  const BuildResult& r = built();
  auto info = craft::find_section(r.cubin, ".nv.info." + r.merge_kernel);
  ASSERT_TRUE(info);
  std::optional<std::size_t> max_threads;
  for (std::size_t at = info->offset; at < info->offset + info->size;) {
    const auto format = craft::get(r.cubin, at, 1);
    if (format == 4 && craft::get(r.cubin, at + 1, 1) == 0x05) max_threads = at;
    at += format == 4 ? 4 + craft::get(r.cubin, at + 2, 2) : 4;
  }
  ASSERT_TRUE(max_threads);
  const auto sym = craft::find_symbol(r.cubin, r.partition_kernel);
  ASSERT_TRUE(sym);
  ASSERT_EQ(r.policy.block_sort_vsmem_per_block, 0u);  // float keys: the tile fits
  auto shared = craft::find_section(r.cubin, ".nv.shared." + r.block_sort_kernel);
  ASSERT_TRUE(shared);
  struct Case {
    const char* what;
    std::function<void(std::vector<std::byte>&)> change;
    const char* error;
  };
  const Case cases[] = {
      {"merge kernel's launch bounds altered",
       [&](std::vector<std::byte>& c) { craft::put(c, *max_threads + 4, 1024, 4); },
       "merge kernel"},
      {"merge kernel's launch bounds removed",
       [&](std::vector<std::byte>& c) { craft::put(c, *max_threads + 1, 0x7e, 1); },
       "carries no launch bounds"},
      {"partition kernel not an entry point",
       [&](std::vector<std::byte>& c) { c[*sym + 5] &= std::byte{0xef}; },
       "is not a kernel entry point"},
      {"block sort kernel without its shared memory",
       [&](std::vector<std::byte>& c) { craft::put(c, shared->header + 32, 0, 8); },
       "no static shared memory"},
      {"block sort kernel with too much shared memory",
       [&](std::vector<std::byte>& c) { craft::put(c, shared->header + 32, 64 * 1024, 8); },
       "bytes of static shared memory"},
  };
  for (const auto& c : cases) {
    auto blob = with([&](BuildResult& b) { c.change(b.cubin); });
    auto got = merge_sort::deserialize(blob, 90);
    ASSERT_FALSE(got) << c.what;
    EXPECT_EQ(got.error().code, ErrorCode::corrupt) << c.what;
    EXPECT_NE(got.error().message.find(c.error), std::string::npos)
        << c.what << ": " << got.error().message;
  }
}
