#include "bounded_read.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "format.hpp"

namespace cccl_cache::cli {

Result<std::string> read_file_bounded(const std::filesystem::path& path, std::uint64_t max_bytes,
                                      std::string_view what) {
  const std::string name = std::string(what) + " '" + printable(path.string()) + "'";
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return fail(ErrorCode::invalid_argument,
                name + " cannot be read (" + std::strerror(errno) + ")");
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0)
    return fail(ErrorCode::invalid_argument,
                name + " cannot be read (" + std::strerror(errno) + ")");
  if (S_ISDIR(st.st_mode))
    return fail(ErrorCode::invalid_argument, name + " is a directory, not a file");
  const std::string too_large = name + " is larger than " + human_size(max_bytes) +
                                " (the limit for a " + std::string(what) + ")";
  if (S_ISREG(st.st_mode) && static_cast<std::uint64_t>(st.st_size) > max_bytes)
    return fail(ErrorCode::invalid_argument, too_large);
  std::string out;
  char buf[64 * 1024];
  while (true) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      return fail(ErrorCode::invalid_argument,
                  name + " cannot be read (" + std::strerror(errno) + ")");
    }
    if (n == 0) return out;
    if (out.size() + static_cast<std::uint64_t>(n) > max_bytes)
      return fail(ErrorCode::invalid_argument, too_large);
    out.append(buf, static_cast<std::size_t>(n));
  }
}

}  // namespace cccl_cache::cli
