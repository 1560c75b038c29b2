// The Graph500 SSSP benchmark run (kernel 3): weighted kernel 1 once, then delta-stepping from
// every root (the BFS roots), each result validated; optionally a serial Dijkstra on one rank
// over the first roots, for the speed-up.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "comm/phase_profile.hpp"
#include "gen/kronecker.hpp"
#include "input/edge_input.hpp"
#include "sssp/sssp.hpp"

namespace g500 {

struct SsspConfig {
  gen::KroneckerSpec spec;
  int nroots = 64;
  std::string grid_text;  // "RxC" or empty for the default shape
  std::string rankmap_path;  // a `g500 map` CSV placing each rank on the grid (empty: row-major)
  int threads = 0;        // OpenMP threads per rank (0 = automatic)
  bool validate = true;
  bool warmup = true;     // one untimed run first
  int compare_dijkstra = 0;  // roots also solved by a serial Dijkstra on rank 0 (0 = none)
  SsspOptions sssp;
  // File input (g500 sssp --input, docs/input.md); null: the Kronecker graph of `spec` (default).
  // A file without weights gets generated ones (generated_edge_weight, docs/sssp.md).
  const input::EdgeInput* input = nullptr;
  uint64_t weight_seed = 1;
  std::vector<uint64_t> root_ids;     // --root, in the input's ids (replaces the sampled roots)
  std::optional<uint64_t> root_seed;  // sample roots with input::sample_roots instead of the reference rule
  // Called (collectively) after the first root was validated, e.g. to write result files.
  std::function<void(const LocalGraph&, const ProcessGrid&, int64_t root, const std::vector<double>& distances,
                     const std::vector<int64_t>& parents)>
      first_root_hook;
};

// The weight a file without weights gives its edge number `index` (0-based, in file order):
// uniform in [0, 1) as the reference generator's, from splitmix64(seed, index); independent of the
// rank count.
float generated_edge_weight(uint64_t seed, int64_t index);

struct SsspRootResult {
  int64_t root = 0;               // in the input file's ids for file input
  double seconds = 0;
  int64_t nedge = 0;
  double teps = 0;
  int64_t reached = 0;
  double sum_dist = 0, max_dist = 0;
  bool validated = false;
  double validate_seconds = -1;
  int64_t buckets = 0, phases = 0, pull_phases = 0, relaxations = 0;
  comm::PhaseProfile profile;     // mean over ranks per phase
  double dijkstra_seconds = -1;   // when compared
  bool dijkstra_agrees = false;   // sum and max of the distances equal Dijkstra's (relative 1e-9)
};

struct SsspBenchmarkResult {
  int ranks = 1;
  int grid_rows = 1, grid_cols = 1;
  int threads = 1;
  double generation_seconds = 0;
  double construction_seconds = 0;
  size_t graph_bytes_max_rank = 0;
  int64_t input_edges = 0;
  int64_t vertices_without_edges = 0;  // file input: vertices with no non-self-loop edge
  bool generated_weights = false;      // file input without weights
  std::vector<SsspRootResult> roots;
  bool validation_failed = false;
  std::string validation_error;
  size_t peak_rss_bytes_max_rank = 0;
  // Dijkstra comparison over the first `dijkstra_roots` roots.
  int dijkstra_roots = 0;
  double dijkstra_harmonic_teps = 0;   // plain serial Dijkstra, 1 rank, 1 thread
  double sssp_harmonic_teps_same_roots = 0;
  double dijkstra_speedup = 0;         // ratio of the two harmonic means
  bool dijkstra_agrees = true;
};

// Collective. Validation failures end the root loop and are reported in the result.
SsspBenchmarkResult run_sssp_benchmark(const SsspConfig& config, bool force = false);

}  // namespace g500
