// Tree depths from a parent array (validation rule 2) on synthetic trees deeper than the BFS trees
// of Kronecker graphs: a path of kPathLength levels from the root with random subtrees hanging
// from it, and unreached vertices. Every way of walking (parent chains on one process, levels by
// frontier bitmaps with the switch to child lists after their last round, child lists from the
// root) gives the depths of a serial walk, on the default and the transposed grid and in both
// vertex layouts; a cycle or a chain through an unreached vertex is reported by each.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <random>
#include <tuple>

#include "graph/distribution.hpp"
#include "graph/grid.hpp"
#include "validate/tree_depths.hpp"

namespace g500::validate {
namespace {

constexpr int64_t kVertices = 5000;
constexpr int64_t kPathLength = 120;  // deeper than the levels walked with frontier bitmaps
constexpr int64_t kReached = 4200;    // the rest stay unreached
constexpr int64_t kRoot = 17;

// The parents of every vertex (-1 unreached), the same on every rank.
std::vector<int64_t> make_tree() {
  std::mt19937_64 random(12345);
  std::vector<int64_t> order(kVertices);
  for (int64_t v = 0; v < kVertices; ++v) order[v] = v;
  std::shuffle(order.begin(), order.end(), random);
  std::swap(*std::find(order.begin(), order.end(), kRoot), order[0]);
  std::vector<int64_t> parent(kVertices, -1);
  parent[kRoot] = kRoot;
  for (int64_t i = 1; i < kReached; ++i)
    parent[order[i]] = i < kPathLength ? order[i - 1] : order[std::uniform_int_distribution<int64_t>(0, i - 1)(random)];
  return parent;
}

std::vector<int32_t> serial_depths(const std::vector<int64_t>& parent) {
  std::vector<int32_t> depth(parent.size(), kUnreachedDepth);
  for (int64_t v = 0; v < static_cast<int64_t>(parent.size()); ++v) {
    if (parent[v] < 0) continue;
    int32_t d = 0;
    for (int64_t x = v; x != kRoot; x = parent[x]) ++d;
    depth[v] = d;
  }
  return depth;
}

using Param = std::tuple<bool, graph::Layout>;  // transposed grid shape, vertex layout

class TreeDepths : public ::testing::TestWithParam<Param> {
 protected:
  void SetUp() override {
    int nranks = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    util::GridShape shape = util::closest_factor_shape(nranks);
    if (std::get<0>(GetParam())) shape = util::GridShape{shape.cols, shape.rows};
    grid_ = std::make_unique<graph::ProcessGrid>(MPI_COMM_WORLD, shape);
    d_ = graph::Distribution(kVertices, grid_->rows(), grid_->cols(), grid_->row(), grid_->col(),
                             std::get<1>(GetParam()));
    parent_ = make_tree();
  }
  std::vector<int64_t> owned_parents() const {
    std::vector<int64_t> owned(d_.block, -1);
    for (int64_t k = 0; k < d_.block && d_.owned_begin() + k < kVertices; ++k) owned[k] = parent_[d_.owned_begin() + k];
    return owned;
  }
  std::string walk(TreeWalk how, std::vector<int32_t>& depth) const {
    return tree_depths(d_, *grid_, kRoot, owned_parents(), depth, how);
  }

  std::unique_ptr<graph::ProcessGrid> grid_;
  graph::Distribution d_;
  std::vector<int64_t> parent_;
};

TEST_P(TreeDepths, EveryWalkGivesTheSerialDepths) {
  const std::vector<int32_t> want = serial_depths(parent_);
  ASSERT_GE(*std::max_element(want.begin(), want.end()), kPathLength - 1);
  for (TreeWalk how : {TreeWalk::kDefault, TreeWalk::kLevels, TreeWalk::kChildLists}) {
    std::vector<int32_t> depth;
    ASSERT_EQ(walk(how, depth), "");
    ASSERT_EQ(static_cast<int64_t>(depth.size()), d_.block);
    for (int64_t k = 0; k < d_.block; ++k) {
      const int64_t v = d_.owned_begin() + k;
      EXPECT_EQ(depth[k], v < kVertices ? want[v] : kUnreachedDepth) << "vertex " << v;
    }
  }
}

TEST_P(TreeDepths, CycleDeepInTheTreeIsReported) {
  // A vertex at depth 100 takes its descendant ten levels down as parent.
  const std::vector<int32_t> depth = serial_depths(parent_);
  const int64_t below = std::find(depth.begin(), depth.end(), kPathLength - 10) - depth.begin();
  ASSERT_LT(below, kVertices);
  int64_t top = below;
  for (int i = 0; i < 10; ++i) top = parent_[top];
  parent_[top] = below;
  for (TreeWalk how : {TreeWalk::kDefault, TreeWalk::kLevels, TreeWalk::kChildLists}) {
    std::vector<int32_t> unused;
    EXPECT_NE(walk(how, unused).find("does not reach the root"), std::string::npos);
  }
}

TEST_P(TreeDepths, ParentUnreachedIsReported) {
  int64_t unreached = -1;
  for (int64_t v = 0; v < kVertices && unreached < 0; ++v)
    if (parent_[v] < 0) unreached = v;
  const std::vector<int32_t> depth = serial_depths(parent_);
  const int64_t deep = std::max_element(depth.begin(), depth.end()) - depth.begin();
  parent_[deep] = unreached;
  for (TreeWalk how : {TreeWalk::kDefault, TreeWalk::kLevels, TreeWalk::kChildLists}) {
    std::vector<int32_t> unused;
    EXPECT_EQ(walk(how, unused), "the parent chain of vertex " + std::to_string(deep) +
                                     " does not reach the root (a cycle or an unreached parent)");
  }
}

INSTANTIATE_TEST_SUITE_P(Grids, TreeDepths,
                         ::testing::Combine(::testing::Bool(),
                                            ::testing::Values(graph::Layout::kYoo, graph::Layout::kRowMajor)),
                         [](const ::testing::TestParamInfo<Param>& param_info) {
                           return std::string(std::get<0>(param_info.param) ? "Transposed" : "Default") +
                                  (std::get<1>(param_info.param) == graph::Layout::kYoo ? "Yoo" : "RowMajor");
                         });

}  // namespace
}  // namespace g500::validate
