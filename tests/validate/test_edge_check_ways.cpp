// The two ways of checking the input edges (validate/edge_check.hpp: owner queries, replicated)
// must give the same TEPS entry count, the same lowest failing edge and the same tree-edge marks,
// and those must be the values a serial pass over the whole edge list finds. Graphs: Kronecker
// SCALE 8 and 11, each with a correct BFS tree and two corrupted ones (a leaf left unreached:
// failing edges; a leaf hung from a vertex one level up that is not its neighbour: a missing
// mark), on the default grid, its transpose (3x2 and 2x3 on 6 ranks), one grid row and one grid
// column, with both vertex layouts, in one chunk and in many small ones, the owner queries'
// records in one word and in two.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <tuple>

#include "bfs/bfs.hpp"
#include "local_graph_fixture.hpp"
#include "run/roots.hpp"
#include "serial_view.hpp"
#include "validate/edge_check.hpp"
#include "validate/tree_depths.hpp"

namespace g500::validate {
namespace {

enum class Shape { kDefault, kTransposed, kOneRow, kOneColumn };
using Param = std::tuple<Shape, graph::Layout, int>;  // grid, vertex layout, SCALE

util::GridShape grid_shape(Shape shape) {
  int nranks = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  const util::GridShape closest = util::closest_factor_shape(nranks);
  switch (shape) {
    case Shape::kTransposed:
      return util::GridShape{closest.cols, closest.rows};
    case Shape::kOneRow:
      return util::GridShape{1, nranks};
    case Shape::kOneColumn:
      return util::GridShape{nranks, 1};
    default:
      return closest;
  }
}

// What the check must find, from the whole edge list and parent array.
struct Expected {
  int64_t reached_entries = 0;
  bool bad = false;
  int64_t bad_v = -1, bad_u = -1, bad_dv = 0, bad_du = 0;
  std::vector<bool> seen;  // per vertex: its parent is one of its input neighbours
};

// Depths by walking each parent chain (the trees here have no cycles).
std::vector<int64_t> serial_depths(const std::vector<int64_t>& parent, int64_t root) {
  const int64_t n = static_cast<int64_t>(parent.size());
  std::vector<int64_t> depth(n, -1);
  for (int64_t v = 0; v < n; ++v) {
    if (parent[v] < 0) continue;
    int64_t steps = 0;
    for (int64_t x = v; x != root; x = parent[x]) ++steps;
    depth[v] = steps;
  }
  return depth;
}

Expected expected_check(const testing::SerialView& view, const std::vector<int64_t>& parent, int64_t root) {
  const std::vector<int64_t> depth = serial_depths(parent, root);
  Expected e;
  int64_t lo = std::numeric_limits<int64_t>::max(), hi = 0;
  for (const gen::Edge& edge : view.edges) {
    if (edge.v0 == edge.v1) continue;
    const int64_t da = depth[edge.v0], db = depth[edge.v1];
    e.reached_entries += (da >= 0) + (db >= 0);
    const bool bad = (da < 0) != (db < 0) || (da >= 0 && std::abs(da - db) > 1);
    const int64_t a = std::min(edge.v0, edge.v1), b = std::max(edge.v0, edge.v1);
    if (bad && (a < lo || (a == lo && b < hi))) {
      lo = a;
      hi = b;
    }
  }
  if (lo != std::numeric_limits<int64_t>::max()) {
    e.bad = true;
    e.bad_v = lo;
    e.bad_u = hi;
    e.bad_dv = depth[lo];
    e.bad_du = depth[hi];
  }
  e.seen.resize(parent.size());
  for (size_t v = 0; v < parent.size(); ++v)
    e.seen[v] = static_cast<int64_t>(v) != root && parent[v] >= 0 && view.adj[v].count(parent[v]) > 0;
  return e;
}

class EdgeCheckWays : public ::testing::TestWithParam<Param> {
 protected:
  void SetUp() override {
    graph::GraphOptions options;
    options.layout = std::get<1>(GetParam());
    built_ = testing::build_test_graph(std::get<2>(GetParam()), grid_shape(std::get<0>(GetParam())), options);
    root_ = run::choose_roots(built_->spec, 1, built_->graph, *built_->grid).at(0);
    bfs::DistributedBfs bfs(built_->graph, *built_->grid, bfs::BfsOptions{});
    bfs.prepare();
    bfs.run(root_);
    parents_ = bfs.parents();
    view_ = testing::serial_view(built_->spec, root_);
    global_parent_ = testing::gather_parents(dist(), parents_);
  }
  const graph::Distribution& dist() const { return built_->graph.dist; }

  // A reached leaf (no children), the same on every rank.
  int64_t leaf() const {
    const int64_t n = static_cast<int64_t>(global_parent_.size());
    for (int64_t v = 0; v < n; ++v)
      if (v != root_ && global_parent_[v] >= 0 && view_.depth[v] >= 2 &&
          std::count(global_parent_.begin(), global_parent_.end(), v) == 0)
        return v;
    return -1;
  }
  void set_parent(int64_t v, int64_t p) {
    testing::set_parent(dist(), parents_, v, p);
    global_parent_[v] = p;
  }

