// The BFS performance model (bfs_model.hpp).
#include "model/bfs_model.hpp"

#include <algorithm>
#include <cmath>

#include "util/error.hpp"

namespace g500::model {

namespace {
constexpr double kBitsPerWord = 64;
constexpr double kMaxAspect = 16;  // R / C beyond this is never the best grid (Table 3: nR + nC)
// The level ends with a barrier and an allreduce of four counts: two tree collectives of
// ceil(log2 P) steps each.
constexpr double kEndOfLevelCollectives = 2;

double& at(PhaseSeconds& s, Phase p) { return s[static_cast<int>(p)]; }

// Relative standard deviation of one process's examined edges in a level.
double load_deviation(const LevelCounts& c, const LevelStructure& levels, const GridShape& grid) {
  const double processes = static_cast<double>(grid.size());
  if (processes <= 1 || c.examined <= 0) return 0;
  double variance = processes / c.examined;  // the count of edges
  if (c.direction == Direction::kTopDown) {
    // The frontier's adjacency lists: a vertex's edges fall on the R (or C) processes of its
    // column (row) set, so a process's load varies with the degrees of the vertices it holds.
    const double edge_share = c.examined / (2 * levels.edges);
    variance += kronecker_degree_concentration(levels.scale) * (grid.rows + grid.cols) / edge_share;
  }
  return std::sqrt(variance);
}

PhaseSeconds level_seconds(const NodeProfile& profile, const NetworkSpec& net, const CollectiveTimes& coll,
                           const LevelStructure& levels, const LevelCounts& c, const RunSetup& setup,
                           LevelVolumes& volumes) {
  const GridShape& grid = setup.grid;
  const double processes = static_cast<double>(grid.size());
  const double clock = setup.clock_ghz > 0 ? setup.clock_ghz : profile.clock_ghz;
  const double node_share = static_cast<double>(profile.cores) / setup.ppn;
  const double cores = (setup.threads > 0 ? std::min<double>(setup.threads, node_share) : node_share) *
                       rate_factor(profile, setup.ppn, clock);
  const bool topdown = c.direction == Direction::kTopDown;
  const double words = c.vertices / kBitsPerWord / (topdown ? processes : grid.rows);
  const double word_rate = topdown ? profile.topdown_word_rate : profile.bottomup_word_rate;
  const double edge_rate = topdown ? profile.topdown_rate : profile.bottomup_rate;
  PhaseSeconds s{};
  const double edge_seconds = c.examined / processes / edge_rate / cores;
  at(s, Phase::kCalculation) = words / word_rate / cores + edge_seconds;
  volumes = level_volumes(c, grid.rows, grid.cols, profile.variant);
  const GroupView& gather_group = volumes.transposed ? coll.view.row : coll.view.column;
  const GroupView& exchange_group = volumes.transposed ? coll.view.column : coll.view.row;
  at(s, Phase::kAllgatherv) = coll.allgatherv(gather_group, volumes.allgatherv);
  at(s, Phase::kAlltoallv) = coll.alltoallv(exchange_group, volumes.alltoallv);
  if (!topdown && grid.cols > 1) {
    // (C - 1) n exchanges per level, each one message of a block's 1/(2n) each way (section 4.5).
    const double exchanges = static_cast<double>(grid.cols - 1) * setup.substeps;
    const double step = coll.sendrecv_step(volumes.sendrecv / (2 * exchanges));
    const double hidden = net.kind == TopologyKind::kSharedMemory ? 0 : at(s, Phase::kCalculation) / exchanges;
    at(s, Phase::kSendrecv) = exchanges * std::max(0.0, step - hidden);
  }
  const double tree_steps = std::ceil(std::log2(std::max(processes, 1.0)));
  // The edges vary between processes (the bitmaps do not); the slowest process does at most the
  // whole level's edges (all of them on one process).
  const double excess = std::min(load_deviation(c, levels, grid) * expected_max_deviations(processes), processes - 1);
  at(s, Phase::kImbalance) = kEndOfLevelCollectives * tree_steps * net.latency + edge_seconds * excess;
  return s;
}
}  // namespace

double expected_max_deviations(double processes) {
  return processes > 1 ? std::sqrt(2 * std::log(processes)) : 0.0;
}

std::vector<GridShape> candidate_grids(long long processes) {
  std::vector<GridShape> grids;
  for (long long c = 1; c * c <= processes; ++c)
    if (processes % c == 0 && static_cast<double>(processes / c) / c <= kMaxAspect)
      grids.push_back(GridShape{static_cast<int>(processes / c), static_cast<int>(c)});
  return grids;
}

Prediction predict(const NodeProfile& profile, const NetworkSpec& net, const LevelStructure& levels,
                   const RunSetup& setup) {
  Prediction p;
  p.setup = setup;
  if (net.kind == TopologyKind::kSharedMemory) p.setup.ppn = static_cast<int>(setup.grid.size());
  p.view = grid_view(net, p.setup.grid, p.setup.ppn, p.setup.mapping);
  const CollectiveTimes coll{net, p.view};
  for (const ModelLevel& level : levels.levels) {
    LevelPrediction lp;
    lp.relative = level.relative;
    lp.direction = level.counts.direction;
    lp.share = level.share;
    lp.seconds = level_seconds(profile, net, coll, levels, level.counts, p.setup, lp.volumes);
    for (int k = 0; k < kPhaseCount; ++k) p.seconds[k] += level.share * lp.seconds[k];
    p.levels.push_back(lp);
  }
  p.time = total_seconds(p.seconds);
  p.teps = p.time > 0 ? levels.edges / p.time : 0;
  return p;
}

}  // namespace g500::model
