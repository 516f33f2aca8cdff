// Helpers for the damage tests: a small real store with inline and overflow entries,
// raw access to its data.mdb image and the type of each of its pages.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "cccl_cache/cache/integrity.hpp"
#include "lmdb_format.hpp"
#include "test_util.hpp"

namespace cccl_cache::test {

inline std::vector<std::byte> read_bytes(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::vector<char> c((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::byte> out(c.size());
  std::memcpy(out.data(), c.data(), c.size());
  return out;
}

inline void write_bytes(const std::filesystem::path& p, std::span<const std::byte> bytes) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

// Entry i's payload: small ones stay inside leaf pages, every fifth spills to overflow pages.
inline std::vector<std::byte> damage_payload(std::uint64_t i) {
  return make_payload(i, i % 5 == 0 ? 9000 + 1000 * i : 200 + 40 * i);
}

// Fills `dir` with `n` entries (keys make_key(i)) and closes the store.
inline void fill_store(const std::filesystem::path& dir, std::uint64_t n) {
  auto store = Store::open(test_config(dir));
  ASSERT_TRUE(store) << store.error().describe();
  for (std::uint64_t i = 0; i < n; ++i)
    ASSERT_TRUE((*store)->put(make_key(i), make_meta(i, "synthetic"), damage_payload(i)));
}

enum class PageKind { meta, branch, leaf, overflow_head, overflow_tail, free, other };

inline const char* to_string(PageKind k) {
  switch (k) {
    case PageKind::meta:
      return "meta";
    case PageKind::branch:
      return "branch";
    case PageKind::leaf:
      return "leaf";
    case PageKind::overflow_head:
      return "overflow";
    case PageKind::overflow_tail:
      return "overflow-tail";
    case PageKind::free:
      return "free";
    default:
      return "other";
  }
}

// What every page of a clean image is used for, as the checker walked it.
inline std::vector<PageKind> page_kinds(std::span<const std::byte> image, std::uint32_t psize) {
  using namespace detail::lmdbfmt;
  LmdbCheckLimits limits;
  limits.record_pages = true;
  auto check = check_lmdb_image(image, limits);
  EXPECT_TRUE(check) << check.error().describe();
  std::vector<PageKind> out(image.size() / psize, PageKind::other);
  if (!check) return out;
  for (std::size_t p = 0; p < out.size() && p < check->pages.size(); ++p) {
    switch (check->pages[p]) {
      case 'm':
        out[p] = PageKind::meta;
        break;
      case 'b':
        out[p] = PageKind::branch;
        break;
      case 'l':
        out[p] = PageKind::leaf;
        break;
      case 'f':
        out[p] = PageKind::free;
        break;
      case 'o':
        out[p] = load<std::uint16_t>(image.data() + p * psize + 10) == P_OVERFLOW &&
                         load<std::uint64_t>(image.data() + p * psize) == p
                     ? PageKind::overflow_head
                     : PageKind::overflow_tail;
        break;
      default:
        break;
    }
  }
  return out;
}

}  // namespace cccl_cache::test
