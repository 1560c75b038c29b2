// Reports of `g500 model` (model_report.hpp).
#include "model/model_report.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "util/counted.hpp"

namespace g500::model {

namespace {
constexpr double kGiga = 1e9, kMilli = 1e-3, kMicro = 1e-6, kPercent = 100;
constexpr double kGiB = 1024.0 * 1024 * 1024;

const char* mapping_name(Mapping m) { return m == Mapping::kSixD ? "6d" : "jobshape"; }

nlohmann::json phases_json(const PhaseSeconds& s) {
  nlohmann::json j;
  for (int k = 0; k < kPhaseCount; ++k) j[phase_name(static_cast<Phase>(k))] = s[k];
  return j;
}

double error_percent(double predicted, double measured) {
  return measured > 0 ? (predicted - measured) / measured * kPercent : 0.0;
}
}  // namespace

std::string profile_text(const NodeProfile& profile, const NetworkSpec& net) {
  return fmt::format(
      "profile {}: {} cores; per core: top-down {:.3g} accesses/s, bottom-up {:.3g} accesses/s, bitmap words {:.3g}/s "
      "(top-down), {:.3g}/s (bottom-up); {:.3g} GHz; level time spread {:.3f}\n  source: {}\n"
      "network {}: L {:.2f} us, link {:.2f} GB/s, {} at once, injection {:.1f} GB/s, eager limit {:.0f} bytes\n"
      "  source: {}\n",
      profile.name, profile.cores, profile.topdown_rate, profile.bottomup_rate, profile.topdown_word_rate,
      profile.bottomup_word_rate, profile.clock_ghz, profile.level_time_spread, profile.source, net.name,
      net.latency / kMicro, net.link_bandwidth / kGiga, util::counted(net.simultaneous_links, "link"),
      net.injection_bandwidth / kGiga, net.eager_limit, net.source);
}

nlohmann::json profile_json(const NodeProfile& p) {
  return {{"name", p.name},
          {"source", p.source},
          {"cores", p.cores},
          {"topdown_edges_per_second_per_core", p.topdown_rate},
          {"bottomup_edges_per_second_per_core", p.bottomup_rate},
          {"topdown_words_per_second_per_core", p.topdown_word_rate},
          {"bottomup_words_per_second_per_core", p.bottomup_word_rate},
          {"clock_ghz", p.clock_ghz},
          {"locality_domains", p.locality_domains},
          {"locality_speedup", p.locality_speedup},
          {"level_time_spread", p.level_time_spread}};
}

nlohmann::json node_json(const NodePreset& node) {
  return {{"name", node.name},
          {"label", node.label},
          {"cores", node.cores},
          {"clock_ghz", node.clock_ghz},
          {"memory_bandwidth_bytes_per_s", node.memory_bandwidth},
          {"cache_line_bytes", node.cache_line_bytes},
          {"memory_bytes", node.memory_bytes},
          {"source", node.source}};
}

nlohmann::json network_json(const NetworkSpec& n) {
  return {{"name", n.name},
          {"source", n.source},
          {"latency_s", n.latency},
          {"link_bandwidth", n.link_bandwidth},
          {"simultaneous_links", n.simultaneous_links},
          {"injection_bandwidth", n.injection_bandwidth},
          {"eager_limit", n.eager_limit}};
}

std::string prediction_table(const std::vector<Prediction>& predictions) {
  const bool memory =
      std::any_of(predictions.begin(), predictions.end(), [](const Prediction& p) { return p.node_memory_bytes > 0; });
  std::string text =
      fmt::format("{:>7} {:>3} {:>11} {:>5} {:>32} | {:>8} {:>8} {:>8} {:>8} {:>8} | {:>8} {:>9} | {}{}\n", "nodes",
                  "ppn", "grid", "SCALE", "placement", "calc ms", "agv ms", "atv ms", "sr ms", "imb ms", "total ms",
                  "GTEPS", "shares % (calc agv atv sr imb)", memory ? " | GiB/node" : "");
  bool any_too_big = false;
  for (const auto& p : predictions) {
    std::string ms, shares;
    for (int k = 0; k < kPhaseCount; ++k) {
      ms += fmt::format(" {:8.2f}", p.seconds[k] / kMilli);
      shares += fmt::format(" {:4.1f}", p.time > 0 ? p.seconds[k] / p.time * kPercent : 0.0);
    }
    std::string need;
    if (memory) {
      need = fmt::format(" | {:8.1f}{}", p.node_bytes_needed / kGiB, p.fits() ? "" : " *");
      any_too_big = any_too_big || !p.fits();
    }
    text += fmt::format("{:>7} {:>3} {:>11} {:>5} {:>32} |{} | {:8.2f} {:9.1f} |{}{}\n", p.setup.nodes(), p.setup.ppn,
                        fmt::format("{}x{}", p.setup.grid.rows, p.setup.grid.cols), p.setup.scale, p.view.placement, ms,
                        p.time / kMilli, p.teps / kGiga, shares, need);
  }
  text += fmt::format(
      "ms: milliseconds per BFS (calc calculation, agv allgatherv, atv alltoallv, sr sendrecv, imb "
      "imbalance); GTEPS: 10^9 input edges per second; grid: R x C processes{}\n",
      memory ? "; GiB/node: g500 bfs's memory plan per node" : "");
  if (any_too_big)
    text += fmt::format(
        "* does not fit a node's {:.1f} GiB (g500 bfs's memory plan; g500 jobscript --plan lists its parts)\n",
        predictions.front().node_memory_bytes / kGiB);
  return text;
}

nlohmann::json prediction_json(const Prediction& p) {
  nlohmann::json levels = nlohmann::json::array();
  for (const auto& l : p.levels)
    levels.push_back(
        {{"relative", l.relative},
         {"direction", l.direction == Direction::kTopDown ? "top-down" : "bottom-up"},
         {"share", l.share},
         {"bytes",
          {{"allgatherv", l.volumes.allgatherv}, {"alltoallv", l.volumes.alltoallv}, {"sendrecv", l.volumes.sendrecv}}},
         {"seconds", phases_json(l.seconds)}});
  nlohmann::json j = {{"nodes", p.setup.nodes()},
                      {"ppn", p.setup.ppn},
                      {"scale", p.setup.scale},
                      {"grid", {{"rows", p.setup.grid.rows}, {"cols", p.setup.grid.cols}}},
                      {"mapping", mapping_name(p.setup.mapping)},
                      {"placement", p.view.placement},
                      {"seconds", phases_json(p.seconds)},
                      {"waiting_seconds", phases_json(p.waiting)},
                      {"time_s", p.time},
                      {"teps", p.teps},
                      {"levels", levels}};
  if (p.node_memory_bytes > 0) {
    j["plan_bytes_per_node"] = p.node_bytes_needed;
    j["node_memory_bytes"] = p.node_memory_bytes;
    j["fits"] = p.fits();
  }
  return j;
}

nlohmann::json check_json(const CheckRow& row) {
  const PublishedPoint& p = row.point;
  nlohmann::json j = prediction_json(row.prediction);
  j.erase("levels");
  j["system"] = p.system;
  j["published_gteps"] = p.gteps;
  j["predicted_gteps"] = row.prediction.teps / kGiga;
  j["error_percent"] = row.error_percent;
  j["calibration"] = p.calibration;
  j["label"] = p.label;
  j["source"] = p.source;
  return j;
}

PhaseSeconds measured_per_bfs(const TraceRun& run) {
  PhaseSeconds s = run.phase_seconds;
  for (double& x : s) x /= static_cast<double>(run.roots.size());
  return s;
}

std::string comparison_text(const TraceRun& run, const Prediction& p) {
  const PhaseSeconds measured = measured_per_bfs(run);
  std::string text =
      fmt::format("{}: SCALE {}, {} ranks, {}x{} grid, {} threads\n  {:<12} {:>10} {:>10} {:>8}\n", run.path, run.scale,
                  run.ranks, run.rows, run.cols, run.threads, "ms per BFS", "measured", "predicted", "error");
  for (int k = 0; k < kPhaseCount; ++k)
    text += fmt::format("  {:<12} {:10.3f} {:10.3f} {:+7.1f}%\n", phase_name(static_cast<Phase>(k)),
                        measured[k] / kMilli, p.seconds[k] / kMilli, error_percent(p.seconds[k], measured[k]));
  const double measured_total = total_seconds(measured);
  text += fmt::format("  {:<12} {:10.3f} {:10.3f} {:+7.1f}%\n", "total", measured_total / kMilli, p.time / kMilli,
                      error_percent(p.time, measured_total));
  text += fmt::format("  {:<12} {:10.4f} {:10.4f} {:+7.1f}%\n", "GTEPS", run.harmonic_mean_teps / kGiga, p.teps / kGiga,
                      error_percent(p.teps, run.harmonic_mean_teps));
  return text;
}

nlohmann::json comparison_json(const TraceRun& run, const Prediction& p) {
  nlohmann::json j = prediction_json(p);
  j.erase("levels");
  j["file"] = run.path;
  j["measured_seconds"] = phases_json(measured_per_bfs(run));
  j["measured_teps"] = run.harmonic_mean_teps;
  j["teps_error_percent"] = error_percent(p.teps, run.harmonic_mean_teps);
  return j;
}

std::string level_structure_table(const LevelStructure& levels) {
  std::string text =
      fmt::format("SCALE {}: reached {:.4f} of the vertices\n{:>8} {:>9} {:>6} {:>10} {:>10} {:>10} {:>10}\n",
                  levels.scale, levels.reached / levels.vertices, "relative", "direction", "share", "frontier/n",
                  "found/n", "unvisit/n", "examined/n");
  for (const auto& l : levels.levels) {
    const LevelCounts& c = l.counts;
    text += fmt::format("{:>8} {:>9} {:6.3f} {:10.3e} {:10.3e} {:10.3e} {:10.3e}\n", l.relative,
                        c.direction == Direction::kTopDown ? "top-down" : "bottom-up", l.share, c.frontier / c.vertices,
                        c.found / c.vertices, c.unvisited / c.vertices, c.examined / c.vertices);
  }
  return text;
}

nlohmann::json level_structure_json(const LevelStructure& levels) {
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& l : levels.levels)
    rows.push_back({{"relative", l.relative},
                    {"direction", l.counts.direction == Direction::kTopDown ? "top-down" : "bottom-up"},
                    {"share", l.share},
                    {"frontier", l.counts.frontier},
                    {"found", l.counts.found},
                    {"unvisited", l.counts.unvisited},
                    {"examined", l.counts.examined}});
  return {{"scale", levels.scale},
          {"vertices", levels.vertices},
          {"edges", levels.edges},
          {"reached", levels.reached},
          {"levels", rows}};
}

std::string scenario_table(const std::vector<Scenario>& scenarios) {
  std::string text = fmt::format("whole Fugaku, SCALE 41, A64FX profile, Boost mode:\n{:<36} {:>11} {:>10} {:>9}\n",
                                 "network", "grid", "GTEPS", "vs TofuD");
  const double reference = scenarios.empty() ? 0 : scenarios.front().prediction.teps;
  for (const auto& s : scenarios)
    text += fmt::format("{:<36} {:>11} {:10.0f} {:8.2f}x\n", s.name,
                        fmt::format("{}x{}", s.prediction.setup.grid.rows, s.prediction.setup.grid.cols),
                        s.prediction.teps / kGiga, reference > 0 ? s.prediction.teps / reference : 0.0);
  return text;
}

nlohmann::json scenario_json(const Scenario& s) {
  nlohmann::json j = prediction_json(s.prediction);
  j.erase("levels");
  j["scenario"] = s.name;
  j["network"] = network_json(s.net);
  return j;
}

}  // namespace g500::model
