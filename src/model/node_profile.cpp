// Calculation rates of the model (node_profile.hpp).
#include "model/node_profile.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "model/level_work.hpp"
#include "model/levels.hpp"
#include "util/error.hpp"

namespace g500::model {

namespace {
constexpr double kGiga = 1e9;
constexpr double kBitsPerWord = 64;
// A64FX (Nakao et al. 2021, Table 1 and section 2): 48 compute cores, 2.0 GHz in Normal mode,
// HBM2 at 1,024 GB/s, four CMGs. Section 5.3: at 4 processes per node the L2 misses were about
// half those at 1 process per node; the calculation, bound by its memory accesses, is taken as
// twice as fast.
constexpr int kA64fxCores = 48;
constexpr double kA64fxClockGhz = 2.0;
constexpr double kA64fxMemoryBandwidth = 1024 * kGiga;
constexpr int kA64fxCmgs = 4;
constexpr double kA64fxCmgLocalSpeedup = 2.0;
// The K computer's SPARC64 VIIIfx (Table 1): 8 cores, 2.0 GHz. Section 6.2: Fugaku at 92,160
// nodes (Boost mode) has twice the K computer's per-node performance with twice its injection
// bandwidth, "so we can assume that there is also a 2x difference in local calculation
// performance, but it is not as great as the specification. For example, the difference in
// bandwidth is 16.0 times": the whole local calculation, bitmap scan included, is taken as half
// the A64FX's per node, not scaled by the memory bandwidths of Table 1 (64 against 1,024 GB/s).
constexpr int kKCores = 8;
constexpr double kKClockGhz = 2.0;
constexpr double kKLocalCalculationRatio = 0.5;
constexpr double kBoostClockGhz = 2.2;  // the mode of the section 6 runs the ratio compares
// Top-down against bottom-up accesses per second (level_work.hpp), measured with g500 bfs on one
// core of this machine (docs/model.md, "The A64FX profile"): the median of 13 1-rank traces at
// SCALE 20 (0.28-0.38; 0.46-0.59 at SCALE 18, the ratio falls with SCALE, so the largest SCALE
// measured is taken). A top-down edge also writes and settles a candidate; a bottom-up access is
// a test of one bit.
constexpr double kTopDownPerBottomUpRate = 0.35;

struct Points {
  std::vector<double> edges, seconds;
};

// The levels that count for the time spread: at least this share of the longest level's fitted
// time (the shortest levels are all latency and timer resolution).
constexpr double kSpreadLevelShare = 0.1;
// Median absolute deviation to standard deviation for normal data.
constexpr double kMadToSigma = 1.4826;

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
  return v[v.size() / 2];
}

// Access rate and word time per level from one direction's levels (t = a + accesses / r); adds
// the levels' relative deviations from the line to `deviations`.
void fit_direction(const Points& p, double words, int threads, double& edge_rate, double& word_rate,
                   std::vector<double>& deviations) {
  const Line line = fit_line(p.edges, p.seconds, std::vector<double>(p.edges.size(), 1.0));
  double edges = 0, seconds = 0;
  for (size_t i = 0; i < p.edges.size(); ++i) {
    edges += p.edges[i];
    seconds += p.seconds[i];
  }
  const double slope = line.slope > 0 ? line.slope : seconds / std::max(edges, 1.0);
  edge_rate = 1 / slope / threads;
  const double intercept = std::max(line.intercept, 0.0);
  word_rate = intercept > 0 ? words / intercept / threads : INFINITY;
  double longest = 0;
  for (double e : p.edges) longest = std::max(longest, intercept + e * slope);
  for (size_t i = 0; i < p.edges.size(); ++i) {
    const double fitted = intercept + p.edges[i] * slope;
    if (fitted >= kSpreadLevelShare * longest && fitted > 0) deviations.push_back(p.seconds[i] / fitted - 1);
  }
}
}  // namespace

