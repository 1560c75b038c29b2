// Kernel 1 + kernel 2 + validation against the reference test vectors: for every root at SCALE
// 8..16, reached, level sizes, the TEPS edge count and the depth hash equal the vectors.
#include <gtest/gtest.h>
#include <omp.h>

#include "bfs/bfs.hpp"
#include "local_graph_fixture.hpp"
#include "run/roots.hpp"
#include "run/run_plan.hpp"
#include "serial_view.hpp"
#include "testvectors.hpp"
#include "validate/validate_bfs.hpp"

namespace g500::bfs {
namespace {

// With `bitmap_levels`: counts there the top-down levels that gathered the grid row's frontier as a bitmap.
void check_scale(int scale, int threads, util::GridShape shape = {}, graph::GraphOptions graph_options = {},
                 BfsOptions bfs_options = {}, util::MessageLimits limits = {}, int64_t* bitmap_levels = nullptr) {
  omp_set_num_threads(threads);
  const auto vec = testing::load_graph_vector(scale);
  auto built = testing::build_test_graph(scale, shape, graph_options, limits);
  const graph::LocalGraph& graph = built->graph;
  EXPECT_EQ(graph.global_directed_edges, 2 * (vec.nedges_generated - vec.self_loops));

  const auto roots = run::choose_roots(built->spec, 64, graph, *built->grid);
  ASSERT_EQ(roots.size(), vec.roots.size());
  DistributedBfs bfs(graph, *built->grid, bfs_options);
  for (size_t k = 0; k < roots.size(); ++k) {
    const auto& want = vec.roots[k];
    ASSERT_EQ(roots[k], want.root) << "root " << k;
    bfs.prepare();
    BfsRun run = bfs.run(roots[k]);
    EXPECT_EQ(run.level_sizes, want.level_sizes) << "scale " << scale << " root " << want.root;
    for (const LevelTrace& level : run.levels)
      if (bitmap_levels && level.direction == Direction::kTopDown &&
          run::top_down_row_frontier_as_bitmap(level.frontier_size, graph.dist))
        ++*bitmap_levels;
    validate::ValidationResult check =
        validate::validate_bfs(graph, testing::input_edges(*built), *built->grid, roots[k], bfs.parents());
    ASSERT_TRUE(check.ok) << check.error;
    EXPECT_EQ(check.reached, want.reached);
    EXPECT_EQ(check.level_sizes, want.level_sizes);
    EXPECT_EQ(check.nedge, want.nedge_for_teps);
    EXPECT_EQ(check.depth_hash, want.depth_hash) << "scale " << scale << " root " << want.root;
  }
}

TEST(BfsVectors, Scale8) { check_scale(8, 1); }
TEST(BfsVectors, Scale10TwoThreads) { check_scale(10, 2); }
TEST(BfsVectors, Scale12) { check_scale(12, 1); }
TEST(BfsVectors, Scale14TwoThreads) { check_scale(14, 2); }
TEST(BfsVectors, Scale16) { check_scale(16, 1); }

TEST(BfsVectors, TransposedGridShape) {
  // R < C is allowed with --grid; the results must not depend on the shape.
  int nranks = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  util::GridShape shape = util::closest_factor_shape(nranks);
  check_scale(12, 1, util::GridShape{shape.cols, shape.rows});
  check_scale(12, 1, util::GridShape{1, nranks});
  // A long grid row: overlap's segments travel both ways through several processes.
  BfsOptions pairs_per_round;
  pairs_per_round.substeps = 3;
  pairs_per_round.bu_alltoallv = false;
  check_scale(12, 2, util::GridShape{1, nranks}, {}, pairs_per_round);
  BfsOptions bitmaps_only;
  bitmaps_only.sparse_switch = false;
  check_scale(12, 1, util::GridShape{1, nranks}, {}, bitmaps_only);
  // The row-major layout (`yoo` off) on R < C grids (2x3 at 6 ranks): blocks move between
  // columns of different lengths.
  graph::GraphOptions no_yoo;
  no_yoo.layout = graph::Layout::kRowMajor;
  check_scale(12, 2, util::GridShape{shape.cols, shape.rows}, no_yoo);
  BfsOptions no_sparse = bitmaps_only;
  check_scale(12, 1, util::GridShape{shape.cols, shape.rows}, no_yoo, no_sparse);
}

// Every MPI call with counts cut into rounds of at most 64 bytes (comm/large_count.hpp; one or
// two elements per peer): kernel 1's routing, renumbering and transposes, the BFS's exchanges
// and gathers with several collective algorithms, and validation give the vectors' results on
// both grid shapes (2: 2x1 and 1x2, 6: 3x2 and 2x3) and in the row-major layout.
TEST(BfsVectors, TinyMessageRounds) {
  constexpr int64_t kTinyMessageBytes = 64;
  const util::MessageLimits tiny{kTinyMessageBytes};
  int nranks = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  const util::GridShape shape = util::closest_factor_shape(nranks), transposed{shape.cols, shape.rows};
  check_scale(12, 1, shape, {}, {}, tiny);
  check_scale(12, 2, transposed, {}, {}, tiny);
  BfsOptions other_algorithms;
  other_algorithms.alltoallv = "dimwise";
  other_algorithms.allgatherv = "bruck";
  check_scale(12, 1, transposed, {}, other_algorithms, tiny);
  BfsOptions pairs_and_bitmaps;
  pairs_and_bitmaps.bu_alltoallv = false;
  pairs_and_bitmaps.sparse_switch = false;
  graph::GraphOptions no_yoo;
  no_yoo.layout = graph::Layout::kRowMajor;
  check_scale(12, 1, transposed, no_yoo, pairs_and_bitmaps, tiny);
  check_scale(14, 2, shape, {}, {}, tiny);
}

// Top-down levels in many rounds of a few candidates each (the buffers' bound at large scale),
// on both grid shapes and in the row-major layout, whose candidates travel over the world.
TEST(BfsVectors, TopDownInRounds) {
  constexpr int64_t kFewCandidates = 64;
  int nranks = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  const util::GridShape shape = util::closest_factor_shape(nranks), transposed{shape.cols, shape.rows};
  BfsOptions rounds;
  rounds.candidates_per_round = kFewCandidates;
  check_scale(12, 2, shape, {}, rounds);
  graph::GraphOptions no_yoo;
  no_yoo.layout = graph::Layout::kRowMajor;
  check_scale(12, 1, transposed, no_yoo, rounds);
  BfsOptions rounds_without_pieces = rounds;  // whole rows as items: a hub row may fill a round alone
  rounds_without_pieces.lb_topdown = false;
  check_scale(10, 2, shape, {}, rounds_without_pieces);
}

// The level buffers by direction (each direction's freed when the search turns, the grid row's
// frontier bitmap gathered in slices): on both grid shapes, in the row-major layout, in rounds and
// without sparse-switch, with top-down levels that take the bitmap on grids of several columns.
TEST(BfsVectors, LevelBuffersByDirection) {
  int nranks = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  const util::GridShape shape = util::closest_factor_shape(nranks), transposed{shape.cols, shape.rows};
  BfsOptions by_direction;
  by_direction.level_buffers_by_direction = true;
  int64_t bitmap_levels = 0;
  check_scale(14, 2, shape, {}, by_direction, {}, &bitmap_levels);
  EXPECT_GT(bitmap_levels, 0);
  bitmap_levels = 0;
  check_scale(16, 1, transposed, {}, by_direction, {}, &bitmap_levels);
  EXPECT_GT(bitmap_levels, 0);
  graph::GraphOptions no_yoo;
  no_yoo.layout = graph::Layout::kRowMajor;
  check_scale(12, 2, transposed, no_yoo, by_direction);
  BfsOptions in_rounds = by_direction;
  in_rounds.candidates_per_round = 64;
  in_rounds.sparse_switch = false;
  check_scale(12, 1, util::GridShape{1, nranks}, {}, in_rounds);
}

// Every technique switch, off alone and all off together, gives the same validated results.
TEST(BfsVectors, TechniqueSwitches) {
  graph::GraphOptions no_bcsr;
  no_bcsr.bcsr = false;
  graph::GraphOptions no_degree_sort;
  no_degree_sort.degree_sort = false;
  graph::GraphOptions no_reorder;
  no_reorder.reorder = false;
  graph::GraphOptions no_yoo;
  no_yoo.layout = graph::Layout::kRowMajor;
  graph::GraphOptions no_packed_rows;
  no_packed_rows.packed_rows = false;
  graph::GraphOptions no_graph_techniques = no_bcsr;
  no_graph_techniques.packed_rows = false;
  no_graph_techniques.degree_sort = false;
  no_graph_techniques.reorder = false;
  no_graph_techniques.layout = graph::Layout::kRowMajor;
  BfsOptions no_bu_alltoallv;
  no_bu_alltoallv.bu_alltoallv = false;
  BfsOptions no_lb_topdown;
  no_lb_topdown.lb_topdown = false;
  BfsOptions no_sparse_switch;
  no_sparse_switch.sparse_switch = false;
  BfsOptions no_overlap;
  no_overlap.overlap = false;
  BfsOptions odd_substeps;  // 3 segments: two travel left, one right
  odd_substeps.substeps = 3;
  BfsOptions pairs_per_round = odd_substeps;  // Algorithm 3's exchange with segments both ways
  pairs_per_round.bu_alltoallv = false;
  BfsOptions all_off_bfs = no_bu_alltoallv;
  all_off_bfs.lb_topdown = false;
  all_off_bfs.sparse_switch = false;
  all_off_bfs.overlap = false;
  for (int scale : {10, 14}) {
    check_scale(scale, 2, {}, no_bcsr, {});
    check_scale(scale, 1, {}, no_packed_rows, {});
    check_scale(scale, 1, {}, {}, no_bu_alltoallv);
    check_scale(scale, 2, {}, {}, no_lb_topdown);
    check_scale(scale, 1, {}, no_degree_sort, {});
    check_scale(scale, 2, {}, no_reorder, {});
    check_scale(scale, 1, {}, no_yoo, {});
    check_scale(scale, 1, {}, {}, no_sparse_switch);
    check_scale(scale, 2, {}, {}, no_overlap);
    check_scale(scale, 1, {}, {}, odd_substeps);
    check_scale(scale, 1, {}, {}, pairs_per_round);
    check_scale(scale, 2, {}, no_graph_techniques, all_off_bfs);
  }
}

// BCSR's non-empty rows kept in buckets of rows (graph/row_index.hpp, the form of Fugaku-sized
// grids, where a process meets few of its rows) and as the bitmap, whichever the sizes would
// choose: the same validated results, plain and packed, with and without the renumbering.
TEST(BfsVectors, NonEmptyRowsInBucketsOrAsBitmap) {
  for (const graph::BcsrRows kept : {graph::BcsrRows::kBuckets, graph::BcsrRows::kBitmap})
    for (const bool packed : {true, false})
      for (const bool reorder : {true, false}) {
        graph::GraphOptions options;
        options.tuning.bcsr_rows = kept;
        options.packed_rows = packed;
        options.reorder = reorder;
        check_scale(12, 2, {}, options, {});
      }
  graph::GraphOptions buckets;
  buckets.tuning.bcsr_rows = graph::BcsrRows::kBuckets;
  check_scale(14, 1, {}, buckets, {});
}

// Kernel 1's path for short memory (pass 2 generates the edges again instead of keeping pass 1's
// entries) gives the same validated results, with and without the graph techniques.
TEST(BfsVectors, RegeneratedSecondPass) {
  graph::GraphOptions regenerate;
  regenerate.passes = 16;  // many slabs, each a pass over the edges
  graph::GraphOptions no_reorder = regenerate;
  no_reorder.reorder = false;
  graph::GraphOptions no_degree_sort = regenerate;
  no_degree_sort.degree_sort = false;
  graph::GraphOptions no_yoo = regenerate;
  no_yoo.layout = graph::Layout::kRowMajor;
  graph::GraphOptions no_packed_rows = regenerate;
  no_packed_rows.packed_rows = false;
  for (int scale : {10, 14}) {
    check_scale(scale, 2, {}, regenerate, {});
    check_scale(scale, 1, {}, no_packed_rows, {});
    check_scale(scale, 1, {}, no_reorder, {});
    check_scale(scale, 2, {}, no_degree_sort, {});
    check_scale(scale, 1, {}, no_yoo, {});
  }
}

// The array run() leaves, read as it is (no conversion between the search and this check), holds
// each owned vertex's parent at its own vertex id: the root its own parent, every reached vertex
// a neighbour one level nearer the root (serial BFS), -1 exactly for the unreached. With the
// degree renumbering (the search works in other ids) and without, on row-major and Yoo layouts.
TEST(BfsVectors, RunLeavesParentsInVertexOrder) {
  omp_set_num_threads(2);
  graph::GraphOptions no_reorder;
  no_reorder.reorder = false;
  graph::GraphOptions row_major;
  row_major.layout = graph::Layout::kRowMajor;
  for (const graph::GraphOptions& options : {graph::GraphOptions{}, no_reorder, row_major}) {
    auto built = testing::build_test_graph(10, {}, options);
    const graph::LocalGraph& graph = built->graph;
    const graph::Distribution& d = graph.dist;
    DistributedBfs bfs(graph, *built->grid, {});
    for (const int64_t root : run::choose_roots(built->spec, 4, graph, *built->grid)) {
      const testing::SerialView view = testing::serial_view(built->spec, root);
      bfs.prepare();
      bfs.run(root);
      const std::vector<int64_t>& parent = bfs.parents();
      ASSERT_EQ(static_cast<int64_t>(parent.size()), d.block);
      for (int64_t k = 0; k < d.block && d.owned_begin() + k < d.nvertices; ++k) {
        const int64_t v = d.owned_begin() + k, p = parent[k];
        if (view.depth[v] < 0) {
          ASSERT_EQ(p, -1) << "unreached vertex " << v << " from root " << root;
        } else if (v == root) {
          ASSERT_EQ(p, root);
        } else {
          ASSERT_GE(p, 0) << "reached vertex " << v << " from root " << root;
          ASSERT_EQ(view.depth[p], view.depth[v] - 1) << "vertex " << v << " from root " << root;
          ASSERT_TRUE(view.adj[v].count(p)) << "vertex " << v << " parent " << p;
        }
      }
    }
  }
}

}  // namespace
}  // namespace g500::bfs
