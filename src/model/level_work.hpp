// The calculation one level asks of one process of an R x C grid: bitmap words it goes through and
// random accesses it makes (a vertex's row looked up, an edge's far end tested), in the layout of
// Nakao et al. 2021, section 4 (2D distribution, bitmap-based CSR of section 4.1, the bottom-up
// rotation of section 4.5).
//
//   top-down   the E edges of the frontier's vertices, E / P per process (the frontier itself is
//              a dense list: a vertex of it costs little beside its edges; with g500 bfs on one
//              core a level of 127,000 frontier vertices and 9,500 edges takes a quarter of one
//              of 96 vertices and 144,000 edges, SCALE 20);
//   bottom-up  every unvisited vertex of row set i is a candidate of each of the C processes of
//              grid row i in turn (one sub-step each), when it has edges in that process's block,
//              until one finds its parent (the rotating visited bitmap keeps the later ones off
//              it): a vertex not found in the level is visited by all b(C, d) processes where it
//              has edges, a vertex found by (b(C, d) + 1) / 2 on average; plus the E edges.
// with b(K, d) = K (1 - (1 - 1/K)^d) the blocks among K that hold at least one of d edges (the
// edges spread uniformly: vertex labels are scrambled), d the mean degree of the reached vertices
// for the unvisited ones. On one process b = 1 and the accesses are E (top-down), E + U
// (bottom-up): what calibrate_from_trace fits. A row visit (the row's first neighbour tested
// against the frontier bitmap) and an edge are each one random access into a large array, so they
// share one rate.
//
// Words: a top-down level its own vertices' bitmaps, n / (64 P); a bottom-up level the rows of its
// row set, n / (64 R) words, in C sub-steps.
#pragma once
#include "model/volumes.hpp"
#include "util/grid_shape.hpp"

namespace g500::model {

// b(K, d): of K blocks, how many hold at least one of d uniformly spread edges (1 when K = 1).
double blocks_with_edges(double blocks, double degree);

struct ProcessWork {
  double words = 0;     // bitmap words
  double accesses = 0;  // row visits and edges
};

// `mean_degree`: edge ends per reached vertex (2 m / reached).
ProcessWork process_work(const LevelCounts& level, const util::GridShape& grid, double mean_degree);

// The accesses of a level on one process (what a 1-rank trace measures): E top-down, E + U
// bottom-up.
double one_process_accesses(Direction direction, double examined, double unvisited);

}  // namespace g500::model
