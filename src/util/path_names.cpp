#include "util/path_names.hpp"

#include <limits.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace g500::util {
namespace {

constexpr int kMaxSymlinkHops = 40;  // as the kernel's own limit (ELOOP)

}  // namespace

std::string directory_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

std::string base_name_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string follow_links(const std::string& path, std::string& problem) {
  std::string p = path;
  for (int hop = 0; hop < kMaxSymlinkHops; ++hop) {
    struct stat st {};
    if (::lstat(p.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return p;
    std::vector<char> link(PATH_MAX + 1, '\0');
    const ssize_t n = ::readlink(p.c_str(), link.data(), PATH_MAX);
    if (n < 0) {
      problem = "cannot read the link '" + p + "': " + std::strerror(errno);
      return "";
    }
    const std::string next(link.data(), static_cast<size_t>(n));
    p = next.starts_with('/') ? next : directory_of(p) + "/" + next;
  }
  problem = "too many levels of symbolic links";
  return "";
}

std::string spelling_in_real_directory(const std::string& file) {
  const std::string dir = directory_of(file);
  struct stat dir_stat {};
  std::vector<char> real_dir(PATH_MAX + 1, '\0');
  if (::stat(dir.c_str(), &dir_stat) != 0 || !S_ISDIR(dir_stat.st_mode) || !::realpath(dir.c_str(), real_dir.data()))
    return "";
  return std::string(real_dir.data()) + (real_dir[1] ? "/" : "") + base_name_of(file);
}

bool names_open_descriptor(const std::string& path) {
  if (path == "/dev/stdout" || path == "/dev/stderr" || path.starts_with("/dev/fd/")) return true;
  if (!path.starts_with("/proc/")) return false;
  return path.find("/fd/") != std::string::npos;
}

bool is_stream_output(const std::string& path, const struct stat& st) {
  return S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode) || (S_ISREG(st.st_mode) && names_open_descriptor(path));
}

}  // namespace g500::util
