// The graph's original column ids made at the end of kernel 1 (graph/column_originals.hpp).
#include "graph/column_originals.hpp"

#include "graph/local_graph.hpp"

namespace g500 {

namespace {

// A bit for every column the block's entries use. Most entries go to columns already marked (the
// hubs recur), so a plain read comes before the atomic write.
Bitmap columns_in_use(const LocalGraph& g) {
  Bitmap present(g.dist.col_set_size());
  const int64_t slots = g.rows.num_slots();
  const int64_t* starts = g.rows.starts();
  auto mark = [&present](LocalId u) {
    if (!present.test(u)) present.set_atomic(u);
    return false;
  };
  constexpr int64_t kSlotsPerChunk = 1024;
#pragma omp parallel for schedule(dynamic, kSlotsPerChunk)
  for (int64_t r = 0; r < slots; ++r) {
    const int64_t n = starts[r + 1] - starts[r];
    if (n == 0) continue;
    if (g.packed.active()) {
      mark(g.first_neighbors[r]);
      g.packed.for_each_after_first(r, n, g.first_neighbors[r], mark);
    } else {
      for (int64_t e = starts[r]; e < starts[r + 1]; ++e) mark(g.neighbors[e]);
    }
  }
  return present;
}

}  // namespace

void make_column_originals(LocalGraph& g, const ProcessGrid& grid) {
  Renumbering& ids = g.renumbering;
  if (!ids.active()) return;
  if (ids.col_original.empty()) ids.col_original = gather_column_originals(ids, g.dist, grid);
  const LocalId* table = ids.col_original.data();
  g.first_neighbors_original.resize(g.first_neighbors.size());
#pragma omp parallel for schedule(static)
  for (size_t r = 0; r < g.first_neighbors.size(); ++r) g.first_neighbors_original[r] = table[g.first_neighbors[r]];
  if (g.dist.R == 1) {  // the owned table itself
    ids.column_originals = ColumnOriginals::whole(table);
    return;
  }
  Bitmap in_use = columns_in_use(g);
  if (!keep_columns_in_use_only(static_cast<double>(in_use.count()), static_cast<double>(in_use.size()))) {
    ids.column_originals = ColumnOriginals::whole(table);
    return;
  }
  ids.column_originals = ColumnOriginals::of_present(std::move(in_use), table);
  ids.col_original = IdTable();
}

}  // namespace g500
