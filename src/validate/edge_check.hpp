// Rules 3 and 4 of the BFS validation (validate_bfs.hpp) checked on the input edges themselves,
// not on the graph kernel 1 built from them: a defect of kernel 1 (an edge lost, moved or
// invented) must not make a wrong search result look right. Each rank reads its share of the
// input edges again from the source kernel 1 read (graph/edge_source.hpp), chunk by chunk, and
// routes every chunk's entries to the processes that store them, exactly as kernel 1 does
// (graph/edge_router.hpp). Each process then checks the entries (v, u) it receives against the
// depths of its row set and column set, gathered from their owners:
//  - rule 3: the depths of v and u differ by at most one, or both are unreached;
//  - rule 4: when u is v's parent, v's tree edge is an input edge (marked per row, then OR-ed
//    along the grid row onto v's owner by the caller);
// and counts the entries whose row is reached: the TEPS edge count, twice.
//
// The entries carry original row- and column-local ids (the graph's degree-order renumbering,
// Nakao et al. 2021, section 4.2, plays no part), so the depths are gathered in original order.
// Memory per process, beside one chunk's buffers: for a tree at most kNarrowMaxDepth levels deep,
// two bytes per row (depth and a fingerprint of the parent) and one per column (depth), four
// bytes each for a deeper tree; the parents of the row set as 32-bit column-local ids (none on a
// grid with one column, where the row set is the owned block and the parents themselves serve);
// no copy of the edge list. One process needs no routing: both endpoints of an edge are its own,
// and one array of two bytes per vertex serves rows and columns.
#pragma once
#include <cstdint>
#include <vector>

#include "graph/distribution.hpp"
#include "graph/edge_source.hpp"
#include "graph/grid.hpp"
#include "util/bitmap.hpp"

namespace g500 {

// The deepest tree whose depths the check stores in 8 bits: depth + 2 <= 254 (see edge_check.cpp).
inline constexpr int32_t kNarrowMaxDepth = 252;
// Input edges per chunk of the check: the chunk buffers (16 bytes per edge read, and with several
// ranks 56 per edge for its routed entries) stay a few tens of MiB.
inline constexpr int64_t kCheckChunkEdges = int64_t{1} << 20;

struct EdgeCheckOptions {
  bool narrow_depths = true;  // 8-bit depths when the tree is at most kNarrowMaxDepth deep
  int64_t chunk_edges = kCheckChunkEdges;
};

struct EdgeCheck {
  int64_t reached_entries = 0;  // entries (both directions of each edge) whose row is reached
  // The failing entry of rule 3 with the lowest (row-local, column-local) ids here, if any, as
  // global ids with their depths (-1 = unreached).
  bool bad = false;
  int64_t bad_v = -1, bad_u = -1, bad_dv = 0, bad_du = 0;
};

// Collective. `depth` and `parents` hold the owned vertices' depths and parents (original
// offsets); max_depth is the deepest over all ranks. Sets in tree_edge_seen (row set, original
// row-local ids) the rows whose parent is among their input neighbours here.
EdgeCheck check_input_edges(const EdgeSource& source, const Distribution& d, const ProcessGrid& grid,
                            const std::vector<int64_t>& parents, const std::vector<int32_t>& depth, int32_t max_depth,
                            const EdgeCheckOptions& options, Bitmap& tree_edge_seen);

// The bytes check_input_edges allocates on one process at its peak (narrow depths, default
// chunks), beside `depth` and the seen bitmap: for the memory estimate of a run.
double input_edge_check_bytes(const Distribution& d, int nranks);

}  // namespace g500
