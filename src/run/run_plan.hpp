// The plan of a kernel run, made before it starts: the row format of the BFS's graph, kernel 1's
// passes over the input, and the memory of each part per process, from the graph's size, the grid,
// the options and the node's memory. plan_run is pure (no MPI, no look at this machine), so that
// g500 bfs, g500 sssp, g500 jobscript and g500 model read one estimate; agree_run_plan makes the
// ranks of a run take the same row format and passes.
#pragma once
#include <mpi.h>

#include <cstdint>
#include <vector>

#include "graph/distribution.hpp"
#include "graph/local_graph.hpp"
#include "graph/memory_plan.hpp"
#include "graph/weighted_graph.hpp"
#include "util/memory_parts.hpp"

namespace g500::run {

// Packed rows (graph/packed_rows.hpp) save memory; on one grid row they search nearly as fast as
// plain rows, on grids of several rows they decode through key tables and cost the search speed.
// `auto` packs the rows when the run with plain rows would not fit in most of the node's memory
// (kMostMemoryShare, graph/memory_plan.hpp), and on one grid row also when plain rows would take
// kernel 1 more passes over the input (choose_passes).
enum class PackedRowsChoice { kAuto, kOn, kOff };

// The BFS's level buffers (bfs/bfs_options.hpp): kept through the search, or by direction (a
// top-down level's freed when the search turns bottom-up, the column frontier when it turns
// top-down, the grid row's frontier bitmap gathered in slices), which holds the larger
// direction's buffers instead of both but allocates them again at every turn. `auto` takes them by
// direction when the run with kept ones would not fit in most of the node's memory and by
// direction lowers its peak.
enum class LevelBuffersChoice { kAuto, kKept, kByDirection };

enum class PlanKernel { kBfs, kSssp };

struct PlanInput {
  graph::GraphShape shape;  // edges (global, this process's share), the Kronecker SCALE or 0
  graph::Distribution d;    // this process's place on the grid
  PlanKernel kernel = PlanKernel::kBfs;
  graph::GraphOptions graph;  // the BFS's kernel 1 (`passes` > 0: fixed)
  PackedRowsChoice packed_rows = PackedRowsChoice::kAuto;
  LevelBuffersChoice level_buffers = LevelBuffersChoice::kAuto;
  graph::WeightedGraphOptions weighted;  // the SSSP's kernel 1
  int compare_dijkstra = 0;              // SSSP: roots also solved by a serial Dijkstra on rank 0
  int threads = 1;                       // OpenMP threads per rank
  double node_bytes_per_rank = 0;        // the node's memory over the ranks sharing it
};

struct RunPlan {
  PlanKernel kernel = PlanKernel::kBfs;
  int grid_rows = 1, grid_cols = 1;
  bool packed_rows = false;   // BFS: the neighbours packed (graph/packed_rows.hpp)
  int64_t passes = 1;         // BFS: kernel 1's slabs, one pass over the input each
  bool keeps_entries = true;  // SSSP: kernel 1 keeps pass 1's entries (else reads the edges twice)
  // What `auto` chose the row format from: plain rows' peak within kMostMemoryShare of the node
  // per rank, kernel 1's passes with plain and with packed rows.
  bool plain_rows_fit = true;
  int64_t plain_passes = 1, packed_passes = 1;
  bool level_buffers_by_direction = false;  // BFS: the level buffers by direction (LevelBuffersChoice)
  // Per process, the runtime counted in both.
  std::vector<util::MemoryPart> kernel1, search;
  // The sizes the parts grow with (util/memory_parts.hpp): m/P, N/P, N/R, N/C.
  double edge_share = 0, owned = 0, row_set = 0, column_set = 0;

  double kernel1_bytes() const { return util::total_bytes(kernel1); }
  double search_bytes() const { return util::total_bytes(search); }
  double peak_bytes() const;
};

RunPlan plan_run(const PlanInput& input);

// Top-down candidates a BFS process lists in one round of a level (bfs/top_down.cpp): at least
// kMinTopDownCandidatesPerRound, else 1 / kEntriesPerTopDownCandidate of a process's average
// entries, the same on every process. A level's candidates can reach 1 / alpha of the entries
// (Beamer's rule); in rounds the exchange's buffers never hold more than this many.
inline constexpr int64_t kMinTopDownCandidatesPerRound = int64_t{1} << 21;
inline constexpr int64_t kEntriesPerTopDownCandidate = 128;
int64_t top_down_candidates_per_round(int64_t global_entries, int ranks);

// Whether a top-down step gathers the grid row's frontier as the row set's bitmap (N/R bits, in
// one buffer whatever the frontier) rather than as a list of ids (bfs/top_down.cpp): when the list
// of an average grid row, frontier_vertices / R ids, would take more than 1 /
// kTopDownListShareOfBitmap of the bitmap's bits. Decided from the frontier's size, which every
// rank knows, so all grid rows gather alike. With the level buffers by direction the bitmap is
// gathered in kTopDownListShareOfBitmap slices, each at most as large as the longest list.
inline constexpr int64_t kTopDownListShareOfBitmap = 8;
bool top_down_row_frontier_as_bitmap(int64_t frontier_vertices, const graph::Distribution& d);
// The words of one slice of an owned block's frontier bitmap (the last slice may be shorter).
int64_t row_frontier_slice_words(const graph::Distribution& d);
// The bytes of a top-down work item (a row or a piece of one, bfs/bfs.hpp's RowPiece: five words
// and two ids, padded), for the plan.
inline constexpr size_t kTopDownItemBytes = 5 * sizeof(int64_t) + 2 * sizeof(graph::LocalId);

// `auto`'s row format: packed rows when plain ones do not fit, or, where the sort keys are the
// column ids (one grid row, `reorder` and `degree-sort`), when packed rows take kernel 1 fewer
// passes over the input.
bool auto_packs_rows(const graph::Distribution& d, const graph::GraphOptions& options, bool plain_rows_fit,
                     int64_t plain_passes, int64_t packed_passes);

// Collective: plan_run on every rank, then one row format and pass count for all (plain rows fit
// only where they fit every rank's node; the most passes any rank asks for), planned again with them.
RunPlan agree_run_plan(const PlanInput& input, MPI_Comm comm);

}  // namespace g500::run
