// The performance model of the hybrid 2D BFS (Nakao et al. 2021): time per phase (calculation,
// allgatherv, alltoallv, sendrecv, imbalance) and TEPS of one BFS at N nodes, level by level:
//   for each level of the level structure (levels.hpp) and each direction it runs in,
//     volumes     Table 3 per level (volumes.hpp)
//     calculation bitmap words and edges per process at the node's rates (node_profile.hpp)
//     allgatherv, alltoallv  the collective model on the network (network.hpp)
//     sendrecv    the row rotation in (C - 1) x n sub-steps, each overlapped with the calculation
//                 of a sub-step (section 4.5); only what exceeds it counts
//     imbalance   the barrier and allreduce that end the level, and the wait for the slowest
//                 process (imbalance.hpp): within the group at its alltoallv, beyond it at the
//                 barrier; the expected maximum of the processes' loads from the hubs of the
//                 Kronecker graph (top-down), the count of the work and the time spread measured
//                 in the calibration trace
//     one machine the ranks' turns on shared cores (host_sharing.hpp)
//   weighted by the share of BFS runs in which the level runs in that direction; TEPS = m / time.
#pragma once
#include <string>
#include <vector>

#include "model/levels.hpp"
#include "model/network.hpp"
#include "model/node_profile.hpp"
#include "model/trace.hpp"

namespace g500::model {

struct RunSetup {
  int scale = 0;
  int edgefactor = 16;
  util::GridShape grid;  // processes R x C
  int ppn = 1;           // processes per node (on one shared-memory machine: all of them)
  int threads = 0;       // per process; 0: the node's cores / ppn
  Mapping mapping = Mapping::kSixD;
  double clock_ghz = 0;  // 0: the profile's clock
  int substeps = 4;      // n of section 4.5
  long long nodes() const { return grid.size() / ppn; }
};

struct LevelPrediction {
  int relative = 0;
  Direction direction = Direction::kTopDown;
  double share = 0;
  LevelVolumes volumes;
  PhaseSeconds seconds{};
  PhaseSeconds waiting{};  // the part of `seconds` spent waiting: for the slowest and for a core
};

struct Prediction {
  RunSetup setup;
  GridView view;
  PhaseSeconds seconds{};  // expected per BFS, per process
  PhaseSeconds waiting{};  // of which waiting for the slowest process (imbalance.hpp) and, on one
                           // machine, for a core (host_sharing.hpp)
  double time = 0;         // seconds per BFS
  double teps = 0;
  std::vector<LevelPrediction> levels;
  // The memory plan beside it (model_job.hpp): bytes a node needs, and has (0: not known).
  double node_bytes_needed = 0, node_memory_bytes = 0;
  bool fits() const { return node_bytes_needed <= node_memory_bytes; }
};

Prediction predict(const NodeProfile& profile, const NetworkSpec& net, const LevelStructure& levels,
                   const RunSetup& setup);

// Grids worth trying for P processes: every R x C = P with R >= C and R / C at most 16.
std::vector<util::GridShape> candidate_grids(long long processes);

}  // namespace g500::model
