// Alltoallv algorithms: basic linear, pairwise exchange, and dimension-wise exchange over a logical
// 2D/3D shape (the idea behind the topology-aware "spread" algorithms of Hosono et al. 2021).
#include <cstdint>
#include <cstring>
#include <vector>

#include "comm/coll_algorithms.hpp"
#include "comm/large_count.hpp"

namespace g500::comm {

BlockLayout v_layout(const int* counts, const int* displs, MPI_Datatype type, int size) {
  const MPI_Aint extent = extent_of(type);
  BlockLayout layout{std::vector<int>(counts, counts + size), std::vector<MPI_Aint>(size)};
  for (int p = 0; p < size; ++p) layout.offsets[p] = MPI_Aint{displs[p]} * extent;
  return layout;
}

BlockLayout equal_layout(int count, MPI_Datatype type, int size) {
  const MPI_Aint block = MPI_Aint{count} * extent_of(type);
  BlockLayout layout{std::vector<int>(size, count), std::vector<MPI_Aint>(size)};
  for (int p = 0; p < size; ++p) layout.offsets[p] = p * block;
  return layout;
}

// Basic linear exchange: post every Irecv and Isend at once, then wait for all of them.
int linear_exchange(const void* sendbuf, const BlockLayout& send, MPI_Datatype sendtype, void* recvbuf,
                    const BlockLayout& recv, MPI_Datatype recvtype, MPI_Comm comm) {
  const auto [rank, size] = comm_facts(comm);
  std::vector<MPI_Request> requests;
  requests.reserve(2 * static_cast<std::size_t>(size));
  for (int step = 0; step < size; ++step) {
    int peer = (rank + step) % size;
    MPI_Request request;
    MPI_Irecv(byte_offset(recvbuf, recv.offsets[peer]), recv.counts[peer], recvtype, peer, kCollectiveTag, comm,
              &request);
    requests.push_back(request);
  }
  for (int step = 0; step < size; ++step) {
    int peer = (rank + step) % size;
    MPI_Request request;
    MPI_Isend(byte_offset(sendbuf, send.offsets[peer]), send.counts[peer], sendtype, peer, kCollectiveTag, comm,
              &request);
    requests.push_back(request);
  }
  return MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
}

// Pairwise exchange: in round R (0..P-1) send to rank+R and receive from rank-R.
int pairwise_exchange(const void* sendbuf, const BlockLayout& send, MPI_Datatype sendtype, void* recvbuf,
                      const BlockLayout& recv, MPI_Datatype recvtype, MPI_Comm comm) {
  const auto [rank, size] = comm_facts(comm);
  for (int round = 0; round < size; ++round) {
    int to = (rank + round) % size;
    int from = (rank - round + size) % size;
    int status = MPI_Sendrecv(byte_offset(sendbuf, send.offsets[to]), send.counts[to], sendtype, to, kCollectiveTag,
                              byte_offset(recvbuf, recv.offsets[from]), recv.counts[from], recvtype, from,
                              kCollectiveTag, comm, MPI_STATUS_IGNORE);
    if (status != MPI_SUCCESS) return status;
  }
  return MPI_SUCCESS;
}

int alltoallv_linear(const void* sendbuf, const int* sendcounts, const int* sdispls, MPI_Datatype sendtype,
                     void* recvbuf, const int* recvcounts, const int* rdispls, MPI_Datatype recvtype, MPI_Comm comm,
                     const CollOptions&) {
  const int size = comm_facts(comm).size;
  return linear_exchange(sendbuf, v_layout(sendcounts, sdispls, sendtype, size), sendtype, recvbuf,
                         v_layout(recvcounts, rdispls, recvtype, size), recvtype, comm);
}

int alltoallv_pairwise(const void* sendbuf, const int* sendcounts, const int* sdispls, MPI_Datatype sendtype,
                       void* recvbuf, const int* recvcounts, const int* rdispls, MPI_Datatype recvtype, MPI_Comm comm,
                       const CollOptions&) {
  const int size = comm_facts(comm).size;
  return pairwise_exchange(sendbuf, v_layout(sendcounts, sdispls, sendtype, size), sendtype, recvbuf,
                           v_layout(recvcounts, rdispls, recvtype, size), recvtype, comm);
}

namespace {

// A block of bytes on its way from `source` to `destination`; `data` points into the caller's
// send buffer or into a received message kept alive for the whole call.
struct Parcel {
  std::int64_t source;
  std::int64_t destination;
  std::int64_t length;
  const char* data;
};

constexpr int kParcelHeaderWords = 3;  // source, destination, length

// Message layout: parcel count, then (source, destination, length) per parcel, then the payloads.
void pack_parcels(const std::vector<const Parcel*>& parcels, std::vector<char>& out) {
  std::size_t total = sizeof(std::int64_t) * (1 + kParcelHeaderWords * parcels.size());
  for (const Parcel* p : parcels) total += static_cast<std::size_t>(p->length);
  out.resize(total);
  auto* words = reinterpret_cast<std::int64_t*>(out.data());
  *words++ = static_cast<std::int64_t>(parcels.size());
  for (const Parcel* p : parcels) {
    *words++ = p->source;
    *words++ = p->destination;
    *words++ = p->length;
  }
  char* payload = reinterpret_cast<char*>(words);
  for (const Parcel* p : parcels) {
    if (p->length > 0) std::memcpy(payload, p->data, static_cast<std::size_t>(p->length));
    payload += p->length;
  }
}

void unpack_parcels(const std::vector<char>& in, std::vector<Parcel>& into) {
  const auto* words = reinterpret_cast<const std::int64_t*>(in.data());
  const std::int64_t count = *words++;
  const char* payload = reinterpret_cast<const char*>(words + kParcelHeaderWords * count);
  for (std::int64_t i = 0; i < count; ++i, words += kParcelHeaderWords) {
    into.push_back(Parcel{words[0], words[1], words[2], payload});
    payload += words[2];
  }
}

// Sends a byte buffer to `to` while receiving one of unknown length from `from`: the lengths go
// first (64-bit), then the bytes in pieces within the limit, since forwarded parcels can add up to
// more than MPI's int count.
int exchange_bytes(const std::vector<char>& out, int to, std::vector<char>& in, int from, MPI_Comm comm,
                   const util::MessageLimits& limits) {
  const int64_t out_length = static_cast<int64_t>(out.size());
  int64_t in_length = 0;
  int status = MPI_Sendrecv(&out_length, 1, MPI_INT64_T, to, kCollectiveTag, &in_length, 1, MPI_INT64_T, from,
                            kCollectiveTag, comm, MPI_STATUS_IGNORE);
  if (status != MPI_SUCCESS) return status;
  in.resize(static_cast<std::size_t>(in_length));
  sendrecv(out.data(), out_length, to, in.data(), in_length, from, MPI_BYTE, kCollectiveTag, comm, limits);
  return MPI_SUCCESS;
}

}  // namespace

// Dimension-wise exchange alltoallv over a logical X x Y x Z shape: one pairwise exchange along
// each dimension in turn; in the exchange along dimension d every block moves to the rank whose
// d-th coordinate equals its destination's, so after the last dimension each block has arrived.
// A rank talks to X-1 + Y-1 + Z-1 partners instead of P-1, at the cost of forwarding data.
// Needs gap-free datatypes (bytes are forwarded); other types fall back to pairwise exchange.
int alltoallv_dimwise(const void* sendbuf, const int* sendcounts, const int* sdispls, MPI_Datatype sendtype,
                      void* recvbuf, const int* recvcounts, const int* rdispls, MPI_Datatype recvtype, MPI_Comm comm,
                      const CollOptions& options) {
  if (!is_contiguous(sendtype) || !is_contiguous(recvtype))
    return alltoallv_pairwise(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm,
                              options);
  const auto [rank, size] = comm_facts(comm);
  const Shape3 shape = shape_for(options.shape, size);
  const MPI_Aint send_extent = extent_of(sendtype), recv_extent = extent_of(recvtype);

  std::vector<Parcel> held;
  held.reserve(size);
  for (int dest = 0; dest < size; ++dest)
    held.push_back(
        Parcel{rank, dest, sendcounts[dest] * send_extent, byte_offset(sendbuf, sdispls[dest] * send_extent)});
  std::vector<std::vector<char>> received;  // every incoming message, alive until the end
  std::vector<char> outgoing;
  const auto me = shape.coords_of(rank);
  for (int d = 0; d < 3; ++d) {
    const int extent = shape.n[d];
    if (extent == 1) continue;
    std::vector<std::vector<const Parcel*>> by_coordinate(extent);
    for (const Parcel& p : held) by_coordinate[shape.coords_of(static_cast<int>(p.destination))[d]].push_back(&p);
    std::vector<Parcel> next;
    next.reserve(held.size());
    for (const Parcel* p : by_coordinate[me[d]]) next.push_back(*p);
    for (int step = 1; step < extent; ++step) {
      auto to_coords = me, from_coords = me;
      to_coords[d] = (me[d] + step) % extent;
      from_coords[d] = (me[d] - step + extent) % extent;
      pack_parcels(by_coordinate[to_coords[d]], outgoing);
      received.emplace_back();
      int status = exchange_bytes(outgoing, shape.rank_of(to_coords), received.back(), shape.rank_of(from_coords), comm,
                                  options.limits);
      if (status != MPI_SUCCESS) return status;
      unpack_parcels(received.back(), next);
    }
    held = std::move(next);
  }
  for (const Parcel& p : held) {
    const auto source = static_cast<int>(p.source);
    if (p.length > recvcounts[source] * recv_extent) return MPI_ERR_TRUNCATE;
    if (p.length > 0)
      std::memcpy(byte_offset(recvbuf, rdispls[source] * recv_extent), p.data, static_cast<std::size_t>(p.length));
  }
  return MPI_SUCCESS;
}

}  // namespace g500::comm
