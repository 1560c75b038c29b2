// The Graph500 SSSP benchmark run (kernel 3): weighted kernel 1 once, then delta-stepping from
// every root (the BFS roots), each result validated; optionally a serial Dijkstra on one rank
// over the first roots, for the speed-up.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "comm/phase_profile.hpp"
#include "gen/kronecker.hpp"
#include "sssp/sssp.hpp"

namespace g500 {

struct SsspConfig {
  gen::KroneckerSpec spec;
  int nroots = 64;
  std::string grid_text;  // "RxC" or empty for the default shape
  int threads = 0;        // OpenMP threads per rank (0 = automatic)
  bool validate = true;
  bool warmup = true;     // one untimed run first
  int compare_dijkstra = 0;  // roots also solved by a serial Dijkstra on rank 0 (0 = none)
  SsspOptions sssp;
};

struct SsspRootResult {
  int64_t root = 0;
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
