#include "comm/exchange.hpp"

#include <algorithm>
#include <cstring>

namespace g500::comm {

ThreadBuckets make_thread_buckets(int nthreads, int ndest) {
  return ThreadBuckets(nthreads, std::vector<std::vector<uint64_t>>(ndest));
}

void clear_thread_buckets(ThreadBuckets& buckets) {
  for (auto& per_thread : buckets)
    for (auto& bucket : per_thread) bucket.clear();
}

Received exchange(const ThreadBuckets& buckets, MPI_Comm comm, AlltoallvFn alltoallv, PhaseProfile& profile) {
  int ndest = 0;
  MPI_Comm_size(comm, &ndest);
  std::vector<int> send_counts(ndest, 0), send_displs(ndest, 0);
  std::vector<uint64_t> send;
  {
    ScopedPhase timed(profile, Phase::kCalculation);
    int64_t total = 0;
    for (int r = 0; r < ndest; ++r) {
      send_displs[r] = static_cast<int>(total);
      for (const auto& per_thread : buckets) total += static_cast<int64_t>(per_thread[r].size());
      send_counts[r] = static_cast<int>(total - send_displs[r]);
    }
    send.resize(total);
    for (int r = 0; r < ndest; ++r) {
      uint64_t* out = send.data() + send_displs[r];
      for (const auto& per_thread : buckets) {
        const auto& bucket = per_thread[r];
        if (!bucket.empty()) std::memcpy(out, bucket.data(), bucket.size() * sizeof(uint64_t));
        out += bucket.size();
      }
    }
  }
  Received received;
  received.counts.assign(ndest, 0);
  received.displs.assign(ndest, 0);
  ScopedPhase timed(profile, Phase::kAlltoallv);
  MPI_Alltoall(send_counts.data(), 1, MPI_INT, received.counts.data(), 1, MPI_INT, comm);
  int64_t total = 0;
  for (int r = 0; r < ndest; ++r) {
    received.displs[r] = static_cast<int>(total);
    total += received.counts[r];
  }
  received.records.resize(total);
  alltoallv(send.data(), send_counts.data(), send_displs.data(), MPI_UINT64_T, received.records.data(),
            received.counts.data(), received.displs.data(), MPI_UINT64_T, comm);
  return received;
}

}  // namespace g500::comm
