// Builds the Kronecker graph of a test-vector SCALE on all ranks of MPI_COMM_WORLD.
#pragma once
#include <mpi.h>

#include <memory>

#include "gen/kronecker.hpp"
#include "graph/local_graph.hpp"

namespace g500::testing {

struct BuiltGraph {
  gen::KroneckerSpec spec;
  std::unique_ptr<gen::KroneckerGenerator> generator;
  std::unique_ptr<ProcessGrid> grid;
  LocalGraph graph;
};

inline std::unique_ptr<BuiltGraph> build_test_graph(int scale, GridShape shape = {}, GraphOptions options = {}) {
  auto built = std::make_unique<BuiltGraph>();
  built->spec.scale = scale;
  int rank = 0, nranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  if (shape.rows * shape.cols != nranks) shape = default_grid_shape(nranks);
  built->generator = std::make_unique<gen::KroneckerGenerator>(built->spec);
  built->grid = std::make_unique<ProcessGrid>(MPI_COMM_WORLD, shape);
  built->graph = build_local_graph(kronecker_edge_source(*built->generator, rank, nranks), *built->grid, options);
  return built;
}

}  // namespace g500::testing
