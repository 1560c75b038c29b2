// Personalised exchange of 64-bit records: each thread fills per-destination buckets, the buckets
// are packed by destination and sent with one alltoallv (001 Algorithms 2 and 6).
#pragma once
#include <mpi.h>

#include <cstdint>
#include <vector>

#include "comm/collectives.hpp"
#include "comm/phase_profile.hpp"

namespace g500::comm {

// buckets[thread][destination] -> records. Destinations are ranks of `comm`.
using ThreadBuckets = std::vector<std::vector<std::vector<uint64_t>>>;

struct Received {
  std::vector<uint64_t> records;
  std::vector<int> counts;   // per source rank
  std::vector<int> displs;
};

ThreadBuckets make_thread_buckets(int nthreads, int ndest);
void clear_thread_buckets(ThreadBuckets& buckets);

// Collective over comm; time is charged to Phase::kAlltoallv (packing to kCalculation).
Received exchange(const ThreadBuckets& buckets, MPI_Comm comm, AlltoallvFn alltoallv, PhaseProfile& profile);

}  // namespace g500::comm
