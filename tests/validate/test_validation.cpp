// The validator must reject corrupted BFS trees: a parent that is not a neighbour, a cycle, a
// wrong level, an unreached vertex of the component, a root that is not its own parent, and an
// out-of-range parent. Each corruption is chosen from a serial view of the SCALE 10 graph.
#include <gtest/gtest.h>

#include <algorithm>

#include "bfs/bfs.hpp"
#include "local_graph_fixture.hpp"
#include "run/roots.hpp"
#include "serial_view.hpp"
#include "validate/validate_bfs.hpp"

namespace g500::validate {
namespace {

// Parameter: the graph with its default techniques (BCSR, renumbered) or with plain CSR in the
// original ids; the validator reads neither (it checks the input edges), and the verdicts agree.
class ValidationCorruption : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    graph::GraphOptions options;
    if (GetParam()) options.bcsr = options.reorder = false;
    built_ = testing::build_test_graph(10, {}, options);
    root_ = run::choose_roots(built_->spec, 1, built_->graph, *built_->grid).at(0);
    bfs::DistributedBfs bfs(built_->graph, *built_->grid, bfs::BfsOptions{});
    bfs.prepare();
    bfs.run(root_);
    parents_ = bfs.parents();
    view_ = testing::serial_view(built_->spec, root_);
    // The full parent array on every rank, to find vertices with the wanted properties.
    global_parent_ = testing::gather_parents(built_->graph.dist, parents_);
  }

  void set_parent(int64_t v, int64_t p) { testing::set_parent(built_->graph.dist, parents_, v, p); }
  // Every variant of the validator's code paths (8- or 32-bit depths in the edge check; tree
  // depths by parent chains on one process, by level bitmaps or by child lists; the input edges
  // in one chunk or many, by owner queries or where they are read) must reject the corruption
  // with the same message; returns it.
  std::string validate() {
    std::string first;
    for (const ValidateOptions& options : variants()) {
      ValidationResult r =
          validate_bfs(built_->graph, testing::input_edges(*built_), *built_->grid, root_, parents_, options);
      EXPECT_FALSE(r.ok);
      if (&options == &variants().front()) first = r.error;
      EXPECT_EQ(r.error, first);
    }
    return first;
  }
  static const std::vector<ValidateOptions>& variants() {
    // The last two read the input edges in many small chunks (several per rank at SCALE 10).
    constexpr int64_t kSmallChunk = 777;
    static const std::vector<ValidateOptions> all{
        {true, TreeWalk::kDefault},
        {false, TreeWalk::kDefault},
        {true, TreeWalk::kLevels, kCheckChunkEdges, EdgeCheckWay::kOwnerQueries},
        {false, TreeWalk::kChildLists, kCheckChunkEdges, EdgeCheckWay::kReplicated},
        {true, TreeWalk::kChildLists, kSmallChunk, EdgeCheckWay::kOwnerQueries},
        {false, TreeWalk::kLevels, kSmallChunk, EdgeCheckWay::kReplicated}};
    return all;
  }
  bool has_children(int64_t v) const {
    return std::count(global_parent_.begin(), global_parent_.end(), v) > (v == root_);
  }

  std::unique_ptr<testing::BuiltGraph> built_;
  int64_t root_ = 0;
  std::vector<int64_t> parents_, global_parent_;
  testing::SerialView view_;
};

TEST_P(ValidationCorruption, UncorruptedPasses) {
  ValidationResult r = validate_bfs(built_->graph, testing::input_edges(*built_), *built_->grid, root_, parents_);
  EXPECT_TRUE(r.ok) << r.error;
  for (const ValidateOptions& options : variants()) {
    ValidationResult other =
        validate_bfs(built_->graph, testing::input_edges(*built_), *built_->grid, root_, parents_, options);
    EXPECT_TRUE(other.ok) << other.error;
    EXPECT_EQ(other.level_sizes, r.level_sizes);
    EXPECT_EQ(other.nedge, r.nedge);
    EXPECT_EQ(other.depth_hash, r.depth_hash);
  }
}

