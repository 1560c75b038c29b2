// Builds the Kronecker graph of a test-vector SCALE on all ranks of MPI_COMM_WORLD.
#pragma once
#include "graph/local_graph.hpp"
#include "test_graph.hpp"

namespace g500::testing {

using BuiltGraph = BuiltTestGraph<LocalGraph>;

inline std::unique_ptr<BuiltGraph> build_test_graph(int scale, GridShape shape = {}, GraphOptions options = {},
                                                    MessageLimits limits = {}) {
  return build_test_graph_with<LocalGraph>(
      scale, shape,
      [&](const gen::KroneckerGenerator& generator, int rank, int nranks, const ProcessGrid& grid) {
        return build_local_graph(kronecker_edge_source(generator, rank, nranks), grid, options);
      },
      limits);
}

}  // namespace g500::testing
