// Pluggable collectives used by the BFS (--alltoallv ALGO, --allgatherv ALGO). "mpi" (the default)
// calls the MPI library's own collective; the other algorithms (Hosono et al. 2021) are implemented on
// point-to-point in src/comm/coll_*.cpp and looked up by name here:
//   alltoallv:  mpi, linear, pairwise, dimwise (balanced 3D logical shape), dimwise2d (balanced 2D)
//   allgatherv: mpi, ring, recdbl (recursive doubling, any P), bruck
// All accept any communicator and contiguous datatypes; alltoallv also accepts MPI_IN_PLACE
// (served from a copy), allgatherv accepts MPI_IN_PLACE.
#pragma once
#include <mpi.h>

#include <string>
#include <vector>

namespace g500::comm {

using AlltoallvFn = int (*)(const void* sendbuf, const int* sendcounts, const int* sdispls, MPI_Datatype sendtype,
                            void* recvbuf, const int* recvcounts, const int* rdispls, MPI_Datatype recvtype,
                            MPI_Comm comm);
using AllgathervFn = int (*)(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                             const int* recvcounts, const int* displs, MPI_Datatype recvtype, MPI_Comm comm);

// Returns nullptr for an unknown name.
AlltoallvFn find_alltoallv(const std::string& name);
AllgathervFn find_allgatherv(const std::string& name);
std::vector<std::string> alltoallv_names();
std::vector<std::string> allgatherv_names();

}  // namespace g500::comm
