// The R x C shape of a 2D process grid (Nakao et al. 2021, section 3.2): its text form "RxC" and
// the default shape, shared by the kernels' process grid (graph/grid.hpp), the mapping of grids
// onto a network (topo/grid_mapping.hpp) and the job scripts.
#pragma once
#include <string>

namespace g500::util {

struct GridShape {
  int rows = 1;  // R
  int cols = 1;  // C
  long long size() const { return static_cast<long long>(rows) * cols; }
  bool operator==(const GridShape&) const = default;
};

// The paper's rule (section 5.2): R >= C with R/C as close to 1 as possible (8 -> 4x2, 6 -> 3x2,
// 7 -> 7x1).
GridShape closest_factor_shape(long long n);

// Parses "RxC", R and C decimal from 1 to 999999999; throws UsageError naming --grid and the text.
GridShape parse_grid_text(const std::string& text);

}  // namespace g500::util
