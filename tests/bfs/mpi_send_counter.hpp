// A PMPI interposition layer for the volume tests, linked into test_volumes only: while it
// records, every MPI_Allgatherv, MPI_Alltoallv, MPI_Sendrecv, MPI_Send and MPI_Isend of the
// process adds the payload bytes it hands to MPI for other ranks to a counter of its kind, then
// forwards to PMPI_*. Each MPI_Barrier closes a segment and opens the next: the BFS starts with
// one and ends every level with one, so segment l + 1 holds level l.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace g500::testing {

enum class SendKind {
  kAllgatherv,    // own block x (communicator size - 1)
  kAlltoallv,     // the send counts to the other ranks
  kPointToPoint,  // MPI_Sendrecv, MPI_Send, MPI_Isend to another rank
  kOneWord,       // the same with a single MPI_INT64_T (a count announcing the next message)
  kCount
};

using SendBytes = std::array<int64_t, static_cast<std::size_t>(SendKind::kCount)>;

inline int64_t bytes_of(const SendBytes& b, SendKind k) { return b[static_cast<std::size_t>(k)]; }

// Starts recording (one open segment); stop() ends it; segments() are the closed ones plus the
// open one.
void start_send_counter();
void stop_send_counter();
const std::vector<SendBytes>& send_counter_segments();

}  // namespace g500::testing
