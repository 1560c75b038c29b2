// The edges of a weighted 2D block A(i, j) again, indexed by column: for every column-local v,
// its row-local neighbours u with the weights, sorted by (weight, row) as the rows are.
//
// A process of an R x C grid holds the edges between its row set (N / R vertices) and its column
// set (N / C vertices). A pass over the row set is the cost of the SSSP's pull heavy phase
// (sssp/sssp.hpp); when C > R the column set is the smaller one, and with this index the pull
// passes over it instead (on a 1 x C grid every process would otherwise scan all N rows). The
// index doubles the block's memory, so kernel 1 builds it only for such grids.
#pragma once
#include <cstdint>
#include <vector>

#include "graph/local_graph.hpp"

namespace g500::graph {

struct ColumnIndex {
  std::vector<int64_t> starts;  // column-local v's entries are [starts[v], starts[v + 1])
  std::vector<LocalId> rows;    // row-local neighbours
  std::vector<float> weights;   // parallel to rows, ascending within a column

  bool empty() const { return starts.empty(); }
  size_t memory_bytes() const {
    return starts.size() * sizeof(int64_t) + rows.size() * sizeof(LocalId) + weights.size() * sizeof(float);
  }
};

// The transpose of the CSR block (row_starts over nrows rows, neighbours and weights; every
// neighbour < ncols), each column sorted by (weight, row). Uses the OpenMP threads.
ColumnIndex build_column_index(const int64_t* row_starts, int64_t nrows, const LocalId* neighbors, const float* weights,
                               int64_t ncols);

}  // namespace g500::graph
