// The SSSP validator must reject a wrong distance (too long and too short), a parent that is not
// a neighbour, a neighbour parent whose edge does not give the distance, a missing vertex of the
// component and a root that is not its own parent; the serial Dijkstra agrees with the vectors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "run/roots.hpp"
#include "sssp/dijkstra.hpp"
#include "sssp/sssp.hpp"
#include "sssp_fixture.hpp"
#include "testvectors.hpp"
#include "validate/validate_sssp.hpp"

namespace g500::validate {
namespace {

class SsspCorruption : public ::testing::Test {
 protected:
  void SetUp() override {
    built_ = testing::build_weighted_test_graph(10);
    root_ = run::choose_roots(built_->spec, 1, built_->graph.graph, *built_->grid).at(0);
    sssp::DistributedSssp sssp(built_->graph, *built_->grid, sssp::SsspOptions{});
    sssp.run(root_);
    dist_ = sssp.distances();
    parents_ = sssp.parents();
    serial_ = sssp::build_serial_weighted_graph(*built_->generator);
    reference_ = sssp::dijkstra(serial_, root_);
    // Global parent array, to find leaves.
    const graph::Distribution& d = built_->graph.graph.dist;
    int nranks = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    std::vector<int64_t> all(static_cast<size_t>(d.block) * nranks), begins(nranks);
    MPI_Allgather(parents_.data(), static_cast<int>(d.block), MPI_INT64_T, all.data(), static_cast<int>(d.block),
                  MPI_INT64_T, MPI_COMM_WORLD);
    int64_t mine = d.owned_begin();
    MPI_Allgather(&mine, 1, MPI_INT64_T, begins.data(), 1, MPI_INT64_T, MPI_COMM_WORLD);
    global_parent_.assign(d.nvertices, -1);
    for (int r = 0; r < nranks; ++r)
      for (int64_t k = 0; k < d.block && begins[r] + k < d.nvertices; ++k)
        global_parent_[begins[r] + k] = all[r * d.block + k];
  }
  bool is_leaf(int64_t v) const {
    return v != root_ && global_parent_[v] >= 0 && std::count(global_parent_.begin(), global_parent_.end(), v) == 0;
  }
  bool adjacent(int64_t v, int64_t u) const {
    for (int64_t e = serial_.starts[v]; e < serial_.starts[v + 1]; ++e)
      if (serial_.targets[e] == u) return true;
    return false;
  }
  int64_t first_leaf() const {
    for (int64_t v = 0; v < serial_.nvertices; ++v)
      if (is_leaf(v)) return v;
    return -1;
  }
  bool owns(int64_t v) const {
    const graph::Distribution& d = built_->graph.graph.dist;
    return v >= d.owned_begin() && v < d.owned_begin() + d.block;
  }
  void set(int64_t v, double dist, int64_t parent) {
    if (!owns(v)) return;
    const int64_t k = v - built_->graph.graph.dist.owned_begin();
    dist_[k] = dist;
    parents_[k] = parent;
  }
  std::string validate() {
    SsspValidation r = validate_sssp(built_->graph, *built_->grid, root_, dist_, parents_);
    EXPECT_FALSE(r.ok);
    return r.error;
  }

