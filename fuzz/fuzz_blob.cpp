// Fuzzes the merge-sort build blob (algos/merge_sort/serialize.hpp): deserialize_view
// without the checksum (what a store hit does), deserialize with it, and both again on
// a copy whose length and checksum are fixed up so that inputs reach the cereal fields,
// the spec checks and the ELF reader.
#include <xxhash.h>

#include <cstring>
#include <vector>

#include "cccl_cache/algos/merge_sort/serialize.hpp"
#include "fuzz_util.hpp"

using namespace cccl_cache;
using namespace cccl_cache::algos::merge_sort;

namespace {
constexpr std::size_t kHead = 16;  // magic, version, length
constexpr std::size_t kTail = 8;   // checksum

void check(std::span<const std::byte> in) {
  if (auto v = deserialize_view(in, std::nullopt, Integrity::verified_by_store)) {
    fuzz::require_inside(v->cubin, in, "cubin");
    fuzz::require_inside(v->toolchain, in, "toolchain");
    fuzz::require_inside(v->block_sort_kernel, in, "block_sort_kernel");
    fuzz::require_inside(v->partition_kernel, in, "partition_kernel");
    fuzz::require_inside(v->merge_kernel, in, "merge_kernel");
    fuzz::touch(v->cubin);
  }
  auto checked = deserialize_view(in, std::nullopt, Integrity::check_checksum);
  auto owned = deserialize(in, 90);
  if (owned) {
    fuzz::require(checked.has_value(), "deserialize and deserialize_view agree");
    // What deserialize accepts serializes back to the same blob.
    fuzz::require(serialize(*owned) == std::vector<std::byte>(in.begin(), in.end()),
                  "round trip");
  }
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto in = fuzz::bytes_of(data, size);
  check(in);
  if (size >= kHead + kTail) {
    std::vector<std::byte> fixed(in.begin(), in.end());
    const std::uint64_t len = size - kHead - kTail;
    std::memcpy(fixed.data() + 8, &len, sizeof len);
    const std::uint64_t sum = XXH3_64bits(fixed.data() + kHead, len);
    std::memcpy(fixed.data() + kHead + len, &sum, sizeof sum);
    check(fixed);
  }
  return 0;
}
