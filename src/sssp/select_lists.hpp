// DistributedSssp::for_selected(): the pass of the pull heavy phases of delta-stepping (Meyer and
// Sanders 2003; pull as in Chakaravarthy et al. 2014) and of the parent search over the lists of
// an edge index, with its prefetching, and the edge lists and distances those passes read. A
// template for the visits of those callers, so in a header. Internal to src/sssp.
#pragma once
#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "sssp/sssp.hpp"

namespace g500::sssp {

// The lists and distances the passes read; inline in the passes, as in the one-file search.
inline DistanceView DistributedSssp::row_distances() const {
  return grid_.cols() > 1 ? DistanceView::of_floats(row_dist_.data()) : DistanceView::of_states(state_.data());
}

inline DistanceView DistributedSssp::column_distances() const {
  return grid_.rows() > 1 ? DistanceView::of_floats(col_dist_.data()) : DistanceView::of_states(state_.data());
}

inline EdgeLists DistributedSssp::row_lists() const {
  return {graph_.rows.plain_starts(), graph_.neighbors.data(), wg_.weights.data(), dist_of_.row_set_size()};
}

inline EdgeLists DistributedSssp::column_lists() const {
  const graph::ColumnIndex& c = wg_.columns;
  return {c.starts.data(), c.rows.data(), c.weights.data(), dist_of_.col_set_size()};
}

template <class Select, class Visit>
void DistributedSssp::for_selected(const EdgeLists& lists, DistanceView target_dist, Select select, Visit visit) {
  const int64_t nrows = lists.size;
  const float* weights = lists.weights;
  const graph::LocalId* neighbors = lists.targets;
  const int64_t* starts = lists.starts;
  constexpr int64_t kChunk = 2048, kRowAhead = 12, kTargetAhead = 6;
  std::vector<int64_t>& rows = threads_[omp_get_thread_num()].selected_rows;
  rows.resize(kChunk);
  const int64_t nchunks = (nrows + kChunk - 1) / kChunk;
#pragma omp for schedule(dynamic, 1) nowait
  for (int64_t c = 0; c < nchunks; ++c) {
    // Without a branch: which lists are selected is not predictable.
    int64_t n = 0;
    const int64_t end = std::min(nrows, (c + 1) * kChunk);
    for (int64_t u = c * kChunk; u < end; ++u) {
      rows[n] = u;
      n += select(u) ? 1 : 0;
    }
    for (int64_t i = 0; i < n; ++i) {
      if (i + kRowAhead < n) {
        const int64_t s = starts[rows[i + kRowAhead]];
        __builtin_prefetch(&weights[s]);
        __builtin_prefetch(&neighbors[s]);
      }
      if (i + kTargetAhead < n) {
        const int64_t u = rows[i + kTargetAhead], s = starts[u], m = starts[u + 1] - s;
        if (m > 0) __builtin_prefetch(target_dist.address(neighbors[s]));
        if (m > 1) __builtin_prefetch(target_dist.address(neighbors[s + 1]));
      }
      visit(rows[i]);
    }
  }
}

}  // namespace g500::sssp
