// The plan of a kernel run (run_plan.hpp): the BFS's from kernel 1's memory plan
// (graph/memory_plan.hpp) and the search's and validation's arrays, the SSSP's from its weighted
// kernel 1 (graph/weighted_graph.hpp) and its search's arrays.
#include "run/run_plan.hpp"

#include <algorithm>

#include "comm/typed.hpp"
#include "run/run_setup.hpp"
#include "validate/edge_check.hpp"
#include "validate/tree_depths.hpp"

namespace g500::run {
namespace {

struct Sizes {
  double ranks, entries, rows, cols, owned;
};

Sizes sizes_of(const PlanInput& in) {
  const double ranks = static_cast<double>(in.d.R) * in.d.C;
  return {ranks, 2.0 * static_cast<double>(in.shape.nedges) / ranks, static_cast<double>(in.d.row_set_size()),
          static_cast<double>(in.d.col_set_size()), static_cast<double>(in.d.block)};
}

void append(std::vector<util::MemoryPart>& to, const std::vector<util::MemoryPart>& parts) {
  to.insert(to.end(), parts.begin(), parts.end());
}

// The larger of two moments' parts.
const std::vector<util::MemoryPart>& larger(const std::vector<util::MemoryPart>& a,
                                            const std::vector<util::MemoryPart>& b) {
  return util::total_bytes(a) >= util::total_bytes(b) ? a : b;
}

// The BFS with the rows as `options` say (packed_rows), kernel 1 in the passes choose_passes takes
// and the level buffers kept or by direction.
RunPlan plan_bfs(const PlanInput& in, const graph::GraphOptions& options, bool by_direction) {
  const Sizes s = sizes_of(in);
  const graph::Distribution& d = in.d;
  const int64_t passes = graph::choose_passes(in.shape, d, options, in.node_bytes_per_rank, in.threads);
  const graph::GraphMemory graph = graph::plan_graph_memory(in.shape, d, options, passes, in.threads);
  RunPlan plan;
  plan.packed_rows = options.packed_rows;
  plan.passes = graph.passes;
  plan.level_buffers_by_direction = by_direction;
  const util::MemoryPart runtime{"runtime (MPI, OpenMP, the program)", kRuntimeBytesPerRank, util::GrowsWith::kFixed};
  plan.kernel1.push_back(runtime);
  append(plan.kernel1, graph.kernel1_parts);
  plan.search.push_back(runtime);
  append(plan.search, graph.graph_parts);
  // Top-down runs while the frontier's edges are below 1/alpha of the unvisited ones, so one
  // level's candidates stay below about 1/14 of the entries, and a round of a level holds at most
  // top_down_candidates_per_round of them (8 bytes each): in the threads' buckets (grown by
  // doubling, so up to twice), packed to send, and received. Only those for other processes are
  // buffered (a process settles its own at once): along the grid column, or over the world with
  // the row-major layout.
  constexpr double kTopDownShare = 1.0 / 14.0, kCandidateCopies = 2 + 1 + 1;
  const double peers = d.yoo() ? d.R : s.ranks;
  const double per_round = std::min(
      s.entries * kTopDownShare * (peers - 1) / peers,
      static_cast<double>(top_down_candidates_per_round(static_cast<int64_t>(s.entries * s.ranks), d.R * d.C)));
  // The search's level buffers (freed while the validation runs: DistributedBfs::release_level_buffers):
  // the top-down levels', the bottom-up levels' and those of both; then the validation's. The
  // graph, the parents and the owned vertices' bitmaps are held by both.
  std::vector<util::MemoryPart> top_down, bottom_up, both, validation;
  top_down.push_back(
      {"BFS: top-down candidates", per_round * sizeof(uint64_t) * kCandidateCopies, util::GrowsWith::kEdgeShare});
  // A top-down level's frontier of the grid row: listed while an average row's list takes at most
  // 1/8 of the row set's bitmap (the list's buffer keeps its largest), else as that bitmap: kept,
  // in the column frontier's words where they are as many; by direction, gathered in slices as
  // large as the longest list; on one grid column the owned frontier's bitmap itself
  // (top_down_row_frontier_as_bitmap). Its work items: one per row of the frontier with entries
  // here (and per 1024 entries of a hub row); after a bottom-up step the frontier is below N/beta,
  // so about slots/beta of them (the level after the largest: 1.9 % of N/R with 48 % of the rows
  // with entries, SCALE 22 on 2x2). The owned frontier likewise, and a level's top-down
  // discoveries with their parents: on the Kronecker graphs at most 1/8 of the owned (12 %
  // measured at SCALE 22 on 2x2), on others up to all of them.
  constexpr double kFrontierAfterBottomUp = 1.0 / 24;  // beta (bfs/bfs_options.hpp)
  const double column_frontier_words = d.R > 1 ? s.cols / util::kBitsPerWord + d.R : 0;
  const bool own_row_bitmap = !by_direction && d.C > 1 && column_frontier_words < s.rows / util::kBitsPerWord;
  top_down.push_back({"BFS: top-down frontier of the row",
                      s.rows / 8 / kTopDownListShareOfBitmap + (own_row_bitmap ? s.rows / 8 : 0),
                      util::GrowsWith::kRowSet});
  top_down.push_back({"BFS: top-down work items", graph.row_slots * kFrontierAfterBottomUp * kTopDownItemBytes,
                      options.bcsr ? util::GrowsWith::kEdgeShare : util::GrowsWith::kRowSet});
  const double discoveries = in.shape.scale > 0 ? 1.0 / 8 : 1.0;
  constexpr double kId = sizeof(graph::LocalId);
  both.push_back({"BFS: frontier and discoveries of the owned",
                  s.owned * (kFrontierAfterBottomUp * kId + discoveries * (kId + sizeof(int64_t))),
                  util::GrowsWith::kOwned});
  plan.search.push_back(
      {"BFS: parents", s.owned * sizeof(int64_t), util::GrowsWith::kOwned});  // kernel 1 made the degree tables
  // The BFS's bitmaps (bfs/bfs.hpp): of the owned vertices visited, the frontier, the next one and
  // visited before a top-down step, with C > 1 the rotating visited words, with the row-major
  // layout the column's block from its owner; with R > 1 the frontier of the column set.
  const double owned_bitmaps = 4 + (d.C > 1 ? 1 : 0) + (d.yoo() ? 0 : 1);
  plan.search.push_back({"BFS: bitmaps of the owned", owned_bitmaps * s.owned / 8, util::GrowsWith::kOwned});
  if (d.R > 1)
    bottom_up.push_back(
        {"BFS: column frontier", column_frontier_words * sizeof(uint64_t), util::GrowsWith::kColumnSet});
  // Kept, all of them; by direction, the larger direction's beside those of both.
  const bool top_down_held = !by_direction || util::total_bytes(top_down) >= util::total_bytes(bottom_up);
  const bool bottom_up_held = !by_direction || !top_down_held;
  std::vector<util::MemoryPart> levels;
  if (top_down_held) append(levels, top_down);
  append(levels, both);
  if (bottom_up_held) append(levels, bottom_up);
  // Validation: the walk of the tree depths, then the input edge check beside the depths and the
  // owned vertices' tree-edge marks (validate/validate_bfs.hpp).
  const double walk = validate::tree_depths_bytes(d, d.R * d.C);
  const double depths = s.owned * sizeof(int32_t),
               edge_check = validate::input_edge_check_bytes(d, in.threads, in.shape.local_edges, in.shape.nedges);
  const double owned_marks = s.owned / 8;
  if (walk >= depths + edge_check + owned_marks) {
    validation.push_back({"validation: tree depths walk", walk, util::GrowsWith::kSeveral});
  } else {
    validation.push_back({"validation: depths", depths, util::GrowsWith::kOwned});
    validation.push_back({"validation: input edge check", edge_check, util::GrowsWith::kSeveral});
    validation.push_back({"validation: tree-edge marks of the owned", owned_marks, util::GrowsWith::kOwned});
  }
  // The phase's peak: the larger of the two moments.
  append(plan.search, larger(levels, validation));
  return plan;
}

graph::GraphOptions with_rows(graph::GraphOptions options, bool packed) {
  options.packed_rows = packed;
  return options;
}

// The SSSP: the most of kernel 1 (the routed entries it keeps, its buffers) and of the search (the
// weighted graph, the candidate exchange, the SSSP and validation arrays), and the whole serial
// graph on rank 0 with --compare-dijkstra.
RunPlan plan_sssp(const PlanInput& in) {
  const Sizes s = sizes_of(in);
  const graph::WeightedGraphOptions& options = in.weighted;
  RunPlan plan;
  plan.keeps_entries = graph::weighted_kernel1_keeps_entries(s.entries, in.node_bytes_per_rank, options);
  std::vector<util::MemoryPart> shared{
      {"runtime (MPI, OpenMP, the program)", kRuntimeBytesPerRank, util::GrowsWith::kFixed}};
  // Renumbering tables (kept), forward maps (kernel 1 only), results by original offset.
  if (options.reorder) {
    shared.push_back({"renumbering: owned", s.owned * (8.0 + 16.0), util::GrowsWith::kOwned});
    shared.push_back({"renumbering: row set", s.rows * 8.0, util::GrowsWith::kRowSet});
    shared.push_back({"renumbering: column set", s.cols * 8.0, util::GrowsWith::kColumnSet});
  }
  if (in.compare_dijkstra > 0) {
    const double m = static_cast<double>(in.shape.nedges), n = static_cast<double>(in.d.nvertices);
    shared.push_back({"serial Dijkstra's graph (rank 0)", m * (sizeof(gen::Edge) + sizeof(float)) + 2 * m * 8 + n * 40,
                      util::GrowsWith::kWholeGraph});
  }
  plan.kernel1 = shared;
  append(plan.kernel1, graph::weighted_kernel1_parts(static_cast<double>(in.shape.nedges) / s.ranks, s.entries, s.rows,
                                                     in.node_bytes_per_rank, options));
  plan.search = shared;
  plan.search.push_back(
      {"weighted neighbours", s.entries * (sizeof(graph::LocalId) + sizeof(float)), util::GrowsWith::kEdgeShare});
  plan.search.push_back({"row starts", s.rows * 2 * sizeof(int64_t), util::GrowsWith::kRowSet});
  plan.search.push_back({"owned degrees", s.owned * 8.0, util::GrowsWith::kOwned});
  if (options.column_index && in.d.C > in.d.R) {
    plan.search.push_back({"column index: neighbours", s.entries * (sizeof(graph::LocalId) + sizeof(float)),
                           util::GrowsWith::kEdgeShare});
    plan.search.push_back({"column index: starts", s.cols * sizeof(int64_t), util::GrowsWith::kColumnSet});
  }
  plan.search.push_back(
      {"SSSP: candidates of a large phase", s.entries * 3 * sizeof(uint64_t) / 4, util::GrowsWith::kEdgeShare});
  plan.search.push_back({"SSSP: column-set arrays", s.cols * 16.0, util::GrowsWith::kColumnSet});
  plan.search.push_back({"SSSP: row-set arrays", s.rows * 16.0, util::GrowsWith::kRowSet});
  plan.search.push_back({"SSSP: owned arrays", s.owned * 40.0, util::GrowsWith::kOwned});
  return plan;
}

}  // namespace

int64_t top_down_candidates_per_round(int64_t global_entries, int ranks) {
  return std::max(kMinTopDownCandidatesPerRound, global_entries / ranks / kEntriesPerTopDownCandidate);
}

int64_t row_frontier_slice_words(const graph::Distribution& d) {
  const int64_t block_words = d.block / util::kBitsPerWord;
  return (block_words + kTopDownListShareOfBitmap - 1) / kTopDownListShareOfBitmap;
}

bool top_down_row_frontier_as_bitmap(int64_t frontier_vertices, const graph::Distribution& d) {
  constexpr double kListBitsPerVertex = sizeof(graph::LocalId) * 8;
  return static_cast<double>(frontier_vertices) * kListBitsPerVertex * kTopDownListShareOfBitmap >
         static_cast<double>(d.row_set_size()) * d.R;
}

double RunPlan::peak_bytes() const { return std::max(kernel1_bytes(), search_bytes()); }

bool auto_packs_rows(const graph::Distribution& d, const graph::GraphOptions& options, bool plain_rows_fit,
                     int64_t plain_passes, int64_t packed_passes) {
  if (!plain_rows_fit) return true;
  return graph::sort_keys_are_column_ids(options, d) && packed_passes < plain_passes;
}

RunPlan plan_run(const PlanInput& in) {
  RunPlan plan;
  if (in.kernel == PlanKernel::kSssp) {
    plan = plan_sssp(in);
  } else {
    const bool by_direction = in.level_buffers == LevelBuffersChoice::kByDirection;
    const RunPlan plain = plan_bfs(in, with_rows(in.graph, false), by_direction);
    const RunPlan packed = plan_bfs(in, with_rows(in.graph, true), by_direction);
    const bool plain_rows_fit = plain.peak_bytes() <= graph::kMostMemoryShare * in.node_bytes_per_rank;
    const bool pack = in.packed_rows == PackedRowsChoice::kAuto
                          ? auto_packs_rows(in.d, in.graph, plain_rows_fit, plain.passes, packed.passes)
                          : in.packed_rows == PackedRowsChoice::kOn;
    plan = pack ? packed : plain;
    if (in.level_buffers == LevelBuffersChoice::kAuto &&
        plan.peak_bytes() > graph::kMostMemoryShare * in.node_bytes_per_rank) {
      RunPlan turned = plan_bfs(in, with_rows(in.graph, pack), true);
      if (turned.peak_bytes() < plan.peak_bytes()) plan = std::move(turned);
    }
    plan.plain_rows_fit = plain_rows_fit;
    plan.plain_passes = plain.passes;
    plan.packed_passes = packed.passes;
  }
  plan.kernel = in.kernel;
  plan.grid_rows = in.d.R;
  plan.grid_cols = in.d.C;
  const Sizes s = sizes_of(in);
  plan.edge_share = static_cast<double>(in.shape.nedges) / s.ranks;
  plan.owned = s.owned;
  plan.row_set = s.rows;
  plan.column_set = s.cols;
  return plan;
}

RunPlan agree_run_plan(const PlanInput& input, MPI_Comm comm) {
  const RunPlan local = plan_run(input);
  if (input.kernel == PlanKernel::kSssp) return local;  // its kernel 1 agrees on keeping the entries itself
  int64_t facts[] = {local.plain_rows_fit ? 0 : 1, local.plain_passes, local.packed_passes, local.passes,
                     local.level_buffers_by_direction ? 1 : 0};
  comm::Communicator(comm).max_in_place(facts);
  const bool plain_rows_fit = facts[0] == 0;
  const bool pack = input.packed_rows == PackedRowsChoice::kAuto
                        ? auto_packs_rows(input.d, input.graph, plain_rows_fit, facts[1], facts[2])
                        : input.packed_rows == PackedRowsChoice::kOn;
  PlanInput agreed = input;
  agreed.packed_rows = pack ? PackedRowsChoice::kOn : PackedRowsChoice::kOff;
  agreed.graph.passes = input.packed_rows == PackedRowsChoice::kAuto ? (pack ? facts[2] : facts[1]) : facts[3];
  agreed.level_buffers = facts[4] == 1 ? LevelBuffersChoice::kByDirection : LevelBuffersChoice::kKept;
  RunPlan plan = plan_run(agreed);
  plan.plain_rows_fit = plain_rows_fit;
  plan.plain_passes = facts[1];
  plan.packed_passes = facts[2];
  return plan;
}

}  // namespace g500::run
