#include "archive.hpp"

#include <unistd.h>
#include <zstd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <system_error>

namespace cccl_cache::cli {

namespace {

template <class T>
void put_int(std::vector<std::byte>& out, T v) {
  for (std::size_t i = 0; i < sizeof(T); ++i) {
    out.push_back(static_cast<std::byte>((static_cast<std::uint64_t>(v) >> (8 * i)) & 0xff));
  }
}
void put_bytes(std::vector<std::byte>& out, const void* p, std::size_t n) {
  const auto* b = static_cast<const std::byte*>(p);
  out.insert(out.end(), b, b + n);
}
void put_str(std::vector<std::byte>& out, std::string_view s) {
  put_int<std::uint32_t>(out, static_cast<std::uint32_t>(s.size()));
  put_bytes(out, s.data(), s.size());
}
void put_digest(std::vector<std::byte>& out, const Digest128& d) {
  put_int<std::uint64_t>(out, d.high);
  put_int<std::uint64_t>(out, d.low);
}

}  // namespace

void ArchiveWriter::add(const Entry& entry, std::string_view signature) {
  std::vector<std::byte> bytes;
  const auto key = entry.key.encode();
  put_bytes(bytes, key.data(), key.size());
  put_str(bytes, entry.meta.algorithm);
  put_str(bytes, entry.meta.summary);
  put_str(bytes, entry.meta.toolchain);
  put_int<std::uint32_t>(bytes, entry.meta.payload_format);
  put_int<std::int64_t>(bytes, entry.meta.created_unix);
  put_int<std::int64_t>(bytes, entry.meta.last_used_unix);
  put_int<std::uint64_t>(bytes, entry.meta.hits);
  put_int<std::uint64_t>(bytes, entry.payload.size());
  put_bytes(bytes, entry.payload.data(), entry.payload.size());
  put_str(bytes, signature);
  put_bytes(body_, kArchiveEntryTag, 4);
  put_int<std::uint32_t>(body_, static_cast<std::uint32_t>(bytes.size()));
  body_.insert(body_.end(), bytes.begin(), bytes.end());
  put_digest(body_, xxh3_128(bytes));
  ++count_;
}

Result<void> ArchiveWriter::write(const std::filesystem::path& file) const {
  std::vector<std::byte> body = body_;
  const Digest128 sum = xxh3_128(body);
  put_bytes(body, kArchiveEndTag, 4);
  put_int<std::uint64_t>(body, count_);
  put_digest(body, sum);

  std::vector<std::byte> out;
  put_bytes(out, kArchiveMagic, 8);
  put_int<std::uint32_t>(out, kArchiveVersion);
  put_int<std::uint32_t>(out, compress_ ? kArchiveFlagZstd : 0u);
  if (compress_) {
    std::vector<std::byte> z(ZSTD_compressBound(body.size()));
    const std::size_t n = ZSTD_compress(z.data(), z.size(), body.data(), body.size(), 3);
    if (ZSTD_isError(n))
      return fail(ErrorCode::internal,
                  std::string("zstd compression failed: ") + ZSTD_getErrorName(n));
    out.insert(out.end(), z.begin(), z.begin() + static_cast<std::ptrdiff_t>(n));
  } else {
    out.insert(out.end(), body.begin(), body.end());
  }

  std::error_code ec;
  if (std::filesystem::is_directory(file, ec)) {
    return fail(ErrorCode::invalid_argument,
                "'" + file.string() + "' is a directory; give the archive's file name (e.g. " +
                    (file / "cache.cccl").string() + ")");
  }
  const auto tmp = std::filesystem::path(file.string() + ".tmp." + std::to_string(getpid()));
  {
    errno = 0;
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    if (f)
      f.write(reinterpret_cast<const char*>(out.data()), static_cast<std::streamsize>(out.size()));
    if (f) f.close();
    if (!f) {
      const std::string why = errno != 0 ? std::strerror(errno) : "write failed";
      std::filesystem::remove(tmp, ec);
      return fail(ErrorCode::io, "cannot write '" + tmp.string() + "' (" + why + ")");
    }
  }
  std::filesystem::rename(tmp, file, ec);
  if (ec) {
    const std::string why = ec.message();
    std::filesystem::remove(tmp, ec);
    return fail(ErrorCode::io, "cannot write '" + file.string() + "': " + why);
  }
  return {};
}

}  // namespace cccl_cache::cli
