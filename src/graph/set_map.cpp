// Maps of a row or column set made a block at a time (graph/set_map.hpp).
#include "graph/set_map.hpp"

#include "comm/typed.hpp"
#include "graph/column_blocks.hpp"
#include "graph/grid.hpp"

namespace g500 {

SetMap SetMap::of_present(const Bitmap& present) {
  SetMap m;
  m.index_ = PresentIndex(present);
  m.values_.resize(static_cast<size_t>(m.index_.present()));
  return m;
}

void for_each_block_table(const LocalId* owned, VertexSet set, const Distribution& d, const ProcessGrid& grid,
                          const std::function<void(int, const LocalId*)>& f) {
  // The row set of grid row i is the blocks of P(i, 0..C-1) by grid column, the column set of grid
  // column j the blocks hosted by P(0..R-1, j) by grid row: the communicators' rank orders. With
  // the row-major layout a hosted block first comes from its owner (a transpose).
  LargeArray<LocalId> hosted(static_cast<size_t>(set == VertexSet::kColumns ? d.block : 0)),
      buffer(static_cast<size_t>(d.block));
  const void* mine = set == VertexSet::kColumns
                         ? hosted_column_block(owned, hosted.data(), d.block, local_id_datatype(), d, grid)
                         : owned;
  const int positions = set == VertexSet::kColumns ? d.R : d.C, here = set == VertexSet::kColumns ? d.row : d.col;
  const comm::Communicator grid_line(set == VertexSet::kColumns ? grid.col_comm() : grid.row_comm(), grid.limits());
  for (int position = 0; position < positions; ++position) {
    if (position == here) std::copy_n(static_cast<const LocalId*>(mine), d.block, buffer.data());
    grid_line.broadcast(buffer, position);
    f(position, buffer.data());
  }
}

}  // namespace g500
