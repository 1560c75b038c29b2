// Blocking MPI calls that give the core away while they wait, for MPI tests run with more ranks
// than cores under an MPI library whose waiting spins without yielding (MPICH 4: its ch4 device
// never calls sched_yield, whatever MPIR_CVAR_POLLS_BEFORE_YIELD says; Open MPI yields with
// mpi_yield_when_idle). A spinning rank holds its core for a whole time slice while the rank it
// waits for waits for a core: a SCALE 8 BFS on 4 ranks and 2 cores took 26 s instead of 0.1 s.
// Each call here starts the nonblocking form of the call and tests it, yielding the core between
// tests and, when the wait goes on, sleeping.
// tests/CMakeLists.txt links this file into the MPI test programs of such builds (the profiling
// interface: these definitions come before the library's, which they reach through PMPI_).
#include <mpi.h>
#include <sched.h>
#include <time.h>

namespace {

// A wait yields the core this many times, then sleeps between tests: with more ranks than cores,
// sched_yield() alone lets waiting ranks take turns on the cores with the ranks they wait for.
constexpr int kYieldsBeforeSleeping = 64;
constexpr long kSleepNanoseconds = 20000;  // 20 us: a message's latency on a loaded machine

// Tests until `test(done)` says the operation is complete, giving the core away in between.
template <class Test>
int yield_until_done(Test test) {
  int done = 0;
  for (int tests = 0;; ++tests) {
    const int status = test(done);
    if (status != MPI_SUCCESS || done) return status;
    if (tests < kYieldsBeforeSleeping) {
      sched_yield();
    } else {
      const timespec nap{0, kSleepNanoseconds};
      nanosleep(&nap, nullptr);
    }
  }
}

int wait(MPI_Request& request, MPI_Status* status) {
  return yield_until_done([&](int& done) { return PMPI_Test(&request, &done, status); });
}

// Waits for the request a nonblocking call started (`started` its return code).
int finish(int started, MPI_Request& request) {
  return started != MPI_SUCCESS ? started : wait(request, MPI_STATUS_IGNORE);
}

}  // namespace

extern "C" {

int MPI_Wait(MPI_Request* request, MPI_Status* status) { return wait(*request, status); }

int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[]) {
  return yield_until_done([&](int& done) { return PMPI_Testall(count, requests, &done, statuses); });
}

int MPI_Waitany(int count, MPI_Request requests[], int* index, MPI_Status* status) {
  return yield_until_done([&](int& done) { return PMPI_Testany(count, requests, index, &done, status); });
}

int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status* status) {
  return yield_until_done([&](int& done) { return PMPI_Iprobe(source, tag, comm, &done, status); });
}

int MPI_Send(const void* buffer, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  MPI_Request request;
  return finish(PMPI_Isend(buffer, count, type, dest, tag, comm, &request), request);
}

int MPI_Recv(void* buffer, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Status* status) {
  MPI_Request request;
  const int started = PMPI_Irecv(buffer, count, type, source, tag, comm, &request);
  return started != MPI_SUCCESS ? started : wait(request, status);
}

int MPI_Sendrecv(const void* send, int send_count, MPI_Datatype send_type, int dest, int send_tag, void* receive,
                 int receive_count, MPI_Datatype receive_type, int source, int receive_tag, MPI_Comm comm,
                 MPI_Status* status) {
  MPI_Request requests[2];
  int started = PMPI_Irecv(receive, receive_count, receive_type, source, receive_tag, comm, &requests[0]);
  if (started != MPI_SUCCESS) return started;
  started = PMPI_Isend(send, send_count, send_type, dest, send_tag, comm, &requests[1]);
  if (started != MPI_SUCCESS) return started;
  MPI_Status statuses[2];
  const int finished = MPI_Waitall(2, requests, statuses);
  if (status != MPI_STATUS_IGNORE) *status = statuses[0];
  return finished;
}

int MPI_Barrier(MPI_Comm comm) {
  MPI_Request request;
  return finish(PMPI_Ibarrier(comm, &request), request);
}

int MPI_Bcast(void* buffer, int count, MPI_Datatype type, int root, MPI_Comm comm) {
  MPI_Request request;
  return finish(PMPI_Ibcast(buffer, count, type, root, comm, &request), request);
}

int MPI_Allreduce(const void* send, void* receive, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  MPI_Request request;
  return finish(PMPI_Iallreduce(send, receive, count, type, op, comm, &request), request);
}

int MPI_Exscan(const void* send, void* receive, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  MPI_Request request;
  return finish(PMPI_Iexscan(send, receive, count, type, op, comm, &request), request);
}

int MPI_Reduce_scatter_block(const void* send, void* receive, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  MPI_Request request;
  return finish(PMPI_Ireduce_scatter_block(send, receive, count, type, op, comm, &request), request);
}

int MPI_Allgather(const void* send, int send_count, MPI_Datatype send_type, void* receive, int receive_count,
                  MPI_Datatype receive_type, MPI_Comm comm) {
  MPI_Request request;
  return finish(PMPI_Iallgather(send, send_count, send_type, receive, receive_count, receive_type, comm, &request),
                request);
}

int MPI_Allgatherv(const void* send, int send_count, MPI_Datatype send_type, void* receive, const int receive_counts[],
                   const int displacements[], MPI_Datatype receive_type, MPI_Comm comm) {
  MPI_Request request;
  return finish(PMPI_Iallgatherv(send, send_count, send_type, receive, receive_counts, displacements, receive_type,
                                 comm, &request),
                request);
}

int MPI_Gatherv(const void* send, int send_count, MPI_Datatype send_type, void* receive, const int receive_counts[],
                const int displacements[], MPI_Datatype receive_type, int root, MPI_Comm comm) {
  MPI_Request request;
  return finish(PMPI_Igatherv(send, send_count, send_type, receive, receive_counts, displacements, receive_type, root,
                              comm, &request),
                request);
}

int MPI_Alltoall(const void* send, int send_count, MPI_Datatype send_type, void* receive, int receive_count,
                 MPI_Datatype receive_type, MPI_Comm comm) {
  MPI_Request request;
  return finish(PMPI_Ialltoall(send, send_count, send_type, receive, receive_count, receive_type, comm, &request),
                request);
}

int MPI_Alltoallv(const void* send, const int send_counts[], const int send_displacements[], MPI_Datatype send_type,
                  void* receive, const int receive_counts[], const int receive_displacements[],
                  MPI_Datatype receive_type, MPI_Comm comm) {
  MPI_Request request;
  return finish(PMPI_Ialltoallv(send, send_counts, send_displacements, send_type, receive, receive_counts,
                                receive_displacements, receive_type, comm, &request),
                request);
}

}  // extern "C"
