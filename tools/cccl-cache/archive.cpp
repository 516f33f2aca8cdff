#include "archive.hpp"

#include <unistd.h>
#include <zstd.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <span>
#include <system_error>

namespace cccl_cache::cli {

namespace {

constexpr char kEntryTag[4] = {'E', 'N', 'T', 'R'};
constexpr char kEndTag[4] = {'E', 'N', 'D', '!'};
constexpr std::size_t kHeaderSize = 16;
// An archive body larger than this is refused rather than allocated.
constexpr std::uint64_t kMaxBody = 64ull << 30;

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
void put_str(std::vector<std::byte>& out, const std::string& s) {
  put_int<std::uint32_t>(out, static_cast<std::uint32_t>(s.size()));
  put_bytes(out, s.data(), s.size());
}
void put_digest(std::vector<std::byte>& out, const Digest128& d) {
  put_int<std::uint64_t>(out, d.high);
  put_int<std::uint64_t>(out, d.low);
}

// Bounds-checked reader over a byte span: every read fails cleanly past the end.
class Reader {
 public:
  explicit Reader(std::span<const std::byte> b) : b_(b) {}
  std::size_t left() const { return b_.size() - pos_; }
  std::size_t pos() const { return pos_; }
  template <class T>
  bool get_int(T& v) {
    if (left() < sizeof(T)) return false;
    std::uint64_t x = 0;
    for (std::size_t i = 0; i < sizeof(T); ++i)
      x |= std::uint64_t(std::to_integer<std::uint8_t>(b_[pos_ + i])) << (8 * i);
    v = static_cast<T>(x);
    pos_ += sizeof(T);
    return true;
  }
  bool get_span(std::size_t n, std::span<const std::byte>& out) {
    if (left() < n) return false;
    out = b_.subspan(pos_, n);
    pos_ += n;
    return true;
  }
  bool get_str(std::string& s) {
    std::uint32_t n = 0;
    std::span<const std::byte> sp;
    if (!get_int(n) || !get_span(n, sp)) return false;
    s.assign(reinterpret_cast<const char*>(sp.data()), sp.size());
    return true;
  }
  bool get_digest(Digest128& d) { return get_int(d.high) && get_int(d.low); }

