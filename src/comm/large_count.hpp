// MPI calls with 64-bit counts: the one home of every MPI call of g500 that moves a count of
// elements (docs/messages.md). MPI's counts and displacements are `int`; these wrappers take
// int64_t counts and make one MPI call when the message is within the limit (util/message_limits.hpp),
// else split it into rounds that each are: every round's counts and displacements fit an int
// because a round moves at most max_message_bytes (at least one element per peer). Receive
// layouts are packed (displacement of source r = sum of the counts before r), which is what every
// caller uses. All ranks of a collective take the same path and the same number of rounds: the
// choice depends only on values every rank knows (equal counts, gathered counts, or the largest
// block of an all-to-all, which travels with the exchanged counts).
//
// Datatypes must be gap-free (size == extent, lower bound 0): the rounds are staged through
// packed buffers. Each function returns the number of MPI calls (rounds) it made, so tests can
// tell the chunked path ran; an MPI error becomes std::runtime_error.
#pragma once
#include <mpi.h>

#include <cstdint>
#include <vector>

#include "comm/collectives.hpp"
#include "util/message_limits.hpp"

namespace g500::comm {

// Bytes per element of a gap-free datatype; std::logic_error for a type with gaps.
int64_t element_bytes(MPI_Datatype type);

// For the point-to-point messages whose size is bounded by construction (the bottom-up BFS's
// bitmap segments: at most 2^26 words because local ids are 32-bit): the count as an int, or
// std::length_error naming `what` and the count, before anything is sent.
int narrow_count(int64_t count, const char* what);

// MPI_Allreduce (sendbuf may be MPI_IN_PLACE).
int64_t allreduce(const void* sendbuf, void* recvbuf, int64_t count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                  const util::MessageLimits& limits);
// MPI_Bcast.
int64_t bcast(void* buffer, int64_t count, MPI_Datatype type, int root, MPI_Comm comm,
              const util::MessageLimits& limits);
// MPI_Allgather of `count` elements per rank (sendbuf may be MPI_IN_PLACE: this rank's block is
// already at recvbuf + rank * count).
int64_t allgather(const void* sendbuf, void* recvbuf, int64_t count, MPI_Datatype type, MPI_Comm comm,
                  const util::MessageLimits& limits);
// MPI_Reduce_scatter_block: `count` elements per rank, sendbuf holds size * count.
int64_t reduce_scatter_block(const void* sendbuf, void* recvbuf, int64_t count, MPI_Datatype type, MPI_Op op,
                             MPI_Comm comm, const util::MessageLimits& limits);
// MPI_Sendrecv. recvcount must be what `source` sends (both sides cut the message alike).
int64_t sendrecv(const void* sendbuf, int64_t sendcount, int dest, void* recvbuf, int64_t recvcount, int source,
                 MPI_Datatype type, int tag, MPI_Comm comm, const util::MessageLimits& limits);

// Every rank's `mine`, in rank order (one MPI_Allgather of 64-bit values).
std::vector<int64_t> allgather_counts(int64_t mine, MPI_Comm comm);
// The packed layout of `counts`: displacement r = counts[0] + ... + counts[r-1].
std::vector<int64_t> packed_displacements(const std::vector<int64_t>& counts);

// Allgatherv with `algorithm` (comm/collectives.hpp), `counts` from allgather_counts, receive
// buffer packed. sendbuf may be MPI_IN_PLACE.
int64_t allgatherv(const void* sendbuf, void* recvbuf, const std::vector<int64_t>& counts, MPI_Datatype type,
                   MPI_Comm comm, AllgathervFn algorithm, const util::MessageLimits& limits);
// MPI_Gatherv to `root`, counts known on every rank (allgather_counts), receive buffer packed.
int64_t gatherv(const void* sendbuf, void* recvbuf, const std::vector<int64_t>& counts, MPI_Datatype type, int root,
                MPI_Comm comm, const util::MessageLimits& limits);

// A personalised exchange: the caller sets send_counts (elements per destination rank; the send
// buffer holds them packed in destination order), exchange_counts() fills the rest, alltoallv()
// moves the data. Reusable from call to call (the vectors keep their capacity).
struct AlltoallvLayout {
  std::vector<int64_t> send_counts, send_displs;  // per destination
  std::vector<int64_t> recv_counts, recv_displs;  // per source, packed
  int64_t send_total = 0, recv_total = 0;
  int64_t largest_block = 0;  // the largest count between any two ranks of the communicator

  // Scratch of the calls.
  std::vector<int64_t> count_messages;
  std::vector<int> call_send_counts, call_send_displs, call_recv_counts, call_recv_displs;
  std::vector<char> staging_send, staging_recv;
};

// Collective: one MPI_Alltoall of (count, sender's largest block) pairs, so every rank learns what
// it receives and the largest block of the whole exchange.
void exchange_counts(AlltoallvLayout& layout, MPI_Comm comm);
// Collective: the data, with `algorithm`. One call when every block fits limit / size bytes (then
// a rank sends and receives at most the limit), else rounds of at most that much per block.
int64_t alltoallv(const void* sendbuf, void* recvbuf, MPI_Datatype type, AlltoallvLayout& layout, MPI_Comm comm,
                  AlltoallvFn algorithm, const util::MessageLimits& limits);

}  // namespace g500::comm
