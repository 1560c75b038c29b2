// The `g500 model` job (model_job.hpp).
#include "model/model_job.hpp"

#include <fmt/format.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "gen/kronecker.hpp"
#include "model/host_sharing.hpp"
#include "model/model_report.hpp"
#include "model/node_presets.hpp"
#include "model/profile_check.hpp"
#include "util/counted.hpp"
#include "util/error.hpp"
#include "util/output_file.hpp"

namespace g500::model {

namespace {
constexpr double kGiga = 1e9, kMicro = 1e-6;
constexpr double kGiB = 1024.0 * 1024 * 1024;
constexpr double kDefaultDragonflyShare = 0.5;  // as future_work_scenarios (published.cpp)
constexpr int kDefaultEdgefactor = 16;
const std::string kTorusPrefix = "torus:";

bool ends_with(const std::string& text, const std::string& tail) {
  return text.size() >= tail.size() && text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw util::UsageError("cannot read '" + path + "'");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

struct Chosen {
  NodeProfile profile;
  NetworkSpec net;
  std::string node_line;  // the node, named even when it is the default
  std::vector<std::string> warnings;
};

bool is_trace_profile(const std::string& profile) { return !profile.empty() && profile != "a64fx" && profile != "k"; }

NetworkSpec named_network(const std::string& name, const ModelOptions& o) {
  const NetworkSpec tofud = tofud_network();
  const double injection = o.injection_gbs ? *o.injection_gbs * kGiga : tofud.injection_bandwidth;
  const double latency = o.latency_us ? *o.latency_us * kMicro : tofud.latency;
  if (name == "tofud") return tofud;
  if (name == "tofu") return tofu_network();
  if (name == "fattree") return fat_tree_network(injection, latency);
  if (name == "dragonfly")
    return dragonfly_network(injection, latency, o.global_share.value_or(kDefaultDragonflyShare));
  if (name.rfind(kTorusPrefix, 0) == 0) return torus_network(name.substr(kTorusPrefix.size()), injection, latency);
  if (name == "shm") {
    if (!o.latency_us || !o.link_gbs)
      throw util::UsageError("--network shm needs --latency and --link-bandwidth (measure them with g500 coll --fit)");
    return shared_memory_network(latency, *o.link_gbs * kGiga,
                                 o.cores > 0 ? o.cores : static_cast<int>(std::thread::hardware_concurrency()),
                                 o.switch_latency_us.value_or(0) * kMicro);
  }
  throw util::UsageError("unknown --network '" + name +
                         "' (expected tofud, tofu, fattree, dragonfly, torus:SHAPE or shm)");
}

void apply_overrides(NetworkSpec& net, const ModelOptions& o) {
  if (o.latency_us) net.latency = *o.latency_us * kMicro;
  if (o.link_gbs && net.kind != TopologyKind::kFatTree && net.kind != TopologyKind::kDragonfly)
    net.link_bandwidth = *o.link_gbs * kGiga;
  if (o.injection_gbs && net.kind == TopologyKind::kTorus) net.injection_bandwidth = *o.injection_gbs * kGiga;
  if (o.eager_limit) net.eager_limit = *o.eager_limit;
  if (!o.shm_measured.empty()) {
    if (net.kind != TopologyKind::kSharedMemory) throw util::UsageError("--shm-measured needs --network shm");
    net.measured_at_ranks = parse_measured_at_ranks(read_text(o.shm_measured), o.shm_measured);
  }
  net.max_lanes = o.assumptions.max_lanes;
  net.alltoallv_node_cap = o.assumptions.alltoallv_node_cap;
}

// The node of a trace profile without --node: this machine, checked against the slowest core of
// the presets (a core that makes fewer accesses than a tenth of any server's is not at work).
const NodePreset& slowest_preset(const NodeProfile& a64fx) {
  const NodePreset* slowest = nullptr;
  double slowest_rate = 0;
  for (const NodePreset& node : node_presets()) {
    const double rate = preset_profile(node, a64fx).bottomup_rate;
    if (!slowest || rate < slowest_rate) {
      slowest = &node;
      slowest_rate = rate;
    }
  }
  return *slowest;
}

std::string preset_line(const NodePreset& node, bool by_default) {
  return fmt::format(
      "node {}: {}, {} at {:.2f} GHz, memory {:.1f} GB/s, {:.1f} GiB{}\n  source: {}\n", node.name, node.label,
      util::counted(node.cores, "core"), node.clock_ghz, node.memory_bandwidth / kGiga, node.memory_bytes / kGiB,
      by_default ? fmt::format(" (the default; --node chooses one of {})", node_preset_names()) : "", node.source);
}

Chosen choose(const ModelOptions& o, const std::vector<LevelRow>& rows) {
  Chosen c;
  const NodePreset* node = chosen_node(o);
  const NodeProfile a64fx = calibrate_a64fx(rows, o.assumptions);
  std::string default_network = "fattree";
  if (node && node->name == "a64fx") default_network = "tofud";
  if (node && node->name == "k") default_network = "tofu";
  if (!is_trace_profile(o.profile)) {
    c.node_line = preset_line(*node, o.node.empty() && o.profile.empty());
    c.profile = preset_profile(*node, a64fx);
  } else {
    const TraceRun run = read_trace(o.profile);
    const int cores = node          ? node->cores
                      : o.cores > 0 ? o.cores
                                    : static_cast<int>(std::thread::hardware_concurrency());
    c.profile = calibrate_from_trace(run, cores);
    if (o.assumptions.level_spread >= 0) c.profile.level_time_spread = o.assumptions.level_spread;
    const NodePreset& reference = node ? *node : slowest_preset(a64fx);
    c.warnings = check_calibration(run, c.profile, preset_profile(reference, a64fx),
                                   node ? reference.name : reference.name + " (the slowest of the --node presets)");
    if (node) {
      c.profile.clock_ghz = node->clock_ghz;
      c.profile.source += ", taken on the " + node->name + " node";
      c.node_line = preset_line(*node, false);
    } else {
      default_network = "shm";
      c.node_line = fmt::format("node: this machine, {}, {:.1f} GiB (--node names the node the run was taken on: {})\n",
                                util::counted(cores, "core"), o.node_memory_bytes / kGiB, node_preset_names());
    }
  }
  c.net = named_network(o.network.empty() ? default_network : o.network, o);
  apply_overrides(c.net, o);
  return c;
}

int scale_for(const ModelOptions& o, long long nodes) {
  if (o.scale) return *o.scale;
  return *o.scale_per_node + static_cast<int>(std::lround(std::log2(static_cast<double>(nodes))));
}

// The best grid and processes per node for `nodes`: every candidate grid at 1, 2 and 4 processes
// per node that the network can place.
Prediction best_prediction(const Chosen& c, const std::vector<LevelRow>& rows, RunSetup setup, long long nodes) {
  const LevelStructure levels = level_structure(rows, setup.scale, setup.edgefactor);
  std::optional<Prediction> best;
  for (int ppn : {1, 2, 4}) {
    setup.ppn = ppn;
    for (const util::GridShape& grid : candidate_grids(nodes * ppn)) {
      setup.grid = grid;
      try {
        Prediction p = predict(c.profile, c.net, levels, setup);
        if (!best || p.teps > best->teps) best = std::move(p);
      } catch (const util::UsageError&) {
        // this grid cannot be placed on the network
      }
    }
  }
  if (!best) throw util::UsageError(fmt::format("no grid of {} nodes can be placed on {}", nodes, c.net.name));
  return *best;
}

std::vector<Prediction> series(const ModelOptions& o, const Chosen& c, const std::vector<LevelRow>& rows) {
  const bool shm = c.net.kind == TopologyKind::kSharedMemory;
  const std::vector<long long>& counts = shm ? o.ranks : o.nodes;
  if (counts.empty())
    throw util::UsageError(shm ? "--network shm needs --ranks"
                               : "give --nodes (or --published, --compare, --future-work)");
  if (!o.scale && !o.scale_per_node)
    throw util::UsageError("give --scale (strong scaling) or --scale-per-node (weak scaling)");
  if (!o.grid.empty() && counts.size() != 1) throw util::UsageError("--grid needs a single node count");
  std::vector<Prediction> out;
  for (long long count : counts) {
    RunSetup s;
    s.scale = scale_for(o, count);
    s.ppn = shm ? static_cast<int>(count) : o.ppn;
    s.mapping = parse_mapping(o.mapping);
    s.clock_ghz = o.clock_ghz.value_or(0);
    s.threads = o.threads;
    s.substeps = o.substeps;
    if (s.scale < 1 || s.scale > gen::kMaxScale)
      throw util::UsageError(fmt::format("SCALE {} is outside 1..{}", s.scale, gen::kMaxScale));
    if (o.best && !shm) {
      out.push_back(best_prediction(c, rows, s, count));
      continue;
    }
    s.grid = !o.grid.empty() ? util::parse_grid_text(o.grid)
             : shm           ? util::closest_factor_shape(count)
                             : default_grid(c.net, count, s.ppn, s.mapping);
    if (s.grid.size() != count * (shm ? 1 : s.ppn))
      throw util::UsageError(fmt::format("--grid {} does not match {} {}{}", o.grid, shm ? "--ranks" : "--nodes", count,
                                         shm || s.ppn == 1 ? "" : fmt::format(" at --ppn {}", s.ppn)));
    out.push_back(predict(c.profile, c.net, level_structure(rows, s.scale, s.edgefactor), s));
  }
  return out;
}

std::string compare_runs(const ModelOptions& o, const Chosen& c, const std::vector<LevelRow>& rows,
                         nlohmann::json& json) {
  std::string text;
  for (const auto& path : o.compare) {
    const TraceRun run = read_trace(path);
    RunSetup s;
    s.scale = run.scale;
    s.edgefactor = run.edgefactor;
    s.grid = util::GridShape{run.rows, run.cols};
    s.ppn = c.net.kind == TopologyKind::kSharedMemory ? run.ranks : o.ppn;
    s.threads = run.threads;
    s.substeps = run.substeps;
    const Prediction p = predict(c.profile, c.net, level_structure(rows, s.scale, s.edgefactor), s);
    text += comparison_text(run, p);
    json["compare"].push_back(comparison_json(run, p));
  }
  return text;
}

std::string published_check(const std::vector<LevelRow>& rows, const Assumptions& assumptions, nlohmann::json& json) {
  std::string text;
  const auto checks = check_published(rows, assumptions);
  for (const auto& row : checks) text += check_line(row) + "\n";
  std::vector<Prediction> predictions;
  for (const auto& row : checks) {
    predictions.push_back(row.prediction);
    json["published"].push_back(check_json(row));
  }
  return text + "\n" + prediction_table(predictions);
}

std::string future_work(const std::vector<LevelRow>& rows, const Assumptions& assumptions, nlohmann::json& json) {
  const NodeProfile a64fx = calibrate_a64fx(rows, assumptions);
  const PublishedPoint* whole = nullptr;  // the largest Fugaku run: the whole system
  for (const auto& p : published_points())
    if (p.system == "fugaku" && (!whole || p.nodes > whole->nodes)) whole = &p;
  const LevelStructure levels = level_structure(rows, whole->scale, setup_of(*whole).edgefactor);
  std::vector<Scenario> scenarios = future_work_scenarios();
  std::string text;
  std::vector<Prediction> predictions;
  for (auto& sc : scenarios) {
    RunSetup s = setup_of(*whole);
    s.ppn = sc.ppn;
    sc.net.max_lanes = assumptions.max_lanes;
    sc.net.alltoallv_node_cap = assumptions.alltoallv_node_cap;
    s.grid = sc.grid.size() > 0 ? sc.grid : default_grid(sc.net, whole->nodes, sc.ppn, s.mapping);
    sc.prediction = predict(a64fx, sc.net, levels, s);
    predictions.push_back(sc.prediction);
    json["future_work"].push_back(scenario_json(sc));
  }
  return scenario_table(scenarios) + "\n" + prediction_table(predictions);
}
}  // namespace

std::vector<LevelRow> level_rows_of(const std::vector<std::string>& files) {
  if (files.empty()) return measured_level_rows();
  std::vector<LevelRow> rows;
  for (const auto& f : files) {
    const auto part = ends_with(f, ".csv") ? parse_level_rows_csv(read_text(f), f) : level_rows(read_trace(f));
    rows.insert(rows.end(), part.begin(), part.end());
  }
  return rows;
}

const NodePreset* chosen_node(const ModelOptions& o) {
  const bool built_in = !o.profile.empty() && !is_trace_profile(o.profile);
  if (built_in && !o.node.empty() && o.node != o.profile)
    throw util::UsageError("--profile " + o.profile + " and --node " + o.node +
                           " name two nodes: give one (--profile FILE calibrates a --node from a run on it)");
  if (!o.node.empty()) return &node_preset(o.node);
  if (built_in) return &node_preset(o.profile);
  return o.profile.empty() ? &node_preset("a64fx") : nullptr;
}

Mapping parse_mapping(const std::string& text) {
  if (text == "6d") return Mapping::kSixD;
  if (text == "jobshape") return Mapping::kJobShape;
  throw util::UsageError("unknown --mapping '" + text + "' (expected 6d or jobshape)");
}

ModelOutput run_model_job(const ModelOptions& o) {
  const std::vector<LevelRow> rows = level_rows_of(o.levels);
  nlohmann::json json = {{"kind", "g500-model"}, {"provenance", o.provenance}};
  std::string text;
  std::vector<std::string> warnings;
  if (!o.write_level_table.empty()) {
    util::write_whole_file(o.write_level_table, level_rows_csv(rows));
    text += "wrote " + std::to_string(rows.size()) + " level rows to " + o.write_level_table + "\n";
  }
  if (!o.show_levels.empty())
    for (long long scale : o.show_levels) {
      const LevelStructure levels = level_structure(rows, static_cast<int>(scale), kDefaultEdgefactor);
      text += level_structure_table(levels);
      json["level_structures"].push_back(level_structure_json(levels));
    }
  if (o.published) text += published_check(rows, o.assumptions, json);
  if (o.future_work) text += future_work(rows, o.assumptions, json);
  const bool wants_series = !o.nodes.empty() || !o.ranks.empty();
  if (wants_series || !o.compare.empty()) {
    const Chosen c = choose(o, rows);
    warnings = c.warnings;
    json["profile"] = profile_json(c.profile);
    json["network"] = network_json(c.net);
    if (const NodePreset* node = chosen_node(o)) json["node"] = node_json(*node);
    json["warnings"] = c.warnings;
    text += c.node_line + profile_text(c.profile, c.net);
    if (wants_series) {
      auto predictions = series(o, c, rows);
      if (o.node_bytes_needed)
        for (Prediction& p : predictions) {
          p.node_bytes_needed = o.node_bytes_needed(p.setup.scale, p.setup.grid, p.setup.ppn);
          p.node_memory_bytes = o.node_memory_bytes;
        }
      text += prediction_table(predictions);
      for (const auto& p : predictions) json["predictions"].push_back(prediction_json(p));
      json["series"] = o.scale ? "strong" : "weak";
    }
    if (!o.compare.empty()) text += compare_runs(o, c, rows, json);
  }
  if (text.empty())
    throw util::UsageError(
        "nothing to do: give --nodes, --published, --compare, --future-work, --show-levels or --write-level-table");
  if (!o.json.empty()) util::write_whole_file(o.json, json.dump(1) + "\n");
  return {text, warnings};
}

}  // namespace g500::model
