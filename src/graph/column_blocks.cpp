#include "graph/column_blocks.hpp"

#include "comm/large_count.hpp"

namespace g500::graph {

int host_of_owned_block(const Distribution& d, const ProcessGrid& grid) {
  const int64_t k = d.block_owned_by(d.row, d.col);
  return grid.world_rank_of(static_cast<int>(k % d.R), static_cast<int>(k / d.R));
}

int owner_of_hosted_block(const Distribution& d, const ProcessGrid& grid) {
  const int64_t k = d.column_block(d.col, d.row);
  return grid.world_rank_of(d.owner_row_of_block(k), d.owner_col_of_block(k));
}

const void* hosted_column_block(const void* owned, void* scratch, int64_t count, MPI_Datatype type,
                                const Distribution& d, const ProcessGrid& grid) {
  if (d.columns_aligned()) return owned;
  constexpr int kTransposeTag = 2001;
  comm::sendrecv(owned, count, host_of_owned_block(d, grid), scratch, count, owner_of_hosted_block(d, grid), type,
                 kTransposeTag, grid.world(), grid.limits());
  return scratch;
}

}  // namespace g500::graph
