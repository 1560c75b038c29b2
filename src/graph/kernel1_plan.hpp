// Kernel 1 between its first pass and the fill (graph/build_graph.cpp): the rows' plan from their
// lengths (the owned degrees, the degree-order renumbering of Nakao et al. 2021, section 4.2, and
// the row index of section 4.1) and the columns' sort keys and values the fill looks up.
#pragma once
#include <optional>

#include "graph/column_keys.hpp"
#include "graph/grid.hpp"
#include "graph/local_graph.hpp"
#include "graph/row_lengths.hpp"
#include "graph/set_map.hpp"
#include "util/bitmap.hpp"

namespace g500::graph::kernel1 {

// Original row-local id -> the graph's, for the rows with edges: with `reorder` kept as the
// columns' values are (graph/set_map.hpp), the owned map itself on a grid of one column; none
// without it (the ids stay).
using RowMap = std::optional<SetMap>;

// From the row lengths of pass 1 (original row ids): the owned degrees and, with `reorder`, the
// renumbering (on a grid of one column the lengths are the degrees: moved out).
void plan_degrees(LocalGraph& g, RowLengths& lengths, const ProcessGrid& grid, const GraphOptions& options);
// After plan_degrees, from the same lengths: the row index in the graph's ids. Returns the rows'
// map for placing the entries.
RowMap plan_rows(LocalGraph& g, RowLengths lengths, const ProcessGrid& grid, const GraphOptions& options);

// With `reorder` on several grid columns, after the fill: the original id of each row slot (the
// rows with edges, graph/renumbering.hpp), a block of the row set at a time from its owner. Made
// once the fill's maps are freed, so they and this table are never held together.
void index_row_originals(LocalGraph& g, const ProcessGrid& grid);

// The sort keys of the columns with `degree-sort` (graph/column_keys.hpp): with `reorder` the
// renumbered blocks interleaved, from the ids alone; without it the order of the column set's
// degrees, gathered along the grid column (and over the world with the row-major layout).
ColumnKeys neighbor_order(const LocalGraph& g, const ProcessGrid& grid, const GraphOptions& options);

// The fill's value of every column (original column-local id): sorted, its key; unsorted, its id
// in the graph; none where that is the original id. With `reorder` the renumbered ids come from
// the columns' owners a block at a time, kept on a grid of several rows for the columns pass 1 met
// only (graph/set_map.hpp); on a grid of one row the column set is the owned block, whose map
// is the renumbering's own. Without it, the degree order's keys, a table of the column set (the
// `--disable reorder` ablation).
std::optional<SetMap> fill_column_values(const LocalGraph& g, const ProcessGrid& grid, const GraphOptions& options,
                                         const ColumnKeys& order, const util::Bitmap& columns_met);

}  // namespace g500::graph::kernel1
