// Bottom-up step of the 2D BFS (001 Algorithm 3, with the collective exchange of Algorithm 6).
//
// The frontier bitmap of this grid column's vertex range is gathered along the column. The
// unvisited vertices of row set i are visited in C sub-steps: in sub-step s this process examines
// the block owned by P(i, j+s), skipping vertices whose bit is set in the rotating visited bitmap
// of that block, and stops at the first neighbour in the frontier. The bitmap then moves one step
// along the row (sendrecv), so a vertex found here is skipped by the processes after us. The found
// (child, parent) pairs go to their owners in one alltoallv at the end of the level.
#include <omp.h>

#include <bit>
#include <cstring>

#include "bfs/bfs.hpp"
#include "comm/exchange.hpp"

namespace g500 {

DistributedBfs::StepResult DistributedBfs::bottom_up_step(comm::PhaseProfile& profile) {
  using comm::Phase;
  using comm::ScopedPhase;
  const Distribution& d = dist_;
  const int R = d.R, C = d.C, j = d.col;
  const int64_t block_words = d.block / kBitsPerWord;

  // 1. Frontier over the column's vertex range: owned frontier bitmaps gathered along the column.
  {
    ScopedPhase timed(profile, Phase::kAllgatherv);
    std::vector<int> counts(R, static_cast<int>(block_words)), displs(R);
    for (int r = 0; r < R; ++r) displs[r] = static_cast<int>(r * block_words);
    allgatherv_(frontier_bits_.data(), static_cast<int>(block_words), MPI_UINT64_T, column_frontier_.data(),
                counts.data(), displs.data(), MPI_UINT64_T, grid_.col_comm());
  }

  // 2. C sub-steps over the blocks of the row set, the visited bitmap rotating along the row.
  const int nthreads = omp_get_max_threads();
  comm::ThreadBuckets buckets = comm::make_thread_buckets(nthreads, C);
  std::memcpy(rotating_.data(), visited_.data(), block_words * sizeof(uint64_t));
  const uint64_t* frontier = column_frontier_.data();
  int64_t examined = 0;
  for (int s = 0; s < C; ++s) {
    const int target = (j + s) % C;  // the grid-row position owning the block examined now
    const int64_t base = static_cast<int64_t>(target) * d.block;
    {
      ScopedPhase timed(profile, Phase::kCalculation);
#pragma omp parallel num_threads(nthreads) reduction(+ : examined)
      {
        auto& out = buckets[omp_get_thread_num()][target];
#pragma omp for schedule(dynamic, 256)
        for (int64_t w = 0; w < block_words; ++w) {
          uint64_t unvisited = ~rotating_[w];
          while (unvisited) {
            const int bit = std::countr_zero(unvisited);
            unvisited &= unvisited - 1;
            const int64_t offset = w * kBitsPerWord + bit;
            const int64_t v = base + offset;
            const int64_t begin = graph_.row_begin(v), end = graph_.row_end(v);
            for (int64_t e = begin; e < end; ++e) {
              const LocalId u = graph_.neighbors[e];
              if ((frontier[u / kBitsPerWord] >> (u % kBitsPerWord)) & 1U) {
                examined += e - begin + 1;
                out.push_back((static_cast<uint64_t>(offset) << 32) | u);
                rotating_[w] |= uint64_t{1} << bit;
                goto next_vertex;
              }
            }
            examined += end - begin;
          next_vertex:;
          }
        }
      }
    }
    if (s + 1 < C) {
      ScopedPhase timed(profile, Phase::kSendrecv);
      MPI_Sendrecv_replace(rotating_.data(), static_cast<int>(block_words), MPI_UINT64_T, (j + C - 1) % C, 0,
                           (j + 1) % C, 0, grid_.row_comm(), MPI_STATUS_IGNORE);
    }
  }

  // 3. Found pairs to their owners along the row.
  comm::Received in = comm::exchange(buckets, grid_.row_comm(), alltoallv_, profile);
  ScopedPhase timed(profile, Phase::kCalculation);
  std::vector<std::vector<LocalId>> found(nthreads);
#pragma omp parallel num_threads(nthreads)
  {
    auto& mine = found[omp_get_thread_num()];
    for (int src = 0; src < C; ++src) {
      const uint64_t* records = in.records.data() + in.displs[src];
#pragma omp for schedule(static) nowait
      for (int k = 0; k < in.counts[src]; ++k) {
        const LocalId v = static_cast<LocalId>(records[k] >> 32);
        const int64_t u = static_cast<int64_t>(records[k] & 0xffffffffULL);
        visited_.test_and_set_atomic(v);
        parent_[v] = d.global_from_col_local(u, src);
        mine.push_back(v);
      }
    }
  }
  next_.clear();
  for (auto& part : found) next_.insert(next_.end(), part.begin(), part.end());
  return StepResult{examined};
}

}  // namespace g500
