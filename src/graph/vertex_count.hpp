// Kernel 1's vertex count N. The Graph500 specification gives kernel 1 only the edge list and its
// size: N, the largest vertex id plus one, is computed within the kernel. Every rank reads its
// share of the edges once, chunk by chunk, and one allreduce takes the largest id; the graph's
// distribution (graph/distribution.hpp) is then made from N. A run's memory check and root rule
// use the size the user asked for (2^SCALE, a file's header) instead, before kernel 1.
#pragma once
#include <mpi.h>

#include <cstdint>

#include "graph/edge_source.hpp"

namespace g500::graph {

struct VertexCount {
  int64_t nvertices = 0;  // N: 1 + the largest vertex id of any rank's edges, 0 without edges
  double seconds = 0;     // this rank's time for the pass and the allreduce
};

// Collective over `comm`. Self-loops count: their vertex is in the edge list. Reads
// `chunk_edges` edges at a time.
VertexCount count_vertices(const EdgeSource& source, MPI_Comm comm, int64_t chunk_edges);

}  // namespace g500::graph
