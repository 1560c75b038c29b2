// Collective algorithms of Hosono et al. 2021 written on MPI point-to-point. Every function has the
// argument list of the matching MPI collective plus CollOptions, works on any communicator and
// process count, and returns an MPI error code. Implementations: coll_alltoallv.cpp,
// coll_alltoall.cpp, coll_allgatherv.cpp, coll_bcast.cpp (trees in bcast_trees.hpp).
#pragma once
#include <mpi.h>

#include "comm/coll_common.hpp"

namespace g500::comm {

struct CollOptions {
  int segment_bytes = 0;  // pipelining segment for bcast; 0 = whole message in one piece
  Shape3 shape{};         // logical shape for dimension-aware algorithms; 1x1x1 = balanced 3D
  int trees = 3;          // number of trees for bcast_ktree (3 ~ Trinaryx3, 6 ~ Trinaryx6)
};

// ---- alltoallv ----
int alltoallv_linear(const void* sendbuf, const int* sendcounts, const int* sdispls,
                     MPI_Datatype sendtype, void* recvbuf, const int* recvcounts, const int* rdispls,
                     MPI_Datatype recvtype, MPI_Comm comm, const CollOptions& options);
int alltoallv_pairwise(const void* sendbuf, const int* sendcounts, const int* sdispls,
                       MPI_Datatype sendtype, void* recvbuf, const int* recvcounts,
                       const int* rdispls, MPI_Datatype recvtype, MPI_Comm comm,
                       const CollOptions& options);
int alltoallv_dimwise(const void* sendbuf, const int* sendcounts, const int* sdispls,
                      MPI_Datatype sendtype, void* recvbuf, const int* recvcounts, const int* rdispls,
                      MPI_Datatype recvtype, MPI_Comm comm, const CollOptions& options);

// ---- alltoall ----
int alltoall_linear(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                    int recvcount, MPI_Datatype recvtype, MPI_Comm comm, const CollOptions& options);
int alltoall_pairwise(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                      int recvcount, MPI_Datatype recvtype, MPI_Comm comm, const CollOptions& options);
int alltoall_bruck(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm, const CollOptions& options);

// ---- allgatherv (sendbuf may be MPI_IN_PLACE) ----
int allgatherv_ring(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                    const int* recvcounts, const int* displs, MPI_Datatype recvtype, MPI_Comm comm,
                    const CollOptions& options);
int allgatherv_recursive_doubling(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                  void* recvbuf, const int* recvcounts, const int* displs,
                                  MPI_Datatype recvtype, MPI_Comm comm, const CollOptions& options);
int allgatherv_bruck(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                     const int* recvcounts, const int* displs, MPI_Datatype recvtype, MPI_Comm comm,
                     const CollOptions& options);

// ---- bcast ----
int bcast_linear(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm, const CollOptions& options);
int bcast_chain(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm, const CollOptions& options);
int bcast_pipeline(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm, const CollOptions& options);
int bcast_binary_tree(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm, const CollOptions& options);
int bcast_split_binary_tree(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm,
                            const CollOptions& options);
int bcast_binomial(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm, const CollOptions& options);
int bcast_bintree3d(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm, const CollOptions& options);
int bcast_ktree(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm, const CollOptions& options);

}  // namespace g500::comm
