// Published Graph500 BFS results of Fugaku and the K computer, and the model's check against
// them: the A64FX profile's one free number (its bottom-up edge rate) is set on one point, the
// calibration point; every other point is predicted.
#pragma once
#include <string>
#include <vector>

#include "model/bfs_model.hpp"

namespace g500::model {

struct PublishedPoint {
  std::string system;  // "fugaku" or "k"
  long long nodes = 0;
  int scale = 0;
  util::GridShape grid;  // processes
  int ppn = 1;
  Mapping mapping = Mapping::kSixD;
  double clock_ghz = 0;  // 2.0 Normal mode, 2.2 Boost (Eco) mode
  bool eager = true;     // every sendrecv below the Eager limit (section 5.4 on)
  double gteps = 0;
  std::string label;   // what distinguishes the point, e.g. "4ppn rendezvous 2.0GHz"
  std::string source;  // paper, section
  bool calibration = false;
};

const std::vector<PublishedPoint>& published_points();

// Alternatives to the model's default assumptions, to show how the check depends on them
// (docs/model.md, "Sensitivity"); 0 keeps the default.
struct Assumptions {
  double max_lanes = 0;           // NetworkSpec::max_lanes
  double alltoallv_node_cap = 0;  // NetworkSpec::alltoallv_node_cap [bytes/s]
  double locality_speedup = 0;    // NodeProfile::locality_speedup of the A64FX
  double level_spread = -1;       // NodeProfile::level_time_spread (negative: the profile's own)
};

// The run setup and network of a point (the system's network, its Eager limit as published).
RunSetup setup_of(const PublishedPoint& point);
NetworkSpec network_of(const PublishedPoint& point, const Assumptions& assumptions = {});

// The A64FX profile with its bottom-up rate solved so that the model gives the calibration
// point's GTEPS (bisection on the rate; TEPS grows with it). Throws UsageError when no rate
// reaches it (the network alone takes longer than the published time).
NodeProfile calibrate_a64fx(const std::vector<LevelRow>& rows, const Assumptions& assumptions = {});

struct CheckRow {
  PublishedPoint point;
  Prediction prediction;
  double error_percent = 0;  // (predicted - published) / published
};

// Every published point with the calibrated profiles (A64FX for Fugaku, K from it).
std::vector<CheckRow> check_published(const std::vector<LevelRow>& rows, const Assumptions& assumptions = {});
// "<system> nodes=<N> scale=<S> published=<GTEPS> predicted=<GTEPS> error=<signed %>", then
// " calibration" on the calibration point and the point's label in brackets.
std::string check_line(const CheckRow& row);

// The questions of Nakao et al. 2021, section 7 (future work 4: higher-dimensional networks) and
// section 5.3 (4 processes per node), for the whole Fugaku at SCALE 41: other networks of the
// same 40.8 GB/s injection bandwidth and other processes per node.
struct Scenario {
  std::string name;
  NetworkSpec net;
  int ppn = 1;
  util::GridShape grid{0, 0};  // 0 x 0: the network's default grid
  Prediction prediction;
};
std::vector<Scenario> future_work_scenarios();

}  // namespace g500::model
