#include "io/input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace g500::io {
namespace {

constexpr const char* kNeedsOffsets = "the input is read in parallel at file offsets; save it to a regular file first";

// The problem with a file of this type, or "" for a regular file.
std::string type_problem(const std::string& path, mode_t mode) {
  const std::string quoted = "'" + path + "'";
  if (S_ISREG(mode)) return {};
  if (S_ISFIFO(mode)) return quoted + ": a FIFO/pipe cannot be read: " + kNeedsOffsets;
  if (S_ISDIR(mode)) return quoted + " is a directory, not a regular file";
  if (S_ISCHR(mode)) return quoted + " is a character device, not a regular file";
  if (S_ISBLK(mode)) return quoted + " is a block device, not a regular file";
  if (S_ISSOCK(mode)) return quoted + " is a socket, not a regular file";
  return quoted + " is not a regular file";
}

}  // namespace

std::string open_input_file(const std::string& path, int& fd, struct stat& status) {
  fd = -1;
  if (path == "-") return "'-' (standard input) cannot be read: " + std::string(kNeedsOffsets);
  struct stat st {};
  // stat first: opening a device can have effects of its own, and a FIFO's open would wait.
  if (::stat(path.c_str(), &st) != 0) return "cannot open '" + path + "': " + std::strerror(errno);
  if (std::string problem = type_problem(path, st.st_mode); !problem.empty()) return problem;
  // Non-blocking in case the path was replaced by a FIFO since the stat.
  fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return "cannot open '" + path + "': " + std::strerror(errno);
  auto fail = [&](std::string problem) {
    ::close(fd);
    fd = -1;
    return problem;
  };
  if (::fstat(fd, &st) != 0) return fail("cannot stat '" + path + "': " + std::strerror(errno));
  if (std::string problem = type_problem(path, st.st_mode); !problem.empty()) return fail(problem);
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags < 0 || ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0)
    return fail("cannot open '" + path + "': " + std::strerror(errno));
  status = st;
  return {};
}

std::string identity_problem(const std::string& path, const struct stat& agreed, const struct stat& found,
                             bool same_host) {
  const std::string quoted = "'" + path + "'";
  if (found.st_ino != agreed.st_ino || (same_host && found.st_dev != agreed.st_dev)) {
    auto where = [&](const struct stat& st) {
      return "inode " + std::to_string(st.st_ino) + (same_host ? " on device " + std::to_string(st.st_dev) : "");
    };
    return quoted + " is not the same file on every rank (" + where(found) + " here, " + where(agreed) +
           " on rank 0); the ranks must read one file on a shared file system";
  }
  const std::string advice = "; read a file that is not being written";
  if (found.st_size != agreed.st_size)
    return quoted + " changed while it was read (size " + std::to_string(agreed.st_size) + " -> " +
           std::to_string(found.st_size) + " bytes)" + advice;
  if (found.st_mtim.tv_sec != agreed.st_mtim.tv_sec || found.st_mtim.tv_nsec != agreed.st_mtim.tv_nsec)
    return quoted + " changed while it was read (modified again, size " + std::to_string(found.st_size) + " bytes)" +
           advice;
  return {};
}

}  // namespace g500::io
