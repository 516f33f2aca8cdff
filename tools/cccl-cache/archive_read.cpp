// Reading archives (archive.hpp) as a stream: the body goes through a streaming zstd
// decoder and each entry is read as its bytes arrive, under ArchiveLimits, so that no
// size declared by the file (the zstd frame's content size, an entry's length) is
// allocated on trust.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>
#include <zstd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>

#include "archive.hpp"
#include "format.hpp"

namespace cccl_cache::cli {

namespace {

constexpr std::size_t kHeaderSize = 16;
constexpr std::size_t kChunk =
    1u << 20;  // an entry's bytes are read (and allocated) this much at a time

// A byte stream. read() returns how many bytes it wrote to `out` (up to n; 0 only at
// the end), or an error.
class Source {
 public:
  virtual ~Source() = default;
  virtual Result<std::size_t> read(std::byte* out, std::size_t n) = 0;
};

class SpanSource final : public Source {
 public:
  explicit SpanSource(std::span<const std::byte> b) : b_(b) {}
  Result<std::size_t> read(std::byte* out, std::size_t n) override {
    n = std::min(n, b_.size() - pos_);
    if (n != 0) std::memcpy(out, b_.data() + pos_, n);
    pos_ += n;
    return n;
  }

 private:
  std::span<const std::byte> b_;
  std::size_t pos_ = 0;
};

// A file descriptor, read through a buffer (the parser asks for a few bytes at a time).
class FdSource final : public Source {
 public:
  FdSource(int fd, std::string name) : fd_(fd), name_(std::move(name)), buf_(64 * 1024) {}
  Result<std::size_t> read(std::byte* out, std::size_t n) override {
    if (pos_ == end_) {
      if (n >= buf_.size()) return read_fd(out, n);
      auto got = read_fd(buf_.data(), buf_.size());
      if (!got) return got;
      pos_ = 0;
      end_ = *got;
    }
    n = std::min(n, end_ - pos_);
    if (n != 0) std::memcpy(out, buf_.data() + pos_, n);
    pos_ += n;
    return n;
  }

 private:
  Result<std::size_t> read_fd(std::byte* out, std::size_t n) {
    while (true) {
      const ssize_t got = ::read(fd_, out, n);
      if (got >= 0) return static_cast<std::size_t>(got);
      if (errno != EINTR)
        return fail(ErrorCode::io, "cannot read '" + name_ + "' (" + std::strerror(errno) + ")");
    }
  }
  int fd_;
  std::string name_;
  std::vector<std::byte> buf_;
  std::size_t pos_ = 0, end_ = 0;
};

// One zstd frame from `in`, decoded as a stream with a bounded window; whatever
// follows the frame is ignored.
class ZstdSource final : public Source {
 public:
  ZstdSource(Source& in, int max_window_log)
      : in_(in), dctx_(ZSTD_createDCtx()), buf_(ZSTD_DStreamInSize()) {
    if (dctx_) ZSTD_DCtx_setParameter(dctx_.get(), ZSTD_d_windowLogMax, max_window_log);
  }
  Result<std::size_t> read(std::byte* out, std::size_t n) override {
    if (!dctx_) return fail(ErrorCode::internal, "cannot create a zstd decoder");
    ZSTD_outBuffer zout{out, n, 0};
    while (zout.pos == 0 && !frame_done_ && n != 0) {
      if (zin_.pos == zin_.size && !in_eof_) {
        auto got = in_.read(buf_.data(), buf_.size());
        if (!got) return tl::unexpected(got.error());
        in_eof_ = *got == 0;
        zin_ = ZSTD_inBuffer{buf_.data(), *got, 0};
      }
      const std::size_t rc = ZSTD_decompressStream(dctx_.get(), &zout, &zin_);
      if (ZSTD_isError(rc))
        return fail(ErrorCode::corrupt,
                    std::string("the compressed body is damaged (") + ZSTD_getErrorName(rc) + ")");
      if (rc == 0) frame_done_ = true;
      if (zout.pos == 0 && !frame_done_ && in_eof_ && zin_.pos == zin_.size)
        return fail(ErrorCode::corrupt, "the compressed body is truncated");
    }
    return zout.pos;
  }

 private:
  struct FreeDCtx {
    void operator()(ZSTD_DCtx* d) const { ZSTD_freeDCtx(d); }
  };
  Source& in_;
  std::unique_ptr<ZSTD_DCtx, FreeDCtx> dctx_;
  std::vector<std::byte> buf_;
  ZSTD_inBuffer zin_{nullptr, 0, 0};
  bool in_eof_ = false;
  bool frame_done_ = false;
};

// Reads exactly n bytes unless the stream ends first (then fewer); counts what it
// reads against the body limit.
class Body {
 public:
  Body(Source& src, std::uint64_t max_bytes) : src_(src), max_(max_bytes) {}
  std::uint64_t total() const { return total_; }
  Result<std::size_t> read_full(std::byte* out, std::size_t n) {
    if (n > max_ - std::min(max_, total_)) {
      return fail(ErrorCode::corrupt, "the archive body exceeds the limit of " + human_size(max_));
    }
    std::size_t done = 0;
    while (done < n) {
      auto got = src_.read(out + done, n - done);
      if (!got) return tl::unexpected(got.error());
      if (*got == 0) break;
      done += *got;
    }
    total_ += done;
    return done;
  }

