#include "comm/exchange.hpp"

#include <algorithm>
#include <cstring>

namespace g500::comm {

// Every push_back writes its bucket's header, so two threads' headers must not share a cache
// line: each thread's header array gets unused capacity behind it, which keeps the next thread's
// allocation (and its headers) at least that far away.
constexpr size_t kHeaderPadding = 2 * 64 / sizeof(std::vector<uint64_t>) + 1;

ThreadBuckets make_thread_buckets(int nthreads, int ndest) {
  ThreadBuckets buckets(nthreads);
  for (auto& per_thread : buckets) {
    per_thread.reserve(static_cast<size_t>(ndest) + kHeaderPadding);
    per_thread.resize(ndest);
  }
  return buckets;
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

Exchanger::Exchanger(MPI_Comm comm, int nthreads, AlltoallvFn alltoallv)
    : comm_(comm), alltoallv_(alltoallv) {
  MPI_Comm_size(comm_, &size_);
  buckets_ = make_thread_buckets(nthreads, size_);
  send_counts_.assign(size_, 0);
  send_displs_.assign(size_, 0);
  recv_counts_.assign(size_, 0);
  recv_displs_.assign(size_, 0);
}

ThreadBuckets& Exchanger::start() {
  clear_thread_buckets(buckets_);
  return buckets_;
}

const std::vector<Exchanger::Piece>& Exchanger::deliver(PhaseProfile& profile) {
  pieces_.clear();
  if (size_ == 1) {
    for (const auto& per_thread : buckets_)
      if (!per_thread[0].empty()) pieces_.push_back(Piece{0, per_thread[0].data(), per_thread[0].size()});
    return pieces_;
  }
  {
    ScopedPhase timed(profile, Phase::kCalculation);
    size_t total = 0;
    for (int r = 0; r < size_; ++r) {
      send_displs_[r] = static_cast<int>(total);
      for (const auto& per_thread : buckets_) total += per_thread[r].size();
      send_counts_[r] = static_cast<int>(total - send_displs_[r]);
    }
    if (send_.size() < total) send_.resize(total);
    for (int r = 0; r < size_; ++r) {
      uint64_t* out = send_.data() + send_displs_[r];
      for (const auto& per_thread : buckets_) {
        const auto& bucket = per_thread[r];
        if (!bucket.empty()) std::memcpy(out, bucket.data(), bucket.size() * sizeof(uint64_t));
        out += bucket.size();
      }
    }
  }
  ScopedPhase timed(profile, Phase::kAlltoallv);
  MPI_Alltoall(send_counts_.data(), 1, MPI_INT, recv_counts_.data(), 1, MPI_INT, comm_);
  size_t total = 0;
  for (int r = 0; r < size_; ++r) {
    recv_displs_[r] = static_cast<int>(total);
    total += recv_counts_[r];
  }
  if (recv_.size() < total) recv_.resize(total);
  alltoallv_(send_.data(), send_counts_.data(), send_displs_.data(), MPI_UINT64_T, recv_.data(), recv_counts_.data(),
             recv_displs_.data(), MPI_UINT64_T, comm_);
  for (int r = 0; r < size_; ++r)
    if (recv_counts_[r] > 0) pieces_.push_back(Piece{r, recv_.data() + recv_displs_[r], static_cast<size_t>(recv_counts_[r])});
  return pieces_;
}

}  // namespace g500::comm
