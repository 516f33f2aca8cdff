#include "cccl_cache/algos/toolchain.hpp"

#include <fcntl.h>
#include <unistd.h>
#include <xxhash.h>

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <string_view>

#include "core/dispatch_abi.hpp"
#include "jit_libraries.hpp"
#include "nvrtc_compile.hpp"

namespace cccl_cache::algos {
namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

// The next whitespace-delimited word of `line` (empty at its end); consumes it.
std::string_view next_word(std::string_view& line) {
  std::size_t b = 0;
  while (b < line.size() && is_space(line[b])) ++b;
  std::size_t e = b;
  while (e < line.size() && !is_space(line[e])) ++e;
  const auto word = line.substr(b, e - b);
  line.remove_prefix(e);
  return word;
}

// `v` in `base`, zero-padded to `width` digits.
void append_num(std::string& out, std::uint64_t v, int base = 10, std::size_t width = 0) {
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof buf, v, base);
  const auto n = static_cast<std::size_t>(r.ptr - buf);
  if (n < width) out.append(width - n, '0');
  out.append(buf, n);
}

}  // namespace

// Read with read(2) and parsed by hand: this runs on the first cache key of every
// process, and the first use of iostreams (locale set-up) would cost more than the
// rest of a hit.
std::uint32_t detail::read_cccl_version(const std::string& include_dir) {
  const std::string path = include_dir + "/cuda/std/__cccl/version.h";
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  std::string text;
  char buf[4096];
  for (ssize_t n; text.size() < (1u << 20) && (n = ::read(fd, buf, sizeof buf)) != 0;) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    text.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fd);
  std::string_view rest = text;
  while (!rest.empty()) {
    const auto eol = rest.find('\n');
    std::string_view line = rest.substr(0, eol);
    rest.remove_prefix(eol == std::string_view::npos ? rest.size() : eol + 1);
    if (next_word(line) != "#define" || next_word(line) != "CCCL_VERSION") continue;
    const auto digits = next_word(line);  // like `istream >> uint64`: leading digits
    std::uint64_t value = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (ec == std::errc{} && end != digits.data()) return static_cast<std::uint32_t>(value);
  }
  return 0;
}

// Built with to_chars, not snprintf: it is part of every cache key, and the first
// printf-family call in a process costs more than the rest of the key.
std::string Toolchain::shared_fingerprint() const {
  const auto opts_hash = XXH3_64bits(compile_options.data(), compile_options.size());
  std::string out;
  out.reserve(160);
  auto num = [&out](std::uint64_t v, int base = 10, std::size_t width = 0) {
    append_num(out, v, base, width);
  };
  auto signed_num = [&](int v) {
    if (v < 0) out += '-';
    num(v < 0 ? 0u - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v));
  };
  out += "cccl-";
  num(cccl_version / 1000000);
  out += '.';
  num((cccl_version / 1000) % 1000);
  out += '.';
  num(cccl_version % 1000);
  out += " nvrtc-";
  signed_num(nvrtc_major);
  out += '.';
  signed_num(nvrtc_minor);
  out += " nvjitlink-";
  signed_num(nvjitlink_major);
  out += '.';
  signed_num(nvjitlink_minor);
  out += " fmt-";
  num(build_format_version);
  out += " opts-";
  num(opts_hash >> 32, 16, 8);
  out += " so-";
  out += nvrtc_library;
  out += ',';
  out += nvjitlink_library;
  return out;
}

std::uint64_t Toolchain::dispatch_abi_of(std::string_view algorithm) const noexcept {
  const auto it = dispatch_abi.find(algorithm);
  return it == dispatch_abi.end() ? 0 : it->second;
}

std::string Toolchain::fingerprint(std::string_view algorithm) const {
  std::string out = shared_fingerprint();
  out += " abi-";
  append_num(out, dispatch_abi_of(algorithm) >> 32, 16, 8);
  return out;
}

FingerprintParts split_fingerprint(std::string_view fingerprint) noexcept {
  const auto at = fingerprint.rfind(" abi-");
  if (at == std::string_view::npos) return {fingerprint, {}};
  return {fingerprint.substr(0, at), fingerprint.substr(at + 1)};
}

Result<std::vector<int>> nvrtc_supported_ccs() { return detail::nvrtc_supported_archs(); }

const Toolchain& Toolchain::current() {
  static const Toolchain tc = [] {
    Toolchain t;
    // The version the host dispatch was compiled with: every build refuses NVRTC-side
    // headers of another version (build.cpp check_cccl_version), so no entry is built
    // with any other, and the first key of a process reads no header file.
    t.cccl_version = CCCL_CACHE_CCCL_PINNED_VERSION;
    // The libraries a build in this process uses, named without loading them
    // (jit_libraries.hpp): a store hit needs neither.
    const auto& rtc = detail::nvrtc_identity();
    const auto& link = detail::nvjitlink_identity();
    t.nvrtc_major = rtc.major;
    t.nvrtc_minor = rtc.minor;
    t.nvjitlink_major = link.major;
    t.nvjitlink_minor = link.minor;
    t.nvrtc_library = rtc.identity;
    t.nvjitlink_library = link.identity;
    t.dispatch_abi = detail::dispatch_abi_digests(detail::dispatch_abi_lines());
    for (const auto& o : detail::common_nvrtc_options()) {
      if (!t.compile_options.empty()) t.compile_options += ' ';
      t.compile_options += o;
    }
    t.compile_options += " -dlto | nvjitlink";  // the link step is part of what a build produces
    for (const auto& o : detail::lto_link_options()) t.compile_options += " " + o;
    return t;
  }();
  return tc;
}

}  // namespace cccl_cache::algos
