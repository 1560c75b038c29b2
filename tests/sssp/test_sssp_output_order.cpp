// The result a timed DistributedSssp::run() leaves is already in the input's vertex order: read
// right after the run through the const accessors (nothing converts it after the timer), every
// owned vertex's entry at its original offset has the serial Dijkstra's distance on the test
// vector's edge list (the same float sums, so the same floats), and its parent is the root itself,
// -1 when unreached, or a neighbour in that edge list whose distance plus the edge's weight is the
// vertex's distance; the sums of the distances are the vectors'. With and without the degree-order
// renumbering, on one-column grids (parents from the notes by column), one-row grids (by row) and
// the default grid, and with the parents searched after the search (`parent-notes` off).
#include <gtest/gtest.h>
#include <omp.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "sssp/dijkstra.hpp"
#include "sssp/sssp.hpp"
#include "sssp_fixture.hpp"
#include "testvectors.hpp"

namespace g500::sssp {
namespace {

// The test vector's weighted edge list as a serial graph (independent of our generator).
SerialWeightedGraph vector_graph(int scale) {
  std::vector<gen::Edge> edges;
  std::vector<float> weights;
  for (const testing::TsvEdge& e : testing::load_kron_tsv(scale)) {
    edges.push_back({e.v0, e.v1});
    weights.push_back(e.weight);
  }
  return build_serial_weighted_graph(int64_t{1} << scale, edges, weights);
}

// Whether the edge list has an edge (u, v) with fl(dist[u] + w) == dist[v].
bool gives_distance(const SerialWeightedGraph& g, const std::vector<double>& dist, int64_t u, int64_t v) {
  for (int64_t e = g.starts[u]; e < g.starts[u + 1]; ++e)
    if (static_cast<int64_t>(g.targets[e]) == v &&
        static_cast<float>(dist[u]) + g.weights[e] == static_cast<float>(dist[v]))
      return true;
  return false;
}

struct Case {
  int scale = 10;
  util::GridShape shape;  // one not matching the rank count (the default 1x1): the default grid
  bool reorder = true;
  bool parent_notes = true;
  int threads = 1;
  size_t roots = 4;
};

std::string describe(const Case& c, const graph::ProcessGrid& grid, int64_t root) {
  return "scale " + std::to_string(c.scale) + " grid " + std::to_string(grid.rows()) + "x" +
         std::to_string(grid.cols()) + (c.reorder ? " renumbered" : " not renumbered") +
         (c.parent_notes ? "" : " parent-notes off") + " threads " + std::to_string(c.threads) + " root " +
         std::to_string(root);
}

void check_output_order(const Case& c) {
  omp_set_num_threads(c.threads);
  const auto vec = testing::load_graph_vector(c.scale);
  const SerialWeightedGraph serial = vector_graph(c.scale);
  graph::WeightedGraphOptions graph_options;
  graph_options.reorder = c.reorder;
  auto built = testing::build_weighted_test_graph(c.scale, c.shape, graph_options);
  const graph::WeightedLocalGraph& graph = built->graph;
  ASSERT_EQ(graph.graph.renumbering.active(), c.reorder);
  const graph::Distribution& d = graph.graph.dist;
  SsspOptions options;
  options.parent_notes = c.parent_notes;
  DistributedSssp sssp(graph, *built->grid, options);
  const DistributedSssp& finished = sssp;  // only the const accessors: no conversion after run()
  for (size_t k = 0; k < std::min(c.roots, vec.roots.size()); ++k) {
    const int64_t root = vec.roots[k].root;
    const std::string what = describe(c, *built->grid, root);
    sssp.prepare();
    sssp.run(root);
    const std::vector<double>& dist = finished.distances();
    const std::vector<int64_t>& parent = finished.parents();
    ASSERT_EQ(static_cast<int64_t>(dist.size()), d.block) << what;
    ASSERT_EQ(static_cast<int64_t>(parent.size()), d.block) << what;
    const DijkstraResult want = dijkstra(serial, root);
    // Counted over every vertex of every rank: mismatches are reported by their first vertex.
    int64_t counts[3] = {0, 0, 0};  // reached, wrong distances, wrong parents
    double sum = 0;
    int64_t first_wrong = -1;
    for (int64_t o = 0; o < d.block && d.owned_begin() + o < d.nvertices; ++o) {
      const int64_t v = d.owned_begin() + o;
      const bool reached = std::isfinite(want.dist[v]);
      const bool distance_ok = reached ? dist[o] == want.dist[v] : dist[o] == kUnreachedDistance;
      const int64_t p = parent[o];
      bool parent_ok;
      if (!reached)
        parent_ok = p == -1;
      else if (v == root)
        parent_ok = p == root;
      else
        parent_ok = p >= 0 && p < d.nvertices && p != v && gives_distance(serial, want.dist, p, v);
      if (reached) {
        ++counts[0];
        sum += dist[o];
      }
      counts[1] += !distance_ok;
      counts[2] += !parent_ok;
      if ((!distance_ok || !parent_ok) && first_wrong < 0) first_wrong = v;
    }
    MPI_Allreduce(MPI_IN_PLACE, counts, 3, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    EXPECT_EQ(counts[0], vec.roots[k].reached) << what;
    EXPECT_EQ(counts[1], 0) << what << ": wrong distances (first wrong vertex on this rank: " << first_wrong << ")";
    EXPECT_EQ(counts[2], 0) << what << ": wrong parents (first wrong vertex on this rank: " << first_wrong << ")";
    EXPECT_LE(std::fabs(sum - vec.roots[k].sssp_sum_dist), 1e-6 * vec.roots[k].sssp_sum_dist) << what;
  }
}

int world_size() {
  int nranks = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  return nranks;
}

// A case of the given grid (the default: the rank count's default grid), renumbering, parent
// search and threads.
Case make_case(util::GridShape shape, bool reorder, bool parent_notes, int threads) {
  Case c;
  c.shape = shape;
  c.reorder = reorder;
  c.parent_notes = parent_notes;
  c.threads = threads;
  return c;
}

TEST(SsspOutputOrder, OneColumnGrid) {
  for (bool reorder : {true, false}) check_output_order(make_case({world_size(), 1}, reorder, true, 2));
}

TEST(SsspOutputOrder, OneRowGrid) {
  for (bool reorder : {true, false}) check_output_order(make_case({1, world_size()}, reorder, true, 1));
}

TEST(SsspOutputOrder, DefaultGridAndParentsSearched) {
  for (bool reorder : {true, false}) {
    check_output_order(make_case({}, reorder, true, 2));
    check_output_order(make_case({}, reorder, false, 1));
  }
}

TEST(SsspOutputOrder, Scale12) {
  Case c = make_case({}, true, true, 2);
  c.scale = 12;
  c.roots = 2;
  check_output_order(c);
}

}  // namespace
}  // namespace g500::sssp
