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

namespace g500::validate {

inline constexpr int32_t kUnreachedDepth = -1;

// How the depths are found; every way gives the same depths and verdict (tests compare them).
enum class TreeWalk {
  kDefault,     // parent chains on one process, else levels (validate/tree_levels.hpp)
  kLevels,      // levels even on one process
  kChildLists,  // levels, by child lists from the root
};

// Collective. `parents` holds the owned vertices' parents (global ids, -1 when unreached; values
// already checked to be vertex ids). Fills depth[k] for owned vertex owned_begin() + k
// (kUnreachedDepth when it has no parent) and returns "" or, on every rank, the first rank's
// description of a vertex whose chain does not reach the root.
std::string tree_depths(const graph::Distribution& d, const graph::ProcessGrid& grid, int64_t root,
                        const std::vector<int64_t>& parents, std::vector<int32_t>& depth,
                        TreeWalk walk = TreeWalk::kDefault);

// The bytes tree_depths allocates on one process at its peak, the depths included (for the
// memory estimate of a run; the default walk on `nranks` processes).
double tree_depths_bytes(const graph::Distribution& d, int nranks);

}  // namespace g500::validate
