#include "comm/collectives.hpp"

#include <algorithm>
#include <map>
#include <vector>

#include "comm/coll_algorithms.hpp"

namespace g500::comm {

namespace {

using AlltoallvWithOptions = int (*)(const void*, const int*, const int*, MPI_Datatype, void*, const int*, const int*,
                                     MPI_Datatype, MPI_Comm, const CollOptions&);
using AllgathervWithOptions = int (*)(const void*, int, MPI_Datatype, void*, const int*, const int*, MPI_Datatype,
                                      MPI_Comm, const CollOptions&);

int mpi_alltoallv(const void* sb, const int* sc, const int* sd, MPI_Datatype st, void* rb, const int* rc, const int* rd,
                  MPI_Datatype rt, MPI_Comm comm) {
  return MPI_Alltoallv(sb, sc, sd, st, rb, rc, rd, rt, comm);
}
int mpi_allgatherv(const void* sb, int sc, MPI_Datatype st, void* rb, const int* rc, const int* rd, MPI_Datatype rt,
                   MPI_Comm comm) {
  return MPI_Allgatherv(sb, sc, st, rb, rc, rd, rt, comm);
}

// Runs a point-to-point alltoallv with default options; MPI_IN_PLACE is served from a copy of
// recvbuf laid out by recvcounts/rdispls, as the MPI standard defines it.
template <AlltoallvWithOptions Algorithm>
int alltoallv_adapter(const void* sb, const int* sc, const int* sd, MPI_Datatype st, void* rb, const int* rc,
                      const int* rd, MPI_Datatype rt, MPI_Comm comm) {
  if (sb != MPI_IN_PLACE) return Algorithm(sb, sc, sd, st, rb, rc, rd, rt, comm, CollOptions{});
  const int size = comm_facts(comm).size;
  MPI_Aint span = 0;
  for (int i = 0; i < size; ++i) span = std::max<MPI_Aint>(span, (MPI_Aint{rd[i]} + rc[i]) * extent_of(rt));
  std::vector<char> copy(static_cast<const char*>(rb), static_cast<const char*>(rb) + span);
  return Algorithm(copy.data(), rc, rd, rt, rb, rc, rd, rt, comm, CollOptions{});
}

// The 2D variant of the dimension-wise exchange (a balanced X x Y shape).
int alltoallv_dimwise_2d(const void* sb, const int* sc, const int* sd, MPI_Datatype st, void* rb, const int* rc,
                         const int* rd, MPI_Datatype rt, MPI_Comm comm, const CollOptions&) {
  CollOptions options;
  options.shape = balanced_shape(comm_facts(comm).size, 2);
  return alltoallv_dimwise(sb, sc, sd, st, rb, rc, rd, rt, comm, options);
}

template <AllgathervWithOptions Algorithm>
int allgatherv_adapter(const void* sb, int sc, MPI_Datatype st, void* rb, const int* rc, const int* rd, MPI_Datatype rt,
                       MPI_Comm comm) {
  return Algorithm(sb, sc, st, rb, rc, rd, rt, comm, CollOptions{});
}

const std::map<std::string, AlltoallvFn>& alltoallv_table() {
  static const std::map<std::string, AlltoallvFn> table{
      {"mpi", mpi_alltoallv},
      {"linear", alltoallv_adapter<alltoallv_linear>},
      {"pairwise", alltoallv_adapter<alltoallv_pairwise>},
      {"dimwise", alltoallv_adapter<alltoallv_dimwise>},  // balanced 3D shape
      {"dimwise2d", alltoallv_adapter<alltoallv_dimwise_2d>},
  };
  return table;
}
const std::map<std::string, AllgathervFn>& allgatherv_table() {
  static const std::map<std::string, AllgathervFn> table{
      {"mpi", mpi_allgatherv},
      {"ring", allgatherv_adapter<allgatherv_ring>},
      {"recdbl", allgatherv_adapter<allgatherv_recursive_doubling>},
      {"bruck", allgatherv_adapter<allgatherv_bruck>},
  };
  return table;
}

}  // namespace

AlltoallvFn find_alltoallv(const std::string& name) {
  auto it = alltoallv_table().find(name);
  return it == alltoallv_table().end() ? nullptr : it->second;
}
AllgathervFn find_allgatherv(const std::string& name) {
  auto it = allgatherv_table().find(name);
  return it == allgatherv_table().end() ? nullptr : it->second;
}
std::vector<std::string> alltoallv_names() {
  std::vector<std::string> names;
  for (const auto& [name, fn] : alltoallv_table()) names.push_back(name);
  return names;
}
std::vector<std::string> allgatherv_names() {
  std::vector<std::string> names;
  for (const auto& [name, fn] : allgatherv_table()) names.push_back(name);
  return names;
}

}  // namespace g500::comm
