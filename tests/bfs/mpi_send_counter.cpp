#include "mpi_send_counter.hpp"

#include <mpi.h>

namespace g500::testing {
namespace {

bool recording = false;
std::vector<SendBytes> segments;

int64_t type_bytes(MPI_Datatype type) {
  int size = 0;
  PMPI_Type_size(type, &size);
  return size;
}

int rank_in(MPI_Comm comm) {
  int rank = 0;
  PMPI_Comm_rank(comm, &rank);
  return rank;
}

int size_of(MPI_Comm comm) {
  int size = 0;
  PMPI_Comm_size(comm, &size);
  return size;
}

void add(SendKind kind, int64_t bytes) {
  if (recording) segments.back()[static_cast<size_t>(kind)] += bytes;
}

void add_point_to_point(int count, MPI_Datatype type, int dest, MPI_Comm comm) {
  if (!recording || dest == MPI_PROC_NULL || dest == rank_in(comm)) return;
  const bool one_word = count == 1 && type == MPI_INT64_T;
  add(one_word ? SendKind::kOneWord : SendKind::kPointToPoint, count * type_bytes(type));
}

}  // namespace

void start_send_counter() {
  segments.assign(1, SendBytes{});
  recording = true;
}

void stop_send_counter() { recording = false; }

const std::vector<SendBytes>& send_counter_segments() { return segments; }

}  // namespace g500::testing

using g500::testing::SendKind;

extern "C" {

int MPI_Allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                   const int displs[], MPI_Datatype recvtype, MPI_Comm comm) {
  if (g500::testing::recording) {
    const int rank = g500::testing::rank_in(comm);
    const int64_t own = sendbuf == MPI_IN_PLACE ? recvcounts[rank] * g500::testing::type_bytes(recvtype)
                                                : sendcount * g500::testing::type_bytes(sendtype);
    g500::testing::add(SendKind::kAllgatherv, own * (g500::testing::size_of(comm) - 1));
  }
  return PMPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm);
}

int MPI_Alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                  void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  if (g500::testing::recording) {
    const int rank = g500::testing::rank_in(comm), size = g500::testing::size_of(comm);
    const bool in_place = sendbuf == MPI_IN_PLACE;
    const int* counts = in_place ? recvcounts : sendcounts;
    int64_t elements = 0;
    for (int r = 0; r < size; ++r)
      if (r != rank) elements += counts[r];
    g500::testing::add(SendKind::kAlltoallv, elements * g500::testing::type_bytes(in_place ? recvtype : sendtype));
  }
  return PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm);
}

int MPI_Sendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void* recvbuf,
                 int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Status* status) {
  g500::testing::add_point_to_point(sendcount, sendtype, dest, comm);
  return PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source, recvtag, comm,
                       status);
}

int MPI_Send(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  g500::testing::add_point_to_point(count, type, dest, comm);
  return PMPI_Send(buf, count, type, dest, tag, comm);
}

int MPI_Isend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* request) {
  g500::testing::add_point_to_point(count, type, dest, comm);
  return PMPI_Isend(buf, count, type, dest, tag, comm, request);
}

int MPI_Barrier(MPI_Comm comm) {
  const int status = PMPI_Barrier(comm);
  if (g500::testing::recording) g500::testing::segments.emplace_back();
  return status;
}

}  // extern "C"
