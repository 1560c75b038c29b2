// What kernel 1 will need, per process, before it runs: the finished graph (Nakao et al. 2021,
// Table 2's arrays, with the packed neighbours of graph/packed_rows.hpp) and kernel 1's working
// arrays (the kept entries of one slab, the row tables, the chunk buffers). The number of slabs
// comes from the same figures, so the run's memory estimate and kernel 1's choice agree.
#pragma once
#include <algorithm>
#include <cstdint>

#include "graph/distribution.hpp"
#include "graph/local_graph.hpp"

namespace g500 {

struct GraphShape {
  int64_t nedges = 0;        // input edges, global
  int scale = 0;             // > 0: a Kronecker graph of this SCALE (its degrees are known in advance)
  int64_t local_edges = 0;   // this rank's share of the input edge list
};

struct GraphMemory {
  double graph = 0;          // the finished graph
  double filled_rows = 0;    // of it, the neighbours, written slab by slab (plain ids or packed gaps)
  double kept_entries = 0;   // one slab's kept entries
  double mirrored_share = 0; // of them, edges kept once whose mirrors the fill makes
  double row_tables = 0;     // forward maps and sort keys while filling
  double chunk_buffers = 0;  // one chunk of input edges and its routed entries; a group's mirrors
  double first_pass = 0;     // pass 1 alone: kept entries, row lengths, a chunk staged by groups or
                             // (one process) the column ids that count the mirrors' rows
  int64_t slabs = 1;
  // The most kernel 1 holds at once: pass 1, or (nearly always more) the fill of the last slab,
  // the other slabs' rows written:
  // of its kept entries, a share x of the slab filled leaves (1 - x) of the edges kept twice and
  // (1 - x^2) of the edges kept once, with their mirrors (an edge waits, as its kept entry or as
  // its mirror, until its upper row is filled), while the slab's rows grow by x.
  double kernel1_peak() const {
    const double rows_before_last_slab = filled_rows * static_cast<double>(slabs - 1) / static_cast<double>(slabs);
    const double slab_rows = filled_rows / static_cast<double>(slabs);
    double filling = 0;
    constexpr int kSteps = 64;
    for (int step = 0; step <= kSteps; ++step) {
      const double x = static_cast<double>(step) / kSteps;
      const double entries = kept_entries * ((1 - mirrored_share) * (1 - x) + mirrored_share * (1 - x * x));
      filling = std::max(filling, entries + slab_rows * x);
    }
    return std::max(first_pass, graph - filled_rows + rows_before_last_slab + filling + row_tables + chunk_buffers);
  }
};

// The share of a Kronecker graph's rows that have an edge in a process's block on a grid of C
// columns: a vertex with k one-bits in its SCALE-bit id is an endpoint of each edge end with
// probability (A+B)^(SCALE-k) (C+D)^k (the generator's parameters, symmetric: A+B = A+C), so its
// entries in one of the C blocks of its row number about 2M p / C, and the row is empty with
// probability exp(-2M p / C).
double kronecker_nonempty_row_share(int scale, int64_t nedges, int grid_cols);

// Packed bytes per edge entry of the Kronecker graph at a SCALE (measured, see the .cpp).
double packed_bytes_per_entry(int scale);

// Per process, kernel 1 in `slabs` slabs.
GraphMemory plan_graph_memory(const GraphShape& shape, const Distribution& d, const GraphOptions& options, int64_t slabs,
                              int threads);

// How many slabs (passes over the input) kernel 1 makes. It prefers to stay within a modest share
// of the node's memory, leaving the rest to the system and other work, as long as that takes at
// most a few passes (each costs a generation of the edges: about 12 s at SCALE 26 on two cores);
// beyond, it uses most of the memory to keep the passes few. `node_bytes_per_rank`: the node's
// memory over the ranks sharing it.
constexpr double kModestMemoryShare = 0.4;
constexpr double kMostMemoryShare = 0.85;
constexpr int64_t kPreferredMostSlabs = 4;
int64_t choose_slabs(const GraphShape& shape, const Distribution& d, const GraphOptions& options, double node_bytes_per_rank,
                     int threads);

}  // namespace g500
