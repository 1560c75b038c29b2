// The calculation of one level on one process (level_work.hpp).
#include "model/level_work.hpp"

#include <algorithm>
#include <cmath>

namespace g500::model {

namespace {
constexpr double kBitsPerWord = 64;
// A vertex found in the level is visited by the processes up to its finder, (b + 1) / 2 of the b
// that hold its edges on average (the finder anywhere in the rotation).
constexpr double kHalf = 0.5;
}  // namespace

double blocks_with_edges(double blocks, double degree) {
  if (blocks <= 1) return 1;
  return blocks * (1 - std::pow(1 - 1 / blocks, std::max(0.0, degree)));
}

double one_process_accesses(Direction direction, double examined, double unvisited) {
  return examined + (direction == Direction::kTopDown ? 0 : unvisited);
}

ProcessWork process_work(const LevelCounts& c, const util::GridShape& grid, double mean_degree) {
  const double processes = static_cast<double>(grid.size());
  ProcessWork w;
  if (c.direction == Direction::kTopDown) {
    w.words = c.vertices / kBitsPerWord / processes;
    w.accesses = c.examined / processes;
    return w;
  }
  const double b = blocks_with_edges(grid.cols, mean_degree);
  const double found = std::min(c.found, c.unvisited);
  const double visits = (c.unvisited - found) * b + found * kHalf * (b + 1);
  w.words = c.vertices / kBitsPerWord / grid.rows;
  w.accesses = (visits + c.examined) / processes;
  return w;
}

}  // namespace g500::model
