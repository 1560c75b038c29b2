#include "comm/large_count.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <stdexcept>

#include "comm/coll_common.hpp"

namespace g500::comm {

namespace {

void check(int status, const char* what) {
  if (status != MPI_SUCCESS) throw std::runtime_error(fmt::format("{} failed with MPI error code {}", what, status));
}

// Rounds that move `largest` elements of one block at most `per_round` at a time (one even for
// an empty block: the call still happens, with zero-length messages).
int64_t rounds_for(int64_t largest, int64_t per_round) {
  return largest <= per_round ? 1 : (largest + per_round - 1) / per_round;
}

// The part of a block of `count` elements that round `round` moves.
int64_t piece_of(int64_t count, int64_t round, int64_t per_round) {
  return std::clamp<int64_t>(count - round * per_round, 0, per_round);
}

// A count or displacement of one round: bounded by the limit, so it fits an int.
int as_int(int64_t value) { return static_cast<int>(value); }

char* at(void* base, int64_t bytes) { return static_cast<char*>(base) + bytes; }
const char* at(const void* base, int64_t bytes) { return static_cast<const char*>(base) + bytes; }

void copy_bytes(void* to, const void* from, int64_t bytes) {
  if (bytes > 0) std::memmove(to, from, static_cast<size_t>(bytes));
}

// Sets the int counts and packed displacements of one round (all of each block when `direct`);
// returns the round's total.
int64_t plan_round(const std::vector<int64_t>& counts, int64_t r, int64_t per_round, bool direct,
                   std::vector<int>& round_counts, std::vector<int>& round_displs) {
  round_counts.resize(counts.size());
  round_displs.resize(counts.size());
  int64_t total = 0;
  for (size_t p = 0; p < counts.size(); ++p) {
    round_displs[p] = as_int(total);
    round_counts[p] = as_int(direct ? counts[p] : piece_of(counts[p], r, per_round));
    total += round_counts[p];
  }
  return total;
}

}  // namespace

int64_t element_bytes(MPI_Datatype type) {
  if (!is_contiguous(type)) throw std::logic_error("comm/large_count: the datatype has gaps (size != extent)");
  int size = 0;
  MPI_Type_size(type, &size);
  return size;
}

int narrow_count(int64_t count, const char* what) {
  if (count < 0 || count > INT_MAX)
    throw std::length_error(
        fmt::format("{}: {} elements do not fit MPI's int count (at most {})", what, count, INT_MAX));
  return static_cast<int>(count);
}

int64_t allreduce(const void* sendbuf, void* recvbuf, int64_t count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                  const util::MessageLimits& limits) {
  const int64_t bytes = element_bytes(type);
  const int64_t per_round = limits.elements_per_part(bytes, 1);
  const int64_t rounds = rounds_for(count, per_round);
  for (int64_t r = 0; r < rounds; ++r) {
    const int64_t offset = r * per_round * bytes;
    const void* from = sendbuf == MPI_IN_PLACE ? MPI_IN_PLACE : at(sendbuf, offset);
    check(MPI_Allreduce(from, at(recvbuf, offset), as_int(piece_of(count, r, per_round)), type, op, comm),
          "MPI_Allreduce");
  }
  return rounds;
}

int64_t bcast(void* buffer, int64_t count, MPI_Datatype type, int root, MPI_Comm comm,
              const util::MessageLimits& limits) {
  const int64_t bytes = element_bytes(type);
  const int64_t per_round = limits.elements_per_part(bytes, 1);
  const int64_t rounds = rounds_for(count, per_round);
  for (int64_t r = 0; r < rounds; ++r)
    check(MPI_Bcast(at(buffer, r * per_round * bytes), as_int(piece_of(count, r, per_round)), type, root, comm),
          "MPI_Bcast");
  return rounds;
}

int64_t allgather(const void* sendbuf, void* recvbuf, int64_t count, MPI_Datatype type, MPI_Comm comm,
                  const util::MessageLimits& limits) {
  const auto [rank, size] = comm_facts(comm);
  const int64_t bytes = element_bytes(type);
  const int64_t per_round = limits.elements_per_part(bytes, size);
  if (count <= per_round) {
    check(MPI_Allgather(sendbuf, as_int(count), type, recvbuf, as_int(count), type, comm), "MPI_Allgather");
    return 1;
  }
  // Round r gathers elements [r * per_round, ...) of every block through a packed buffer.
  const char* own = sendbuf == MPI_IN_PLACE ? at(recvbuf, rank * count * bytes) : static_cast<const char*>(sendbuf);
  std::vector<char> staging(static_cast<size_t>(size * per_round * bytes));
  const int64_t rounds = rounds_for(count, per_round);
  for (int64_t r = 0; r < rounds; ++r) {
    const int64_t n = piece_of(count, r, per_round), offset = r * per_round * bytes;
    check(MPI_Allgather(own + offset, as_int(n), type, staging.data(), as_int(n), type, comm), "MPI_Allgather");
    for (int p = 0; p < size; ++p)
      copy_bytes(at(recvbuf, p * count * bytes + offset), &staging[p * n * bytes], n * bytes);
  }
  return rounds;
}

int64_t reduce_scatter_block(const void* sendbuf, void* recvbuf, int64_t count, MPI_Datatype type, MPI_Op op,
                             MPI_Comm comm, const util::MessageLimits& limits) {
  const int size = comm_facts(comm).size;
  const int64_t bytes = element_bytes(type);
  const int64_t per_round = limits.elements_per_part(bytes, size);
  if (count <= per_round) {
    check(MPI_Reduce_scatter_block(sendbuf, recvbuf, as_int(count), type, op, comm), "MPI_Reduce_scatter_block");
    return 1;
  }
  // Round r reduces elements [r * per_round, ...) of every block, packed into one buffer.
  std::vector<char> staging(static_cast<size_t>(size * per_round * bytes));
  const int64_t rounds = rounds_for(count, per_round);
  for (int64_t r = 0; r < rounds; ++r) {
    const int64_t n = piece_of(count, r, per_round), offset = r * per_round * bytes;
    for (int p = 0; p < size; ++p)
      copy_bytes(&staging[p * n * bytes], at(sendbuf, p * count * bytes + offset), n * bytes);
    check(MPI_Reduce_scatter_block(staging.data(), at(recvbuf, offset), as_int(n), type, op, comm),
          "MPI_Reduce_scatter_block");
  }
  return rounds;
}

int64_t sendrecv(const void* sendbuf, int64_t sendcount, int dest, void* recvbuf, int64_t recvcount, int source,
                 MPI_Datatype type, int tag, MPI_Comm comm, const util::MessageLimits& limits) {
  const int64_t bytes = element_bytes(type);
  const int64_t per_round = limits.elements_per_part(bytes, 1);
  // Each side sends exactly its pieces and receives exactly the partner's (same cut on both
  // sides); once one direction is done its side of the call goes to MPI_PROC_NULL.
  const int64_t send_pieces = rounds_for(sendcount, per_round), recv_pieces = rounds_for(recvcount, per_round);
  const int64_t rounds = std::max(send_pieces, recv_pieces);
  for (int64_t r = 0; r < rounds; ++r) {
    const int64_t offset = r * per_round * bytes;
    check(MPI_Sendrecv(at(sendbuf, offset), as_int(piece_of(sendcount, r, per_round)), type,
                       r < send_pieces ? dest : MPI_PROC_NULL, tag, at(recvbuf, offset),
                       as_int(piece_of(recvcount, r, per_round)), type, r < recv_pieces ? source : MPI_PROC_NULL, tag,
                       comm, MPI_STATUS_IGNORE),
          "MPI_Sendrecv");
  }
  return rounds;
}

std::vector<int64_t> allgather_counts(int64_t mine, MPI_Comm comm) {
  std::vector<int64_t> counts(comm_facts(comm).size);
  check(MPI_Allgather(&mine, 1, MPI_INT64_T, counts.data(), 1, MPI_INT64_T, comm), "MPI_Allgather");
  return counts;
}

std::vector<int64_t> packed_displacements(const std::vector<int64_t>& counts) {
  std::vector<int64_t> displs(counts.size(), 0);
  for (size_t r = 1; r < counts.size(); ++r) displs[r] = displs[r - 1] + counts[r - 1];
  return displs;
}

namespace {

// What the v-collectives with known counts (allgatherv, gatherv) share: the counts of one round
// as ints, packed, and where each source's piece goes.
struct GatherRounds {
  int64_t bytes = 0, per_round = 0, rounds = 1;
  bool direct = true;
  std::vector<int64_t> displs;  // of the whole message, packed
  std::vector<int> counts, round_displs;