  std::unique_ptr<testing::BuiltWeightedGraph> built_;
  int64_t root_ = 0;
  std::vector<double> dist_;
  std::vector<int64_t> parents_, global_parent_;
  sssp::SerialWeightedGraph serial_;
  sssp::DijkstraResult reference_;
};

TEST_F(SsspCorruption, UncorruptedPassesAndMatchesDijkstra) {
  SsspValidation r = validate_sssp(built_->graph, *built_->grid, root_, dist_, parents_);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.reached, reference_.reached);
  EXPECT_NEAR(r.sum_dist, reference_.sum_dist, 1e-9 * reference_.sum_dist);
  EXPECT_EQ(r.max_dist, reference_.max_dist);
  const auto vec = testing::load_graph_vector(10);
  EXPECT_NEAR(reference_.sum_dist, vec.roots[0].sssp_sum_dist, 1e-6 * vec.roots[0].sssp_sum_dist);
  EXPECT_NEAR(reference_.max_dist, vec.roots[0].sssp_max_dist, 1e-6 * vec.roots[0].sssp_max_dist);
}

TEST_F(SsspCorruption, DistanceTooLong) {
  const int64_t v = first_leaf();
  ASSERT_GE(v, 0);
  set(v, reference_.dist[v] + 0.01, global_parent_[v]);
  EXPECT_NE(validate().find("exceeds dist"), std::string::npos);
}

TEST_F(SsspCorruption, DistanceTooShort) {
  const int64_t v = first_leaf();
  ASSERT_GE(v, 0);
  set(v, reference_.dist[v] * (1 - 1e-4), global_parent_[v]);
  const std::string error = validate();
  EXPECT_TRUE(error.find("is not the parent's distance plus the edge weight") != std::string::npos ||
              error.find("exceeds dist") != std::string::npos)
      << error;
}

TEST_F(SsspCorruption, ParentNotANeighbour) {
  const int64_t v = first_leaf();
  ASSERT_GE(v, 0);
  int64_t fake = -1;
  for (int64_t u = 0; u < serial_.nvertices && fake < 0; ++u)
    if (u != v && global_parent_[u] >= 0 && !adjacent(v, u)) fake = u;
  ASSERT_GE(fake, 0);
  set(v, reference_.dist[v], fake);
  EXPECT_NE(validate().find("not an input edge"), std::string::npos);
}

TEST_F(SsspCorruption, NeighbourParentWithWrongWeight) {
  // A neighbour that is not on a shortest path to the leaf.
  int64_t v = -1, fake = -1;
  for (int64_t x = 0; x < serial_.nvertices && v < 0; ++x) {
    if (!is_leaf(x)) continue;
    for (int64_t e = serial_.starts[x]; e < serial_.starts[x + 1]; ++e) {
      const int64_t u = serial_.targets[e];
      if (u == x || global_parent_[u] < 0) continue;
      bool on_path = false;
      for (int64_t f = serial_.starts[x]; f < serial_.starts[x + 1]; ++f)
        if (serial_.targets[f] == u && std::fabs(reference_.dist[u] + serial_.weights[f] - reference_.dist[x]) <=
                                           1e-3 * std::max(1.0, reference_.dist[x]))
          on_path = true;
      if (!on_path) {
        v = x;
        fake = u;
        break;
      }
    }
  }
  ASSERT_GE(v, 0);
  set(v, reference_.dist[v], fake);
  EXPECT_NE(validate().find("is not the parent's distance plus the edge weight"), std::string::npos);
}

TEST_F(SsspCorruption, MissingVertex) {
  const int64_t v = first_leaf();
  ASSERT_GE(v, 0);
  set(v, sssp::kUnreachedDistance, -1);
  EXPECT_NE(validate().find("left unreached"), std::string::npos);
}

TEST_F(SsspCorruption, RootNotItsOwnParent) {
  set(root_, 0.0, serial_.targets[serial_.starts[root_]]);
  EXPECT_NE(validate().find("is not its own parent"), std::string::npos);
}

TEST_F(SsspCorruption, RootWithNonZeroDistance) {
  set(root_, 0.5, root_);
  EXPECT_NE(validate().find("is not its own parent at distance 0"), std::string::npos);
}

TEST_F(SsspCorruption, Cycle) {
  // Two leaves that are neighbours pointing at each other.
  int64_t a = -1, b = -1;
  for (int64_t x = 0; x < serial_.nvertices && a < 0; ++x) {
    if (!is_leaf(x)) continue;
    for (int64_t e = serial_.starts[x]; e < serial_.starts[x + 1]; ++e) {
      const int64_t u = serial_.targets[e];
      if (u != x && is_leaf(u)) {
        a = x;
        b = u;
        break;
      }
    }
  }
  ASSERT_GE(a, 0);
  set(a, reference_.dist[a], b);
  set(b, reference_.dist[b], a);
  EXPECT_NE(validate().find("does not reach the root"), std::string::npos);
}

}  // namespace
}  // namespace g500::validate
