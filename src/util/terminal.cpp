#include "util/terminal.hpp"

#include <unistd.h>

#include <cstdlib>
#include <string>

namespace g500::util {
namespace {

// Set by Open MPI's launcher in every rank it starts (and only then): its parent is the launcher.
constexpr const char* kOpenMpiRankVariable = "OMPI_COMM_WORLD_RANK";

// What the parent's descriptor 2 names, "" when it cannot be read (not Linux, another user).
std::string parent_stderr_target() {
  const std::string link = "/proc/" + std::to_string(getppid()) + "/fd/2";
  char target[256];
  const ssize_t length = readlink(link.c_str(), target, sizeof target - 1);
  return length > 0 ? std::string(target, static_cast<size_t>(length)) : std::string();
}

bool names_terminal(const std::string& device) {
  return device.rfind("/dev/pts/", 0) == 0 || device.rfind("/dev/tty", 0) == 0;
}

}  // namespace

bool stderr_reaches_terminal() {
  if (isatty(STDERR_FILENO)) return true;
  if (std::getenv(kOpenMpiRankVariable) == nullptr) return false;
  return names_terminal(parent_stderr_target());
}

}  // namespace g500::util
