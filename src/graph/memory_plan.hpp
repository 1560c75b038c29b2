// What kernel 1 will need, per process, before it runs: the finished graph (Nakao et al. 2021,
// Table 2's arrays, with the packed neighbours of graph/packed_rows.hpp) and kernel 1's working
// arrays (the kept entries of one slab, the row tables, the chunk buffers). The number of slabs
// comes from the same figures, so the run's memory estimate and kernel 1's choice agree.
#pragma once
#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "graph/distribution.hpp"
#include "graph/local_graph.hpp"
#include "util/memory_parts.hpp"

namespace g500::graph {

struct GraphShape {
  int64_t nedges = 0;       // input edges, global
  int scale = 0;            // > 0: a Kronecker graph of this SCALE (its degrees are known in advance)
  int64_t local_edges = 0;  // this rank's share of the input edge list
};

struct GraphMemory {
  double graph = 0;                  // the finished graph
  double filled_rows = 0;            // of it, the neighbours, written slab by slab (plain ids or packed gaps)
  double row_tables = 0;             // forward maps and sort keys while filling
  double chunk_buffers = 0;          // one chunk of input edges and the pages its routed entries touch
  double fill_scratch = 0;           // the fill's per-thread sort buffers and a group's mirrors
  double first_pass = 0;             // pass 1 alone: kept entries, row lengths, a chunk staged by groups or
                                     // (one process) the column ids that count the mirrors' rows
  double planning = 0;               // after pass 1: its kept entries and row lengths beside the row index
                                     // and the rows' map
  double filling = 0;                // the most the fill holds at once (see kept_entry_shares)
  double originals = 0;              // after the fill: the columns' original ids made beside the graph
                                     // (graph/column_originals.hpp), then the first neighbours' ones
  double row_slots = 0;              // rows with a start: those with entries under BCSR, else all
  int64_t passes = 1;                // over the input, each keeping one slab of rows
  bool lengths_of_rows_met = false;  // pass 1 counts the rows met only (graph/row_lengths.hpp)
  // The same figures as parts: those of the finished graph (adding up to `graph`) and those of
  // kernel 1 at its peak (adding up to kernel1_peak()).
  std::vector<util::MemoryPart> graph_parts, kernel1_parts;
  double kernel1_peak() const { return std::max({first_pass, planning, filling, originals}); }
};

// Which edge entries a process holds while kernel 1 fills a slab of rows, as shares of all the
// entries it stores. Row positions are normalised to [0, 1), the slab is [a, b), the fill has
// reached p. An entry (v, u) stays until its row v is filled. With mirrors, an edge whose rows are
// both in the slab is routed to its lower row only (graph/edge_router.hpp) and its mirror made when
// the fill reaches that lower row. The other end u of a process's entries lies in the rows of its
// column set: with Yoo's layout one block of the row positions, the fullest process the one whose
// column's block comes last (it keeps nearly all its entries, an average process half of them).
class KeptEntryShares {
 public:
  // Where the other ends of the column's entries lie: (row block j, its weight) for the blocks
  // [j/C, (j+1)/C) that have some, the weights adding up to 1.
  KeptEntryShares(int C, std::vector<std::pair<int, double>> blocks, bool mirror)
      : C_(C), blocks_(std::move(blocks)), mirror_(mirror) {}
  // Entries held with the fill at p of a slab ending at b: those of rows from p on, less the
  // mirrors not made yet (rows v > u >= p).
  double held(double b, double p) const;
  // Mirrors this process makes for the slab: its kept entries whose other end is in the slab too.
  double mirrors_made(double a, double b) const;
  // Where the other ends lie: within [support_begin(), support_end()).
  double support_begin() const { return blocks_.empty() ? 0 : blocks_.front().first / static_cast<double>(C_); }
  double support_end() const { return blocks_.empty() ? 0 : (blocks_.back().first + 1) / static_cast<double>(C_); }

