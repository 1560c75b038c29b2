// Bottom-up step of the 2D BFS (001 Algorithm 3, with the collective exchange of Algorithm 6).
//
// The frontier bitmap of this grid column's vertex range is gathered along the column. The
// unvisited vertices of row set i are visited in C sub-steps: in sub-step s this process examines
// the block owned by P(i, j+s), skipping vertices whose bit is set in the rotating visited bitmap
// of that block (and rows without edges), and stops at the first neighbour in the frontier. The
// bitmap then moves one step along the row (sendrecv), so a vertex found here is skipped by the
// processes after us. Pairs found in our own block (sub-step 0) are applied here; the others go
// to their owners in one alltoallv at the end of the level.
#include <omp.h>

#include <bit>
#include <cstring>

#include "bfs/bfs.hpp"

namespace g500 {

DistributedBfs::StepResult DistributedBfs::bottom_up_step(comm::PhaseProfile& profile) {
  using comm::Phase;
  using comm::ScopedPhase;
  const Distribution& d = dist_;
  const int R = d.R, C = d.C, j = d.col;
  const int64_t block_words = d.block / kBitsPerWord;

  // 1. Frontier over the column's vertex range: owned frontier bitmaps gathered along the column.
  if (R == 1) {
    ScopedPhase timed(profile, Phase::kCalculation);
    std::memcpy(column_frontier_.data(), frontier_bits_.data(), block_words * sizeof(uint64_t));
  } else {
    ScopedPhase timed(profile, Phase::kAllgatherv);
    std::vector<int> counts(R, static_cast<int>(block_words)), displs(R);
    for (int r = 0; r < R; ++r) displs[r] = static_cast<int>(r * block_words);
    allgatherv_(frontier_bits_.data(), static_cast<int>(block_words), MPI_UINT64_T, column_frontier_.data(),
                counts.data(), displs.data(), MPI_UINT64_T, grid_.col_comm());
  }

  // 2. C sub-steps over the blocks of the row set, the visited bitmap rotating along the row.
  comm::ThreadBuckets& buckets = row_exchange_.start();
  std::memcpy(rotating_.data(), visited_.data(), block_words * sizeof(uint64_t));
  const uint64_t* frontier = column_frontier_.data();
  const uint64_t* has_edges = graph_.row_has_edges.data();
  const LocalId* neighbors = graph_.neighbors.data();
  const int64_t* row_starts = graph_.row_starts.data();
  int64_t examined = 0;
  for (int s = 0; s < C; ++s) {
    const int target = (j + s) % C;  // the grid-row position owning the block examined now
    const int64_t base = static_cast<int64_t>(target) * d.block;
    const int64_t base_word = base / kBitsPerWord;
    const bool own_block = s == 0;
    {
      ScopedPhase timed(profile, Phase::kCalculation);
#pragma omp parallel num_threads(nthreads_) reduction(+ : examined)
      {
        const int t = omp_get_thread_num();
        auto& out = buckets[t][target];
#pragma omp for schedule(dynamic, 64)
        for (int64_t w = 0; w < block_words; ++w) {
          uint64_t candidates = ~rotating_[w] & has_edges[base_word + w];
          // The first neighbour of each candidate row is usually a cache miss: ask for the rows of
          // the next word now so that those misses overlap with this word's work.
          if (w + 1 < block_words) {
            uint64_t ahead = ~rotating_[w + 1] & has_edges[base_word + w + 1];
            while (ahead) {
              const int bit = std::countr_zero(ahead);
              ahead &= ahead - 1;
              __builtin_prefetch(neighbors + row_starts[base + (w + 1) * kBitsPerWord + bit]);
            }
          }
          uint64_t found_bits = 0;
          while (candidates) {
            const int bit = std::countr_zero(candidates);
            candidates &= candidates - 1;
            const int64_t offset = w * kBitsPerWord + bit;
            const int64_t v = base + offset;
            const int64_t begin = row_starts[v], end = row_starts[v + 1];
            for (int64_t e = begin; e < end; ++e) {
              const LocalId u = neighbors[e];
              if ((frontier[u / kBitsPerWord] >> (u % kBitsPerWord)) & 1U) {
                examined += e - begin + 1;
                found_bits |= uint64_t{1} << bit;
                out.push_back((static_cast<uint64_t>(offset) << 32) | u);
                goto next_vertex;
              }
            }
            examined += end - begin;
          next_vertex:;
          }
          rotating_[w] |= found_bits;
          if (own_block) {
            visited_.data()[w] |= found_bits;
            next_bits_.data()[w] |= found_bits;
          }
        }
        if (own_block) {  // our own block's pairs need no communication
          for (uint64_t record : out) {
            const LocalId v = static_cast<LocalId>(record >> 32);
            parent_[v] = d.global_from_col_local(static_cast<int64_t>(record & 0xffffffffULL), j);
            discover(t, v);
          }
          out.clear();
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
  if (C > 1) {
    const auto& pieces = row_exchange_.deliver(profile);
    ScopedPhase timed(profile, Phase::kCalculation);
#pragma omp parallel num_threads(nthreads_)
    {
      const int t = omp_get_thread_num();
      for (const auto& piece : pieces) {
        const uint64_t* records = piece.records;
        const int64_t count = static_cast<int64_t>(piece.count);
#pragma omp for schedule(static) nowait
        for (int64_t k = 0; k < count; ++k) {
          const LocalId v = static_cast<LocalId>(records[k] >> 32);
          visited_.test_and_set_atomic(v);
          next_bits_.test_and_set_atomic(v);
          parent_[v] = d.global_from_col_local(static_cast<int64_t>(records[k] & 0xffffffffULL), piece.source);
          discover(t, v);
        }
      }
    }
  }
  return StepResult{examined};
}

}  // namespace g500
