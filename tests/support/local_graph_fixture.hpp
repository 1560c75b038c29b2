// Builds the Kronecker graph of a test-vector SCALE with kernel 1 on all ranks of MPI_COMM_WORLD,
// and gives its input edges to the validator.
#pragma once
#include "graph/local_graph.hpp"
#include "test_graph.hpp"

namespace g500::testing {

using BuiltGraph = BuiltTestGraph<graph::LocalGraph>;

inline std::unique_ptr<BuiltGraph> build_test_graph(int scale, util::GridShape shape = {},
                                                    graph::GraphOptions options = {}, util::MessageLimits limits = {}) {
  return build_test_graph_with<graph::LocalGraph>(
      scale, shape,
      [&](const gen::KroneckerGenerator& generator, int rank, int nranks, const graph::ProcessGrid& grid) {
        return graph::build_local_graph(graph::kronecker_edge_source(generator, rank, nranks), grid, options);
      },
      limits);
}

// This rank's share of the built graph's input edges (what kernel 1 read), for the validator.
inline graph::EdgeSource input_edges(const BuiltGraph& built) {
  int rank = 0, nranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  return graph::kronecker_edge_source(*built.generator, rank, nranks);
}

}  // namespace g500::testing