double rate_factor(const NodeProfile& profile, int ppn, double clock_ghz) {
  double locality = 1;
  if (profile.locality_domains > 1) {
    const double per_domain = std::min(ppn, profile.locality_domains);
    locality = std::pow(profile.locality_speedup, std::log(per_domain) / std::log(profile.locality_domains));
  }
  return locality * clock_ghz / profile.clock_ghz;
}

NodeProfile calibrate_from_trace(const TraceRun& run, int cores) {
  if (run.ranks != 1)
    throw util::UsageError(fmt::format("{}: calibrate from a 1-rank run (this one has {} ranks)", run.path, run.ranks));
  Points topdown, bottomup;
  for (const auto& root : run.roots)
    for (const auto& level : root.levels) {
      Points& p = level.direction == Direction::kTopDown ? topdown : bottomup;
      p.edges.push_back(one_process_accesses(level.direction, level.examined, level.unvisited));
      p.seconds.push_back(level.seconds);
    }
  if (topdown.edges.empty() || bottomup.edges.empty())
    throw util::UsageError(run.path + ": needs a per-level trace with both directions (run g500 bfs with --trace)");
  NodeProfile p;
  p.name = "calibrated";
  p.source =
      fmt::format("{} (SCALE {}, 1 rank, {} threads, {} roots)", run.path, run.scale, run.threads, run.roots.size());
  p.cores = cores;
  const double words = std::ldexp(1.0, run.scale) / kBitsPerWord;
  std::vector<double> deviations;
  fit_direction(topdown, words, run.threads, p.topdown_rate, p.topdown_word_rate, deviations);
  fit_direction(bottomup, words, run.threads, p.bottomup_rate, p.bottomup_word_rate, deviations);
  // The time spread of a level on one process: robust (median absolute deviation), so that a few
  // levels disturbed by other jobs do not decide it.
  const double centre = median(deviations);
  for (double& d : deviations) d = std::abs(d - centre);
  p.level_time_spread = kMadToSigma * median(deviations);
  p.variant = g500_variant();
  return p;
}

NodeProfile a64fx_profile_shape() {
  NodeProfile p;
  p.name = "a64fx";
  p.source =
      "A64FX, 48 threads (Nakao et al. 2021, Table 1, sections 5.3, 6.2); bottom-up rate calibrated on one "
      "published point";
  p.cores = kA64fxCores;
  p.clock_ghz = kA64fxClockGhz;
  p.locality_domains = kA64fxCmgs;
  p.locality_speedup = kA64fxCmgLocalSpeedup;
  p.topdown_word_rate = p.bottomup_word_rate = kA64fxMemoryBandwidth / kScanBytesPerWord / kA64fxCores;
  p.variant = paper_variant();
  return p;
}

NodeProfile with_bottomup_rate(NodeProfile p, double bottomup_rate) {
  p.bottomup_rate = bottomup_rate;
  p.topdown_rate = bottomup_rate * kTopDownPerBottomUpRate;
  return p;
}

NodeProfile k_profile(const NodeProfile& a64fx) {
  NodeProfile p;
  p.name = std::string(1, 'k');  // (a one-letter literal trips GCC 12's -Wrestrict)
  p.source =
      "SPARC64 VIIIfx (Nakao et al. 2021, Table 1): half the A64FX's local calculation per node in Boost "
      "mode, edges and bitmap words (section 6.2)";
  p.cores = kKCores;
  p.clock_ghz = kKClockGhz;
  const double per_node = kKLocalCalculationRatio * a64fx.cores * kBoostClockGhz / a64fx.clock_ghz / kKCores;
  p.bottomup_rate = a64fx.bottomup_rate * per_node;
  p.topdown_rate = a64fx.topdown_rate * per_node;
  p.level_time_spread = a64fx.level_time_spread;
  p.topdown_word_rate = a64fx.topdown_word_rate * per_node;
  p.bottomup_word_rate = a64fx.bottomup_word_rate * per_node;
  p.variant = paper_variant();
  return p;
}

}  // namespace g500::model
