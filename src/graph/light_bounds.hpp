// The lightest-weight byte of every list (row or column) of a weighted block whose weights ascend:
// its first weight rounded down to 1/256, or a mark for an empty list. Kernel 1 builds them
// (graph/weighted_graph.hpp) for the SSSP, whose light phases and pulls read this byte instead of
// a list's start and first weight (two cache misses) to rule out the lists with nothing to relax.
#pragma once
#include <cstdint>
#include <limits>
#include <vector>

namespace g500::graph {

// Weights below 254/256 keep their value rounded down to 1/256, heavier ones are bounded by
// 254/256; 255 marks a list without edges.
inline constexpr double kLightBoundScale = 256;
inline constexpr uint8_t kLightBoundMax = 254, kLightBoundNoEdges = 255;

// What a byte says: a lower bound of the list's weights (infinity: no edges).
inline double lightest_weight_bound(uint8_t bound) {
  return bound == kLightBoundNoEdges ? std::numeric_limits<double>::infinity()
                                     : static_cast<double>(bound) / kLightBoundScale;
}

// The bytes of the n lists of an index (list x is [starts[x], starts[x + 1]) of `weights`, whose
// weights ascend), with the OpenMP threads.
std::vector<uint8_t> lightest_weight_bounds(const int64_t* starts, int64_t n, const float* weights);

}  // namespace g500::graph
