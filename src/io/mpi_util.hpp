// Small MPI helpers of the input layer: personalised exchange of trivially copyable records and
// 64-bit scans and sums.
#pragma once
#include <mpi.h>

#include <cstdint>
#include <type_traits>
#include <vector>

namespace g500::io {

// ---- small MPI helpers -------------------------------------------------------------------------

template <class T>
inline MPI_Datatype bytes_type() {
  static_assert(std::is_trivially_copyable_v<T>);
  MPI_Datatype t;
  MPI_Type_contiguous(static_cast<int>(sizeof(T)), MPI_BYTE, &t);
  MPI_Type_commit(&t);
  return t;
}

// Sends send[displs[r] .. displs[r]+counts[r]) to rank r; returns what arrives (by source rank)
// and the per-source counts in recv_counts.
template <class T>
inline std::vector<T> alltoallv(const std::vector<T>& send, const std::vector<int>& counts, std::vector<int>& recv_counts,
                         MPI_Comm comm) {
  const int p = static_cast<int>(counts.size());
  std::vector<int> sdispls(p, 0), rdispls(p, 0);
  recv_counts.assign(p, 0);
  MPI_Alltoall(counts.data(), 1, MPI_INT, recv_counts.data(), 1, MPI_INT, comm);
  int64_t total = 0;
  for (int r = 0; r < p; ++r) {
    rdispls[r] = static_cast<int>(total);
    total += recv_counts[r];
  }
  for (int r = 1; r < p; ++r) sdispls[r] = sdispls[r - 1] + counts[r - 1];
  std::vector<T> recv(static_cast<size_t>(total));
  MPI_Datatype t = bytes_type<T>();
  MPI_Alltoallv(send.data(), counts.data(), sdispls.data(), t, recv.data(), recv_counts.data(), rdispls.data(), t, comm);
  MPI_Type_free(&t);
  return recv;
}

inline int64_t exclusive_scan(int64_t value, MPI_Comm comm) {
  int64_t before = 0;
  MPI_Exscan(&value, &before, 1, MPI_INT64_T, MPI_SUM, comm);
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  return rank == 0 ? 0 : before;
}

inline int64_t sum_all(int64_t value, MPI_Comm comm) {
  MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_INT64_T, MPI_SUM, comm);
  return value;
}

}  // namespace g500::io
