// The lightest-weight bytes of a weighted block's lists (graph/light_bounds.hpp).
#include "graph/light_bounds.hpp"

#include <algorithm>
#include <cmath>

namespace g500::graph {

std::vector<uint8_t> lightest_weight_bounds(const int64_t* starts, int64_t n, const float* weights) {
  std::vector<uint8_t> bounds(n);
#pragma omp parallel for schedule(static)
  for (int64_t x = 0; x < n; ++x) {
    if (starts[x] == starts[x + 1]) {
      bounds[x] = kLightBoundNoEdges;
      continue;
    }
    const double scaled = std::floor(static_cast<double>(weights[starts[x]]) * kLightBoundScale);
    bounds[x] = static_cast<uint8_t>(std::min(scaled, static_cast<double>(kLightBoundMax)));
  }
  return bounds;
}

}  // namespace g500::graph
