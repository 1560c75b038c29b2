// The original column-local ids of the columns a process's block has entries in, made at the end
// of kernel 1 (a SetMap, graph/set_map.hpp: kept for the columns in use only where that is
// smaller). A search writes a parent found through a column in its original id.
#pragma once
#include "graph/set_map.hpp"

namespace g500::graph {

struct LocalGraph;
class ProcessGrid;
// End of kernel 1 with `reorder`: the graph's column originals and the original ids of the rows'
// first neighbours (collective over the grid column: the owned tables are taken a block at a time).
void make_column_originals(LocalGraph& g, const ProcessGrid& grid);

}  // namespace g500::graph
