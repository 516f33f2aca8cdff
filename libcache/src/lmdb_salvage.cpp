// pread/in-memory readers and the damage-tolerant record walk used by rebuild_store.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include "lmdb_format.hpp"
#include "lmdb_reader.hpp"

namespace cccl_cache::detail {

using namespace lmdbfmt;

ReadAt image_reader(std::span<const std::byte> image) {
  return [image](std::uint64_t offset, std::span<std::byte> out) -> std::int64_t {
    if (offset >= image.size()) return 0;
    const std::size_t n = std::min<std::uint64_t>(out.size(), image.size() - offset);
    std::memcpy(out.data(), image.data() + offset, n);
    return static_cast<std::int64_t>(n);
  };
}

Result<ReadFile> ReadFile::open(const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);  // a regular file only
  if (fd < 0) {
    const int e = errno;
    const std::string msg = "open " + path.string() + ": " + std::strerror(e);
    return fail(e == ENOENT                   ? ErrorCode::not_found
                : (e == EACCES || e == EPERM) ? ErrorCode::permission
                                              : ErrorCode::io,
                msg);
  }
  return ReadFile(fd);
}

ReadFile::~ReadFile() {
  if (fd_ >= 0) ::close(fd_);
}

std::uint64_t ReadFile::size() const {
  struct stat st {};
  return ::fstat(fd_, &st) == 0 ? static_cast<std::uint64_t>(st.st_size) : 0;
}

ReadAt ReadFile::reader() const {
  return [fd = fd_](std::uint64_t offset, std::span<std::byte> out) -> std::int64_t {
    std::size_t done = 0;
    while (done < out.size()) {
      const ssize_t n = ::pread(fd, out.data() + done, out.size() - done, off_t(offset + done));
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) return -1;
      if (n == 0) break;
      done += std::size_t(n);
    }
    return static_cast<std::int64_t>(done);
  };
}

namespace {

// Both meta pages that look like LMDB's, newest first.
std::vector<Meta> usable_metas(const ReadAt& read) {
  std::vector<Meta> out;
  std::vector<std::byte> buf(kMetaRead);
  std::uint64_t off = 0;
  for (int i = 0; i < 2; ++i) {
    if (read(off, buf) != kMetaRead) break;
    Meta m = parse_meta(buf.data());
    if (!(m.page_flags & P_META) || m.magic != kMagic || m.version != kDataVersion ||
        !valid_page_size(m.page_size()))
      break;
    if (!out.empty() && m.page_size() != out.front().page_size()) break;
    out.push_back(m);
    off = m.page_size();
  }
  std::sort(out.begin(), out.end(), [](const Meta& a, const Meta& b) { return a.txnid > b.txnid; });
  return out;
}

using RecordFn = std::function<void(std::span<const std::byte>, std::span<const std::byte>)>;

class Salvager {
 public:
  Salvager(const ReadAt& read, std::uint64_t file_bytes, std::uint32_t psize)
      : read_(read), psize_(psize), file_pages_(file_bytes / psize), seen_(file_pages_, false) {}

  // Walks the tree at `root`, calling fn for every readable record.
  void walk(std::uint64_t root, const RecordFn& fn, std::uint32_t level = 1) {
    if (root < 2 || root >= file_pages_ || seen_[root] || level > kMaxDepth) {
      ++counts.skipped_pages;
      return;
    }
    seen_[root] = true;
    std::vector<std::byte> page(psize_);
    bool branch = false;
    std::uint32_t nkeys = 0;
    if (read_(root * psize_, page) != std::int64_t(psize_) ||
        check_page_header(page, root, branch, nkeys)) {
      ++counts.skipped_pages;
      return;
    }
    for (std::uint32_t i = 0; i < nkeys; ++i) {
      Node node;
      if (read_node(page, i, branch, node)) {
        ++(branch ? counts.skipped_pages : counts.bad_records);
        continue;
      }
      if (branch) {
        walk(node.child, fn, level + 1);
      } else if (!(node.flags & F_BIGDATA)) {
        ++counts.records;
        fn(node.key, node.data);
      } else if (auto data = overflow(node)) {
        ++counts.records;
        fn(node.key, *data);
      } else {
        ++counts.bad_records;
      }
    }
  }

  SalvageCounts counts;

 private:
  std::optional<std::vector<std::byte>> overflow(const Node& node) {
    const std::uint64_t pgno = node.overflow_pgno;
    if (pgno < 2 || pgno >= file_pages_) return std::nullopt;
    std::byte hdr[kPageHeader];
    if (read_(pgno * psize_, hdr) != kPageHeader) return std::nullopt;
    const std::uint64_t pages = load<std::uint32_t>(hdr + 12);
    if (load<std::uint64_t>(hdr) != pgno || load<std::uint16_t>(hdr + 10) != P_OVERFLOW ||
        pages < overflow_pages_for(node.data_size, psize_) || pgno + pages > file_pages_)
      return std::nullopt;
    std::vector<std::byte> data(node.data_size);
    if (read_(pgno * psize_ + kPageHeader, data) != std::int64_t(data.size())) return std::nullopt;
    return data;
  }

  const ReadAt& read_;
  std::uint32_t psize_;
  std::uint64_t file_pages_;
  std::vector<bool> seen_;
};

}  // namespace

std::uint64_t newest_txnid(const ReadAt& read) {
  auto metas = usable_metas(read);
  return metas.empty() ? 0 : metas.front().txnid;
}

SalvageCounts salvage_records(const ReadAt& read, std::uint64_t file_bytes,
                              std::string_view db_name, const RecordFn& fn) {
  SalvageCounts best;
  for (const Meta& m : usable_metas(read)) {
    // Find the named database's record in this snapshot's main tree.
    std::optional<Db> db;
    Salvager finder(read, file_bytes, m.page_size());
    finder.walk(m.main.root, [&](std::span<const std::byte> key, std::span<const std::byte> value) {
      if (!db && value.size() == kDbSize && key.size() == db_name.size() &&
          std::memcmp(key.data(), db_name.data(), key.size()) == 0)
        db = parse_db(value.data());
    });
    if (!db) continue;  // this snapshot's main tree is damaged: try the older one
    Salvager s(read, file_bytes, m.page_size());
    if (db->root != kInvalidPgno) s.walk(db->root, fn);
    s.counts.expected = db->entries;
    return s.counts;
  }
  best.skipped_pages = 1;  // neither snapshot leads to the database
  return best;
}

}  // namespace cccl_cache::detail