 private:
  std::span<const std::byte> b_;
  std::size_t pos_ = 0;
};

bool parse_entry(std::span<const std::byte> bytes, Entry& e) {
  Reader r(bytes);
  std::span<const std::byte> key;
  if (!r.get_span(CacheKey::kEncodedSize, key)) return false;
  auto k = CacheKey::decode(key);
  if (!k) return false;
  e.key = *k;
  std::span<const std::byte> payload;
  if (!r.get_str(e.meta.algorithm) || !r.get_str(e.meta.summary) || !r.get_str(e.meta.toolchain) ||
      !r.get_int(e.meta.payload_format) || !r.get_int(e.meta.created_unix) ||
      !r.get_int(e.meta.last_used_unix) || !r.get_int(e.meta.hits) ||
      !r.get_int(e.meta.payload_size) || e.meta.payload_size != r.left() ||
      !r.get_span(r.left(), payload)) {
    return false;
  }
  e.payload.assign(payload.begin(), payload.end());
  return true;
}

bool tag_is(std::span<const std::byte> b, const char (&tag)[4]) {
  return std::memcmp(b.data(), tag, 4) == 0;
}

Result<ArchiveContents> parse_body(std::span<const std::byte> body) {
  ArchiveContents out;
  Reader r(body);
  std::uint64_t index = 0;
  while (true) {
    const std::size_t entry_start = r.pos();
    std::span<const std::byte> tag;
    if (!r.get_span(4, tag)) {
      out.problems.push_back("archive truncated after " + std::to_string(index) +
                             " entries (no trailer)");
      return out;
    }
    if (tag_is(tag, kEndTag)) {
      Digest128 want;
      std::uint64_t count = 0;
      if (!r.get_int(count) || !r.get_digest(want)) {
        out.problems.push_back("archive trailer truncated");
      } else if (xxh3_128(body.first(entry_start)) != want) {
        out.problems.push_back("archive checksum mismatch (trailer): the file is damaged");
      } else if (count != index) {
        out.problems.push_back("archive declares " + std::to_string(count) + " entries but holds " +
                               std::to_string(index));
      } else {
        out.trailer_ok = true;
        out.declared_count = count;
      }
      return out;
    }
    std::uint32_t n = 0;
    std::span<const std::byte> bytes;
    Digest128 want;
    if (!tag_is(tag, kEntryTag) || !r.get_int(n) || !r.get_span(n, bytes) || !r.get_digest(want)) {
      out.problems.push_back("archive framing damaged at entry " + std::to_string(index + 1) +
                             " (byte " + std::to_string(entry_start) +
                             "); the rest of the archive is skipped");
      return out;
    }
    ++index;
    Entry e;
    const bool parsed = parse_entry(bytes, e);
    if (xxh3_128(bytes) != want) {
      out.problems.push_back("entry " + std::to_string(index) +
                             (parsed ? " (" + e.key.to_string() + ")" : std::string()) +
                             ": checksum mismatch, skipped");
    } else if (!parsed) {
      out.problems.push_back("entry " + std::to_string(index) + ": malformed, skipped");
    } else {
      out.entries.push_back(std::move(e));
    }
  }
}

}  // namespace

void ArchiveWriter::add(const Entry& entry) {
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
  put_bytes(body_, kEntryTag, 4);
  put_int<std::uint32_t>(body_, static_cast<std::uint32_t>(bytes.size()));
  body_.insert(body_.end(), bytes.begin(), bytes.end());
  put_digest(body_, xxh3_128(bytes));
  ++count_;
}

Result<void> ArchiveWriter::write(const std::filesystem::path& file) const {
  std::vector<std::byte> body = body_;
  const Digest128 sum = xxh3_128(body);
  put_bytes(body, kEndTag, 4);
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

  const auto tmp = std::filesystem::path(file.string() + ".tmp." + std::to_string(getpid()));
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    f.write(reinterpret_cast<const char*>(out.data()), static_cast<std::streamsize>(out.size()));
    f.close();
    if (!f) {
      std::error_code ec;
      std::filesystem::remove(tmp, ec);
      return fail(ErrorCode::io, "cannot write '" + tmp.string() + "'");
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp, file, ec);
  if (ec) {
    std::filesystem::remove(tmp, ec);
    return fail(ErrorCode::io, "cannot write '" + file.string() + "': " + ec.message());
  }
  return {};
}

Result<ArchiveContents> read_archive(const std::filesystem::path& file) {
  std::ifstream f(file, std::ios::binary);
  if (!f) return fail(ErrorCode::not_found, "cannot read archive '" + file.string() + "'");
  std::vector<char> raw((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  std::span<const std::byte> all(reinterpret_cast<const std::byte*>(raw.data()), raw.size());
  Reader r(all);
  std::span<const std::byte> magic;
  std::uint32_t version = 0, flags = 0;
  if (!r.get_span(8, magic) || std::memcmp(magic.data(), kArchiveMagic, 8) != 0 ||
      !r.get_int(version) || !r.get_int(flags)) {
    return fail(ErrorCode::corrupt, "'" + file.string() + "' is not a cccl-cache archive");
  }
  if (version != kArchiveVersion) {
    return fail(ErrorCode::format,
                "archive '" + file.string() + "' has version " + std::to_string(version) +
                    "; this cccl-cache reads version " + std::to_string(kArchiveVersion));
  }
  auto body = all.subspan(kHeaderSize);
  if ((flags & kArchiveFlagZstd) == 0) return parse_body(body);
  const auto size = ZSTD_getFrameContentSize(body.data(), body.size());
  if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN || size > kMaxBody) {
    return fail(ErrorCode::corrupt, "archive '" + file.string() + "': compressed body is damaged");
  }
  std::vector<std::byte> plain(size);
  const std::size_t n = ZSTD_decompress(plain.data(), plain.size(), body.data(), body.size());
  if (ZSTD_isError(n) || n != size) {
    return fail(ErrorCode::corrupt, "archive '" + file.string() +
                                        "': compressed body is damaged (" +
                                        (ZSTD_isError(n) ? ZSTD_getErrorName(n) : "short") + ")");
  }
  return parse_body(plain);
}

}  // namespace cccl_cache::cli
