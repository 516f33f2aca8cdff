// Helpers shared by the fuzz targets: a view of libFuzzer's input, and a check that
// aborts (a crash libFuzzer reports) when a parser breaks its own contract.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string_view>

namespace cccl_cache::fuzz {

inline std::span<const std::byte> bytes_of(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const std::byte*>(data), size};
}

inline std::string_view text_of(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// Aborts unless `inner` lies inside `outer` (views a parser returns must borrow only
// from its input).
template <class A, class B>
void require_inside(const A& inner, const B& outer, const char* what) {
  const auto* o = reinterpret_cast<const char*>(outer.data());
  const auto* i = reinterpret_cast<const char*>(inner.data());
  if (inner.size() == 0) return;
  if (i < o || i + inner.size() > o + outer.size()) {
    std::fprintf(stderr, "fuzz: %s points outside the input\n", what);
    std::abort();
  }
}

inline void require(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "fuzz: contract broken: %s\n", what);
    std::abort();
  }
}

// Reads every byte of `s` so that ASan sees an out-of-bounds view.
template <class S>
std::uint64_t touch(const S& s) {
  std::uint64_t h = 0;
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  for (std::size_t i = 0; i < s.size(); ++i) h = h * 31 + p[i];
  return h;
}

}  // namespace cccl_cache::fuzz
