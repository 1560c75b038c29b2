// The validator checks a BFS result against the input edges, not against the graph kernel 1
// built from them. Here kernel 1 builds its graph from corrupted edges (one edge moved to other
// endpoints, or edges dropped as self-loops), as a defective kernel 1 might, and
//  - a correct result still passes (a validator that read the graph would miss the moved edge);
//  - a result that is a valid BFS tree of the corrupted graph but not of the input (a parent edge
//    that is not an input edge; depths that break an input edge the graph lost) is rejected with
//    the right message, while the same result passes against the corrupted edges themselves;
//  - a graph with no edges at all (only the distribution and the degrees) validates alike.
// Each corruption is chosen from a serial view of the SCALE 10 graph; the parameter is the grid
// (default and transposed shape: 2x1/1x2 on 2 ranks, 3x2/2x3 on 6) and the vertex layout.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <tuple>

#include "bfs/bfs.hpp"
#include "local_graph_fixture.hpp"
#include "run/roots.hpp"
#include "serial_view.hpp"
#include "validate/validate_bfs.hpp"

namespace g500::validate {
namespace {

// An edge source that reads another and replaces some edges (by global index) on the way; a
// self-loop in place of an edge drops it from the graph.
class CorruptedEdges {
 public:
  explicit CorruptedEdges(graph::EdgeSource base) : base_(std::move(base)) {}
  void replace(int64_t index, gen::Edge edge) { replaced_[index] = edge; }
  graph::EdgeSource source() const {
    graph::EdgeSource s = base_;
    s.read = [this](int64_t offset, int64_t count, gen::Edge* out) {
      base_.read(offset, count, out);
      const int64_t first = base_.local_begin + offset;
      for (auto it = replaced_.lower_bound(first); it != replaced_.end() && it->first < first + count; ++it)
        out[it->first - first] = it->second;
    };
    return s;
  }

 private:
  graph::EdgeSource base_;
  std::map<int64_t, gen::Edge> replaced_;
};

using Param = std::tuple<bool, graph::Layout>;  // transposed grid shape, vertex layout

class UntrustedGraph : public ::testing::TestWithParam<Param> {
 protected:
  void SetUp() override {
    int nranks = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    util::GridShape shape = util::closest_factor_shape(nranks);
    if (std::get<0>(GetParam())) shape = util::GridShape{shape.cols, shape.rows};
    options_.layout = std::get<1>(GetParam());
    built_ = testing::build_test_graph(10, shape, options_);
    root_ = run::choose_roots(built_->spec, 1, built_->graph, *built_->grid).at(0);
    bfs::DistributedBfs bfs(built_->graph, *built_->grid, bfs::BfsOptions{});
    bfs.prepare();
    bfs.run(root_);
    parents_ = bfs.parents();
    view_ = testing::serial_view(built_->spec, root_);
    global_parent_ = testing::gather_parents(dist(), parents_);
    corrupted_ = std::make_unique<CorruptedEdges>(testing::input_edges(*built_));
    expected_ = validate(built_->graph, testing::input_edges(*built_), parents_);
    ASSERT_TRUE(expected_.ok) << expected_.error;
  }

  const graph::Distribution& dist() const { return built_->graph.dist; }
  // Kernel 1 on the corrupted edges, on the same grid.
  graph::LocalGraph build_corrupted_graph() const {
    return graph::build_local_graph(corrupted_->source(), *built_->grid, options_);
  }
  // Both ways of checking the edges (by owner queries, or where they are read) must agree;
  // returns the owner queries' result.
  ValidationResult validate(const graph::LocalGraph& graph, const graph::EdgeSource& edges,
                            const std::vector<int64_t>& parents) {
    ValidateOptions owners, replicated;
    owners.way = EdgeCheckWay::kOwnerQueries;
    replicated.way = EdgeCheckWay::kReplicated;
    const ValidationResult r = validate_bfs(graph, edges, *built_->grid, root_, parents, owners);
    const ValidationResult other = validate_bfs(graph, edges, *built_->grid, root_, parents, replicated);
    EXPECT_EQ(other.ok, r.ok);
    EXPECT_EQ(other.error, r.error);
    EXPECT_EQ(other.nedge, r.nedge);
    EXPECT_EQ(other.depth_hash, r.depth_hash);
    return r;
  }
  // The index of an input edge joining a and b.
  int64_t edge_index(int64_t a, int64_t b) const {
    for (size_t i = 0; i < view_.edges.size(); ++i) {
      const gen::Edge& e = view_.edges[i];
      if ((e.v0 == a && e.v1 == b) || (e.v0 == b && e.v1 == a)) return static_cast<int64_t>(i);
    }
    return -1;
  }
  bool has_children(int64_t v) const {
    return std::count(global_parent_.begin(), global_parent_.end(), v) > (v == root_);
  }
  void expect_same_result(const ValidationResult& r) const {
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.level_sizes, expected_.level_sizes);
    EXPECT_EQ(r.nedge, expected_.nedge);
    EXPECT_EQ(r.depth_hash, expected_.depth_hash);
  }