TEST_P(ValidationCorruption, ParentNotANeighbour) {
  const int64_t n = built_->spec.nvertices();
  int64_t victim = -1, fake = -1;
  for (int64_t v = 0; v < n && victim < 0; ++v) {
    if (view_.depth[v] < 2) continue;
    for (int64_t w = 0; w < n; ++w)
      if (view_.depth[w] == view_.depth[v] - 1 && !view_.adj[v].count(w)) {
        victim = v;
        fake = w;
        break;
      }
  }
  ASSERT_GE(victim, 0);
  set_parent(victim, fake);
  EXPECT_NE(validate().find("is not one of its neighbours"), std::string::npos);
}

TEST_P(ValidationCorruption, Cycle) {
  const int64_t n = built_->spec.nvertices();
  int64_t a = -1, b = -1;
  for (int64_t v = 0; v < n && a < 0; ++v)
    if (v != root_ && view_.depth[v] > 0)
      for (int64_t u : view_.adj[v])
        if (u != root_ && view_.depth[u] == view_.depth[v]) {
          a = v;
          b = u;
          break;
        }
  ASSERT_GE(a, 0);
  set_parent(a, b);
  set_parent(b, a);
  EXPECT_NE(validate().find("does not reach the root"), std::string::npos);
}

TEST_P(ValidationCorruption, LongCycleWithTails) {
  // The depth-1 ancestor of a vertex at depth >= 3 takes that vertex as parent: a cycle of three
  // or more vertices, with the rest of the subtree hanging from it.
  const int64_t n = built_->spec.nvertices();
  int64_t deep = -1;
  for (int64_t v = 0; v < n && deep < 0; ++v)
    if (view_.depth[v] >= 3) deep = v;
  ASSERT_GE(deep, 0);
  int64_t ancestor = deep;
  while (global_parent_[ancestor] != root_) ancestor = global_parent_[ancestor];
  set_parent(ancestor, deep);
  EXPECT_NE(validate().find("does not reach the root"), std::string::npos);
}

TEST_P(ValidationCorruption, ParentUnreached) {
  const int64_t n = built_->spec.nvertices();
  int64_t leaf = -1, unreached = -1;
  for (int64_t v = 0; v < n; ++v) {
    if (leaf < 0 && v != root_ && view_.depth[v] > 0 && !has_children(v)) leaf = v;
    if (unreached < 0 && view_.depth[v] < 0) unreached = v;
  }
  ASSERT_GE(leaf, 0);
  ASSERT_GE(unreached, 0);
  set_parent(leaf, unreached);
  EXPECT_NE(validate().find("does not reach the root"), std::string::npos);
}

TEST_P(ValidationCorruption, WrongLevel) {
  // A neighbour one level deeper as parent: the vertex's depth becomes two more than its
  // original parent's, which is still its neighbour.
  const int64_t n = built_->spec.nvertices();
  int64_t victim = -1, deeper = -1;
  for (int64_t v = 0; v < n && victim < 0; ++v)
    if (v != root_ && view_.depth[v] > 0 && !has_children(v))
      for (int64_t u : view_.adj[v])
        if (view_.depth[u] == view_.depth[v] && global_parent_[u] != v) {
          victim = v;
          deeper = u;
          break;
        }
  ASSERT_GE(victim, 0);
  set_parent(victim, deeper);
  EXPECT_NE(validate().find("levels must differ by at most one"), std::string::npos);
}

TEST_P(ValidationCorruption, UnreachedVertexInComponent) {
  const int64_t n = built_->spec.nvertices();
  int64_t leaf = -1;
  for (int64_t v = 0; v < n && leaf < 0; ++v)
    if (v != root_ && view_.depth[v] > 0 && !has_children(v)) leaf = v;
  ASSERT_GE(leaf, 0);
  set_parent(leaf, -1);
  EXPECT_NE(validate().find("joins depths"), std::string::npos);
}

TEST_P(ValidationCorruption, RootNotItsOwnParent) {
  set_parent(root_, *view_.adj[root_].begin());
  EXPECT_NE(validate().find("is not its own parent"), std::string::npos);
}

TEST_P(ValidationCorruption, ParentOutOfRange) {
  const int64_t n = built_->spec.nvertices();
  int64_t v = 0;
  while (v == root_ || view_.depth[v] < 0) ++v;
  set_parent(v, n + 5);
  EXPECT_NE(validate().find("invalid parent"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Layouts, ValidationCorruption, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& param_info) {
                           return param_info.param ? "PlainCsr" : "Default";
                         });

}  // namespace
}  // namespace g500::validate
