// Weighted kernel 1 + delta-stepping + validation against the reference test vectors: for every
// root at SCALE 8..16, the sum and maximum of the distances equal the vectors (relative 1e-6),
// and reached / the TEPS edge count equal the BFS fields.
#include <gtest/gtest.h>
#include <omp.h>

#include <cmath>

#include "graph/roots.hpp"
#include "sssp/sssp.hpp"
#include "sssp/validate_sssp.hpp"
#include "sssp_fixture.hpp"
#include "testvectors.hpp"

namespace g500 {
namespace {

void expect_close(double got, double want, const std::string& what) {
  EXPECT_LE(std::fabs(got - want), 1e-6 * std::fabs(want)) << what << ": got " << got << " want " << want;
}

void check_scale(int scale, int threads, double delta = SsspOptions{}.delta, GridShape shape = {},
                 int sub_buckets = SsspOptions{}.sub_buckets, WeightedGraphOptions graph_options = {},
                 size_t max_roots = 64, int64_t* buckets = nullptr, double pull_factor = SsspOptions{}.pull_factor) {
  omp_set_num_threads(threads);
  const auto vec = testing::load_graph_vector(scale);
  auto built = testing::build_weighted_test_graph(scale, shape, graph_options);
  const WeightedLocalGraph& graph = built->graph;
  EXPECT_EQ(graph.graph.global_directed_edges, 2 * (vec.nedges_generated - vec.self_loops));
  EXPECT_EQ(graph.graph.renumbering.active(), graph_options.reorder);
  const auto roots = choose_roots(built->spec, 64, graph.graph, *built->grid);
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
    SsspValidation check = validate_sssp(graph, *built->grid, roots[k], sssp.distances(), sssp.parents());
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

TEST(SsspVectors, SubBuckets) {
  // Plain delta-stepping (1), and steps narrower than most light edges (16), give the same distances.
  check_scale(10, 2, SsspOptions{}.delta, {}, 1);
  check_scale(10, 1, 0.2, {}, 16);
}

TEST(SsspVectors, WithoutRenumbering) {
  // The degree-order renumbering changes every internal id, not the results (which are reported
  // by original vertex id either way).
  WeightedGraphOptions plain;
  plain.reorder = false;
  check_scale(10, 2, SsspOptions{}.delta, {}, SsspOptions{}.sub_buckets, plain);
  check_scale(12, 1, SsspOptions{}.delta, {}, SsspOptions{}.sub_buckets, plain);
}

TEST(SsspVectors, KernelOneRegeneratingTheEdges) {
  // Kernel 1's path for when pass 1's entries do not fit in memory: pass 2 generates and routes
  // the edges again. Same graph, same distances.
  WeightedGraphOptions regenerate;
  regenerate.keep_entries = false;
  check_scale(12, 2, SsspOptions{}.delta, {}, SsspOptions{}.sub_buckets, regenerate);
}

TEST(SsspVectors, TransposedGridShape) {
  int nranks = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  GridShape shape = default_grid_shape(nranks);
  check_scale(12, 1, SsspOptions{}.delta, GridShape{shape.cols, shape.rows});
  check_scale(12, 1, SsspOptions{}.delta, GridShape{1, nranks});
}

}  // namespace
}  // namespace g500