  GatherRounds(const std::vector<int64_t>& all_counts, MPI_Datatype type, const util::MessageLimits& limits)
      : bytes(element_bytes(type)), displs(packed_displacements(all_counts)), counts(all_counts.size()),
        round_displs(all_counts.size()) {
    const int64_t total = displs.empty() ? 0 : displs.back() + all_counts.back();
    const int64_t largest = all_counts.empty() ? 0 : *std::max_element(all_counts.begin(), all_counts.end());
    direct = total <= limits.max_message_bytes / bytes;
    per_round = direct ? std::max<int64_t>(largest, 1)
                       : limits.elements_per_part(bytes, static_cast<int64_t>(all_counts.size()));
    rounds = rounds_for(largest, per_round);
  }
  // Sets counts and round_displs for round r; returns the round's total.
  int64_t plan(const std::vector<int64_t>& all_counts, int64_t r) {
    return plan_round(all_counts, r, per_round, direct, counts, round_displs);
  }
  // Copies round r's pieces from the packed staging buffer to their places in recvbuf.
  void scatter(const std::vector<char>& staging, void* recvbuf, int64_t r) const {
    for (size_t p = 0; p < counts.size(); ++p)
      copy_bytes(at(recvbuf, (displs[p] + r * per_round) * bytes), &staging[round_displs[p] * bytes],
                 counts[p] * bytes);
  }
};

}  // namespace

int64_t allgatherv(const void* sendbuf, void* recvbuf, const std::vector<int64_t>& counts, MPI_Datatype type,
                   MPI_Comm comm, AllgathervFn algorithm, const util::MessageLimits& limits) {
  const int rank = comm_facts(comm).rank;
  GatherRounds g(counts, type, limits);
  if (g.direct) {
    g.plan(counts, 0);
    check(algorithm(sendbuf, g.counts[rank], type, recvbuf, g.counts.data(), g.round_displs.data(), type, comm),
          "allgatherv");
    return 1;
  }
  const char* own = sendbuf == MPI_IN_PLACE ? at(recvbuf, g.displs[rank] * g.bytes) : static_cast<const char*>(sendbuf);
  std::vector<char> staging;
  for (int64_t r = 0; r < g.rounds; ++r) {
    staging.resize(static_cast<size_t>(g.plan(counts, r) * g.bytes));
    check(algorithm(own + r * g.per_round * g.bytes, g.counts[rank], type, staging.data(), g.counts.data(),
                    g.round_displs.data(), type, comm),
          "allgatherv");
    g.scatter(staging, recvbuf, r);
  }
  return g.rounds;
}

int64_t gatherv(const void* sendbuf, void* recvbuf, const std::vector<int64_t>& counts, MPI_Datatype type, int root,
                MPI_Comm comm, const util::MessageLimits& limits) {
  const int rank = comm_facts(comm).rank;
  GatherRounds g(counts, type, limits);
  if (g.direct) {
    g.plan(counts, 0);
    check(MPI_Gatherv(sendbuf, g.counts[rank], type, recvbuf, g.counts.data(), g.round_displs.data(), type, root, comm),
          "MPI_Gatherv");
    return 1;
  }
  std::vector<char> staging;
  for (int64_t r = 0; r < g.rounds; ++r) {
    const int64_t total = g.plan(counts, r);
    if (rank == root) staging.resize(static_cast<size_t>(total * g.bytes));
    check(MPI_Gatherv(at(sendbuf, r * g.per_round * g.bytes), g.counts[rank], type, staging.data(), g.counts.data(),
                      g.round_displs.data(), type, root, comm),
          "MPI_Gatherv");
    if (rank == root) g.scatter(staging, recvbuf, r);
  }
  return g.rounds;
}

void exchange_counts(AlltoallvLayout& layout, MPI_Comm comm) {
  const int size = comm_facts(comm).size;
  if (static_cast<int>(layout.send_counts.size()) != size)
    throw std::logic_error("comm/large_count: send_counts must have one count per rank");
  layout.send_displs.resize(size);
  layout.recv_counts.resize(size);
  layout.recv_displs.resize(size);
  int64_t local_largest = 0;
  layout.send_total = 0;
  for (int r = 0; r < size; ++r) {
    layout.send_displs[r] = layout.send_total;
    layout.send_total += layout.send_counts[r];
    local_largest = std::max(local_largest, layout.send_counts[r]);
  }
  // Message to rank r: (what r gets from us, our largest block); two halves of one buffer.
  std::vector<int64_t>& messages = layout.count_messages;
  messages.resize(4 * static_cast<size_t>(size));
  for (int r = 0; r < size; ++r) {
    messages[2 * r] = layout.send_counts[r];
    messages[2 * r + 1] = local_largest;
  }
  int64_t* in = messages.data() + 2 * size;
  check(MPI_Alltoall(messages.data(), 2, MPI_INT64_T, in, 2, MPI_INT64_T, comm), "MPI_Alltoall");
  layout.largest_block = local_largest;
  layout.recv_total = 0;
  for (int r = 0; r < size; ++r) {
    layout.recv_counts[r] = in[2 * r];
    layout.recv_displs[r] = layout.recv_total;
    layout.recv_total += in[2 * r];
    layout.largest_block = std::max(layout.largest_block, in[2 * r + 1]);
  }
}

int64_t alltoallv(const void* sendbuf, void* recvbuf, MPI_Datatype type, AlltoallvLayout& layout, MPI_Comm comm,
                  AlltoallvFn algorithm, const util::MessageLimits& limits) {
  const int size = comm_facts(comm).size;
  const int64_t bytes = element_bytes(type);
  const int64_t per_round = limits.elements_per_part(bytes, size);
  AlltoallvLayout& l = layout;
  if (l.largest_block <= per_round) {  // every rank sends and receives at most the limit
    plan_round(l.send_counts, 0, per_round, true, l.call_send_counts, l.call_send_displs);
    plan_round(l.recv_counts, 0, per_round, true, l.call_recv_counts, l.call_recv_displs);
    check(algorithm(sendbuf, l.call_send_counts.data(), l.call_send_displs.data(), type, recvbuf,
                    l.call_recv_counts.data(), l.call_recv_displs.data(), type, comm),
          "alltoallv");
    return 1;
  }
  const int64_t rounds = rounds_for(l.largest_block, per_round);
  for (int64_t r = 0; r < rounds; ++r) {
    const int64_t offset = r * per_round;
    const int64_t out = plan_round(l.send_counts, r, per_round, false, l.call_send_counts, l.call_send_displs);
    const int64_t in = plan_round(l.recv_counts, r, per_round, false, l.call_recv_counts, l.call_recv_displs);
    l.staging_send.resize(static_cast<size_t>(out * bytes));
    l.staging_recv.resize(static_cast<size_t>(in * bytes));
    for (int p = 0; p < size; ++p)
      copy_bytes(&l.staging_send[l.call_send_displs[p] * bytes], at(sendbuf, (l.send_displs[p] + offset) * bytes),
                 l.call_send_counts[p] * bytes);
    check(algorithm(l.staging_send.data(), l.call_send_counts.data(), l.call_send_displs.data(), type,
                    l.staging_recv.data(), l.call_recv_counts.data(), l.call_recv_displs.data(), type, comm),
          "alltoallv");
    for (int p = 0; p < size; ++p)
      copy_bytes(at(recvbuf, (l.recv_displs[p] + offset) * bytes), &l.staging_recv[l.call_recv_displs[p] * bytes],
                 l.call_recv_counts[p] * bytes);
  }
  return rounds;
}

}  // namespace g500::comm
