// Collective algorithms of Hosono et al. 2021 written on MPI point-to-point. Every function has the
// argument list of the matching MPI collective plus CollOptions, works on any communicator and
// process count, and returns an MPI error code. Implementations: coll_alltoallv.cpp,
// coll_alltoall.cpp, coll_allgatherv.cpp, coll_bcast.cpp (trees in bcast_trees.hpp).
#pragma once
#include <mpi.h>

#include <vector>

#include "comm/coll_common.hpp"
#include "util/message_limits.hpp"

namespace g500::comm {

struct CollOptions {
  int segment_bytes = 0;  // pipelining segment for bcast; 0 = whole message in one piece
  Shape3 shape{};         // logical shape for dimension-aware algorithms; 1x1x1 = balanced 3D
  int trees = 3;          // number of trees for bcast_ktree (3 ~ Trinaryx3, 6 ~ Trinaryx6)
  // The messages an algorithm makes itself (alltoallv_dimwise's forwarded parcels, Bruck's
  // half-buffers) can exceed MPI's int count even when every block fits: they go in pieces of at
  // most this many bytes (comm/large_count.hpp).
  util::MessageLimits limits{};
};

// ---- alltoallv ----
int alltoallv_linear(const void* sendbuf, const int* sendcounts, const int* sdispls, MPI_Datatype sendtype,
                     void* recvbuf, const int* recvcounts, const int* rdispls, MPI_Datatype recvtype, MPI_Comm comm,
                     const CollOptions& options);
int alltoallv_pairwise(const void* sendbuf, const int* sendcounts, const int* sdispls, MPI_Datatype sendtype,
                       void* recvbuf, const int* recvcounts, const int* rdispls, MPI_Datatype recvtype, MPI_Comm comm,
                       const CollOptions& options);
int alltoallv_dimwise(const void* sendbuf, const int* sendcounts, const int* sdispls, MPI_Datatype sendtype,
                      void* recvbuf, const int* recvcounts, const int* rdispls, MPI_Datatype recvtype, MPI_Comm comm,
                      const CollOptions& options);

// The blocks of an all-to-all buffer, one per peer: element count and byte offset. Offsets are
// 64-bit, so an alltoall of equal blocks may span more than 2^31-1 elements in all (its MPI
// signature has no displacements to overflow). alltoallv and alltoall share the linear and
// pairwise exchanges through them.
struct BlockLayout {
  std::vector<int> counts;
  std::vector<MPI_Aint> offsets;
};
BlockLayout v_layout(const int* counts, const int* displs, MPI_Datatype type, int size);
BlockLayout equal_layout(int count, MPI_Datatype type, int size);
int linear_exchange(const void* sendbuf, const BlockLayout& send, MPI_Datatype sendtype, void* recvbuf,
                    const BlockLayout& recv, MPI_Datatype recvtype, MPI_Comm comm);
int pairwise_exchange(const void* sendbuf, const BlockLayout& send, MPI_Datatype sendtype, void* recvbuf,
                      const BlockLayout& recv, MPI_Datatype recvtype, MPI_Comm comm);

// ---- alltoall ----
int alltoall_linear(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                    MPI_Datatype recvtype, MPI_Comm comm, const CollOptions& options);
int alltoall_pairwise(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                      MPI_Datatype recvtype, MPI_Comm comm, const CollOptions& options);
int alltoall_bruck(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                   MPI_Datatype recvtype, MPI_Comm comm, const CollOptions& options);

// ---- allgatherv (sendbuf may be MPI_IN_PLACE) ----
int allgatherv_ring(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int* recvcounts,
                    const int* displs, MPI_Datatype recvtype, MPI_Comm comm, const CollOptions& options);
int allgatherv_recursive_doubling(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                  const int* recvcounts, const int* displs, MPI_Datatype recvtype, MPI_Comm comm,
                                  const CollOptions& options);
int allgatherv_bruck(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int* recvcounts,
                     const int* displs, MPI_Datatype recvtype, MPI_Comm comm, const CollOptions& options);

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
