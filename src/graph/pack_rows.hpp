// Kernel 1's last step with `compress`: the finished CSR's neighbour array becomes packed rows
// (graph/packed_rows.hpp), one byte or two per entry instead of four, so a node holds a larger
// graph (the memory side of Nakao et al. 2021, sections 4.1-4.2: like BCSR's row index, the
// adjacency is stored by what the BFS needs to read, not as a plain array).
#pragma once
#include <vector>

#include "graph/local_graph.hpp"

namespace g500 {

// How kernel 1 left every row's neighbours.
struct RowOrder {
  bool by_key = true;  // ascending sort key (`degree-sort`); false: arrival order
  // The sort keys' tables when the keys are not the column ids; empty when they are.
  std::vector<LocalId> key_of_column, column_of_key;
};

// Replaces g.neighbors by g.packed (freed as it is packed) and keeps the key tables there. Rows
// in arrival order have no key order to keep: they are packed sorted by column id, and their
// first neighbours (first_neighbors, first_neighbors_original) become the smallest column.
void pack_rows(LocalGraph& g, RowOrder order);

}  // namespace g500
