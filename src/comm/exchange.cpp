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

namespace {

// Packs the buckets by destination into `send` (thread 0's records first) and sets the layout's
// send counts; returns the total.
size_t pack_buckets(const ThreadBuckets& buckets, int ndest, std::vector<uint64_t>& send, AlltoallvLayout& layout) {
  layout.send_counts.assign(ndest, 0);
  size_t total = 0;
  for (int r = 0; r < ndest; ++r)
    for (const auto& per_thread : buckets) {
      layout.send_counts[r] += static_cast<int64_t>(per_thread[r].size());
      total += per_thread[r].size();
    }
  if (send.size() < total) send.resize(total);
  uint64_t* out = send.data();
  for (int r = 0; r < ndest; ++r)
    for (const auto& per_thread : buckets) {
      const auto& bucket = per_thread[r];
      if (!bucket.empty()) std::memcpy(out, bucket.data(), bucket.size() * sizeof(uint64_t));
      out += bucket.size();
    }
  return total;
}

// The records of an exchange that leave this rank (PhaseProfile::bytes_sent): all but its own.
int64_t bytes_to_others(size_t total, const AlltoallvLayout& layout, int rank) {
  return (static_cast<int64_t>(total) - layout.send_counts[rank]) * static_cast<int64_t>(sizeof(uint64_t));
}

}  // namespace

Received exchange(const ThreadBuckets& buckets, MPI_Comm comm, AlltoallvFn alltoallv, util::PhaseProfile& profile,
                  const util::MessageLimits& limits) {
  int ndest = 0, rank = 0;
  MPI_Comm_size(comm, &ndest);
  MPI_Comm_rank(comm, &rank);
  std::vector<uint64_t> send;
  AlltoallvLayout layout;
  size_t total = 0;
  {
    util::ScopedPhase timed(profile, util::Phase::kCalculation);
    total = pack_buckets(buckets, ndest, send, layout);
  }
  Received received;
  util::ScopedPhase timed(profile, util::Phase::kAlltoallv);
  timed.count_sent(bytes_to_others(total, layout, rank));
  exchange_counts(layout, comm);
  received.records.resize(layout.recv_total);
  comm::alltoallv(send.data(), received.records.data(), MPI_UINT64_T, layout, comm, alltoallv, limits);
  received.counts = std::move(layout.recv_counts);
  received.displs = std::move(layout.recv_displs);
  return received;
}

Exchanger::Exchanger(MPI_Comm comm, int nthreads, AlltoallvFn alltoallv, const util::MessageLimits& limits)
    : comm_(comm), alltoallv_(alltoallv), limits_(limits) {
  MPI_Comm_size(comm_, &size_);
  MPI_Comm_rank(comm_, &rank_);
  buckets_ = make_thread_buckets(nthreads, size_);
}

size_t Exchanger::free_buffers() {
  pieces_.clear();
  size_t freed = 0;
  for_each_buffer([&](std::vector<uint64_t>& buffer) {
    freed += buffer.capacity() * sizeof(uint64_t);
    std::vector<uint64_t>().swap(buffer);
  });
  return freed;
}

ThreadBuckets& Exchanger::start() {
  clear_thread_buckets(buckets_);
  return buckets_;
}

const std::vector<Exchanger::Piece>& Exchanger::deliver(util::PhaseProfile& profile) {
  pieces_.clear();
  if (size_ == 1) {
    for (const auto& per_thread : buckets_)
      if (!per_thread[0].empty()) pieces_.push_back(Piece{0, per_thread[0].data(), per_thread[0].size()});
    return pieces_;
  }
  size_t total = 0;
  {
    util::ScopedPhase timed(profile, util::Phase::kCalculation);
    total = pack_buckets(buckets_, size_, send_, layout_);
  }
  util::ScopedPhase timed(profile, util::Phase::kAlltoallv);
  timed.count_sent(bytes_to_others(total, layout_, rank_));
  exchange_counts(layout_, comm_);
  if (recv_.size() < static_cast<size_t>(layout_.recv_total)) recv_.resize(layout_.recv_total);
  comm::alltoallv(send_.data(), recv_.data(), MPI_UINT64_T, layout_, comm_, alltoallv_, limits_);
  for (int r = 0; r < size_; ++r)
    if (layout_.recv_counts[r] > 0)
      pieces_.push_back(Piece{r, recv_.data() + layout_.recv_displs[r], static_cast<size_t>(layout_.recv_counts[r])});
  return pieces_;
}

}  // namespace g500::comm
