// The transpose of the row-major layout (switch `yoo` off, Nakao et al. 2021, section 4.3): before a per-block
// array (frontier bits, degrees, renumbering tables, depths) is gathered along a grid column, the
// block at position grid.row() of this process's column set must come from its owner, which sits
// outside the column. With Yoo's layout (or one grid row or column) the block is our own and
// nothing moves; that saving is what Yoo's distribution buys.
#pragma once
#include <mpi.h>

#include <cstdint>

#include "graph/distribution.hpp"
#include "graph/grid.hpp"

namespace g500::graph {

// Returns the `count` values of type `type` of the block this process hosts for its column:
// `owned` itself when the layout needs no transpose, else `scratch` after one sendrecv over the
// world (collective over the world communicator in that case; in rounds beyond the grid's
// message limit).
const void* hosted_column_block(const void* owned, void* scratch, int64_t count, MPI_Datatype type,
                                const Distribution& d, const ProcessGrid& grid);

// World ranks of the transpose partners: where this process's owned block is hosted, and the
// owner of the block this process hosts.
int host_of_owned_block(const Distribution& d, const ProcessGrid& grid);
int owner_of_hosted_block(const Distribution& d, const ProcessGrid& grid);

}  // namespace g500::graph
