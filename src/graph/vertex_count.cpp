#include "graph/vertex_count.hpp"

#include <algorithm>

#include "comm/typed.hpp"
#include "util/raw_buffer.hpp"

namespace g500::graph {

VertexCount count_vertices(const EdgeSource& source, MPI_Comm comm, int64_t chunk_edges) {
  const double start = MPI_Wtime();
  util::RawBuffer<gen::Edge> buffer;
  gen::Edge* edges = buffer.get(static_cast<size_t>(std::max<int64_t>(1, std::min(source.local_count, chunk_edges))));
  int64_t largest = -1;
  for (int64_t offset = 0; offset < source.local_count; offset += chunk_edges) {
    const int64_t count = std::min(chunk_edges, source.local_count - offset);
    source.read(offset, count, edges);
#pragma omp parallel for schedule(static) reduction(max : largest)
    for (int64_t e = 0; e < count; ++e) largest = std::max({largest, edges[e].v0, edges[e].v1});
  }
  const int64_t n = comm::Communicator(comm).max(largest) + 1;
  return VertexCount{n, MPI_Wtime() - start};
}

}  // namespace g500::graph
