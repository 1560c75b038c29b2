#include "comm/collectives.hpp"

#include <map>

namespace g500::comm {

static int mpi_alltoallv(const void* sb, const int* sc, const int* sd, MPI_Datatype st, void* rb,
                         const int* rc, const int* rd, MPI_Datatype rt, MPI_Comm comm) {
  return MPI_Alltoallv(sb, sc, sd, st, rb, rc, rd, rt, comm);
}
static int mpi_allgatherv(const void* sb, int sc, MPI_Datatype st, void* rb, const int* rc,
                          const int* rd, MPI_Datatype rt, MPI_Comm comm) {
  return MPI_Allgatherv(sb, sc, st, rb, rc, rd, rt, comm);
}

static const std::map<std::string, AlltoallvFn>& alltoallv_table() {
  static const std::map<std::string, AlltoallvFn> table{{"mpi", mpi_alltoallv}};
  return table;
}
static const std::map<std::string, AllgathervFn>& allgatherv_table() {
  static const std::map<std::string, AllgathervFn> table{{"mpi", mpi_allgatherv}};
  return table;
}

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
