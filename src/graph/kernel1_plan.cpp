// The rows' plan and the columns' keys and values between kernel 1's first pass and its fill
// (graph/kernel1_plan.hpp).
#include "graph/kernel1_plan.hpp"

#include <mpi.h>

#include <vector>

#include "comm/large_count.hpp"
#include "graph/column_blocks.hpp"
#include "graph/owned_degrees.hpp"
#include "graph/renumbering.hpp"
#include "util/huge_pages.hpp"
#include "util/large_array.hpp"

namespace g500::graph::kernel1 {
namespace {

// The row index from the rows' lengths, in the graph's order.
RowIndex index_rows(const RowLengths& lengths, const GraphOptions& options) {
  if (!lengths.is_whole())
    return RowIndex::from_lengths(
        lengths.size(), [&](int64_t x) { return lengths[x]; }, options.bcsr, options.tuning.bcsr_rows);
  const int64_t* whole = lengths.whole_data();
  return RowIndex::from_lengths(
      lengths.size(), [whole](int64_t x) { return whole[x]; }, options.bcsr, options.tuning.bcsr_rows);
}

// With `reorder` on several grid columns: the row lengths put in the graph's order and the row
// index made from them, a block of the row set at a time from its owner (no table of the whole row
// set). The rows' original ids follow after the fill (index_row_originals).
void index_renumbered_rows(LocalGraph& g, RowLengths lengths, const ProcessGrid& grid, const GraphOptions& options) {
  lengths = std::move(lengths).renumbered(g.renumbering.owned_new.data(), g.dist, grid);
  g.rows = index_rows(lengths, options);
}

}  // namespace

void plan_degrees(LocalGraph& g, RowLengths& lengths, const ProcessGrid& grid, const GraphOptions& options) {
  g.owned_degree = owned_degrees(lengths, g.dist, grid);
  if (options.reorder) g.renumbering = build_renumbering(g.owned_degree);
}

RowMap plan_rows(LocalGraph& g, RowLengths lengths, const ProcessGrid& grid, const GraphOptions& options) {
  const Distribution& d = g.dist;
  const int64_t nrows = d.row_set_size();
  const int64_t* degree =
      g.owned_degree.data();  // on a grid of one column, the row lengths (the row set is the owned block)
  if (!options.reorder) {
    g.rows = d.C == 1 ? RowIndex::from_lengths(
                            nrows, [degree](int64_t x) { return degree[x]; }, options.bcsr, options.tuning.bcsr_rows)
                      : index_rows(lengths, options);
    return std::nullopt;
  }
  Renumbering& ids = g.renumbering;
  if (d.C == 1) {
    ids.row_original = ids.owned_original;
    const LocalId* original = ids.owned_original.data();
    g.rows = RowIndex::from_lengths(
        nrows, [&](int64_t x) { return degree[original[x]]; }, options.bcsr, options.tuning.bcsr_rows);
    return SetMap::whole(ids.owned_new);
  }
  RowMap row_new =
      SetMap::from_blocks(lengths.rows_met(), ids.owned_new.data(), VertexSet::kRows, d, grid, BlockValue::id(d.block));
  index_renumbered_rows(g, std::move(lengths), grid, options);
  return row_new;
}

void index_row_originals(LocalGraph& g, const ProcessGrid& grid) {
  const Distribution& d = g.dist;
  Renumbering& ids = g.renumbering;
  if (!ids.active() || d.C == 1) return;  // one grid column: the owned table itself (plan_rows)
  const int64_t B = d.block;
  const RowIndex& rows = g.rows;
  ids.row_original_by_slot.assign_zeros(rows.num_slots(), B);
  InBlockIds& by_slot = ids.row_original_by_slot;
  auto take_block = [&](int position, const LocalId* owned_original) {
    const int64_t first = position * B;
#pragma omp parallel for schedule(static)
    for (int64_t x = first; x < first + B; ++x) {
      const RowIndex::Extent e = rows.extent(x);
      if (e.end > e.begin || !rows.compressed())
        by_slot.set(e.slot, keep_in_block(static_cast<LocalId>(first + owned_original[x - first]), d));
    }
  };
  for_each_block_table(ids.owned_original.data(), VertexSet::kRows, d, grid, take_block);
}

ColumnKeys neighbor_order(const LocalGraph& g, const ProcessGrid& grid, const GraphOptions& options) {
  const Distribution& d = g.dist;
  if (options.reorder) return ColumnKeys::interleaved(d.R, d.block);
  std::vector<int64_t> column_degree(d.col_set_size());
  std::vector<int64_t> hosted(d.columns_aligned() ? 0 : d.block);
  comm::allgather(hosted_column_block(g.owned_degree.data(), hosted.data(), d.block, MPI_INT64_T, d, grid),
                  column_degree.data(), d.block, MPI_INT64_T, grid.col_comm(), grid.limits());
  return ColumnKeys::tabled(degree_order(column_degree));  // stable: ties keep ascending ids
}

std::optional<SetMap> fill_column_values(const LocalGraph& g, const ProcessGrid& grid, const GraphOptions& options,
                                         const ColumnKeys& order, const util::Bitmap& columns_met) {
  const Distribution& d = g.dist;
  if (options.reorder) {
    if (d.R == 1) return SetMap::whole(g.renumbering.owned_new);  // the keys are the ids with R = 1
    // The interleaved key of the column at `position`, new offset o, is o * R + position.
    const BlockValue value = options.degree_sort ? BlockValue{d.R, 1} : BlockValue::id(d.block);
    return SetMap::from_blocks(columns_met, g.renumbering.owned_new.data(), VertexSet::kColumns, d, grid, value);
  }
  if (!options.degree_sort) return std::nullopt;
  util::LargeArray<LocalId> keys;
  util::resize_huge_unwritten(keys, static_cast<size_t>(d.col_set_size()));  // read at random
#pragma omp parallel for schedule(static)
  for (int64_t u = 0; u < d.col_set_size(); ++u) keys[u] = order.key(static_cast<LocalId>(u));
  return SetMap::whole(IdTable(std::move(keys)));
}

}  // namespace g500::graph::kernel1
