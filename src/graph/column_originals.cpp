// The graph's original column ids made at the end of kernel 1 (graph/column_originals.hpp).
#include "graph/column_originals.hpp"

#include "graph/local_graph.hpp"

namespace g500::graph {

namespace {

// A bit for every column the block's entries use. Most entries go to columns already marked (the
// hubs recur), so a plain read comes before the atomic write.
util::Bitmap columns_in_use(const LocalGraph& g) {
  util::Bitmap present(g.dist.col_set_size());
  const RowIndex& rows = g.rows;
  const int64_t slots = rows.num_slots();
  auto mark = [&present](LocalId u) {
    if (!present.test(u)) present.set_atomic(u);
    return false;
  };
  constexpr int64_t kSlotsPerChunk = 1024;
#pragma omp parallel for schedule(dynamic, kSlotsPerChunk)
  for (int64_t r = 0; r < slots; ++r) {
    const int64_t begin = rows.slot_start(r), n = rows.slot_start(r + 1) - begin;
    if (n == 0) continue;
    if (g.packed.active()) {
      mark(g.first_neighbors[r]);
      g.packed.for_each_after_first(r, begin, n, g.first_neighbors[r], mark);
    } else {
      for (int64_t e = begin; e < begin + n; ++e) mark(g.neighbors[e]);
    }
  }
  return present;
}

}  // namespace

void make_column_originals(LocalGraph& g, const ProcessGrid& grid) {
  Renumbering& ids = g.renumbering;
  if (!ids.active()) return;
  const Distribution& d = g.dist;
  if (d.R == 1) {
    ids.column_originals = SetMap::whole(ids.owned_original);  // the owned table itself
  } else {
    ids.column_originals = SetMap::from_blocks(columns_in_use(g), ids.owned_original.data(), VertexSet::kColumns, d,
                                               grid, BlockValue::id(d.block));
  }
  const SetMap& originals = ids.column_originals;
  g.first_neighbors_original.assign_zeros(g.first_neighbors.size(), d.block);
  const int64_t slots = static_cast<int64_t>(g.first_neighbors.size());
  const RowIndex& rows = g.rows;
#pragma omp parallel for schedule(static)
  for (int64_t r = 0; r < slots; ++r)  // an empty row of plain CSR has no first neighbour in use
    if (rows.slot_start(r + 1) > rows.slot_start(r))
      g.first_neighbors_original.set(r, keep_in_block(originals[g.first_neighbors[r]], d));
}

}  // namespace g500::graph
