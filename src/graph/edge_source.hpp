// Where kernel 1 reads its input edges from. Each rank reads its own share (a contiguous range of
// the global edge list) in chunks; reading the same range twice must give the same edges, which
// lets kernel 1 count in one pass and fill in a second without keeping the edge list in memory.
// As the Graph500 specification has it, kernel 1 is given the edges and their number only, not
// the number of vertices: it finds that itself (graph/vertex_count.hpp).
#pragma once
#include <algorithm>
#include <cstdint>
#include <functional>

#include "gen/kronecker.hpp"

namespace g500::graph {

struct EdgeSource {
  int64_t global_edges = 0;
  int64_t local_begin = 0;  // this rank's share of the global edge list
  int64_t local_count = 0;
  int kronecker_scale = 0;  // > 0: the Kronecker graph of this SCALE, for kernel 1's memory plan (its degrees
                            // are known in advance)
  // Writes edges [local_begin + offset, local_begin + offset + count) to out (may use threads).
  std::function<void(int64_t offset, int64_t count, gen::Edge* out)> read;
};

// Input edges a rank reads (and routes) at a time, its share being `local_edges`: `largest`, or on
// a small share an eighth of it, so that the buffers of one chunk stay a small part of the memory
// at every size, as the arrays they feed do: the peak per process then stays flat as processes
// are added at a fixed share (weak scaling), not set by buffers sized for large shares.
inline constexpr int64_t kChunksPerShareAtLeast = 8;
inline constexpr int64_t kSmallestChunkEdges = int64_t{1} << 16;
inline int64_t chunk_edges_for(int64_t local_edges, int64_t largest) {
  const int64_t eighth = (local_edges + kChunksPerShareAtLeast - 1) / kChunksPerShareAtLeast;
  return std::clamp(eighth, std::min(kSmallestChunkEdges, largest), largest);
}

// This rank's share of the Kronecker edge list: ranks take equal contiguous index ranges.
EdgeSource kronecker_edge_source(const gen::KroneckerGenerator& generator, int rank, int nranks);

}  // namespace g500::graph
