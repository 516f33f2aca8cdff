#include "cccl_cache/cache/cc_family.hpp"

#include <cctype>

namespace cccl_cache {

std::vector<std::uint32_t> serving_ccs(std::uint32_t device_cc, bool lower_minor) {
  std::vector<std::uint32_t> out{device_cc};
  if (lower_minor)
    for (std::uint32_t minor = device_cc % 10; minor-- > 0;) out.push_back(device_cc / 10 * 10 + minor);
  return out;
}

std::optional<std::uint32_t> parse_cc_family(std::string_view text) {
  if (text.starts_with("sm_")) text.remove_prefix(3);
  else if (text.starts_with("sm")) text.remove_prefix(2);
  if (text.ends_with(".x") || text.ends_with(".X")) text.remove_suffix(2);
  else if (text.ends_with('x') || text.ends_with('X')) text.remove_suffix(1);
  else return std::nullopt;
  if (text.empty() || text.size() > 2) return std::nullopt;
  std::uint32_t major = 0;
  for (char c : text) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
    major = major * 10 + static_cast<std::uint32_t>(c - '0');
  }
  if (major == 0) return std::nullopt;
  return major;
}

}  // namespace cccl_cache
