// Kernel 1 output: this process's block A(i, j) of the adjacency matrix (Nakao et al. 2021, section 3.2) in CSR
// form, indexed by the row-local id of v with the column-local ids of its neighbours u, plus the
// full degree of each owned vertex. Self-loops are dropped; both directions of every edge are
// stored (at the two processes that own them); duplicate edges are kept, as the reference does.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <limits>
#include <vector>

#include "graph/distribution.hpp"
#include "graph/edge_source.hpp"
#include "graph/grid.hpp"
#include "graph/packed_rows.hpp"
#include "graph/renumbering.hpp"
#include "graph/row_index.hpp"
#include "graph/row_lengths.hpp"
#include "graph/stored_ids.hpp"
#include "util/bitmap.hpp"
#include "util/large_array.hpp"

namespace g500::graph {

// Seconds one rank spent in each step of kernel 1 (graph/build_graph.cpp), added up over its
// passes over the input.
struct Kernel1Steps {
  enum Step {
    kGenerate,  // reading (generating) the input edges
    kRoute,     // making the entries and sending them to their processes
    kBucket,    // keeping a slab's entries by row bucket, counting the other rows
    kPlan,      // row lengths, renumbering, row index, sort keys, packed layout
    kMirror,    // making the mirror entries of the edges kept once
    kFill,      // sorting each bucket's entries and writing its rows
    kCount
  };
  static constexpr std::array<const char*, kCount> kNames{"generate", "route", "bucket", "plan", "mirror", "fill"};
  std::array<double, kCount> seconds{};

  double& operator[](Step step) { return seconds[step]; }
  double operator[](Step step) const { return seconds[step]; }
};

struct LocalGraph {
  Distribution dist;
  RowIndex rows;                        // where each row's neighbours start (CSR or BCSR, 4.1)
  util::LargeArray<LocalId> neighbors;  // column-local ids; by descending degree with `degree-sort`,
                                        // else in a deterministic arrival order; empty when packed
  PackedRows packed;                    // with `packed_rows`: the neighbours after the first, as gaps
  // The first neighbour of every row (per non-empty row with BCSR, per row with plain CSR), kept
  // densely so the bottom-up search reads it as one stream: after the degree sort the first
  // neighbour is the likeliest parent, and most rows need no other (see bfs/bottom_up.cpp).
  StoredIdArray first_neighbors;
  // With `reorder`: the same first neighbours in original column-local ids, so a bottom-up parent
  // found there is written from this stream instead of a random read of the renumbering table;
  // the offsets inside their blocks, the blocks being the new ids' (graph/in_block_id.hpp).
  InBlockIds first_neighbors_original;
  std::vector<int64_t> owned_degree;  // B entries: degree of each owned vertex (original offsets)
  Renumbering renumbering;            // with `reorder`: the graph's ids are in degree order (4.2)
  int64_t local_entries = 0;          // edge entries of this block
  int64_t kernel1_passes = 1;         // passes kernel 1 made over its input
  int64_t global_directed_edges = 0;  // 2 x (input edges that are not self-loops)
  Kernel1Steps kernel1_seconds;       // where kernel 1's time went on this rank

  // Between original ids and the graph's ids (the same when not renumbered).
  int64_t owned_local(int64_t original_offset) const {
    return renumbering.active() ? renumbering.owned_new[original_offset] : original_offset;
  }
  int64_t owned_original(int64_t local_offset) const {
    return renumbering.active() ? renumbering.owned_original[local_offset] : local_offset;
  }
  LocalId original_row_local(LocalId x) const {
    if (!renumbering.active()) return x;
    return renumbering.row_original.empty() ? read_in_block(renumbering.row_original_by_slot[rows.rank(x)], x, dist)
                                            : renumbering.row_original[x];
  }
  // The same for a row with edges, given its slot (RowIndex::Extent::slot).
  LocalId original_row_local(LocalId x, int64_t slot) const {
    if (!renumbering.active()) return x;
    return renumbering.row_original.empty() ? read_in_block(renumbering.row_original_by_slot[slot], x, dist)
                                            : renumbering.row_original[x];
  }
  LocalId original_col_local(LocalId u) const {
    if (!renumbering.active()) return u;
    return renumbering.col_original.empty() ? renumbering.column_originals[u] : renumbering.col_original[u];
  }
  // The owned vertices' degrees in the graph's ids, as 32 bits (half the bytes of owned_degree
  // for the searches' random reads), saturated: the searches only weigh work with them. Made by
  // kernel 1 (make_search_tables), as everything a search derives from the graph.
  const std::vector<uint32_t>& owned_degrees_in_graph_order() const { return degree_in_graph_order; }
  std::vector<uint32_t> degree_in_graph_order;
  // The owned vertices without edges, a bit each in the graph's ids (B / 64 words): a search
  // never looks for a parent of these, so it starts with them marked visited.
  std::vector<uint64_t> without_edges;

