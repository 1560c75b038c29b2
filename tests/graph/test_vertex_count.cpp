// Kernel 1 finds N, the largest vertex id + 1, itself (graph/vertex_count.hpp): for the generated
// graph of SCALE 12, whose largest id is below 2^12 - 1, it is what the test vector's edges say,
// in the BFS's and the SSSP's kernel 1 on every grid of the run's ranks, and the distribution is
// made from it; any chunk size gives the same N; ranks without edges and self-loops take part.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <vector>

#include "gen/kronecker.hpp"
#include "graph/local_graph.hpp"
#include "graph/vertex_count.hpp"
#include "graph/weighted_graph.hpp"
#include "testvectors.hpp"

namespace g500::graph {
namespace {

constexpr int kScale = 12;

int world_size() {
  int nranks = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  return nranks;
}

int world_rank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

std::vector<util::GridShape> grids_of_this_run() {
  const int nranks = world_size();
  std::vector<util::GridShape> shapes;
  for (int r = 1; r <= nranks; ++r)
    if (nranks % r == 0) shapes.push_back(util::GridShape{r, nranks / r});
  return shapes;
}

// 1 + the largest id of the test vector's edges (the reference generator's, in generation order).
int64_t vertices_the_edges_name(int scale) {
  int64_t largest = -1;
  for (const testing::TsvEdge& e : testing::load_kron_tsv(scale)) largest = std::max({largest, e.v0, e.v1});
  return largest + 1;
}

// This rank's share of a fixed edge list (every rank holds the whole list; rank r reads its part).
EdgeSource source_of(const std::vector<gen::Edge>& mine) {
  EdgeSource source;
  source.global_edges = static_cast<int64_t>(mine.size());
  source.local_count = static_cast<int64_t>(mine.size());
  source.read = [&mine](int64_t offset, int64_t count, gen::Edge* out) {
    std::copy(mine.begin() + offset, mine.begin() + offset + count, out);
  };
  return source;
}

TEST(VertexCount, GeneratedGraphHasTheNOfItsEdges) {
  const int64_t expected = vertices_the_edges_name(kScale);
  ASSERT_LT(expected, int64_t{1} << kScale) << "the test needs a SCALE whose largest id is isolated";
  gen::KroneckerSpec spec;
  spec.scale = kScale;
  const gen::KroneckerGenerator generator(spec);
  const int rank = world_rank(), nranks = world_size();
  for (const util::GridShape shape : grids_of_this_run()) {
    const ProcessGrid grid(MPI_COMM_WORLD, shape);
    const Distribution planned(expected, shape.rows, shape.cols, grid.row(), grid.col());
    const LocalGraph graph = build_local_graph(kronecker_edge_source(generator, rank, nranks), grid);
    EXPECT_EQ(graph.dist.nvertices, expected) << shape.rows << "x" << shape.cols;
    EXPECT_EQ(graph.dist.block, planned.block);
    const WeightedLocalGraph weighted =
        build_weighted_local_graph(kronecker_weighted_edge_source(generator, rank, nranks), grid);
    EXPECT_EQ(weighted.graph.dist.nvertices, expected) << shape.rows << "x" << shape.cols;
    EXPECT_EQ(weighted.graph.dist.block, planned.block);
  }
}

TEST(VertexCount, EveryChunkSizeGivesTheSameN) {
  gen::KroneckerSpec spec;
  spec.scale = kScale;
  const gen::KroneckerGenerator generator(spec);
  const EdgeSource source = kronecker_edge_source(generator, world_rank(), world_size());
  const int64_t expected = vertices_the_edges_name(kScale);
  for (const int64_t chunk : {int64_t{1}, int64_t{777}, source.local_count, source.local_count + 1})
    EXPECT_EQ(count_vertices(source, MPI_COMM_WORLD, chunk).nvertices, expected) << "chunks of " << chunk;
}

TEST(VertexCount, RanksWithoutEdgesAndSelfLoopsTakePart) {
  // Only the last rank has edges; its largest id is a self-loop's.
  std::vector<gen::Edge> mine;
  if (world_rank() == world_size() - 1) mine = {{0, 5}, {1000, 3}, {1200, 1200}, {7, 9}};
  EXPECT_EQ(count_vertices(source_of(mine), MPI_COMM_WORLD, 2).nvertices, 1201);
  // No rank has an edge: no vertex.
  EXPECT_EQ(count_vertices(source_of({}), MPI_COMM_WORLD, 2).nvertices, 0);
}

}  // namespace
}  // namespace g500::graph
