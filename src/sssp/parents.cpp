// The parents of the shortest-path tree after the delta-stepping search (Meyer and Sanders 2003),
// as the Graph500 specification's kernel 3 asks for them. On one-row and one-column grids they
// are read from the sources kept in the final states (parent notes): the candidate that set a
// vertex's final distance came from there. Otherwise from the final distances: for every reached v
// of the row set, a neighbour u of the column set with dist[u] + w == dist[v] and dist[u] < dist[v]
// (a zero-weight edge to an equal distance is taken only from a smaller vertex id, which keeps the
// tree acyclic); the processes of the grid row (Yoo's distribution, Nakao et al. 2021, section
// 4.3) reduce their proposals (maximum id) to the owner.
#include <omp.h>

#include <cstdint>

#include "comm/large_count.hpp"
#include "sssp/select_lists.hpp"
#include "sssp/sssp.hpp"
#include "sssp/state_words.hpp"

namespace g500 {
using namespace sssp_words;

void DistributedSssp::compute_parents(int64_t root, SsspRun& run) {
  const Distribution& d = dist_of_;
  const int ncols = grid_.cols();
  int64_t* owned_parent = renumbered_ ? parent_graph_.data() : parent_.data();
  const int64_t first = d.owned_begin();
  const int64_t root_local = root >= first && root < first + d.block ? graph_.owned_local(root - first) : -1;
  if (parent_notes_)
    parents_from_notes(root_local, owned_parent);
  else
    propose_parents(root, ncols > 1 ? proposal_.data() : owned_parent, run);
#pragma omp barrier
#pragma omp master
  {
    if (!parent_notes_ && ncols > 1) {
      comm::ScopedPhase timed(run.profile, comm::Phase::kAlltoallv);
      comm::reduce_scatter_block(proposal_.data(), owned_parent, d.block, MPI_INT64_T, MPI_MAX, grid_.row_comm(),
                                 grid_.limits());
    }
    if (root_local >= 0) owned_parent[root_local] = root;
  }
}

void DistributedSssp::parents_from_notes(int64_t root_local, int64_t* owned_parent) {
  // Every reached vertex but the root was lowered last by a candidate carrying its source (a
  // vertex left without one keeps -1, which validation reports).
  const Renumbering& ids = graph_.renumbering;
  const LocalId* original = !ids.active() ? nullptr : notes_by_row_ ? ids.row_original.data() : ids.col_original.data();
  constexpr int64_t kSourceAhead = 16;
  const int64_t nowned = dist_of_.block;
#pragma omp for schedule(static)
  for (int64_t v = 0; v < nowned; ++v) {
    if (original && v + kSourceAhead < nowned) {
      const LocalId ahead = source_of(state_[v + kSourceAhead]);
      if (ahead != kUnknownSource) __builtin_prefetch(&original[ahead]);
    }
    const uint64_t state = state_[v];
    const LocalId from = source_of(state);
    if (distance_of(state) == kInfinity || v == root_local || from == kUnknownSource) continue;
    owned_parent[v] = notes_by_row_ ? global_of_row(from) : global_of_col(from);
  }
}

void DistributedSssp::propose_parents(int64_t root, int64_t* proposal, SsspRun& run) {
  const Distribution& d = dist_of_;
  if (grid_.cols() > 1) gather_distances(row_dist_, d.col, grid_.row_comm(), run);
  if (grid_.rows() > 1) gather_distances(col_dist_, d.row, grid_.col_comm(), run);
  const DistanceView row_dist = row_distances(), col_dist = column_distances();
  const float* weights = wg_.weights.data();
  const LocalId* neighbors = graph_.neighbors.data();
  const int64_t* starts = graph_.rows.starts();
  // Every parent and proposal is -1 from prepare(); found parents overwrite it.
  auto reached = [&](int64_t v) { return row_dist[v] < kInfinity; };
  auto find_parent = [&](int64_t v) {
    const float dv = row_dist[v];
    if (dv == 0 && global_of_row(v) == root) return;
    for (int64_t e = starts[v]; e < starts[v + 1]; ++e) {
      const float w = weights[e];
      if (w > dv) break;  // weights ascend and du >= 0: no later edge gives du + w == dv
      const float du = col_dist[neighbors[e]];
      if (candidate(du, w) != dv) continue;
      const int64_t gu = global_of_col(neighbors[e]);
      if (du < dv || gu < global_of_row(v)) {
        proposal[v] = gu;
        return;
      }
    }
  };
  for_selected(row_lists(), col_dist, reached, find_parent);
}

}  // namespace g500