 private:
  double mass(double lo, double hi) const;    // of the other ends in [lo, hi)
  double moment(double lo, double hi) const;  // their integral of u over [lo, hi)
  int C_;
  std::vector<std::pair<int, double>> blocks_;
  bool mirror_;
};

// The distinct distributions of the other ends over the grid's columns (blocks in ascending order).
std::vector<KeptEntryShares> kept_entry_shares(const Distribution& d, Layout layout, bool mirror);

// The fullest of the columns at each point: a column with no other ends in [p, b) holds the whole
// rest of the slab, b - p, the most any can, which spares evaluating every column (thousands on
// a large grid) except near the start of a slab that covers nearly all rows.
class FullestColumn {
 public:
  explicit FullestColumn(std::vector<KeptEntryShares> columns);
  double held(double b, double p) const;
  double mirrors_made(int64_t slabs) const;  // the most over the columns and the slabs

 private:
  std::vector<KeptEntryShares> columns_;
  double first_support_end_ = 1, last_support_begin_ = 0;
};

// The share of a Kronecker graph's rows that have an edge in a process's block on a grid of C
// columns: a vertex with k one-bits in its SCALE-bit id is an endpoint of each edge end with
// probability (A+B)^(SCALE-k) (C+D)^k (the generator's parameters, symmetric: A+B = A+C), so its
// entries in one of the C blocks of its row number about 2M p / C, and the row is empty with
// probability exp(-2M p / C).
double kronecker_nonempty_row_share(int scale, int64_t nedges, int grid_cols);

// Of a process's entries on that grid, the share kept as a short row's ids after its first
// (graph/packed_rows.hpp: rows of 2 to `longest_short_row` entries): with the same Poisson counts,
// E[X; 2 <= X <= longest] - P(2 <= X <= longest) per row, over the mean entries per row.
// Measured at SCALE 16 on one process 0.133 (predicted 0.133) and SCALE 22 on 8x8 0.20 (0.209);
// 0.27 at SCALE 42 on 256x256, where rows are short.
double kronecker_short_row_id_share(int scale, int64_t nedges, int grid_cols, int64_t longest_short_row);

// Whether kernel 1's first pass counts the rows met only (graph/row_lengths.hpp): by the rule of
// count_rows_met_only, with a Kronecker graph's rows met as expected (kronecker_nonempty_row_share).
bool lengths_of_rows_met(const GraphShape& shape, const Distribution& d, const GraphOptions& options);

// One process: the share of a chunk's entry buffer (two slots per edge) whose pages are written
// when each of `threads` threads writes `kept` of its slice from the slice's start, and the
// entries are then moved together to the front (Router::keep_all in graph/edge_router.hpp).
double kept_buffer_share(double kept, int threads);

// Packed bytes per edge entry of the Kronecker graph at a SCALE (measured, see the .cpp).
double packed_bytes_per_entry(int scale);

// Per process, kernel 1 in `passes` passes over the input (each keeping one slab of rows).
GraphMemory plan_graph_memory(const GraphShape& shape, const Distribution& d, const GraphOptions& options,
                              int64_t passes, int threads);

// How many slabs (passes over the input) kernel 1 makes: `passes` when set, else chosen. It prefers
// to stay within a modest share of the node's memory, leaving the rest to the system and other
// work, as long as that takes at most a few passes (each costs a generation of the edges: about
// 12 s at SCALE 26 on two cores); beyond, it uses most of the memory to keep the passes few. `node_bytes_per_rank`: the
// node's memory over the ranks sharing it.
constexpr double kModestMemoryShare = 0.4;
constexpr double kMostMemoryShare = 0.85;
constexpr int64_t kPreferredMostSlabs = 4;
int64_t choose_passes(const GraphShape& shape, const Distribution& d, const GraphOptions& options,
                      double node_bytes_per_rank, int threads);

}  // namespace g500::graph
