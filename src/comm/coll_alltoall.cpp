// Alltoall algorithms: basic linear, pairwise exchange and Bruck's log(P)-round algorithm.
#include <cstring>
#include <vector>

#include "comm/coll_algorithms.hpp"
#include "comm/large_count.hpp"

namespace g500::comm {

// Basic linear alltoall: every Irecv and Isend posted at once (alltoallv_linear with equal blocks).
int alltoall_linear(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                    MPI_Datatype recvtype, MPI_Comm comm, const CollOptions&) {
  const int size = comm_facts(comm).size;
  return linear_exchange(sendbuf, equal_layout(sendcount, sendtype, size), sendtype, recvbuf,
                         equal_layout(recvcount, recvtype, size), recvtype, comm);
}

// Pairwise exchange alltoall: round R sends to rank+R and receives from rank-R.
int alltoall_pairwise(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                      MPI_Datatype recvtype, MPI_Comm comm, const CollOptions&) {
  const int size = comm_facts(comm).size;
  return pairwise_exchange(sendbuf, equal_layout(sendcount, sendtype, size), sendtype, recvbuf,
                           equal_layout(recvcount, recvtype, size), recvtype, comm);
}

// Bruck alltoall: rotate blocks so block i goes to rank+i; in round k (k = 1, 2, 4, ...) send every
// block whose index has bit k set to rank+k (receiving the same slots from rank-k); finally
// undo the rotation. ceil(log2 P) messages per rank, each carrying about half the data.
// Needs gap-free datatypes; other types fall back to pairwise exchange.
int alltoall_bruck(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                   MPI_Datatype recvtype, MPI_Comm comm, const CollOptions& options) {
  if (!is_contiguous(sendtype) || !is_contiguous(recvtype))
    return alltoall_pairwise(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, options);
  const auto [rank, size] = comm_facts(comm);
  const auto block = static_cast<std::size_t>(MPI_Aint{sendcount} * extent_of(sendtype));
  if (block == 0) return MPI_SUCCESS;
  std::vector<char> rotated(block * size);
  for (int i = 0; i < size; ++i)
    std::memcpy(&rotated[i * block], byte_offset(sendbuf, ((rank + i) % size) * block), block);
  std::vector<char> outgoing, incoming;
  for (int distance = 1; distance < size; distance <<= 1) {
    outgoing.clear();
    for (int i = 0; i < size; ++i)
      if (i & distance) outgoing.insert(outgoing.end(), &rotated[i * block], &rotated[i * block] + block);
    incoming.resize(outgoing.size());
    // Half of all blocks travel in one round: more bytes than an int count can hold, in pieces.
    const auto length = static_cast<int64_t>(outgoing.size());
    sendrecv(outgoing.data(), length, (rank + distance) % size, incoming.data(), length,
             (rank - distance + size) % size, MPI_BYTE, kCollectiveTag, comm, options.limits);
    std::size_t taken = 0;
    for (int i = 0; i < size; ++i)
      if (i & distance) std::memcpy(&rotated[i * block], &incoming[block * taken++], block);
  }
  const auto recv_block = static_cast<std::size_t>(MPI_Aint{recvcount} * extent_of(recvtype));
  if (recv_block < block) return MPI_ERR_TRUNCATE;
  for (int i = 0; i < size; ++i)
    std::memcpy(byte_offset(recvbuf, ((rank - i + size) % size) * recv_block), &rotated[i * block], block);
  return MPI_SUCCESS;
}

}  // namespace g500::comm
