#include "graph/column_index.hpp"

#include <omp.h>

#include <atomic>

#include "graph/sort_by_weight.hpp"
#include "util/atomic_ref.hpp"
#include "util/huge_pages.hpp"

namespace g500::graph {

ColumnIndex build_column_index(const int64_t* row_starts, int64_t nrows, const LocalId* neighbors, const float* weights,
                               int64_t ncols) {
  ColumnIndex index;
  const int64_t nentries = row_starts[nrows];
  // Column lengths, then their prefix sums: the columns' starts.
  util::assign_huge(index.starts, static_cast<size_t>(ncols + 1), int64_t{0});
  int64_t* starts = index.starts.data();
#pragma omp parallel for schedule(static)
  for (int64_t e = 0; e < nentries; ++e)
    util::AtomicRef<int64_t>(starts[neighbors[e] + 1]).fetch_add(1, std::memory_order_relaxed);
  for (int64_t v = 0; v < ncols; ++v) starts[v + 1] += starts[v];
  // Deal every entry to its column (in whatever order the threads get there; the sort fixes it).
  util::assign_huge(index.rows, static_cast<size_t>(nentries), LocalId{0});
  util::assign_huge(index.weights, static_cast<size_t>(nentries), 0.0f);
  std::vector<int64_t> cursor(index.starts.begin(), index.starts.end() - 1);
#pragma omp parallel for schedule(dynamic, 1024)
  for (int64_t u = 0; u < nrows; ++u) {
    for (int64_t e = row_starts[u]; e < row_starts[u + 1]; ++e) {
      const int64_t at = util::AtomicRef<int64_t>(cursor[neighbors[e]]).fetch_add(1, std::memory_order_relaxed);
      index.rows[at] = static_cast<LocalId>(u);
      index.weights[at] = weights[e];
    }
  }
  sort_lists_by_weight(starts, ncols, index.weights.data(), index.rows.data());
  return index;
}

}  // namespace g500::graph
