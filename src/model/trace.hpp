// The parts of a `g500 bfs --trace --json` result file the model reads: the run's shape, every
// root's levels (direction, frontier, edges examined, seconds), and the measured time per phase.
#pragma once
#include <array>
#include <string>
#include <vector>

#include "model/volumes.hpp"

namespace g500::model {

// The phases of Nakao et al. 2021, Figs. 8 and 12, in the order of util/phase_profile.hpp.
enum class Phase { kCalculation, kAllgatherv, kAlltoallv, kSendrecv, kImbalance, kCount };
inline constexpr int kPhaseCount = static_cast<int>(Phase::kCount);
using PhaseSeconds = std::array<double, kPhaseCount>;
const char* phase_name(Phase phase);
double total_seconds(const PhaseSeconds& seconds);

struct TracedLevel {
  Direction direction = Direction::kTopDown;
  double frontier = 0;  // vertices the level expanded
  double examined = 0;  // adjacency entries read, all ranks
  double seconds = 0;
  double unvisited = 0;  // reached vertices not yet visited when the level starts
};

struct TracedRoot {
  double seconds = 0;
  double nedge = 0;
  double reached = 0;
  std::vector<TracedLevel> levels;
};

struct TraceRun {
  std::string path;
  int scale = 0;
  int edgefactor = 0;
  int ranks = 1, rows = 1, cols = 1, threads = 1, substeps = 1;
  // Rank 0's node: the job's ranks on it and its cores (config.node; 0 when the file has none).
  int node_ranks = 0, node_cores = 0;
  double harmonic_mean_teps = 0;
  PhaseSeconds phase_seconds{};  // summed over the roots, mean over ranks
  std::vector<TracedRoot> roots;
};

// Reads a result file of `g500 bfs --json` (with --trace for the levels); throws UsageError
// naming the file when it cannot be read or is not a BFS result.
TraceRun read_trace(const std::string& path);

}  // namespace g500::model
