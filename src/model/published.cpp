// Published points and the model's check against them (published.hpp).
#include "model/published.hpp"

#include <fmt/format.h>

#include <cmath>

#include "util/error.hpp"

namespace g500::model {

namespace {
constexpr double kNormalGhz = 2.0, kBoostGhz = 2.2;  // Nakao et al. 2021, section 5.5
constexpr double kGiga = 1e9;
constexpr double kRateLow = 1e3, kRateHigh = 1e12;  // edges per second per core bracketing any node
constexpr int kBisectionSteps = 100;
constexpr int kTofudInterfaces = 6;  // TNIs (Nakao et al. 2021, section 2)
// A dragonfly routes uniform traffic over non-minimal (Valiant) paths: half the injection bandwidth.
constexpr double kDragonflyUniformShare = 0.5;

PublishedPoint point(std::string system, long long nodes, int scale, util::GridShape grid, int ppn, Mapping mapping,
                     double clock, bool eager, double gteps, std::string label, std::string source) {
  PublishedPoint p;
  p.system = std::move(system);
  p.nodes = nodes;
  p.scale = scale;
  p.grid = grid;
  p.ppn = ppn;
  p.mapping = mapping;
  p.clock_ghz = clock;
  p.eager = eager;
  p.gteps = gteps;
  p.label = std::move(label);
  p.source = std::move(source);
  return p;
}

std::vector<PublishedPoint> make_points() {
  const Mapping shape = Mapping::kJobShape, six = Mapping::kSixD;
  std::vector<PublishedPoint> points{
      // Section 5.3 (Normal mode, every sendrecv by rendezvous, the scheduler's 2D job shape).
      point("fugaku", 16384, 38, {128, 128}, 1, shape, kNormalGhz, false, 17560, "1ppn rendezvous 2.0GHz job shape",
            "Nakao et al. 2021, section 5.3"),
      point("fugaku", 16384, 38, {256, 256}, 4, shape, kNormalGhz, false, 18738, "4ppn rendezvous 2.0GHz job shape",
            "Nakao et al. 2021, section 5.3"),
      // Section 5.4: the Eager limit raised to 512,000 bytes.
      point("fugaku", 16384, 38, {128, 128}, 1, shape, kNormalGhz, true, 17964, "1ppn eager 2.0GHz job shape",
            "Nakao et al. 2021, section 5.4"),
      // Section 6.1 (Boost Eco mode, 6D mapping XY x Zabc, eager).
      point("fugaku", 9936, 37, {138, 72}, 1, six, kBoostGhz, true, 13738, "1ppn eager 2.2GHz 6D",
            "Nakao et al. 2021, section 6.1"),
      point("fugaku", 39744, 39, {276, 144}, 1, six, kBoostGhz, true, 38749, "1ppn eager 2.2GHz 6D",
            "Nakao et al. 2021, section 6.1"),
      point("fugaku", 158976, 41, {552, 288}, 1, six, kBoostGhz, true, 102956, "1ppn eager 2.2GHz 6D",
            "Nakao et al. 2021, section 6.1"),
      // Section 6.2 and Nakao et al. 2020, section 5.6: 92,160 nodes, XY x Zabc = 320 x 288, Boost Eco.
      point("fugaku", 92160, 40, {320, 288}, 1, six, kBoostGhz, true, 70980, "1ppn eager 2.2GHz 6D",
            "Nakao et al. 2021, section 6.2; Nakao et al. 2020, section 5.6"),
      // The K computer, June 2019 list (Table 4): 82,944 = 288 x 288 nodes.
      point("k", 82944, 40, {288, 288}, 1, six, kNormalGhz, false, 31302, "1ppn rendezvous 2.0GHz 6D",
            "Nakao et al. 2021, Table 4"),
  };
  points.front().calibration = true;
  return points;
}
}  // namespace

const std::vector<PublishedPoint>& published_points() {
  static const std::vector<PublishedPoint> points = make_points();
  return points;
}

RunSetup setup_of(const PublishedPoint& p) {
  RunSetup s;
  s.scale = p.scale;
  s.grid = p.grid;
  s.ppn = p.ppn;
  s.mapping = p.mapping;
  s.clock_ghz = p.clock_ghz;
  return s;
}

NetworkSpec network_of(const PublishedPoint& p, const Assumptions& assumptions) {
  NetworkSpec net = p.system == "k" ? tofu_network() : tofud_network();
  if (!p.eager) net.eager_limit = 0;
  net.max_lanes = assumptions.max_lanes;
  net.alltoallv_node_cap = assumptions.alltoallv_node_cap;
  return net;
}

NodeProfile calibrate_a64fx(const std::vector<LevelRow>& rows, const Assumptions& assumptions) {
  const PublishedPoint* target = nullptr;
  for (const auto& p : published_points())
    if (p.calibration) target = &p;
  const RunSetup setup = setup_of(*target);
  const NetworkSpec net = network_of(*target, assumptions);
  const LevelStructure levels = level_structure(rows, setup.scale, setup.edgefactor);
  NodeProfile shape = a64fx_profile_shape();
  if (assumptions.locality_speedup > 0) shape.locality_speedup = assumptions.locality_speedup;
  if (assumptions.level_spread >= 0) shape.level_time_spread = assumptions.level_spread;
  auto gteps_at = [&](double rate) {
    return predict(with_bottomup_rate(shape, rate), net, levels, setup).teps / kGiga;
  };
  double low = std::log(kRateLow), high = std::log(kRateHigh);
  if (gteps_at(std::exp(high)) < target->gteps)
    throw util::UsageError(
        fmt::format("the model cannot reach {} GTEPS at the calibration point: its communication alone "
                    "takes longer",
                    target->gteps));
  for (int i = 0; i < kBisectionSteps; ++i) {
    const double mid = (low + high) / 2;
    (gteps_at(std::exp(mid)) < target->gteps ? low : high) = mid;
  }
  NodeProfile calibrated = with_bottomup_rate(shape, std::exp((low + high) / 2));
  calibrated.source += fmt::format(" ({} nodes, SCALE {}, {})", target->nodes, target->scale, target->label);
  return calibrated;
}

std::vector<CheckRow> check_published(const std::vector<LevelRow>& rows, const Assumptions& assumptions) {
  const NodeProfile a64fx = calibrate_a64fx(rows, assumptions);
  const NodeProfile k = k_profile(a64fx);
  std::vector<CheckRow> out;
  for (const auto& p : published_points()) {
    const RunSetup setup = setup_of(p);
    CheckRow row;
    row.point = p;
    row.prediction = predict(p.system == "k" ? k : a64fx, network_of(p, assumptions),
                             level_structure(rows, p.scale, setup.edgefactor), setup);
    row.error_percent = (row.prediction.teps / kGiga - p.gteps) / p.gteps * 100;
    out.push_back(row);
  }
  return out;
}

std::string check_line(const CheckRow& row) {
  const PublishedPoint& p = row.point;
  constexpr double kShownPrecision = 0.05;  // one decimal: no "-0.0%"
  const double error = std::abs(row.error_percent) < kShownPrecision ? 0.0 : row.error_percent;
  return fmt::format("{} nodes={} scale={} published={:.0f} predicted={:.0f} error={:+.1f}%{} [{}]", p.system, p.nodes,
                     p.scale, p.gteps, row.prediction.teps / kGiga, error, p.calibration ? " calibration" : "",
                     p.label);
}

std::vector<Scenario> future_work_scenarios() {
  const NetworkSpec tofud = tofud_network();
  // 158,976 = 23 x 4^4 x 3^3 nodes as an 8D torus: 16 links per node sharing the injection bandwidth.
  const std::string eight_d = "23t,4t,4t,4t,4t,3t,3t,3t";
  const util::GridShape published{552, 288}, four_ppn{1104, 576};
  std::vector<Scenario> s{
      {"TofuD 6D (published setup)", tofud, 1, published, {}},
      {"TofuD 6D, 4 ppn", tofud, 4, four_ppn, {}},
      {"8D torus, same injection", torus_network(eight_d, tofud.injection_bandwidth, tofud.latency), 1, {0, 0}, {}},
      {"8D torus, same injection, 4 ppn",
       torus_network(eight_d, tofud.injection_bandwidth, tofud.latency),
       4,
       {0, 0},
       {}},
      // The same 8D torus with TofuD's network interface: 6 links of 6.8 GB/s at once.
      {"8D torus, 6 links at once",
       torus_network(eight_d, tofud.injection_bandwidth, tofud.latency, kTofudInterfaces),
       1,
       {0, 0},
       {}},
      {"fat tree, same injection", fat_tree_network(tofud.injection_bandwidth, tofud.latency), 1, published, {}},
      {"fat tree, same injection, 4 ppn", fat_tree_network(tofud.injection_bandwidth, tofud.latency), 4, four_ppn, {}},
      {"dragonfly, same injection",
       dragonfly_network(tofud.injection_bandwidth, tofud.latency, kDragonflyUniformShare),
       1,
       published,
       {}},
  };
  return s;
}

}  // namespace g500::model
