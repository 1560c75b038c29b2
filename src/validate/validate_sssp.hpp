// Distributed validation of an SSSP result by the Graph500 3.0 kernel 3 rules:
//  1. the root has distance 0 and is its own parent; a vertex has a parent exactly when it has a
//     finite distance; parents are vertex ids;
//  2. the parent pointers form a tree rooted at the root (no cycle; every chain reaches it);
//  3. for every tree edge, dist[v] == dist[parent] + w(parent, v) (to float tolerance; with
//     parallel edges, one of their weights);
//  4. for every input edge (u, v, w), dist[v] <= dist[u] + w (to float tolerance), so the reached
//     set is the root's component;
//  5. every parent-child pair is an input edge.
// It also computes what the benchmark reports: reached vertices, the TEPS edge count (the BFS
// rule), and the sum and maximum of the distances of the reached vertices.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "graph/weighted_graph.hpp"

namespace g500::validate {

struct SsspValidation {
  bool ok = false;
  std::string error;
  int64_t reached = 0;
  int64_t nedge = 0;
  double sum_dist = 0;
  double max_dist = 0;
};

// Relative tolerance of the distance comparisons (float32 weights, distances below ~10).
inline constexpr double kDistanceTolerance = 1e-6;

// Collective. `dist` and `parents` hold the owned vertices' values (infinity / -1 when unreached).
SsspValidation validate_sssp(const graph::WeightedLocalGraph& graph, const graph::ProcessGrid& grid, int64_t root,
                             const std::vector<double>& dist, const std::vector<int64_t>& parents);

// Sum and maximum of the finite owned distances over all ranks, and the TEPS edge count (reached
// vertices' degrees / 2), without validating (for --no-validate).
SsspValidation sssp_statistics(const graph::WeightedLocalGraph& graph, const graph::ProcessGrid& grid,
                               const std::vector<double>& dist);

}  // namespace g500::validate