  int64_t row_begin(int64_t v) const { return rows.begin(v); }
  int64_t row_end(int64_t v) const { return rows.end(v); }
  int64_t local_edges() const { return local_entries; }
  size_t memory_bytes() const {
    const RowIndex::Memory m = rows.memory();
    return m.row_starts + m.bitmap + m.offsets + neighbors.size() * sizeof(LocalId) + packed.memory_bytes() +
           first_neighbors.memory_bytes() + first_neighbors_original.memory_bytes() +
           owned_degree.size() * sizeof(int64_t) + degree_in_graph_order.size() * sizeof(uint32_t) +
           without_edges.size() * sizeof(uint64_t) + renumbering.memory_bytes();
  }
};

struct GraphOptions {
  bool bcsr = true;         // bitmap-based CSR row index (Nakao et al. 2021, section 4.1); false: plain CSR
  bool degree_sort = true;  // each row's neighbours by descending degree (the aim of Nakao et al. 2021, section 4.2)
  bool reorder = true;      // vertices renumbered by degree inside each process (Nakao et al. 2021, section 4.2)
  bool packed_rows = true;  // neighbours stored as varint gaps of their sort keys (graph/packed_rows.hpp)
  // Kernel 1 keeps an edge inside one slab of rows once and makes its mirror entry while filling
  // (graph/build_graph.cpp): half the kept entries. false: both entries routed and kept.
  bool mirror = true;
  // Kernel 1 makes exactly this many passes over the input, each keeping one slab of rows; a run's
  // plan (run/run_plan.hpp) sets it from the node's memory; 0: one. Fewer passes build faster and
  // hold more at once.
  int64_t passes = 0;
  // Sizes of kernel 1's internal steps, set by tests to cover their edge cases (0: the defaults).
  struct Tuning {
    // Input edges per routed chunk (0: chunk_edges_for the rank's share, at most kChunkEdges of
    // graph/edge_router.hpp; tests set it small to cover many chunks).
    int64_t chunk_edges = 0;
    // Kernel 1 writes routed entries straight to their row buckets when a slab has at most this many,
    // else through groups of buckets, in two passes that stay in cache (0: 512; tests set it small
    // to cover the two passes).
    int64_t direct_write_buckets = 0;
    // The widest digit of the fill's radix sort (0: 13 bits, two passes up to SCALE 26 on one
    // process; tests set it small to cover sorts of three passes and more).
    int radix_digit_bits = 0;
    // Kernel 1 makes a slab's mirrors in groups of buckets of at least this many expected entries each
    // (0: kMirrorsPerGroup of graph/row_buckets.hpp; tests set it small to cover many groups).
    int64_t mirrors_per_group = 0;
    // How BCSR keeps its non-empty rows (graph/row_index.hpp): the smaller way, or (tests) one.
    BcsrRows bcsr_rows = BcsrRows::kSmaller;
  };
  Tuning tuning;
  // How kernel 1's first pass counts the rows (graph/row_lengths.hpp): as the sizes say, or (tests)
  // always a word per row or always the rows met.
  RowCounting row_counting = RowCounting::kAuto;
  Layout layout = Layout::kYoo;  // Yoo's distribution (Nakao et al. 2021, section 4.3); kRowMajor with `yoo` off
};

// Whether the rows' sort keys are the graph's column ids: with `degree-sort` and `reorder` on a
// grid of one row, the renumbered column ids already run in descending degree (graph/column_keys.hpp).
inline bool sort_keys_are_column_ids(const GraphOptions& options, const Distribution& d) {
  return options.degree_sort && options.reorder && d.R == 1;
}
// Whether the sort keys take tables of the column set: only the degree order without `reorder`
// (graph/column_keys.hpp).
inline bool sort_keys_need_tables(const GraphOptions& options) { return options.degree_sort && !options.reorder; }

// Where kernel 1 is, for a progress line: `done` of `passes` over the input edges finished
// (`passes` 0 until planned), `step` (a string literal) what it does now.
using Kernel1Observer = std::function<void(int64_t done, int64_t passes, const char* step)>;

// Kernel 1: builds every process's block from the distributed edge source (collective).
LocalGraph build_local_graph(const EdgeSource& source, const ProcessGrid& grid, const GraphOptions& options = {},
                             const Kernel1Observer& observe = {});

}  // namespace g500::graph