 private:
  Source& src_;
  std::uint64_t max_;
  std::uint64_t total_ = 0;
};

std::uint64_t le(const std::byte* p, std::size_t n) {
  std::uint64_t x = 0;
  for (std::size_t i = 0; i < n; ++i)
    x |= std::uint64_t(std::to_integer<std::uint8_t>(p[i])) << (8 * i);
  return x;
}

Digest128 digest_at(const std::byte* p) { return Digest128{le(p, 8), le(p + 8, 8)}; }

// Bounds-checked reader over one entry's bytes: every read fails cleanly past the end.
class Reader {
 public:
  Reader(std::span<const std::byte> b, std::uint64_t max_str) : b_(b), max_str_(max_str) {}
  std::size_t left() const { return b_.size() - pos_; }
  template <class T>
  bool get_int(T& v) {
    if (left() < sizeof(T)) return false;
    v = static_cast<T>(le(b_.data() + pos_, sizeof(T)));
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
    if (!get_int(n) || n > max_str_ || !get_span(n, sp)) return false;
    s.assign(reinterpret_cast<const char*>(sp.data()), sp.size());
    return true;
  }

 private:
  std::span<const std::byte> b_;
  std::uint64_t max_str_;
  std::size_t pos_ = 0;
};

bool parse_entry(std::span<const std::byte> bytes, const ArchiveLimits& lim,
                 std::uint32_t version, Entry& e, std::string& signature) {
  Reader r(bytes, lim.max_meta_bytes);
  std::span<const std::byte> key;
  if (!r.get_span(CacheKey::kEncodedSize, key)) return false;
  auto k = CacheKey::decode(key);
  if (!k) return false;
  e.key = *k;
  std::span<const std::byte> payload;
  if (!r.get_str(e.meta.algorithm) || !r.get_str(e.meta.summary) || !r.get_str(e.meta.toolchain) ||
      !r.get_int(e.meta.payload_format) || !r.get_int(e.meta.created_unix) ||
      !r.get_int(e.meta.last_used_unix) || !r.get_int(e.meta.hits) ||
      !r.get_int(e.meta.payload_size) || e.meta.payload_size > r.left() ||
      !r.get_span(e.meta.payload_size, payload)) {
    return false;
  }
  signature.clear();
  if (version >= 2) {
    Reader sig(bytes.subspan(bytes.size() - r.left()), kMaxSignatureBytes);
    if (!sig.get_str(signature) || sig.left() != 0) return false;
  } else if (r.left() != 0) {
    return false;
  }
  e.payload.assign(payload.begin(), payload.end());
  return true;
}

struct FreeXxh {
  void operator()(XXH3_state_t* s) const { XXH3_freeState(s); }
};

// The body: entry* trailer. Every stop (damage, truncation, a limit) is a problem;
// the entries read before it are kept.
void parse_body(Source& src, const ArchiveLimits& lim, std::uint32_t version,
                ArchiveContents& out) {
  Body body(src, lim.max_body_bytes);
  std::unique_ptr<XXH3_state_t, FreeXxh> sum(XXH3_createState());
  if (!sum) throw std::bad_alloc();
  XXH3_128bits_reset(sum.get());
  std::uint64_t index = 0;
  const auto stop = [&](const std::string& what) {
    out.problems.push_back(what + " after " + std::to_string(index) +
                           " entries; the rest of the archive is skipped");
  };
  // Reads n bytes into `to`; false (with a problem recorded) when they are not all there.
  const auto take = [&](std::byte* to, std::size_t n, const char* what) {
    auto got = body.read_full(to, n);
    if (!got) {
      stop(got.error().message);
      return false;
    }
    if (*got < n) {
      stop(std::string("archive truncated in ") + what);
      return false;
    }
    return true;
  };
  while (true) {
    const std::uint64_t entry_start = body.total();
    std::byte tag[4];
    auto got = body.read_full(tag, 4);
    if (!got) return stop(got.error().message);
    if (*got == 0) return stop("archive truncated (no trailer)");
    if (*got < 4) return stop("archive truncated in a tag");
    if (std::memcmp(tag, kArchiveEndTag, 4) == 0) {
      std::byte trailer[24];
      if (!take(trailer, sizeof trailer, "the trailer")) return;
      const std::uint64_t count = le(trailer, 8);
      const Digest128 want = digest_at(trailer + 8);
      const XXH128_hash_t h = XXH3_128bits_digest(sum.get());
      if (Digest128{h.high64, h.low64} != want) {
        out.problems.push_back("archive checksum mismatch (trailer): the file is damaged");
      } else if (count != index) {
        out.problems.push_back("archive declares " + std::to_string(count) + " entries but holds " +
                               std::to_string(index));
      } else {
        out.trailer_ok = true;
        out.declared_count = count;
      }
      return;
    }
    std::byte len[4];
    if (std::memcmp(tag, kArchiveEntryTag, 4) != 0) {
      return stop("archive framing damaged at entry " + std::to_string(index + 1) + " (byte " +
                  std::to_string(entry_start) + ")");
    }
    if (!take(len, 4, "an entry header")) return;
    const std::uint64_t n = le(len, 4);
    if (n > lim.max_entry_bytes) {
      return stop("entry " + std::to_string(index + 1) + " declares " + std::to_string(n) +
                  " bytes, more than the limit of " + human_size(lim.max_entry_bytes));
    }
    if (index >= lim.max_entries)
      return stop("the archive holds more than " + std::to_string(lim.max_entries) + " entries");
    std::vector<std::byte> bytes;
    while (bytes.size() < n) {
      const std::size_t at = bytes.size();
      const std::size_t chunk = std::min<std::uint64_t>(n - at, kChunk);
      bytes.resize(at + chunk);
      if (!take(bytes.data() + at, chunk, "an entry")) return;
    }
    std::byte digest[16];
    if (!take(digest, 16, "an entry checksum")) return;
    XXH3_128bits_update(sum.get(), tag, 4);
    XXH3_128bits_update(sum.get(), len, 4);
    XXH3_128bits_update(sum.get(), bytes.data(), bytes.size());
    XXH3_128bits_update(sum.get(), digest, 16);
    ++index;
    Entry e;
    std::string signature;
    const bool parsed = parse_entry(bytes, lim, version, e, signature);
    if (xxh3_128(bytes) != digest_at(digest)) {
      out.problems.push_back("entry " + std::to_string(index) +
                             (parsed ? " (" + e.key.to_string() + ")" : std::string()) +
                             ": checksum mismatch, skipped");
    } else if (!parsed) {
      out.problems.push_back("entry " + std::to_string(index) + ": malformed, skipped");
    } else {
      out.entries.push_back(std::move(e));
      out.signatures.push_back(std::move(signature));
    }
  }
}

Result<ArchiveContents> parse_stream(Source& src, const ArchiveLimits& lim, std::string_view name) {
  const std::string quoted = "'" + printable(name) + "'";
  std::byte header[kHeaderSize];
  std::size_t have = 0;
  while (have < kHeaderSize) {
    auto got = src.read(header + have, kHeaderSize - have);
    if (!got) return tl::unexpected(got.error());
    if (*got == 0) break;
    have += *got;
  }
  if (have < kHeaderSize || std::memcmp(header, kArchiveMagic, 8) != 0)
    return fail(ErrorCode::corrupt, quoted + " is not a cccl-cache archive");
  const auto version = static_cast<std::uint32_t>(le(header + 8, 4));
  const auto flags = static_cast<std::uint32_t>(le(header + 12, 4));
  if (version < kOldestArchiveVersion || version > kArchiveVersion) {
    return fail(ErrorCode::format, "archive " + quoted + " has version " + std::to_string(version) +
                                       "; this cccl-cache reads versions " +
                                       std::to_string(kOldestArchiveVersion) + " to " +
                                       std::to_string(kArchiveVersion));
  }
  if ((flags & ~kArchiveFlagZstd) != 0)
    return fail(ErrorCode::format,
                "archive " + quoted + " has unknown flags " + std::to_string(flags));
  ArchiveContents out;
  if ((flags & kArchiveFlagZstd) == 0) {
    parse_body(src, lim, version, out);
  } else {
    ZstdSource z(src, lim.max_zstd_window_log);
    parse_body(z, lim, version, out);
  }
  return out;
}

}  // namespace

Result<ArchiveContents> parse_archive(std::span<const std::byte> bytes, const ArchiveLimits& limits,
                                      std::string_view name) {
  SpanSource src(bytes);
  return parse_stream(src, limits, name);
}

Result<ArchiveContents> read_archive(const std::filesystem::path& file,
                                     const ArchiveLimits& limits) {
  const std::string quoted = "'" + printable(file.string()) + "'";
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    const int err = errno;
    return fail(err == ENOENT ? ErrorCode::not_found : ErrorCode::io,
                "cannot read archive " + quoted + " (" + std::strerror(err) + ")");
  }
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode))
    return fail(ErrorCode::invalid_argument, quoted + " is a directory, not an archive file");
  FdSource src(fd, printable(file.string()));
  return parse_stream(src, limits, file.string());
}

}  // namespace cccl_cache::cli
