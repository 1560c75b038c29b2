// The depths of a tree given by its parent array (Graph500 specification, validation rule 2 of
// kernels 2 and 3): every parent chain must reach the root without a cycle. The BFS validator
// checks the edges against these depths, the SSSP validator needs the walk's verdict, and
// `g500 bfs --output-depths` writes them.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "graph/distribution.hpp"
#include "graph/grid.hpp"

namespace g500 {

inline constexpr int32_t kUnreachedDepth = -1;

// Collective. `parents` holds the owned vertices' parents (global ids, -1 when unreached; values
// already checked to be vertex ids). Fills depth[k] for owned vertex owned_begin() + k
// (kUnreachedDepth when it has no parent) and returns "" or, on every rank, the first rank's
// description of a vertex whose chain does not reach the root. On one process `local_walk`
// follows the chains directly instead of exchanging child lists (both give the same depths).
std::string tree_depths(const Distribution& d, const ProcessGrid& grid, int64_t root,
                        const std::vector<int64_t>& parents, std::vector<int32_t>& depth, bool local_walk = true);

}  // namespace g500
