// Reading `g500 bfs --json` result files (run/result_json.cpp, bfs/report.cpp) for the model.
#include "model/trace.hpp"

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>

#include "util/error.hpp"

namespace g500::model {

namespace {
constexpr std::array<const char*, kPhaseCount> kPhaseNames{"calculation", "allgatherv", "alltoallv", "sendrecv",
                                                           "imbalance"};

Direction direction_of(const std::string& text, const std::string& path) {
  if (text == "top-down") return Direction::kTopDown;
  if (text == "bottom-up") return Direction::kBottomUp;
  throw util::UsageError(path + ": unknown level direction '" + text + "'");
}

TracedRoot root_of(const nlohmann::json& j, const std::string& path) {
  TracedRoot root;
  root.seconds = j.at("time_s").get<double>();
  root.nedge = j.at("nedge").get<double>();
  root.reached = j.value("reached", 0.0);
  // The unvisited vertices when a level starts: those left by the level before (the root's level:
  // every reached vertex but the root).
  double unvisited = std::max(0.0, root.reached - 1);
  for (const auto& level : j.value("levels", nlohmann::json::array())) {
    root.levels.push_back(TracedLevel{direction_of(level.at("direction").get<std::string>(), path),
                                      level.at("frontier").get<double>(), level.at("edges_examined").get<double>(),
                                      level.at("time_s").get<double>(), unvisited});
    unvisited = level.value("unvisited_after", 0.0);
  }
  return root;
}
}  // namespace

const char* phase_name(Phase phase) { return kPhaseNames[static_cast<int>(phase)]; }

double total_seconds(const PhaseSeconds& seconds) {
  double sum = 0;
  for (double s : seconds) sum += s;
  return sum;
}

TraceRun read_trace(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw util::UsageError("cannot read trace file '" + path + "'");
  TraceRun run;
  run.path = path;
  try {
    const nlohmann::json j = nlohmann::json::parse(in);
    const auto& config = j.at("config");
    if (config.value("kernel", std::string("bfs")) != "bfs") throw util::UsageError(path + ": not a BFS result");
    run.scale = config.at("scale").get<int>();
    run.edgefactor = config.at("edgefactor").get<int>();
    run.ranks = config.at("ranks").get<int>();
    run.rows = config.at("grid").at("rows").get<int>();
    run.cols = config.at("grid").at("cols").get<int>();
    run.threads = config.at("threads").get<int>();
    run.substeps = config.at("options").value("substeps", 1);
    if (config.contains("node")) {
      run.node_ranks = config.at("node").at("ranks").get<int>();
      run.node_cores = config.at("node").at("cores").get<int>();
    }
    run.harmonic_mean_teps = j.at("summary").at("harmonic_mean_TEPS").get<double>();
    for (int p = 0; p < kPhaseCount; ++p)
      run.phase_seconds[p] = j.at("profile").at(kPhaseNames[p]).at("seconds").get<double>();
    for (const auto& root : j.at("roots")) run.roots.push_back(root_of(root, path));
  } catch (const nlohmann::json::exception& e) {
    throw util::UsageError(path + ": not a g500 bfs --json result (" + std::string(e.what()) + ")");
  }
  if (run.roots.empty()) throw util::UsageError(path + ": no roots");
  return run;
}

}  // namespace g500::model
