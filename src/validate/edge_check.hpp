// Rules 3 and 4 of the BFS validation (validate_bfs.hpp) checked on the input edges themselves,
// not on the graph kernel 1 built from them: a defect of kernel 1 (an edge lost, moved or
// invented) must not make a wrong search result look right. Each rank reads its share of the
// input edges again from the source kernel 1 read (graph/edge_source.hpp), chunk by chunk, and
// checks every edge {a, b}:
//  - rule 3: the depths of a and b differ by at most one, or both are unreached;
//  - rule 4: when one endpoint is the other's parent, that vertex's tree edge is an input edge
//    (marked on the vertex's owner);
// and counts the endpoints that are reached: the TEPS edge count, twice.
//
// Two ways, the one that needs less memory taken:
//  - owner queries (validate/edge_check_owners.cpp): each edge goes to the owner of one endpoint,
//    which adds that endpoint's depth and forwards it to the owner of the other, which compares
//    them; each owner marks its own vertex's tree edge. A process holds one chunk of edges, the
//    two exchanges' buffers (some 100 MiB; 180 when records take two words) and 2 bytes per
//    owned vertex, nothing indexed by the row or column set: for large graphs and grids;
//  - replicated (validate/edge_check_replicated.cpp): every rank holds every vertex's depth and
//    parent fingerprint (2 bytes per vertex of the graph) and checks the edges it reads where it
//    reads them; the likely tree edges go to their owners. On few ranks and graphs of up to some
//    2^25 vertices this is both smaller and several times faster.
// A failing edge is reported as the lowest over all ranks, so the message does not depend on the
// way.
#pragma once
#include <cstdint>
#include <vector>

#include "graph/distribution.hpp"
#include "graph/edge_source.hpp"
#include "graph/grid.hpp"
#include "util/bitmap.hpp"

namespace g500::validate {

// The deepest tree whose depths the check stores in 8 bits: depth + 2 <= 254 (see
// validate/edge_check_parts.hpp).
inline constexpr int32_t kNarrowMaxDepth = 252;
// Input edges per chunk of the check: the chunk buffers (16 bytes per edge read, and 80 to 160
// per edge for the owner queries' exchanges) stay within some 180 MiB.
inline constexpr int64_t kCheckChunkEdges = int64_t{1} << 20;
// The chunk of a rank whose share is `local_edges`: kCheckChunkEdges, fewer on a small share
// (graph/edge_source.hpp, chunk_edges_for).
inline int64_t check_chunk_edges(int64_t local_edges) { return graph::chunk_edges_for(local_edges, kCheckChunkEdges); }

enum class EdgeCheckWay { kFewerBytes, kOwnerQueries, kReplicated };  // the last two for tests

struct EdgeCheckOptions {
  bool narrow_depths = true;  // 8-bit depths when the tree is at most kNarrowMaxDepth deep
  int64_t chunk_edges = 0;    // input edges read at a time (0: check_chunk_edges of the rank's share)
  EdgeCheckWay way = EdgeCheckWay::kFewerBytes;
  bool one_word_records = true;  // owner queries: 64-bit records when their fields fit (tests: two words)
  // The most input-edge endpoints one process owns over the mean (at least 1; kernel 1's owned
  // degrees tell it). The owner queries' records of a chunk go to the endpoints' owners, so the
  // fullest owner receives this much more than an average chunk (1.4 times at SCALE 22 on 8x8):
  // the default chunk is that much smaller on every rank, and no owner holds more than the plan's chunk.
  double fullest_owner_load = 1;
};

struct EdgeCheck {
  int64_t reached_entries = 0;  // directions of edges (entries) whose row vertex is reached
  // The failing edge of rule 3 with the lowest (lower id, higher id) of all ranks, on the ranks
  // that found it: bad_v < bad_u, global ids, with their depths (-1 = unreached).
  bool bad = false;
  int64_t bad_v = -1, bad_u = -1, bad_dv = 0, bad_du = 0;
};

// Collective. `depth` and `parents` hold the owned vertices' depths and parents (original
// offsets); max_depth is the deepest over all ranks. Sets in tree_edge_seen (B bits, one per
// owned vertex) the owned vertices whose parent is among their input neighbours.
EdgeCheck check_input_edges(const graph::EdgeSource& source, const graph::Distribution& d,
                            const graph::ProcessGrid& grid, const std::vector<int64_t>& parents,
                            const std::vector<int32_t>& depth, int32_t max_depth, const EdgeCheckOptions& options,
                            util::Bitmap& tree_edge_seen);

// The bytes check_input_edges allocates on one process at its peak (narrow depths, the default
// chunk of a share of `local_edges` of `global_edges`, `threads` OpenMP threads), beside `depth`
// and the seen bitmap: for the memory estimate of a run.
double input_edge_check_bytes(const graph::Distribution& d, int threads, int64_t local_edges, int64_t global_edges);

}  // namespace g500::validate