  // Every way, depth width and chunk size against the serial values.
  void expect_all_ways_find_the_expected() {
    const graph::Distribution& d = dist();
    std::vector<int32_t> depth;
    ASSERT_EQ(tree_depths(d, *built_->grid, root_, parents_, depth), "");
    int32_t max_depth = *std::max_element(depth.begin(), depth.end());
    MPI_Allreduce(MPI_IN_PLACE, &max_depth, 1, MPI_INT32_T, MPI_MAX, MPI_COMM_WORLD);
    const Expected expected = expected_check(view_, global_parent_, root_);
    constexpr int64_t kSmallChunk = 333;  // several chunks per rank, shares of different lengths
    // The default chunk shrunk for a heavily loaded owner (EdgeCheckOptions::fullest_owner_load).
    constexpr int64_t kDefaultChunk = 0;
    constexpr double kHeavyOwnerLoad = 7.5;
    struct Variant {
      EdgeCheckWay way;
      bool narrow;    // 8-bit depths with parent fingerprints, or 32-bit depths
      bool one_word;  // only the owner queries pack their records (these graphs fit one word)
    };
    for (Variant variant :
         {Variant{EdgeCheckWay::kOwnerQueries, true, true}, Variant{EdgeCheckWay::kOwnerQueries, false, false},
          Variant{EdgeCheckWay::kReplicated, true, true}, Variant{EdgeCheckWay::kReplicated, false, true}})
      for (int64_t chunk : {kCheckChunkEdges, kSmallChunk, kDefaultChunk}) {
        SCOPED_TRACE(::testing::Message() << "way " << static_cast<int>(variant.way) << " narrow " << variant.narrow
                                          << " one word " << variant.one_word << " chunk " << chunk);
        util::Bitmap seen(d.block);
        EdgeCheckOptions options{variant.narrow, chunk, variant.way, variant.one_word};
        if (chunk == kDefaultChunk) options.fullest_owner_load = kHeavyOwnerLoad;
        const EdgeCheck got = check_input_edges(testing::input_edges(*built_), d, *built_->grid, parents_, depth,
                                                max_depth, options, seen);
        int64_t entries = got.reached_entries;
        MPI_Allreduce(MPI_IN_PLACE, &entries, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
        EXPECT_EQ(entries, expected.reached_entries);
        // The failing edge is kept only on the ranks that found it: some rank must have it.
        int found = got.bad;
        MPI_Allreduce(MPI_IN_PLACE, &found, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
        ASSERT_EQ(found != 0, expected.bad);
        if (got.bad) {
          EXPECT_EQ(got.bad_v, expected.bad_v);
          EXPECT_EQ(got.bad_u, expected.bad_u);
          EXPECT_EQ(got.bad_dv, expected.bad_dv);
          EXPECT_EQ(got.bad_du, expected.bad_du);
        }
        int64_t wrong_marks = 0;
        for (int64_t k = 0; k < d.block; ++k) {
          const int64_t v = d.owned_begin() + k;
          wrong_marks += seen.test(k) != (v < d.nvertices && expected.seen[v]);
        }
        EXPECT_EQ(wrong_marks, 0);
      }
  }

  std::unique_ptr<testing::BuiltGraph> built_;
  int64_t root_ = 0;
  std::vector<int64_t> parents_, global_parent_;
  testing::SerialView view_;
};

TEST_P(EdgeCheckWays, AgreeWithASerialPass) {
  {
    SCOPED_TRACE("correct tree");
    expect_all_ways_find_the_expected();
  }
  const int64_t v = leaf();
  ASSERT_GE(v, 0);
  const int64_t p = global_parent_[v];
  {
    SCOPED_TRACE("leaf left unreached");
    set_parent(v, -1);
    expect_all_ways_find_the_expected();
  }
  const int64_t n = static_cast<int64_t>(global_parent_.size());
  int64_t w = -1;
  for (int64_t x = 0; x < n && w < 0; ++x)
    if (view_.depth[x] == view_.depth[v] - 1 && x != p && !view_.adj[v].count(x) && global_parent_[x] >= 0) w = x;
  ASSERT_GE(w, 0);
  {
    SCOPED_TRACE("leaf hung from a non-neighbour");
    set_parent(v, w);
    expect_all_ways_find_the_expected();
  }
}

std::string param_name(const ::testing::TestParamInfo<Param>& info) {
  static const char* const kShapes[] = {"Default", "Transposed", "OneRow", "OneColumn"};
  return std::string(kShapes[static_cast<int>(std::get<0>(info.param))]) +
         (std::get<1>(info.param) == graph::Layout::kYoo ? "Yoo" : "RowMajor") + "Scale" +
         std::to_string(std::get<2>(info.param));
}

// Each grid with both layouts, one at each SCALE (with one grid row the layouts are the same).
INSTANTIATE_TEST_SUITE_P(Grids, EdgeCheckWays,
                         ::testing::Values(Param{Shape::kDefault, graph::Layout::kYoo, 11},
                                           Param{Shape::kDefault, graph::Layout::kRowMajor, 8},
                                           Param{Shape::kTransposed, graph::Layout::kYoo, 8},
                                           Param{Shape::kTransposed, graph::Layout::kRowMajor, 11},
                                           Param{Shape::kOneRow, graph::Layout::kYoo, 11},
                                           Param{Shape::kOneColumn, graph::Layout::kRowMajor, 8}),
                         param_name);

}  // namespace
}  // namespace g500::validate
