#include "util/memory.hpp"

#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <string>

namespace g500::util {

size_t physical_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? static_cast<size_t>(pages) * static_cast<size_t>(page) : 0;
}

namespace {

// The value of `key` in a "Key: value kB" file such as /proc/self/status or /proc/meminfo, in
// bytes; 0 when absent.
size_t kib_field(const char* file, const std::string& key) {
  std::ifstream in(file);
  std::string word;
  while (in >> word) {
    if (word == key) {
      size_t kib = 0;
      in >> kib;
      return kib * 1024;
    }
    std::string rest;
    std::getline(in, rest);
  }
  return 0;
}

// A number from a cgroup file ("max" or unreadable: 0).
size_t cgroup_number(const std::string& path) {
  std::ifstream in(path);
  std::string text;
  if (!(in >> text) || text.empty() || text.find_first_not_of("0123456789") != std::string::npos) return 0;
  return static_cast<size_t>(std::stoull(text));
}

// The room left under this process's cgroup v2 memory limit, or 0 when none is set.
size_t cgroup_room_bytes() {
  std::ifstream self("/proc/self/cgroup");
  std::string line, group;
  while (std::getline(self, line))
    if (line.rfind("0::", 0) == 0) group = line.substr(3);
  if (group.empty()) return 0;
  const std::string dir = "/sys/fs/cgroup" + (group == "/" ? std::string() : group);
  const size_t limit = cgroup_number(dir + "/memory.max"), used = cgroup_number(dir + "/memory.current");
  if (limit == 0) return 0;
  return limit > used ? limit - used : 1;
}

}  // namespace

size_t available_memory_bytes() {
  const size_t physical = physical_memory_bytes();
  size_t available = kib_field("/proc/meminfo", "MemAvailable:");
  if (available == 0 || (physical > 0 && available > physical)) available = physical;
  if (const size_t room = cgroup_room_bytes(); room > 0 && room < available) available = room;
  return available;
}

size_t peak_rss_bytes() { return kib_field("/proc/self/status", "VmHWM:"); }

size_t resident_bytes() { return kib_field("/proc/self/status", "VmRSS:"); }

bool reset_peak_rss() {
  std::ofstream clear("/proc/self/clear_refs");
  clear << "5";
  clear.flush();
  return static_cast<bool>(clear);
}

bool every_node_has_room(double bytes_per_rank, double share, MPI_Comm comm) {
  const double need = bytes_per_rank * ranks_on_this_node(comm);
  int room = need <= share * static_cast<double>(physical_memory_bytes()) ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &room, 1, MPI_INT, MPI_MIN, comm);
  return room == 1;
}

double node_memory_for_run_bytes(MPI_Comm comm) {
  MPI_Comm node;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  double held = static_cast<double>(resident_bytes());
  MPI_Allreduce(MPI_IN_PLACE, &held, 1, MPI_DOUBLE, MPI_SUM, node);
  MPI_Comm_free(&node);
  return std::min(static_cast<double>(available_memory_bytes()) + held, static_cast<double>(physical_memory_bytes()));
}

int ranks_on_this_node(MPI_Comm comm) {
  MPI_Comm node;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int size = 1;
  MPI_Comm_size(node, &size);
  MPI_Comm_free(&node);
  return size;
}

}  // namespace g500::util
