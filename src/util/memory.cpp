#include "util/memory.hpp"

#include <unistd.h>

#include <fstream>
#include <string>

namespace g500 {

size_t physical_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? static_cast<size_t>(pages) * static_cast<size_t>(page) : 0;
}

size_t peak_rss_bytes() {
  std::ifstream status("/proc/self/status");
  std::string key;
  while (status >> key) {
    if (key == "VmHWM:") {
      size_t kib = 0;
      status >> kib;
      return kib * 1024;
    }
    std::string rest;
    std::getline(status, rest);
  }
  return 0;
}

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

int ranks_on_this_node(MPI_Comm comm) {
  MPI_Comm node;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int size = 1;
  MPI_Comm_size(node, &size);
  MPI_Comm_free(&node);
  return size;
}

}  // namespace g500
