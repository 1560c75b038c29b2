// The parents of the shortest-path tree after the delta-stepping search (Meyer and Sanders 2003),
// as the Graph500 specification's kernel 3 asks for them. On one-row and one-column grids they
// are read from the sources kept in the final states (parent notes): the candidate that set a
// vertex's final distance came from there. Otherwise from the final distances: for every reached v
// of the row set, a neighbour u of the column set with dist[u] + w == dist[v] and dist[u] < dist[v]
// (a zero-weight edge to an equal distance is taken only from a smaller vertex id, which keeps the
// tree acyclic); the processes of the grid row (Yoo's distribution, Nakao et al. 2021, section
// 4.3) reduce their proposals (maximum id) to the owner. Either way the search ends by writing its
// result, distances and parents, by original offset: the output the Graph500 timer waits for.
#include <omp.h>

#include <cstdint>

#include "comm/large_count.hpp"
#include "sssp/select_lists.hpp"
#include "sssp/sssp.hpp"
#include "sssp/state_words.hpp"

namespace g500::sssp {
using namespace sssp_words;

void DistributedSssp::compute_parents(int64_t root, SsspRun& run) {
  const graph::Distribution& d = dist_of_;
  const int64_t first = d.owned_begin();
  const int64_t root_local = root >= first && root < first + d.block ? graph_.owned_local(root - first) : -1;
  if (parent_notes_) {
    write_result_from_notes(root, root_local);
    return;
  }
  int64_t* owned_parent = renumbered_ ? parent_graph_.data() : parent_.data();
  const int ncols = grid_.cols();
  propose_parents(root, ncols > 1 ? proposal_.data() : owned_parent, run);
#pragma omp barrier
#pragma omp master
  {
    if (ncols > 1) {
      util::ScopedPhase timed(run.profile, util::Phase::kAlltoallv);
      comm::reduce_scatter_block(proposal_.data(), owned_parent, d.block, MPI_INT64_T, MPI_MAX, grid_.row_comm(),
                                 grid_.limits());
    }
    if (root_local >= 0) owned_parent[root_local] = root;
  }
#pragma omp barrier
  write_result(owned_parent);
}

void DistributedSssp::write_result_from_notes(int64_t root, int64_t root_local) {
  // Every reached vertex but the root was lowered last by a candidate carrying its source (a
  // vertex left without one gets -1, which validation reports). Two passes, each with independent
  // random reads only: in the graph's order, every noted source becomes its original row-local or
  // column-local id, in place (the table reads of sources of vertices of like degree fall close
  // together); then, in original order, a gather of the states, each giving its vertex's distance
  // and, by arithmetic alone, its parent's global id.
  const graph::Renumbering& ids = graph_.renumbering;
  const graph::LocalId* original = !ids.active()   ? nullptr
                                   : notes_by_row_ ? ids.row_original.data()
                                                   : ids.col_original.data();
  const int64_t nowned = dist_of_.block;
  if (original) {
    constexpr int64_t kSourceAhead = 16;
#pragma omp for schedule(static)
    for (int64_t v = 0; v < nowned; ++v) {
      if (v + kSourceAhead < nowned) {
        const graph::LocalId ahead = source_of(state_[v + kSourceAhead]);
        if (ahead != kUnknownSource) __builtin_prefetch(&original[ahead]);
      }
      const uint64_t state = state_[v];
      if (source_of(state) != kUnknownSource) state_[v] = state_of(distance_of(state), original[source_of(state)]);
    }
  }
  const graph::LocalId* owned_new = renumbered_ ? ids.owned_new.data() : nullptr;
  const graph::Distribution& d = dist_of_;
  constexpr int64_t kStateAhead = 32;
  const int t = omp_get_thread_num(), nthreads = omp_get_num_threads();
  const int64_t lo = nowned * t / nthreads, hi = nowned * (t + 1) / nthreads;
  for (int64_t o = lo; o < hi; ++o) {
    if (owned_new && o + kStateAhead < hi) __builtin_prefetch(&state_[owned_new[o + kStateAhead]]);
    const uint64_t state = state_[owned_at(owned_new, o)];
    const graph::LocalId from = source_of(state);
    dist_out_[o] = static_cast<double>(distance_of(state));  // infinity (kUnreachedDistance) when unreached
    // Branch-free: in original order reached and unreached vertices alternate at random. An
    // unknown source (unreached vertex) gives -1 whatever the sum.
    const int64_t parent = notes_by_row_ ? d.global_from_row_local(from, d.row) : d.global_from_col_local(from, d.col);
    parent_[o] = parent | -static_cast<int64_t>(from == kUnknownSource);
  }
  const int64_t root_offset = root - d.owned_begin();
  if (root_local >= 0 && root_offset >= lo && root_offset < hi) parent_[root_offset] = root;
}

void DistributedSssp::write_result(const int64_t* owned_parent) {
  // The distances, and with a renumbered graph the parents, gathered into original order: sequential
  // writes, reads at random prefetched kAhead offsets ahead.
  const graph::LocalId* owned_new = renumbered_ ? graph_.renumbering.owned_new.data() : nullptr;
  constexpr int64_t kAhead = 16;
  const int64_t nowned = dist_of_.block;
#pragma omp for schedule(static) nowait
  for (int64_t o = 0; o < nowned; ++o) {
    const int64_t v = owned_at(owned_new, o);
    dist_out_[o] = static_cast<double>(distance(static_cast<graph::LocalId>(v)));
    if (!owned_new) continue;
    if (o + kAhead < nowned) {
      __builtin_prefetch(&state_[owned_new[o + kAhead]]);
      __builtin_prefetch(&owned_parent[owned_new[o + kAhead]]);
    }
    parent_[o] = owned_parent[v];
  }
}

void DistributedSssp::propose_parents(int64_t root, int64_t* proposal, SsspRun& run) {
  const graph::Distribution& d = dist_of_;
  if (grid_.cols() > 1) gather_distances(row_dist_, d.col, grid_.row_comm(), run);
  if (grid_.rows() > 1) gather_distances(col_dist_, d.row, grid_.col_comm(), run);
  const DistanceView row_dist = row_distances(), col_dist = column_distances();
  const float* weights = wg_.weights.data();
  const graph::LocalId* neighbors = graph_.neighbors.data();
  const int64_t* starts = graph_.rows.plain_starts();
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

}  // namespace g500::sssp
