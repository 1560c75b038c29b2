// The Graph500 SSSP benchmark run (kernel 3): weighted kernel 1 once, then delta-stepping from
// every root (the BFS roots), each result validated; optionally a serial Dijkstra on one rank
// over the first roots, for the speed-up.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "comm/typed.hpp"
#include "gen/edge_weights.hpp"
#include "gen/kronecker.hpp"
#include "graph/weighted_graph.hpp"
#include "io/edge_input.hpp"
#include "run/energy_loop.hpp"
#include "run/run_setup.hpp"
#include "sssp/sssp.hpp"
#include "util/phase_profile.hpp"

namespace g500::sssp {

struct SsspConfig : run::RunConfig {
  // The search's state words keep a 32-bit source id beside the distance (sssp/state_words.hpp).
  SsspConfig() { kernel_id_bits = kSourceIdBits; }
  static constexpr int kSourceIdBits = 32;
  int compare_dijkstra = 0;  // roots also solved by a serial Dijkstra on rank 0 (0 = none)
  SsspOptions sssp;
  graph::WeightedGraphOptions graph;  // kernel 1: `--disable reorder` turns off the degree-order renumbering
  uint64_t weight_seed = 1;           // file input without weights: seed of the generated weights (docs/sssp.md)
  std::vector<std::string> disabled;  // technique names switched off (`--disable`), as given
  // Called (collectively) after the first root was validated, e.g. to write result files.
  std::function<void(const graph::LocalGraph&, const graph::ProcessGrid&, int64_t root,
                     const std::vector<double>& distances, const std::vector<int64_t>& parents)>
      first_root_hook;
};

struct SsspRootResult {
  int64_t root = 0;  // in the input file's ids for file input
  double seconds = 0;
  int64_t nedge = 0;
  double teps = 0;
  int64_t reached = 0;
  double sum_dist = 0, max_dist = 0;
  bool validated = false;
  double validate_seconds = -1;
  int64_t buckets = 0, phases = 0, pull_phases = 0, relaxations = 0;
  int64_t light_relaxations = 0, pull_scans = 0, improvements = 0;                    // summed over ranks
  double light_seconds = 0, push_seconds = 0, pull_seconds = 0, parents_seconds = 0;  // rank 0's steps
  util::PhaseProfile profile;                                                         // mean over ranks per phase
  double dijkstra_seconds = -1;                                                       // when compared
  bool dijkstra_agrees = false;  // sum and max of the distances equal Dijkstra's (relative 1e-9)
};

struct SsspBenchmarkResult : run::RunSummary {
  bool generated_weights = false;  // file input without weights
  // The bucket width the searches used: the option's, or raised so that the sub-bucket index of
  // every possible distance stays exact (then the option's value and the largest weight).
  double delta = 0, delta_raised_from = 0, delta_max_weight = 0;
  std::vector<SsspRootResult> roots;
  // Dijkstra comparison over the first `dijkstra_roots` roots.
  int dijkstra_roots = 0;
  double dijkstra_harmonic_teps = 0;  // plain serial Dijkstra, 1 rank, 1 thread
  double sssp_harmonic_teps_same_roots = 0;
  double dijkstra_speedup = 0;  // ratio of the two harmonic means
  bool dijkstra_agrees = true;
  run::EnergyLoopReport energy_loop;  // --energy-loop (run/energy_loop.hpp)
};

// The weighted edges kernel 1 reads: a file's (with its weights, or generated ones) or the
// Kronecker generator's. Filled in place: the source refers to the generator and the weights.
struct SsspEdges {
  std::optional<gen::KroneckerGenerator> generator;
  std::vector<float> file_weights;
  graph::WeightedEdgeSource source;
  double max_weight = gen::kGeneratedWeightBound;  // a bound of every edge's weight
};

// The SSSP of a combined BFS + SSSP run (the reference's bfs_sssp): its edges opened before the
// run, its weighted graph built inside the caller's timed kernel 1, its searches from the roots
// the caller chose. Results go to `result` (which must outlive this object).
class SsspPart {
 public:
  // Collective: opens the weighted edges (a file's weights checked) before any kernel work.
  SsspPart(const SsspConfig& config, const comm::Communicator& world, SsspBenchmarkResult& result);
  ~SsspPart();
  // The SSSP's share of a rank's memory on the grid `probe` (collective: the node's ranks).
  double bytes_per_rank(const graph::Distribution& probe) const;
  // Collective: kernel 1's weighted graph (untimed here: the caller's kernel 1 timer covers it).
  void build(const graph::ProcessGrid& grid);
  // Collective: the warm-up, then each root timed and validated (a failure ends the loop).
  void run_roots(const graph::ProcessGrid& grid, const run::RunRoots& roots);

 private:
  const SsspConfig& config_;
  comm::Communicator world_;
  SsspBenchmarkResult& result_;
  SsspEdges edges_;
  SsspOptions search_options_;
  std::unique_ptr<graph::WeightedLocalGraph> graph_;
};

// Collective over `world`. Validation failures end the root loop and are reported in the result.
SsspBenchmarkResult run_sssp_benchmark(const SsspConfig& config, const comm::Communicator& world);

// Collective: refuses (UsageError) the sizes a file's header declares when run_sssp_benchmark
// would refuse that graph (memory estimate unless config.force, 32-bit local ids), before it is read.
void check_declared_sssp_input(const SsspConfig& config, const io::DeclaredSize& size, const comm::Communicator& world);

}  // namespace g500::sssp
