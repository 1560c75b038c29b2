#include "graph/column_index.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <bit>

#include "util/huge_pages.hpp"

namespace g500 {

ColumnIndex build_column_index(const int64_t* row_starts, int64_t nrows, const LocalId* neighbors,
                               const float* weights, int64_t ncols) {
  ColumnIndex index;
  const int64_t nentries = row_starts[nrows];
  // Column lengths, then their prefix sums: the columns' starts.
  assign_huge(index.starts, static_cast<size_t>(ncols + 1), int64_t{0});
  int64_t* starts = index.starts.data();
#pragma omp parallel for schedule(static)
  for (int64_t e = 0; e < nentries; ++e)
    std::atomic_ref<int64_t>(starts[neighbors[e] + 1]).fetch_add(1, std::memory_order_relaxed);
  for (int64_t v = 0; v < ncols; ++v) starts[v + 1] += starts[v];
  // Deal every entry to its column (in whatever order the threads get there; the sort fixes it).
  assign_huge(index.rows, static_cast<size_t>(nentries), LocalId{0});
  assign_huge(index.weights, static_cast<size_t>(nentries), 0.0f);
  std::vector<int64_t> cursor(index.starts.begin(), index.starts.end() - 1);
#pragma omp parallel for schedule(dynamic, 1024)
  for (int64_t u = 0; u < nrows; ++u) {
    for (int64_t e = row_starts[u]; e < row_starts[u + 1]; ++e) {
      const int64_t at = std::atomic_ref<int64_t>(cursor[neighbors[e]]).fetch_add(1, std::memory_order_relaxed);
      index.rows[at] = static_cast<LocalId>(u);
      index.weights[at] = weights[e];
    }
  }
  // Sort every column by (weight, row), one 64-bit key per entry (weights >= 0 order as their
  // bits; kernel 1 has made -0 into +0).
#pragma omp parallel
  {
    std::vector<uint64_t> column;
#pragma omp for schedule(dynamic, 256)
    for (int64_t v = 0; v < ncols; ++v) {
      const int64_t b = starts[v], e = starts[v + 1];
      if (e - b < 2) continue;
      column.resize(e - b);
      for (int64_t k = b; k < e; ++k)
        column[k - b] = static_cast<uint64_t>(std::bit_cast<uint32_t>(index.weights[k])) << 32 | index.rows[k];
      std::sort(column.begin(), column.end());
      for (int64_t k = b; k < e; ++k) {
        index.weights[k] = std::bit_cast<float>(static_cast<uint32_t>(column[k - b] >> 32));
        index.rows[k] = static_cast<LocalId>(column[k - b]);
      }
    }
  }
  return index;
}

}  // namespace g500
