// Builds the weighted Kronecker graph of a test-vector SCALE on all ranks of MPI_COMM_WORLD.
#pragma once
#include <mpi.h>

#include <memory>

#include "gen/kronecker.hpp"
#include "graph/weighted_graph.hpp"

namespace g500::testing {

struct BuiltWeightedGraph {
  gen::KroneckerSpec spec;
  std::unique_ptr<gen::KroneckerGenerator> generator;
  std::unique_ptr<ProcessGrid> grid;
  WeightedLocalGraph graph;
};

inline std::unique_ptr<BuiltWeightedGraph> build_weighted_test_graph(int scale, GridShape shape = {}) {
  auto built = std::make_unique<BuiltWeightedGraph>();
  built->spec.scale = scale;
  int rank = 0, nranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  if (shape.rows * shape.cols != nranks) shape = default_grid_shape(nranks);
  built->generator = std::make_unique<gen::KroneckerGenerator>(built->spec);
  built->grid = std::make_unique<ProcessGrid>(MPI_COMM_WORLD, shape);
  built->graph = build_weighted_local_graph(kronecker_weighted_edge_source(*built->generator, rank, nranks), *built->grid);
  return built;
}

}  // namespace g500::testing
