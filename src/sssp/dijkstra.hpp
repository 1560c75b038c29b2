// The baseline of the SSSP benchmark: a plain serial Dijkstra (binary heap, lazy deletion) on one
// rank's copy of the whole weighted graph in CSR form. Used by `g500 sssp --compare-dijkstra` to
// report the speed-up of the distributed delta-stepping over it on the same graph in the same run.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "gen/kronecker.hpp"

namespace g500::sssp {

struct SerialWeightedGraph {
  int64_t nvertices = 0;
  std::vector<int64_t> starts;    // nvertices + 1
  std::vector<uint32_t> targets;  // both directions of every non-self-loop edge
  std::vector<float> weights;
  size_t memory_bytes() const {
    return starts.size() * sizeof(int64_t) + targets.size() * sizeof(uint32_t) + weights.size() * sizeof(float);
  }
};

// Generates the whole edge list of the spec (threads used) and builds the CSR.
SerialWeightedGraph build_serial_weighted_graph(const gen::KroneckerGenerator& generator);
// The CSR of a whole edge list (ids 0..n-1, one weight per edge; self-loops dropped).
SerialWeightedGraph build_serial_weighted_graph(int64_t nvertices, const std::vector<gen::Edge>& edges,
                                                const std::vector<float>& weights);

struct DijkstraResult {
  std::vector<double> dist;     // infinity when unreached
  std::vector<int64_t> parent;  // -1 when unreached, the root its own parent
  double seconds = 0;           // the search alone
  int64_t reached = 0;
  double sum_dist = 0, max_dist = 0;
};

DijkstraResult dijkstra(const SerialWeightedGraph& graph, int64_t root);

}  // namespace g500::sssp
