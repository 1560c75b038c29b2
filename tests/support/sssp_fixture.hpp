// Builds the weighted Kronecker graph of a test-vector SCALE on all ranks of MPI_COMM_WORLD.
#pragma once
#include "graph/weighted_graph.hpp"
#include "test_graph.hpp"

namespace g500::testing {

using BuiltWeightedGraph = BuiltTestGraph<graph::WeightedLocalGraph>;

inline std::unique_ptr<BuiltWeightedGraph> build_weighted_test_graph(int scale, util::GridShape shape = {},
                                                                     graph::WeightedGraphOptions options = {},
                                                                     util::MessageLimits limits = {}) {
  return build_test_graph_with<graph::WeightedLocalGraph>(
      scale, shape,
      [options](const gen::KroneckerGenerator& generator, int rank, int nranks, const graph::ProcessGrid& grid) {
        return graph::build_weighted_local_graph(graph::kronecker_weighted_edge_source(generator, rank, nranks), grid,
                                                 options);
      },
      limits);
}

}  // namespace g500::testing
