// Small MPI helpers of the input layer: personalised exchange of trivially copyable records and
// 64-bit scans and sums.
#pragma once
#include <mpi.h>

#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include "comm/collectives.hpp"
#include "comm/large_count.hpp"
#include "comm/typed.hpp"
#include "util/message_limits.hpp"

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

// Sends send[displs[r] .. displs[r]+counts[r]) to rank r (displs packed by rank); returns what
// arrives (by source rank) and the per-source counts in recv_counts. In rounds beyond the limit
// (comm/large_count.hpp).
template <class T>
inline std::vector<T> alltoallv(const std::vector<T>& send, const std::vector<int64_t>& counts,
                                std::vector<int64_t>& recv_counts, MPI_Comm comm, const util::MessageLimits& limits) {
  comm::AlltoallvLayout layout;
  layout.send_counts = counts;
  comm::exchange_counts(layout, comm);
  std::vector<T> recv(static_cast<size_t>(layout.recv_total));
  MPI_Datatype t = bytes_type<T>();
  comm::alltoallv(send.data(), recv.data(), t, layout, comm, comm::find_alltoallv("mpi"), limits);
  MPI_Type_free(&t);
  recv_counts = std::move(layout.recv_counts);
  return recv;
}

inline int64_t exclusive_scan(int64_t value, MPI_Comm comm) { return comm::Communicator(comm).sum_before(value); }

}  // namespace g500::io
