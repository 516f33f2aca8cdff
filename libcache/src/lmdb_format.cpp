#include "lmdb_format.hpp"

#include <algorithm>

namespace cccl_cache::detail::lmdbfmt {

std::optional<std::string> check_page_header(std::span<const std::byte> page, std::uint64_t pgno,
                                             bool& branch, std::uint32_t& nkeys) {
  const std::byte* p = page.data();
  const auto size = static_cast<std::uint32_t>(page.size());
  if (const auto got = load<std::uint64_t>(p); got != pgno)
    return "header says page " + std::to_string(got);
  const auto flags = load<std::uint16_t>(p + 10);
  if (flags != P_BRANCH && flags != P_LEAF)
    return "flags " + std::to_string(flags) + " are not those of a branch or leaf page";
  branch = flags == P_BRANCH;
  const auto lower = load<std::uint16_t>(p + 12), upper = load<std::uint16_t>(p + 14);
  if (lower < kPageHeader || lower > upper || upper > size || (lower - kPageHeader) % 2 != 0)
    return "bad free-space bounds (lower " + std::to_string(lower) + ", upper " +
           std::to_string(upper) + ")";
  nkeys = (lower - kPageHeader) / 2;
  return std::nullopt;
}

std::optional<std::string> read_node(std::span<const std::byte> page, std::uint32_t i, bool branch,
                                     Node& out) {
  const std::byte* p = page.data();
  const auto size = static_cast<std::uint32_t>(page.size());
  const auto upper = load<std::uint16_t>(p + 14);
  const std::uint32_t off = load<std::uint16_t>(p + kPageHeader + 2 * i);
  const std::string where = "node " + std::to_string(i);
  if (off < upper || off % 2 != 0 || off + kNodeHeader > size)
    return where + " at offset " + std::to_string(off) + " lies outside the page's node area";
  const std::byte* n = p + off;
  const std::uint32_t lo = load<std::uint16_t>(n), hi = load<std::uint16_t>(n + 2);
  const std::uint16_t flags = load<std::uint16_t>(n + 4), ksize = load<std::uint16_t>(n + 6);
  if (off + kNodeHeader + ksize > size) return where + ": key runs past the page end";
  out = Node{};
  out.key = {n + kNodeHeader, ksize};
  if (branch) {
    out.child = lo | (std::uint64_t{hi} << 16) | (std::uint64_t{flags} << 32);
    return std::nullopt;
  }
  out.flags = flags;
  out.data_size = lo | (hi << 16);
  if ((flags & ~(F_BIGDATA | F_SUBDATA | F_DUPDATA)) != 0 || (flags & F_DUPDATA) != 0 ||
      flags == (F_BIGDATA | F_SUBDATA))
    return where + ": unknown node flags " + std::to_string(flags);
  const std::uint64_t stored = (flags & F_BIGDATA) ? 8 : out.data_size;
  if (off + kNodeHeader + ksize + stored > size) return where + ": data runs past the page end";
  out.data = {n + kNodeHeader + ksize, static_cast<std::size_t>(stored)};
  if (flags & F_BIGDATA) out.overflow_pgno = load<std::uint64_t>(out.data.data());
  return std::nullopt;
}

int compare_keys(std::span<const std::byte> a, std::span<const std::byte> b, bool integer_key) {
  if (integer_key && a.size() == 8 && b.size() == 8) {
    const auto x = load<std::uint64_t>(a.data()), y = load<std::uint64_t>(b.data());
    return x < y ? -1 : x > y ? 1 : 0;
  }
  const std::size_t n = std::min(a.size(), b.size());
  if (n > 0)
    if (int c = std::memcmp(a.data(), b.data(), n); c != 0) return c;
  return a.size() < b.size() ? -1 : a.size() > b.size() ? 1 : 0;
}

}  // namespace cccl_cache::detail::lmdbfmt
