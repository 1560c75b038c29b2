// The full degree of each owned vertex from the row lengths kernel 1 counts (Nakao et al. 2021,
// section 3.2: a vertex's edges are spread over the blocks of its grid row).
#pragma once
#include <cstdint>
#include <vector>

#include "graph/distribution.hpp"
#include "graph/grid.hpp"
#include "graph/local_graph.hpp"
#include "graph/row_lengths.hpp"

namespace g500::graph {

// Collective over the grid row: each owned vertex's row lengths (original row-local ids, C x B of
// them) summed over the processes of the grid row, in original owned offsets. On a grid of one
// column the row set is the owned block, so the lengths are the degrees: they are moved, not
// copied, and `lengths` is left empty.
std::vector<int64_t> owned_degrees(RowLengths& lengths, const Distribution& d, const ProcessGrid& grid);

// The last step of kernel 1, from g's owned degrees and renumbering: the tables the searches read
// in the graph's ids (LocalGraph::degree_in_graph_order, without_edges), so that a search's set-up
// only allocates and clears, and everything derived from the graph is in kernel 1's time.
void make_search_tables(LocalGraph& g);

}  // namespace g500::graph
