// Weighted kernel 1 + delta-stepping + validation against the reference test vectors: for every
// root at SCALE 8..16, the sum and maximum of the distances equal the vectors (relative 1e-6),
// and reached / the TEPS edge count equal the BFS fields.
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <tuple>
#include <vector>

#include "graph/column_index.hpp"
#include "graph/sort_by_weight.hpp"
#include "run/roots.hpp"
#include "sssp/sssp.hpp"
#include "sssp_fixture.hpp"
#include "testvectors.hpp"
#include "validate/validate_sssp.hpp"

namespace g500::sssp {
namespace {

void expect_close(double got, double want, const std::string& what) {
  EXPECT_LE(std::fabs(got - want), 1e-6 * std::fabs(want)) << what << ": got " << got << " want " << want;
}

void check_scale(int scale, int threads, double delta = SsspOptions{}.delta, util::GridShape shape = {},
                 int sub_buckets = SsspOptions{}.sub_buckets, graph::WeightedGraphOptions graph_options = {},
                 size_t max_roots = 64, int64_t* buckets = nullptr, double pull_factor = SsspOptions{}.pull_factor,
                 int64_t* pull_phases = nullptr, util::MessageLimits limits = {}) {
  omp_set_num_threads(threads);
  const auto vec = testing::load_graph_vector(scale);
  auto built = testing::build_weighted_test_graph(scale, shape, graph_options, limits);
  const graph::WeightedLocalGraph& graph = built->graph;
  // The column index exactly on grids with more columns than rows (the pulls then use it).
  EXPECT_EQ(!graph.columns.empty(), graph_options.column_index && built->grid->cols() > built->grid->rows());
  EXPECT_EQ(graph.graph.global_directed_edges, 2 * (vec.nedges_generated - vec.self_loops));
  EXPECT_EQ(graph.graph.renumbering.active(), graph_options.reorder);
  const auto roots = run::choose_roots(built->spec, 64, graph.graph, *built->grid);
  ASSERT_EQ(roots.size(), vec.roots.size());
  SsspOptions options;
  options.delta = delta;
  options.sub_buckets = sub_buckets;
  options.pull_factor = pull_factor;
  DistributedSssp sssp(graph, *built->grid, options);
  for (size_t k = 0; k < std::min(roots.size(), max_roots); ++k) {
    const auto& want = vec.roots[k];
    ASSERT_EQ(roots[k], want.root);
    const SsspRun run = sssp.run(roots[k]);
    if (buckets) *buckets += run.buckets;
    if (pull_phases) *pull_phases += run.pull_phases;
    validate::SsspValidation check =
        validate::validate_sssp(graph, *built->grid, roots[k], sssp.distances(), sssp.parents());
    ASSERT_TRUE(check.ok) << "scale " << scale << " root " << want.root << ": " << check.error;
    // The work counters: every reached vertex but the root had its distance lowered at least
    // once (on its owner); light and pulled edges are parts of all relaxed edges; the timed steps
    // are parts of the search.
    int64_t counts[4] = {run.improvements, run.relaxations, run.light_relaxations, run.pull_scans};
    MPI_Allreduce(MPI_IN_PLACE, counts, 4, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
    EXPECT_GE(counts[0], want.reached - 1);
    EXPECT_LE(counts[2] + counts[3], counts[1]);
    EXPECT_LE(run.light_seconds + run.push_seconds + run.pull_seconds + run.parents_seconds, run.seconds * (1 + 1e-9));
    EXPECT_EQ(check.reached, want.reached);
    EXPECT_EQ(check.nedge, want.nedge_for_teps);
    const std::string what = "scale " + std::to_string(scale) + " root " + std::to_string(want.root);
    expect_close(check.sum_dist, want.sssp_sum_dist, what + " sum_dist");
    expect_close(check.max_dist, want.sssp_max_dist, what + " max_dist");
  }
}

TEST(SsspVectors, Scale8) { check_scale(8, 1); }
TEST(SsspVectors, Scale10TwoThreads) { check_scale(10, 2); }
TEST(SsspVectors, Scale12) { check_scale(12, 1); }
TEST(SsspVectors, Scale14TwoThreads) { check_scale(14, 2); }
// A wider bucket at SCALE 16 (fewer bulk-synchronous phases) keeps the 6-rank oversubscribed run
// short; the default delta is covered by the smaller scales.
TEST(SsspVectors, Scale16) { check_scale(16, 1, 0.15); }

TEST(SsspVectors, OtherDeltas) {
  // Any bucket width gives the same distances: tiny (Dijkstra-like), wide (Bellman-Ford-like).
  check_scale(10, 1, 0.02);
  check_scale(10, 2, 0.5);
  check_scale(10, 1, 4.0);
}

TEST(SsspVectors, ManyBucketsPerRoot) {
  // Hundreds of buckets per root: the one-byte settle marks wrap around, so a vertex's mark from
  // the previous root can equal this bucket's epoch, and must not pass for it (every heavy phase
  // pushes, so a vertex wrongly taken as settled would leave its heavy edges unrelaxed).
  int64_t buckets = 0;
  check_scale(12, 2, 0.003, {}, 1, {}, 3, &buckets, 0.0);
  EXPECT_GT(buckets, 2 * 255);
}

TEST(SsspVectors, SubBucketsFarBeyondTheRing) {
  // Sub-buckets of width 1e-4 / 16: a candidate one light edge away is thousands of sub-buckets
  // ahead, beyond the queue's ring (sssp/sub_bucket_queue.hpp), and is held in its map.
  check_scale(10, 2, 1e-4, {}, SsspOptions{}.sub_buckets, {}, 4);
}

TEST(SsspVectors, SubBuckets) {
  // Plain delta-stepping (1), and steps narrower than most light edges (16), give the same distances.
  check_scale(10, 2, SsspOptions{}.delta, {}, 1);
  check_scale(10, 1, 0.2, {}, 16);
}

TEST(SsspVectors, WithoutRenumbering) {
  // The degree-order renumbering changes every internal id, not the results (which are reported
  // by original vertex id either way).
  graph::WeightedGraphOptions plain;
  plain.reorder = false;
  check_scale(10, 2, SsspOptions{}.delta, {}, SsspOptions{}.sub_buckets, plain);
  check_scale(12, 1, SsspOptions{}.delta, {}, SsspOptions{}.sub_buckets, plain);
}

TEST(SsspVectors, KernelOneRegeneratingTheEdges) {
  // Kernel 1's path for when pass 1's entries do not fit in memory: pass 2 generates and routes
  // the edges again. Same graph, same distances.
  graph::WeightedGraphOptions regenerate;
  regenerate.keep_entries = false;
  check_scale(12, 2, SsspOptions{}.delta, {}, SsspOptions{}.sub_buckets, regenerate);
}

TEST(SsspVectors, TransposedGridShape) {
  // More columns than rows (1x2, 1x4, 2x3, 1x6): the pulls scan the column index. Pull heavy
  // phases must have run for that to be tested.
  int nranks = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  util::GridShape shape = util::closest_factor_shape(nranks);
  const SsspOptions defaults;
  int64_t pulls = 0;
  check_scale(12, 1, defaults.delta, util::GridShape{shape.cols, shape.rows}, defaults.sub_buckets, {}, 64, nullptr,
              defaults.pull_factor, &pulls);
  EXPECT_GT(pulls, 0);
  pulls = 0;
  check_scale(12, 2, defaults.delta, util::GridShape{1, nranks}, defaults.sub_buckets, {}, 64, nullptr,
              defaults.pull_factor, &pulls);
  EXPECT_GT(pulls, 0);
  // The same grid with the row-set pull (no column index): same distances.
  graph::WeightedGraphOptions rows_only;
  rows_only.column_index = false;
  check_scale(12, 1, defaults.delta, util::GridShape{1, nranks}, defaults.sub_buckets, rows_only);
}

// Every MPI call with counts cut into rounds of at most 64 bytes (comm/large_count.hpp): weighted
// kernel 1 (its 12-byte entries cut anywhere), the search's exchanges, gathers and parent
// reductions, and validation give the vectors' distances on both grid shapes.
TEST(SsspVectors, TinyMessageRounds) {
  constexpr int64_t kTinyMessageBytes = 64;
  constexpr size_t kRoots = 16;
  int nranks = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  const util::GridShape shape = util::closest_factor_shape(nranks);
  const SsspOptions defaults;
  for (const util::GridShape& grid : {shape, util::GridShape{shape.cols, shape.rows}})
    check_scale(12, 1, defaults.delta, grid, defaults.sub_buckets, {}, kRoots, nullptr, defaults.pull_factor, nullptr,
                util::MessageLimits{kTinyMessageBytes});
}

TEST(SsspVectors, SortByWeightOrdersMinusZeroAsZero) {
  // A -0 weight (a file may have one) would sort after every other weight by its bits: it is made
  // +0 first, in lists of one entry too.
  std::vector<graph::IdPair> scratch;
  float weights[] = {0.5f, -0.0f, 0.25f, 0.25f};
  graph::LocalId ids[] = {1, 7, 9, 3};
  graph::sort_by_weight(weights, ids, 4, scratch);
  EXPECT_EQ(std::vector<float>(weights, weights + 4), (std::vector<float>{0.0f, 0.25f, 0.25f, 0.5f}));
  EXPECT_FALSE(std::signbit(weights[0]));
  EXPECT_EQ(std::vector<graph::LocalId>(ids, ids + 4), (std::vector<graph::LocalId>{7, 3, 9, 1}));
  float single = -0.0f;
  graph::LocalId single_id = 4;
  graph::sort_by_weight(&single, &single_id, 1, scratch);
  EXPECT_FALSE(std::signbit(single));
}

TEST(SsspVectors, ColumnIndexIsTheTranspose) {
  // Every entry (row u, column v, weight w) of the block appears once in column v, and every
  // column is sorted by (weight, row).
  auto built = testing::build_weighted_test_graph(10);
  const graph::WeightedLocalGraph& g = built->graph;
  const int64_t nrows = g.graph.dist.row_set_size(), ncols = g.graph.dist.col_set_size();
  const int64_t* starts = g.graph.rows.plain_starts();
  const graph::ColumnIndex c =
      graph::build_column_index(starts, nrows, g.graph.neighbors.data(), g.weights.data(), ncols);
  using Entry = std::tuple<int64_t, int64_t, float>;
  std::vector<Entry> by_rows, by_columns;
  for (int64_t u = 0; u < nrows; ++u)
    for (int64_t e = starts[u]; e < starts[u + 1]; ++e) by_rows.emplace_back(u, g.graph.neighbors[e], g.weights[e]);
  ASSERT_EQ(static_cast<int64_t>(c.starts.size()), ncols + 1);
  for (int64_t v = 0; v < ncols; ++v)
    for (int64_t e = c.starts[v]; e < c.starts[v + 1]; ++e) {
      by_columns.emplace_back(c.rows[e], v, c.weights[e]);
      if (e > c.starts[v]) {
        const bool ordered =
            c.weights[e - 1] < c.weights[e] || (c.weights[e - 1] == c.weights[e] && c.rows[e - 1] <= c.rows[e]);
        ASSERT_TRUE(ordered) << "column " << v << " entry " << e;
      }
    }
  EXPECT_FALSE(by_rows.empty());
  std::sort(by_rows.begin(), by_rows.end());
  std::sort(by_columns.begin(), by_columns.end());
  EXPECT_EQ(by_rows, by_columns);
}

}  // namespace
}  // namespace g500::sssp
