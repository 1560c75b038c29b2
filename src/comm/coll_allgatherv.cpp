// Allgatherv algorithms: ring, recursive doubling (any process count) and Bruck's algorithm.
// Blocks are sent straight out of and into recvbuf; a set of blocks travels as one message
// described by an indexed datatype, so any MPI datatype works.
#include <algorithm>
#include <vector>

#include "comm/coll_algorithms.hpp"

namespace g500::comm {

namespace {

// Puts this rank's own contribution into its slot of recvbuf (nothing to do for MPI_IN_PLACE).
int place_own_block(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int* recvcounts,
                    const int* displs, MPI_Datatype recvtype, int rank) {
  if (sendbuf == MPI_IN_PLACE) return MPI_SUCCESS;
  return copy_local(sendbuf, sendcount, sendtype, byte_offset(recvbuf, displs[rank] * extent_of(recvtype)),
                    recvcounts[rank], recvtype);
}

// One datatype covering the listed blocks of recvbuf (released by the destructor).
class BlockSet {
 public:
  BlockSet(const std::vector<int>& blocks, const int* counts, const int* displs, MPI_Datatype type) {
    std::vector<int> lengths, offsets;
    for (int b : blocks) {
      lengths.push_back(counts[b]);
      offsets.push_back(displs[b]);
    }
    MPI_Type_indexed(static_cast<int>(blocks.size()), lengths.data(), offsets.data(), type, &type_);
    MPI_Type_commit(&type_);
  }
  ~BlockSet() { MPI_Type_free(&type_); }
  BlockSet(const BlockSet&) = delete;
  BlockSet& operator=(const BlockSet&) = delete;
  MPI_Datatype type() const { return type_; }

 private:
  MPI_Datatype type_ = MPI_DATATYPE_NULL;
};

int exchange_blocks(void* recvbuf, const std::vector<int>& send_blocks, int to, const std::vector<int>& recv_blocks,
                    int from, const int* counts, const int* displs, MPI_Datatype type, MPI_Comm comm) {
  BlockSet out(send_blocks, counts, displs, type), in(recv_blocks, counts, displs, type);
  return MPI_Sendrecv(recvbuf, to == MPI_PROC_NULL ? 0 : 1, out.type(), to, kCollectiveTag, recvbuf,
                      from == MPI_PROC_NULL ? 0 : 1, in.type(), from, kCollectiveTag, comm, MPI_STATUS_IGNORE);
}

}  // namespace

// Ring allgatherv: in step i each rank passes block (rank - i) to its right neighbour and takes
// block (rank - i - 1) from its left; P-1 steps.
int allgatherv_ring(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int* recvcounts,
                    const int* displs, MPI_Datatype recvtype, MPI_Comm comm, const CollOptions&) {
  const auto [rank, size] = comm_facts(comm);
  int status = place_own_block(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, rank);
  const MPI_Aint extent = extent_of(recvtype);
  const int right = (rank + 1) % size, left = (rank - 1 + size) % size;
  for (int step = 0; step + 1 < size && status == MPI_SUCCESS; ++step) {
    const int out = (rank - step + size) % size, in = (rank - step - 1 + size) % size;
    status = MPI_Sendrecv(byte_offset(recvbuf, displs[out] * extent), recvcounts[out], recvtype, right, kCollectiveTag,
                          byte_offset(recvbuf, displs[in] * extent), recvcounts[in], recvtype, left, kCollectiveTag,
                          comm, MPI_STATUS_IGNORE);
  }
  return status;
}

// Recursive doubling allgatherv for any P: with p2 the largest power of two <= P, ranks p2..P-1
// first hand their block to rank - p2; ranks 0..p2-1 then swap everything they hold with
// rank XOR 2^k for k = 0, 1, ...; finally rank r < P - p2 hands the result back to r + p2.
int allgatherv_recursive_doubling(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                  const int* recvcounts, const int* displs, MPI_Datatype recvtype, MPI_Comm comm,
                                  const CollOptions&) {
  const auto [rank, size] = comm_facts(comm);
  int status = place_own_block(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, rank);
  int p2 = 1;
  while (p2 * 2 <= size) p2 *= 2;
  const int extras = size - p2;
  std::vector<int> none, all_but_me;
  for (int b = 0; b < size; ++b)
    if (b != rank) all_but_me.push_back(b);
  if (rank >= p2) {  // an extra rank: give its block away, get everything back at the end
    if (status == MPI_SUCCESS)
      status = exchange_blocks(recvbuf, {rank}, rank - p2, none, MPI_PROC_NULL, recvcounts, displs, recvtype, comm);
    if (status == MPI_SUCCESS)
      status = exchange_blocks(recvbuf, none, MPI_PROC_NULL, all_but_me, rank - p2, recvcounts, displs, recvtype, comm);
    return status;
  }
  if (rank < extras && status == MPI_SUCCESS)
    status = exchange_blocks(recvbuf, none, MPI_PROC_NULL, {rank + p2}, rank + p2, recvcounts, displs, recvtype, comm);
  // Blocks held by the group of ranks [base, base + width) of the power-of-two part.
  auto group_blocks = [&](int base, int width) {
    std::vector<int> blocks;
    for (int r = base; r < base + width; ++r) {
      blocks.push_back(r);
      if (r < extras) blocks.push_back(r + p2);
    }
    return blocks;
  };
  for (int width = 1; width < p2 && status == MPI_SUCCESS; width <<= 1) {
    const int partner = rank ^ width;
    status = exchange_blocks(recvbuf, group_blocks(rank & ~(width - 1), width), partner,
                             group_blocks(partner & ~(width - 1), width), partner, recvcounts, displs, recvtype, comm);
  }
  if (rank < extras && status == MPI_SUCCESS) {
    std::vector<int> all_but_extra;
    for (int b = 0; b < size; ++b)
      if (b != rank + p2) all_but_extra.push_back(b);
    status =
        exchange_blocks(recvbuf, all_but_extra, rank + p2, none, MPI_PROC_NULL, recvcounts, displs, recvtype, comm);
  }
  return status;
}

// Bruck allgatherv: before the round with distance d = 1, 2, 4, ... rank r holds blocks r..r+d-1;
// it sends min(d, P-d) of them to r-d and receives blocks r+d.. from r+d. ceil(log2 P) rounds for
// any P, with no final rotation because blocks land directly in their slots.
int allgatherv_bruck(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int* recvcounts,
                     const int* displs, MPI_Datatype recvtype, MPI_Comm comm, const CollOptions&) {
  const auto [rank, size] = comm_facts(comm);
  int status = place_own_block(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, rank);
  for (int distance = 1; distance < size && status == MPI_SUCCESS; distance <<= 1) {
    const int moved = std::min(distance, size - distance);
    std::vector<int> out, in;
    for (int i = 0; i < moved; ++i) {
      out.push_back((rank + i) % size);
      in.push_back((rank + distance + i) % size);
    }
    status = exchange_blocks(recvbuf, out, (rank - distance + size) % size, in, (rank + distance) % size, recvcounts,
                             displs, recvtype, comm);
  }
  return status;
}

}  // namespace g500::comm
