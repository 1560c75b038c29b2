// The BFS performance model (bfs_model.hpp).
#include "model/bfs_model.hpp"

#include <algorithm>
#include <cmath>

#include "model/host_sharing.hpp"
#include "model/imbalance.hpp"
#include "model/level_work.hpp"
#include "util/error.hpp"

namespace g500::model {

namespace {
constexpr double kMaxAspect = 16;  // R / C beyond this is never the best grid (Table 3: nR + nC)
// The level ends with a barrier and an allreduce of four counts: two tree collectives of
// ceil(log2 P) steps each.
constexpr double kEndOfLevelCollectives = 2;

double& at(PhaseSeconds& s, Phase p) { return s[static_cast<int>(p)]; }

// Threads per process: as given, else the node's cores divided among its processes (at least 1),
// as g500 bfs chooses them.
double threads_of(const RunSetup& setup, const NodeProfile& profile) {
  return setup.threads > 0 ? setup.threads : std::max(1.0, static_cast<double>(profile.cores) / setup.ppn);
}

// The cores one rank computes with, scaled by its clock and by the node's sharing (rate_factor).
double rank_cores(const NodeProfile& profile, const RunSetup& setup, bool shared) {
  const double clock = setup.clock_ghz > 0 ? setup.clock_ghz : profile.clock_ghz;
  const double node_share = static_cast<double>(profile.cores) / setup.ppn;
  // On one machine a running rank has min(threads, cores) cores; the ranks take turns on them
  // (host_sharing.hpp). On a node the processes divide its cores.
  const double running_cores = shared ? std::min<double>(threads_of(setup, profile), profile.cores)
                                      : (setup.threads > 0 ? std::min<double>(setup.threads, node_share) : node_share);
  return running_cores * rate_factor(profile, setup.ppn, clock);
}

// On one machine the ranks take turns on the cores: their waits for a core are counted as waiting
// and added to the level's phases.
void add_core_turns(PhaseSeconds& s, PhaseSeconds& waiting, const CollectiveTimes& coll, const util::GridShape& grid,
                    bool topdown, const GroupView& gather_group, const GroupView& exchange_group) {
  LevelSynchronisation sync;
  sync.bottom_up = !topdown;
  sync.substeps = grid.cols;
  sync.gathers = gather_group.members > 1;
  sync.exchanges = exchange_group.members > 1;
  add_core_waits(waiting, at(s, Phase::kCalculation), coll.view.ranks_per_core, sync);
  PhaseSeconds turns{};
  add_core_waits(turns, at(s, Phase::kCalculation), coll.view.ranks_per_core, sync);
  for (int k = 0; k < kPhaseCount; ++k) s[k] += turns[k];
}

PhaseSeconds level_seconds(const NodeProfile& profile, const NetworkSpec& net, const CollectiveTimes& coll,
                           const LevelStructure& levels, const LevelCounts& c, const RunSetup& setup,
                           LevelVolumes& volumes, PhaseSeconds& waiting) {
  const util::GridShape& grid = setup.grid;
  const double processes = static_cast<double>(grid.size());
  const bool shared = net.kind == TopologyKind::kSharedMemory;
  const double cores = rank_cores(profile, setup, shared);
  const bool topdown = c.direction == Direction::kTopDown;
  const double mean_degree = levels.reached > 0 ? 2 * levels.edges / levels.reached : 0;
  const ProcessWork work = process_work(c, grid, mean_degree);
  const double word_rate = topdown ? profile.topdown_word_rate : profile.bottomup_word_rate;
  const double access_rate = topdown ? profile.topdown_rate : profile.bottomup_rate;
  PhaseSeconds s{};
  const double access_seconds = work.accesses / access_rate / cores;
  at(s, Phase::kCalculation) = work.words / word_rate / cores + access_seconds;
  volumes = level_volumes(c, grid.rows, grid.cols, profile.variant);
  const GroupView& gather_group = volumes.transposed ? coll.view.row : coll.view.column;
  const GroupView& exchange_group = volumes.transposed ? coll.view.column : coll.view.row;
  at(s, Phase::kAllgatherv) = coll.allgatherv(gather_group, volumes.allgatherv);
  at(s, Phase::kAlltoallv) = coll.alltoallv(exchange_group, volumes.alltoallv);
  if (profile.variant.counts_exchanged) {
    at(s, Phase::kAllgatherv) += coll.counts_exchange(gather_group);
    at(s, Phase::kAlltoallv) += coll.counts_exchange(exchange_group);
  }
  if (!topdown && grid.cols > 1) {
    // (C - 1) n exchanges per level, each one message of a block's 1/(2n) each way (section 4.5).
    const double exchanges = static_cast<double>(grid.cols - 1) * setup.substeps;
    const double step = coll.sendrecv_step(volumes.sendrecv / (2 * exchanges));
    const double hidden = shared ? 0 : at(s, Phase::kCalculation) / exchanges;
    at(s, Phase::kSendrecv) = exchanges * std::max(0.0, step - hidden);
  }
  const double tree_steps = std::ceil(std::log2(std::max(processes, 1.0)));
  at(s, Phase::kImbalance) = kEndOfLevelCollectives * tree_steps * coll.step_latency();
  // Waiting for the slowest (imbalance.hpp): in a top-down level the vertex sets whose frontier
  // holds a hub (K = R row sets in the transposed step, C column sets in Algorithm 2).
  const double sets = profile.variant.topdown_transposed ? grid.rows : grid.cols;
  const double hub = topdown ? hub_excess(levels.scale, levels.edgefactor, c.examined, sets) : 0.0;
  const LevelWaits waits = level_waits(at(s, Phase::kCalculation), work.accesses, profile.level_time_spread, hub,
                                       exchange_group.members, processes);
  at(s, Phase::kAlltoallv) += waits.group;
  at(s, Phase::kImbalance) += waits.barrier;
  at(waiting, Phase::kAlltoallv) += waits.group;
  at(waiting, Phase::kImbalance) += waits.barrier;
  if (shared) add_core_turns(s, waiting, coll, grid, topdown, gather_group, exchange_group);
  return s;
}
}  // namespace

std::vector<util::GridShape> candidate_grids(long long processes) {
  std::vector<util::GridShape> grids;
  for (long long c = 1; c * c <= processes; ++c)
    if (processes % c == 0 && static_cast<double>(processes / c) / c <= kMaxAspect)
      grids.push_back(util::GridShape{static_cast<int>(processes / c), static_cast<int>(c)});
  return grids;
}

Prediction predict(const NodeProfile& profile, const NetworkSpec& net, const LevelStructure& levels,
                   const RunSetup& setup) {
  Prediction p;
  p.setup = setup;
  if (net.kind == TopologyKind::kSharedMemory) p.setup.ppn = static_cast<int>(setup.grid.size());
  p.view = grid_view(net, p.setup.grid, p.setup.ppn, p.setup.mapping);
  if (net.kind == TopologyKind::kSharedMemory)
    p.view.ranks_per_core =
        ranks_per_core(static_cast<double>(p.setup.grid.size()), threads_of(p.setup, profile), net.cores);
  const CollectiveTimes coll{net, p.view};
  for (const ModelLevel& level : levels.levels) {
    LevelPrediction lp;
    lp.relative = level.relative;
    lp.direction = level.counts.direction;
    lp.share = level.share;
    lp.seconds = level_seconds(profile, net, coll, levels, level.counts, p.setup, lp.volumes, lp.waiting);
    for (int k = 0; k < kPhaseCount; ++k) {
      p.seconds[k] += level.share * lp.seconds[k];
      p.waiting[k] += level.share * lp.waiting[k];
    }
    p.levels.push_back(lp);
  }
  p.time = total_seconds(p.seconds);
  p.teps = p.time > 0 ? levels.edges / p.time : 0;
  return p;
}

}  // namespace g500::model
