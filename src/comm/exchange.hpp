// Personalised exchange of 64-bit records: each thread fills per-destination buckets, the buckets
// are packed by destination and sent with one alltoallv (Nakao et al. 2021, Algorithms 2 and 6),
// in rounds when it exceeds the message limit (comm/large_count.hpp).
#pragma once
#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "comm/collectives.hpp"
#include "comm/large_count.hpp"
#include "util/message_limits.hpp"
#include "util/phase_profile.hpp"

namespace g500::comm {

// buckets[thread][destination] -> records. Destinations are ranks of `comm`.
using ThreadBuckets = std::vector<std::vector<std::vector<uint64_t>>>;

struct Received {
  std::vector<uint64_t> records;
  std::vector<int64_t> counts;  // per source rank
  std::vector<int64_t> displs;
};

ThreadBuckets make_thread_buckets(int nthreads, int ndest);
void clear_thread_buckets(ThreadBuckets& buckets);

// Collective over comm; time is charged to Phase::kAlltoallv (packing to kCalculation), and the
// records sent to other ranks to its bytes_sent.
Received exchange(const ThreadBuckets& buckets, MPI_Comm comm, AlltoallvFn alltoallv, util::PhaseProfile& profile,
                  const util::MessageLimits& limits);

// A reusable exchange for the BFS levels: buckets and buffers keep their capacity from level to
// level, and on a one-process communicator the buckets are handed over without any copy.
class Exchanger {
 public:
  struct Piece {
    int source;
    const uint64_t* records;
    size_t count;
  };
  Exchanger(MPI_Comm comm, int nthreads, AlltoallvFn alltoallv, const util::MessageLimits& limits);
  // Empties every bucket (keeping its memory) and returns them for filling.
  ThreadBuckets& start();
  // The buckets as they are (not emptied), for a caller that sends some of them itself.
  ThreadBuckets& start_bucket_view() { return buckets_; }
  // Collective: delivers the buckets (the records for other ranks counted in the profile's
  // alltoallv bytes); returns what arrived as pieces tagged with their source rank, valid until
  // the next start().
  const std::vector<Piece>& deliver(util::PhaseProfile& profile);
  MPI_Comm communicator() const { return comm_; }
  int size() const { return size_; }
  // Frees the memory of the buckets and messages (they grow again as they are filled) and returns
  // its bytes; the pieces of the last deliver() are gone.
  size_t free_buffers();
  // Each of its buffers (the threads' buckets, the messages), in one order: for freeing them
  // between searches (util/held_buffers.hpp).
  template <class Visit>
  void for_each_buffer(Visit visit) {
    for (auto& per_thread : buckets_)
      for (auto& bucket : per_thread) visit(bucket);
    visit(send_);
    visit(recv_);
  }

 private:
  MPI_Comm comm_;
  int size_ = 1, rank_ = 0;
  AlltoallvFn alltoallv_;
  util::MessageLimits limits_;
  ThreadBuckets buckets_;
  std::vector<uint64_t> send_, recv_;
  AlltoallvLayout layout_;
  std::vector<Piece> pieces_;
};

}  // namespace g500::comm
