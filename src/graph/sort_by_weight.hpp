// The order of a weighted graph's lists (rows, columns): by weight, then by id. SSSP finds a list's
// light edges, and the edges that keep a candidate in the current bucket, as a prefix.
#pragma once
#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

#include "graph/local_graph.hpp"

namespace g500::graph {

// Sorts the n entries of a list, parallel arrays of weights (>= 0) and ids, by (weight, id), as
// one key per entry (weight, id) in an IdPair: a weight >= 0 orders as its bit pattern once -0 is made +0 (which
// every list gets, also of one entry). `scratch` is reused between calls.
inline void sort_by_weight(float* weights, LocalId* ids, int64_t n, std::vector<IdPair>& scratch) {
  for (int64_t k = 0; k < n; ++k)
    if (weights[k] == 0) weights[k] = 0.0f;
  if (n < 2) return;
  scratch.resize(n);
  for (int64_t k = 0; k < n; ++k) scratch[k] = pack_ids(std::bit_cast<uint32_t>(weights[k]), ids[k]);
  std::sort(scratch.begin(), scratch.end());
  for (int64_t k = 0; k < n; ++k) {
    weights[k] = std::bit_cast<float>(static_cast<uint32_t>(high_id(scratch[k])));
    ids[k] = low_id(scratch[k]);
  }
}

// sort_by_weight() for each of the n lists of an index (list v is [starts[v], starts[v + 1])), with
// the OpenMP threads.
inline void sort_lists_by_weight(const int64_t* starts, int64_t n, float* weights, LocalId* ids) {
#pragma omp parallel
  {
    std::vector<IdPair> scratch;
#pragma omp for schedule(dynamic, 256)
    for (int64_t v = 0; v < n; ++v)
      sort_by_weight(weights + starts[v], ids + starts[v], starts[v + 1] - starts[v], scratch);
  }
}

}  // namespace g500::graph
