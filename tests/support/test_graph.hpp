// Builds a test-vector SCALE's Kronecker graph on all ranks of MPI_COMM_WORLD, with the generator
// and process grid it needs kept alive beside it; the kernel-1 call is the caller's (plain or
// weighted graph, options).
#pragma once
#include <mpi.h>

#include <memory>
#include <utility>
#include <vector>

#include "gen/kronecker.hpp"
#include "graph/grid.hpp"

namespace g500::testing {

template <class Graph>
struct BuiltTestGraph {
  gen::KroneckerSpec spec;
  std::unique_ptr<gen::KroneckerGenerator> generator;
  std::unique_ptr<graph::ProcessGrid> grid;
  Graph graph;
};

// build(generator, rank, nranks, grid) returns the graph. A shape that does not match the number
// of ranks is replaced by the default grid. `limits`: the grid's message limit (tiny in the tests
// of comm/large_count's rounds).
template <class Graph, class Build>
std::unique_ptr<BuiltTestGraph<Graph>> build_test_graph_with(int scale, util::GridShape shape, Build build,
                                                             util::MessageLimits limits = {}) {
  auto built = std::make_unique<BuiltTestGraph<Graph>>();
  built->spec.scale = scale;
  int rank = 0, nranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  if (shape.rows * shape.cols != nranks) shape = util::closest_factor_shape(nranks);
  built->generator = std::make_unique<gen::KroneckerGenerator>(built->spec);
  built->grid = std::make_unique<graph::ProcessGrid>(MPI_COMM_WORLD, shape, std::vector<std::pair<int, int>>{}, limits);
  built->graph = build(*built->generator, rank, nranks, *built->grid);
  return built;
}

}  // namespace g500::testing
