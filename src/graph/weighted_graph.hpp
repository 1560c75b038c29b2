// Kernel 1 for SSSP (Graph500 3.0 kernel 3): the same 2D block A(i, j) as the BFS graph
// (graph/local_graph.hpp), plus the reference generator's float32 weight of every stored entry.
// This is a separate build so that the unweighted BFS construction stays as it is.
//
// Each row (the neighbours of one row-local v) is sorted by (weight, neighbour): delta-stepping
// then finds its light edges, and the edges that stay inside the current bucket, as a prefix.
// Parallel edges keep their own weights; self-loops are dropped. With `reorder` (the default) the
// vertices of every block are renumbered by degree, as in the BFS graph. Kernel 1 also makes the
// lightest-weight byte of every row and column (graph/light_bounds.hpp) that the search reads.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "graph/column_index.hpp"
#include "graph/light_bounds.hpp"
#include "graph/local_graph.hpp"
#include "util/memory_parts.hpp"

namespace g500::graph {

// The BFS edge source plus a reader that also yields the weights.
struct WeightedEdgeSource {
  EdgeSource edges;
  // Writes edges [local_begin + offset, + count) and their weights (may use threads).
  std::function<void(int64_t offset, int64_t count, gen::Edge* out, float* weights)> read;
};

WeightedEdgeSource kronecker_weighted_edge_source(const gen::KroneckerGenerator& generator, int rank, int nranks);

struct WeightedLocalGraph {
  LocalGraph graph;            // row_starts, neighbors, owned_degree, renumbering, global_directed_edges
  std::vector<float> weights;  // parallel to graph.neighbors
  ColumnIndex columns;         // the block by column; built on grids with more columns than rows
  // The lightest-weight byte of every row (row-local ids) and, with `columns`, of every column.
  std::vector<uint8_t> row_light_bounds;
  std::vector<uint8_t> column_light_bounds;

  size_t memory_bytes() const {
    return graph.memory_bytes() + weights.size() * sizeof(float) + columns.memory_bytes() + row_light_bounds.size() +
           column_light_bounds.size();
  }
};

struct WeightedGraphOptions {
  // Degree-order renumbering inside every block (Nakao et al. 2021, section 4.2, graph/renumbering.hpp): the
  // search's per-vertex arrays and the rows of the busy vertices then share few cache lines and
  // pages. The graph is in the new ids; graph.renumbering translates back.
  bool reorder = true;
  // Hold pass 1's entries in memory for pass 2 when they fit (false: always read and route the
  // edges again, the path taken when memory is short; tests use it at small SCALEs).
  bool keep_entries = true;
  // Build `columns` (graph/column_index.hpp) when the grid has more columns than rows.
  bool column_index = true;
};

// Whether pass 1's entries are kept for pass 2 with `entries` directed entries per process and
// `node_bytes_per_rank` of the node's memory for each of its ranks.
bool weighted_kernel1_keeps_entries(double entries, double node_bytes_per_rank, const WeightedGraphOptions& options);
// The most kernel 1 with weights holds on a process at once, as parts, for the run's plan
// (run/run_plan.hpp): `edges` of the edge list read by the process, `entries` directed entries
// stored by it, its row set of `rows` (the rest: as above). Not counted: the renumbering's tables.
std::vector<util::MemoryPart> weighted_kernel1_parts(double edges, double entries, double rows,
                                                     double node_bytes_per_rank, const WeightedGraphOptions& options);

// Kernel 1 with weights (collective); `observe` as build_local_graph's.
WeightedLocalGraph build_weighted_local_graph(const WeightedEdgeSource& source, const ProcessGrid& grid,
                                              const WeightedGraphOptions& options = {},
                                              const Kernel1Observer& observe = {});

}  // namespace g500::graph
