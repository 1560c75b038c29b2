// The Graph500 BFS benchmark run: kernel 1 once, then kernel 2 from every root, each result
// validated; collects what the result block and the JSON report need.
#pragma once
#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "bfs/bfs.hpp"
#include "bfs/volumes.hpp"
#include "comm/typed.hpp"
#include "gen/kronecker.hpp"
#include "graph/local_graph.hpp"
#include "graph/memory_plan.hpp"
#include "io/edge_input.hpp"
#include "run/energy_loop.hpp"
#include "run/run_plan.hpp"
#include "run/run_setup.hpp"
#include "util/energy.hpp"

namespace g500::bfs {

struct BenchmarkConfig : run::RunConfig {
  BfsOptions bfs;
  run::PackedRowsChoice packed_rows =
      run::PackedRowsChoice::kAuto;  // the plan decides graph.packed_rows (run/run_plan.hpp)
  run::LevelBuffersChoice level_buffers =
      run::LevelBuffersChoice::kAuto;  // the plan decides bfs.level_buffers_by_direction
  // Called once, after the first root's BFS (and its validation), with its parents (owned
  // vertices, global ids): used for --output-parents/--output-depths.
  std::function<void(const graph::LocalGraph&, const graph::ProcessGrid&, int64_t root,
                     const std::vector<int64_t>& parents)>
      first_root_hook;
  graph::GraphOptions graph;
  std::vector<std::string> disabled;  // technique names switched off, as given
  // A second kernel in the same run (the combined BFS + SSSP run): its memory added to the run's
  // estimate, its graph built inside kernel 1's timed region after the BFS's, its searches run
  // after the BFS's from the same roots (unless a BFS failed validation). Empty: BFS only.
  struct SecondKernel {
    std::function<double(const graph::Distribution& probe)> bytes_per_rank;
    std::function<void(const graph::ProcessGrid&)> build;
    std::function<void(const graph::ProcessGrid&, const run::RunRoots&)> run_roots;
  };
  std::optional<SecondKernel> second;
};

// The techniques of Nakao et al. 2021, section 4 that `--disable` accepts (implemented ones).
const std::vector<std::string>& switchable_techniques();
std::string switchable_list();  // the names, comma-separated
// Applies `--disable a,b,...`; throws UsageError for an unknown name or one not built yet.
void apply_disabled_techniques(const std::string& list, BenchmarkConfig& config);

struct RootResult {
  int64_t root = 0;  // in the input file's ids for file input
  double seconds = 0;
  int64_t nedge = 0;
  double teps = 0;
  int64_t reached = 0;
  std::vector<int64_t> level_sizes;
  bool validated = false;
  double validate_seconds = -1;
  uint64_t depth_hash = 0;
  util::PhaseProfile profile;      // seconds: mean over ranks; bytes_sent: sum over ranks
  std::vector<LevelTrace> levels;  // bytes_sent summed over ranks
  BfsVolumes volumes;              // bytes sent, summed over ranks, and Table 3's
};

struct BenchmarkResult : run::RunSummary {
  graph::RowIndex::Memory row_index_max_rank{};  // per array, largest over ranks
  size_t neighbors_bytes_max_rank = 0;           // the plain neighbour array as stored (0 with packed rows)
  // With packed rows: their arrays (graph/packed_rows.hpp) and the dense first
  // neighbours they start from, and what the plain neighbour array would take; largest over ranks.
  struct PackedMemory {
    bool active = false;
    size_t gaps = 0, offsets = 0, key_tables = 0, first_neighbors = 0, plain_neighbors = 0, short_rows = 0;
  } packed_max_rank;
  int64_t kernel1_passes = 1;                    // passes over the input edges (kernel 1's slabs)
  bool level_buffers_by_direction = false;       // the search's (bfs/bfs_options.hpp), as the plan chose
  graph::Kernel1Steps kernel1_seconds_max_rank;  // each step of kernel 1 on its slowest rank
  // The peak of each part of the run, measured (0: the system could not tell them apart) and
  // estimated; largest over ranks.
  size_t kernel1_peak_rss_bytes_max_rank = 0, search_peak_rss_bytes_max_rank = 0;
  double estimated_kernel1_bytes_max_rank = 0, estimated_search_bytes_max_rank = 0;
  std::vector<RootResult> roots;
  util::EnergyReport energy;          // RAPL energy of the timed BFS runs (util/energy.hpp)
  run::EnergyLoopReport energy_loop;  // --energy-loop (run/energy_loop.hpp)
  comm::table3::Model volume_model;   // the graph, grid and options Table 3's formulas saw
};

// The plan input of this run on the grid `probe` (run/run_plan.hpp): kernel 1's options, the row
// format asked for, this rank's threads and its node's memory per rank (collective: the node's ranks).
run::PlanInput bfs_plan_input(const BenchmarkConfig& config, const graph::GraphShape& shape,
                              const graph::Distribution& probe, const comm::Communicator& world);

// Collective over `world`. Validation failures end the root loop and are reported in the result.
BenchmarkResult run_bfs_benchmark(const BenchmarkConfig& config, const comm::Communicator& world);
// Collective: refuses (UsageError) the sizes a file's header declares when run_bfs_benchmark
// would refuse that graph (memory estimate unless config.force, 32-bit local ids), before it is read.
void check_declared_bfs_input(const BenchmarkConfig& config, const io::DeclaredSize& size,
                              const comm::Communicator& world);

}  // namespace g500::bfs
