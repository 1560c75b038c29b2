// The collectives of the search, called by every thread of its parallel region (the master thread
// makes the MPI calls): the reduction over threads and ranks that ends each phase of
// delta-stepping (Meyer and Sanders 2003), the gather of active or settled vertices with their
// distances along the grid row or column, and the gather of the distances of the row and column
// sets, as Yoo's distribution places the vertices (Nakao et al. 2021, section 4.3).
#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "comm/large_count.hpp"
#include "comm/typed.hpp"
#include "sssp/sssp.hpp"
#include "sssp/state_words.hpp"

namespace g500::sssp {
using namespace sssp_words;

void DistributedSssp::reduce_all(double* values, int count, MPI_Op op, SsspRun& run) {
  const int t = omp_get_thread_num();
  std::copy(values, values + count, &reduce_slots_[static_cast<size_t>(t) * kSlotStride]);
#pragma omp barrier
#pragma omp master
  {
    for (int i = 0; i < count; ++i) {
      double r = reduce_slots_[i];
      for (int other = 1; other < nthreads_; ++other) {
        const double v = reduce_slots_[static_cast<size_t>(other) * kSlotStride + i];
        r = op == MPI_MIN ? std::min(r, v) : r + v;
      }
      reduce_result_[i] = r;
    }
    if (grid_.size() > 1) {
      util::ScopedPhase timed(run.profile, util::Phase::kImbalance);
      const comm::Communicator world(grid_.world(), grid_.limits());
      const std::span<double> result(reduce_result_, static_cast<size_t>(count));
      if (op == MPI_MIN)
        world.min_in_place(result);
      else
        world.sum_in_place(result);
    }
  }
#pragma omp barrier
  std::copy(reduce_result_, reduce_result_ + count, values);
}

int64_t DistributedSssp::gather_records(std::vector<graph::LocalId> ThreadState::*list, uint64_t id_base, MPI_Comm comm,
                                        int comm_size, SsspRun& run) {
  const int t = omp_get_thread_num();
  ThreadState& ts = threads_[t];
  std::vector<graph::LocalId>& mine = ts.*list;
  reduce_slots_[static_cast<size_t>(t) * kSlotStride + 4] = static_cast<double>(mine.size());
#pragma omp barrier
  int64_t first = 0, total = 0;
  for (int other = 0; other < nthreads_; ++other) {
    const auto n = static_cast<int64_t>(reduce_slots_[static_cast<size_t>(other) * kSlotStride + 4]);
    if (other < t) first += n;
    total += n;
  }
  if (total > static_cast<int64_t>(records_.size())) {  // rare: a placing race can list a vertex twice
#pragma omp barrier
#pragma omp master
    records_.resize(static_cast<size_t>(total));
#pragma omp barrier
  }
  uint64_t* out = records_.data() + first;
  for (graph::LocalId x : mine) *out++ = record_of(id_base + x, distance(x));
#pragma omp barrier
#pragma omp master
  {
    gathered_view_ = &records_;
    reduce_result_[3] = static_cast<double>(total);
    if (comm_size > 1) {
      util::ScopedPhase timed(run.profile, util::Phase::kAllgatherv);
      const std::vector<int64_t> counts = comm::allgather_counts(total, comm);
      int64_t all = 0;
      for (int64_t c : counts) all += c;
      gathered_.resize(all);
      comm::allgatherv(records_.data(), gathered_.data(), counts, MPI_UINT64_T, comm, allgatherv_, grid_.limits());
      gathered_view_ = &gathered_;
      reduce_result_[3] = static_cast<double>(all);
    }
  }
#pragma omp barrier
  return static_cast<int64_t>(reduce_result_[3]);
}

void DistributedSssp::gather_distances(std::vector<float>& out, int index, MPI_Comm comm, SsspRun& run) {
  float* mine = out.data() + static_cast<int64_t>(index) * dist_of_.block;
#pragma omp for schedule(static)
  for (int64_t x = 0; x < dist_of_.block; ++x) mine[x] = distance(static_cast<graph::LocalId>(x));
#pragma omp master
  {
    util::ScopedPhase timed(run.profile, util::Phase::kAllgatherv);
    comm::allgather(MPI_IN_PLACE, out.data(), dist_of_.block, MPI_FLOAT, comm, grid_.limits());
  }
#pragma omp barrier
}

}  // namespace g500::sssp
