// The communication volume of one BFS predicted by Nakao et al. 2021, section 4.5, Table 3
// ("Communication costs"), in 64-bit words (8 bytes), summed over all processes:
//
//   top-down   allgatherv  nR          alltoallv  4m
//   bottom-up  allgatherv  s_b nR/64   sendrecv   s_b nC/64   alltoallv  2n
//
// n vertices, m edges, an R x C grid, s_b bottom-up levels; the paper sets (C-1)/C ~ 1 and leaves
// one-word messages out. Section 4.5 ("Switching data structure by vertex concentration") sends a
// bitmap as a sparse vector, one word per vertex, when it holds fewer than n/64 vertices: the
// frontier (allgatherv) when it is that small, the visited bitmap (sendrecv) when so few vertices
// are unvisited.
//
// The table's rows assume the search never switches direction. A hybrid run splits each row into
// its levels; level_bytes() gives each level's term, with the group factors (g-1)/g that the table
// rounds to 1 kept (a process sends nothing to itself: g = R along a column, C along a row):
//
//   top-down   allgatherv  |f| (R-1)           the frontier list gathered along the column
//   top-down   alltoallv   2 e_f (C-1)/C       a (vertex, parent) pair per directed edge of the
//                                              frontier (2m of them over a whole BFS: 4m words)
//   bottom-up  allgatherv  n/64          or (R-1)|f| as a sparse vector
//   bottom-up  sendrecv    (C-1) n/64          or (C-1) U as a sparse vector
//   bottom-up  alltoallv   2 d (C-1)/C         a pair per vertex discovered (n over a whole BFS: 2n)
//
// with |f| the frontier, e_f its directed edges, d the vertices the level discovers, U the
// unvisited vertices. The visited bitmap travels after each scan of it (Algorithm 6, lines
// 10-17), so it holds fewer unvisited vertices than at the start of the level; the first scan,
// by the block's owner, finds most of what the level finds, so U is taken at the end of the
// level. Summed over the levels of a run that never switched, with R and C for R-1 and C-1, this
// is Table 3.
// docs/volumes.md compares it with the bytes g500 measures.
#pragma once
#include <array>
#include <cstdint>

#include "util/phase_profile.hpp"

namespace g500::comm::table3 {

constexpr double kWordBytes = 8;

using Volume = std::array<double, util::kPhaseCount>;  // bytes per phase
enum DirectionIndex { kTopDown = 0, kBottomUp = 1 };
using DirectionVolumes = std::array<Volume, 2>;  // indexed by DirectionIndex

// How an implementation encodes what Table 3 counts in 64-bit words. The defaults are the
// paper's (Algorithm 2's groups); `g500 model` also predicts g500's own encoding (src/model).
struct Encoding {
  double list_entry_bytes = kWordBytes;  // one vertex of a sparse list
  double pair_bytes = 2 * kWordBytes;    // one (vertex, parent) pair
  // false: the top-down frontier gathered along the column and the pairs sent along the row, as
  // Algorithm 2; true: the frontier along the row and the candidates along the column.
  bool topdown_transposed = false;
};

// What the formulas need of the graph, the grid and the options.
struct Model {
  int64_t n = 0;  // vertices
  int64_t m = 0;  // edges of the input (16 n for a Graph500 Kronecker graph)
  int R = 1, C = 1;
  // Vertices with an edge: the others start visited (bfs.cpp), so only these are ever listed as
  // unvisited, and the switch to a sparse visited bitmap counts only them.
  int64_t vertices_with_edges = 0;
  bool sparse_switch = true;       // section 4.5's switch (false: always bitmaps)
  bool pairs_by_alltoallv = true;  // Algorithm 6; false: Algorithm 3's sendrecv carries the pairs
  Encoding encoding;
};

// One level as the formulas see it.
struct Level {
  bool bottom_up = false;
  double frontier = 0;        // |f|
  double frontier_edges = 0;  // e_f
  double discovered = 0;      // d
  double unvisited = 0;       // U: vertices with an edge still unvisited when the level ends
};

// True when section 4.5 sends `vertices` as a sparse vector instead of an n-bit bitmap: when the
// list is the smaller (with 64-bit entries: fewer than n/64 vertices).
bool sparse(const Model& model, double vertices);

// The bytes Table 3 gives one level, per phase (see above), in the model's encoding (a
// transposed top-down step swaps the group factors of its two rows).
Volume level_bytes(const Model& model, const Level& level);

// Table 3 as printed, for one whole BFS with s_b bottom-up levels (bitmaps throughout).
DirectionVolumes as_printed(const Model& model, double bottom_up_levels);

}  // namespace g500::comm::table3
