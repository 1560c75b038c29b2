#include "bfs/volumes.hpp"

#include <algorithm>

#include "comm/typed.hpp"

namespace g500::bfs {

BfsVolumes& BfsVolumes::operator+=(const BfsVolumes& other) {
  for (size_t d = 0; d < measured.size(); ++d)
    for (size_t p = 0; p < util::kPhaseCount; ++p) {
      measured[d][p] += other.measured[d][p];
      table3[d][p] += other.table3[d][p];
    }
  bottom_up_levels += other.bottom_up_levels;
  return *this;
}

BfsVolumes& BfsVolumes::operator/=(double divisor) {
  for (size_t d = 0; d < measured.size(); ++d)
    for (size_t p = 0; p < util::kPhaseCount; ++p) {
      measured[d][p] /= divisor;
      table3[d][p] /= divisor;
    }
  bottom_up_levels /= divisor;
  return *this;
}

void sum_level_bytes(std::vector<LevelTrace>& levels, MPI_Comm comm) {
  std::vector<int64_t> bytes;
  bytes.reserve(levels.size() * util::kPhaseCount);
  for (const LevelTrace& level : levels) bytes.insert(bytes.end(), level.bytes_sent.begin(), level.bytes_sent.end());
  comm::Communicator(comm).sum_in_place(bytes);
  for (size_t l = 0; l < levels.size(); ++l)
    std::copy_n(bytes.begin() + static_cast<std::ptrdiff_t>(l * util::kPhaseCount), util::kPhaseCount,
                levels[l].bytes_sent.begin());
}

comm::table3::Level table3_level(const std::vector<LevelTrace>& levels, const std::vector<int64_t>& level_sizes,
                                 size_t index, int64_t vertices_with_edges) {
  comm::table3::Level level;
  level.bottom_up = levels[index].direction == Direction::kBottomUp;
  level.frontier = levels[index].frontier_size;
  // A top-down level reads every edge of its frontier: its edges examined are the frontier's.
  level.frontier_edges = level.bottom_up ? 0 : levels[index].edges_examined;
  level.discovered = index + 1 < level_sizes.size() ? level_sizes[index + 1] : 0;
  int64_t visited = 0;  // when the level ends: every level up to the one it discovers
  for (size_t k = 0; k <= index + 1 && k < level_sizes.size(); ++k) visited += level_sizes[k];
  level.unvisited = std::max<int64_t>(0, vertices_with_edges - visited);
  return level;
}

BfsVolumes run_volumes(const std::vector<LevelTrace>& levels, const std::vector<int64_t>& level_sizes,
                       const comm::table3::Model& model) {
  BfsVolumes v;
  for (size_t l = 0; l < levels.size(); ++l) {
    const comm::table3::Level level = table3_level(levels, level_sizes, l, model.vertices_with_edges);
    const size_t d = level.bottom_up ? comm::table3::kBottomUp : comm::table3::kTopDown;
    const comm::table3::Volume predicted = comm::table3::level_bytes(model, level);
    for (size_t p = 0; p < util::kPhaseCount; ++p) {
      v.measured[d][p] += static_cast<double>(levels[l].bytes_sent[p]);
      v.table3[d][p] += predicted[p];
    }
    if (level.bottom_up) v.bottom_up_levels += 1;
  }
  return v;
}

}  // namespace g500::bfs
