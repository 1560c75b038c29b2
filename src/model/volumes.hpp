// Communication volume of one BFS level, per process and per direction (Nakao et al. 2021,
// section 4.5, Table 3). Table 3 gives totals over all processes for one BFS done entirely in one
// direction, in 64-bit words:
//   top-down   allgatherv nR          (every frontier vertex reaches the R processes of its column)
//              alltoallv  4m          (a (u, v) pair of two words per examined edge, 2m of them)
//   bottom-up  allgatherv s_b nR/64   (the frontier bitmap of the column's range, per level)
//              sendrecv   s_b nC/64   (the visited bitmap travels once round the row, per level)
//              alltoallv  2n          (a (v, u) pair per vertex found bottom-up)
// and a bitmap is replaced by a list of vertices when that is smaller (below n/64 vertices with
// 64-bit list entries). Here the same counts are split per level (frontier F, vertices found D,
// edges examined E, unvisited vertices U of that level) and divided among the P = R x C
// processes, keeping the (R-1)/R and (C-1)/C factors that Table 3 drops (only data held by
// another process travels), so a 1 x 1 grid sends nothing. The formulas themselves are those of
// comm/table3.hpp (also what g500 bfs prints beside its measured bytes), here in a variant's
// encoding and divided by P.
#pragma once

namespace g500::model {

enum class Direction { kTopDown, kBottomUp };

// How an implementation encodes a vertex list entry and a found pair, and along which groups its
// top-down step communicates.
struct BfsVariant {
  double list_entry_bytes = 8;  // one vertex of a sparse list
  double pair_bytes = 16;       // one (vertex, parent) pair
  // Top-down: false as Algorithm 2 (frontier along the column, pairs along the row); true as
  // g500 bfs (bfs/top_down.cpp: frontier along the row, candidates along the column).
  bool topdown_transposed = false;
  // The counts of every v-collective exchanged first (g500 bfs: an MPI_Allgather before the
  // allgatherv, an MPI_Alltoall before the alltoallv); the paper does not say.
  bool counts_exchanged = false;
};
// Table 3's words (one 64-bit word per list entry, two per pair), Algorithm 2's groups.
BfsVariant paper_variant();
// g500 bfs: 32-bit positions in lists (bfs/sparse_switch.hpp), a pair packed in one 64-bit word,
// the transposed top-down step.
BfsVariant g500_variant();

// What one level moves; counts are over the whole graph (not per process).
struct LevelCounts {
  Direction direction = Direction::kTopDown;
  double vertices = 0;   // n
  double frontier = 0;   // F: vertices of the frontier this level expands
  double found = 0;      // D: vertices discovered by this level
  double examined = 0;   // E: adjacency entries read
  double unvisited = 0;  // U: vertices with edges not yet visited when the level starts
};

// Bytes per process of one level: allgatherv received, alltoallv sent, sendrecv sent (all
// sub-steps, both directions together).
struct LevelVolumes {
  bool transposed = false;  // a transposed top-down step: allgatherv along the row, alltoallv along the column
  double allgatherv = 0;
  double alltoallv = 0;
  double sendrecv = 0;
  bool frontier_is_bitmap = false;   // bottom-up allgatherv as a bitmap (else a list)
  bool unvisited_is_bitmap = false;  // bottom-up sendrecv as a bitmap (else a list)
};

LevelVolumes level_volumes(const LevelCounts& level, int rows, int cols, const BfsVariant& variant);

}  // namespace g500::model