  graph::GraphOptions options_;
  std::unique_ptr<testing::BuiltGraph> built_;
  int64_t root_ = 0;
  std::vector<int64_t> parents_, global_parent_;
  testing::SerialView view_;
  std::unique_ptr<CorruptedEdges> corrupted_;
  ValidationResult expected_;
};

// Kernel 1 moved a tree edge {v, p} to {v, w}, w one level above v but no neighbour of v.
// Degrees stay consistent (p loses one, w gains one, both reached), so only the edges differ.
struct MovedTreeEdge {
  int64_t v = -1, p = -1, w = -1, index = -1;
};

MovedTreeEdge find_moved_tree_edge(const testing::SerialView& view, const std::vector<int64_t>& parent) {
  const int64_t n = static_cast<int64_t>(view.adj.size());
  for (int64_t v = 0; v < n; ++v) {
    if (view.depth[v] < 2) continue;
    for (int64_t w = 0; w < n; ++w)
      if (view.depth[w] == view.depth[v] - 1 && w != parent[v] && !view.adj[v].count(w)) return {v, parent[v], w};
  }
  return {};
}

TEST_P(UntrustedGraph, CorrectResultPassesWhenTheGraphLostATreeEdge) {
  MovedTreeEdge moved = find_moved_tree_edge(view_, global_parent_);
  ASSERT_GE(moved.v, 0);
  moved.index = edge_index(moved.v, moved.p);
  ASSERT_GE(moved.index, 0);
  corrupted_->replace(moved.index, gen::Edge{moved.v, moved.w});
  const graph::LocalGraph corrupted = build_corrupted_graph();
  expect_same_result(validate(corrupted, testing::input_edges(*built_), parents_));
}

TEST_P(UntrustedGraph, ParentEdgeOnlyInTheGraphIsRejected) {
  MovedTreeEdge moved = find_moved_tree_edge(view_, global_parent_);
  ASSERT_GE(moved.v, 0);
  moved.index = edge_index(moved.v, moved.p);
  corrupted_->replace(moved.index, gen::Edge{moved.v, moved.w});
  const graph::LocalGraph corrupted = build_corrupted_graph();
  testing::set_parent(dist(), parents_, moved.v, moved.w);  // same depths: a BFS tree of the corrupted graph
  EXPECT_TRUE(validate(corrupted, corrupted_->source(), parents_).ok);
  const ValidationResult r = validate(corrupted, testing::input_edges(*built_), parents_);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error, "the parent " + std::to_string(moved.w) + " of vertex " + std::to_string(moved.v) +
                         " is not one of its neighbours");
}

TEST_P(UntrustedGraph, DepthsAgainstAnEdgeTheGraphDroppedAreRejected) {
  // A leaf v at depth d takes a neighbour u at depth d as parent (depth d + 1), and kernel 1
  // dropped every input edge from v to depth d - 1: a BFS tree of the corrupted graph.
  const int64_t n = static_cast<int64_t>(view_.adj.size());
  int64_t v = -1, u = -1;
  for (int64_t x = 0; x < n && v < 0; ++x)
    if (x != root_ && view_.depth[x] > 0 && !has_children(x))
      for (int64_t y : view_.adj[x])
        if (view_.depth[y] == view_.depth[x]) {
          v = x;
          u = y;
          break;
        }
  ASSERT_GE(v, 0);
  const int d = view_.depth[v];
  std::vector<std::string> expected_errors;  // the dropped edges, either way round
  for (size_t i = 0; i < view_.edges.size(); ++i) {
    const gen::Edge& e = view_.edges[i];
    const int64_t other = e.v0 == v ? e.v1 : e.v1 == v ? e.v0 : -1;
    if (other < 0 || other == v || view_.depth[other] != d - 1) continue;
    corrupted_->replace(static_cast<int64_t>(i), gen::Edge{v, v});
    const std::string rule =
        " (-1 = unreached): levels must differ by at most one and the tree must span the component";
    expected_errors.push_back("edge (" + std::to_string(v) + ", " + std::to_string(other) + ") joins depths " +
                              std::to_string(d + 1) + " and " + std::to_string(d - 1) + rule);
    expected_errors.push_back("edge (" + std::to_string(other) + ", " + std::to_string(v) + ") joins depths " +
                              std::to_string(d - 1) + " and " + std::to_string(d + 1) + rule);
  }
  ASSERT_FALSE(expected_errors.empty());
  const graph::LocalGraph corrupted = build_corrupted_graph();
  // The correct result: its edges are right, but kernel 1's degrees miss the dropped edges.
  const ValidationResult counted = validate(corrupted, testing::input_edges(*built_), parents_);
  EXPECT_FALSE(counted.ok);
  EXPECT_NE(counted.error.find("TEPS edge count mismatch"), std::string::npos) << counted.error;

  testing::set_parent(dist(), parents_, v, u);
  EXPECT_TRUE(validate(corrupted, corrupted_->source(), parents_).ok);
  const ValidationResult r = validate(corrupted, testing::input_edges(*built_), parents_);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(std::find(expected_errors.begin(), expected_errors.end(), r.error), expected_errors.end()) << r.error;
}

TEST_P(UntrustedGraph, GraphWithoutEdgesValidatesAlike) {
  // What the validator may take from kernel 1: the distribution and the owned degrees.
  graph::LocalGraph bare;
  bare.dist = built_->graph.dist;
  bare.owned_degree = built_->graph.owned_degree;
  bare.renumbering = built_->graph.renumbering;
  expect_same_result(validate(bare, testing::input_edges(*built_), parents_));
  const MovedTreeEdge moved = find_moved_tree_edge(view_, global_parent_);
  ASSERT_GE(moved.v, 0);
  testing::set_parent(dist(), parents_, moved.v, moved.w);
  EXPECT_FALSE(validate(bare, testing::input_edges(*built_), parents_).ok);
}

INSTANTIATE_TEST_SUITE_P(Grids, UntrustedGraph,
                         ::testing::Combine(::testing::Bool(),
                                            ::testing::Values(graph::Layout::kYoo, graph::Layout::kRowMajor)),
                         [](const ::testing::TestParamInfo<Param>& param_info) {
                           return std::string(std::get<0>(param_info.param) ? "Transposed" : "Default") +
                                  (std::get<1>(param_info.param) == graph::Layout::kYoo ? "Yoo" : "RowMajor");
                         });

}  // namespace
}  // namespace g500::validate
