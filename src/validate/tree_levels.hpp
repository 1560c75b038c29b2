// The depths of a parent array's tree on several processes, walked down from the root one level
// per round (validation rule 2; validate/tree_depths.hpp is the interface). Two ways to find the
// next level, chosen for memory:
//  - frontier bitmaps: every rank holds the current level as a bitmap of all N vertices (an
//    allgather of the owned parts per round) and each vertex whose parent's bit is set joins the
//    next level. Beside the depths this needs N/8 bytes, P/8 per owned vertex on P ranks, and
//    no record of the tree; each round reads every owned vertex once, which suits the few levels
//    of small-world graphs (Kronecker graphs: about ten).
//  - child lists: every vertex's (parent, child) record goes to the parent's owner, which groups
//    the records by parent; each round the owners send the frontier's children their depth.
//    About 24 bytes per owned vertex at its peak, and a round costs what its level holds.
// The bitmaps are used while they take less memory than the lists and the tree has had at most
// kBitmapRounds (32) levels; the remaining levels of a deeper tree go by child lists.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "graph/distribution.hpp"
#include "graph/grid.hpp"

namespace g500::validate {

// Collective. Fills depth[k] for owned vertex owned_begin() + k (kUnreachedDepth when its chain
// does not reach the root); returns "" or this rank's description of such a vertex with a parent.
// `lists_only`: child lists from the root (for tests: the bitmaps' limits are not reached there).
std::string walk_tree_levels(const graph::Distribution& d, const graph::ProcessGrid& grid, int64_t root,
                             const std::vector<int64_t>& parents, std::vector<int32_t>& depth, bool lists_only = false);

// The bytes walk_tree_levels allocates on one process at its peak, beside the depths, for a tree
// of at most kBitmapRounds levels (all Kronecker graphs); a deeper tree (a road network read from
// a file) needs the child lists' 24 bytes per owned vertex for its remaining levels.
double tree_levels_bytes(const graph::Distribution& d);

}  // namespace g500::validate
