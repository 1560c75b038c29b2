// Text tables and JSON of `g500 model`: predictions (time per phase, TEPS), the published-point
// check, measured runs beside their predictions, and the future-work scenarios.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "model/bfs_model.hpp"
#include "model/node_presets.hpp"
#include "model/published.hpp"
#include "model/trace.hpp"

namespace g500::model {

std::string profile_text(const NodeProfile& profile, const NetworkSpec& net);
nlohmann::json profile_json(const NodeProfile& profile);
nlohmann::json network_json(const NetworkSpec& net);
nlohmann::json node_json(const NodePreset& node);

// One line per prediction: nodes, ppn, grid, SCALE, placement, ms per phase, total, GTEPS, shares.
std::string prediction_table(const std::vector<Prediction>& predictions);
nlohmann::json prediction_json(const Prediction& p);
nlohmann::json check_json(const CheckRow& row);

// A measured run and its prediction: ms per BFS per phase, TEPS, and the errors.
std::string comparison_text(const TraceRun& run, const Prediction& p);
nlohmann::json comparison_json(const TraceRun& run, const Prediction& p);
// Measured seconds per BFS per phase (the JSON profile is summed over the roots).
PhaseSeconds measured_per_bfs(const TraceRun& run);

// The levels of a level structure: share, and per vertex of the graph frontier, found, unvisited,
// edges examined.
std::string level_structure_table(const LevelStructure& levels);
nlohmann::json level_structure_json(const LevelStructure& levels);

std::string scenario_table(const std::vector<Scenario>& scenarios);
nlohmann::json scenario_json(const Scenario& s);

}  // namespace g500::model
