// The `g500 model` job: options, the level rows and profiles they select, and the reports
// (prediction series, the published-point check, the comparison with measured runs, the future
// work scenarios), as text and JSON. cli/cmd_model.cpp parses the options into a ModelOptions.
#pragma once
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "model/bfs_model.hpp"
#include "model/node_presets.hpp"
#include "model/published.hpp"

namespace g500::model {

struct ModelOptions {
  std::string profile;       // a64fx, k, or a 1-rank g500 bfs --trace --json file ("": the node's own)
  std::string node;          // a node preset (node_presets.hpp); "": by the profile, a64fx by default
  int cores = 0;             // with a trace profile and no node: the node's cores (0: this machine's)
  std::string shm_measured;  // shm: CSV of latency and bandwidth measured per rank count
  std::string network;       // tofud, tofu, fattree, dragonfly, shm, torus:SHAPE ("" by profile)
  std::optional<double> latency_us, link_gbs, injection_gbs, eager_limit, global_share, switch_latency_us;
  Assumptions assumptions;       // --allgatherv-lanes, --alltoallv-cap, --locality-speedup
  std::vector<long long> nodes;  // one node count, or a series
  std::vector<long long> ranks;  // shm: processes on the machine, one count or a series
  std::optional<int> scale, scale_per_node;
  std::string grid;  // "RxC" (one node count only)
  int ppn = 1;
  bool best = false;           // search grids and processes per node
  std::string mapping = "6d";  // 6d or jobshape
  std::optional<double> clock_ghz;
  int threads = 0;
  int substeps = 4;
  std::vector<std::string> levels;  // trace files or level CSVs instead of the built-in rows
  std::string write_level_table;
  std::vector<long long> show_levels;  // SCALEs (1..42) whose level structure to print
  bool published = false;
  bool future_work = false;
  std::vector<std::string> compare;  // measured runs to set beside their predictions
  std::string json;
  nlohmann::json provenance;  // the JSON's "provenance" object (util/provenance.hpp: cli/cmd_model.cpp makes it)
  // The memory a node needs for a prediction's run, in bytes: g500 bfs's plan (run/run_plan.hpp,
  // which model/ does not include: cli/cmd_model.cpp sets it); empty: no memory column. Points
  // needing more than node_memory_bytes are marked as not fitting.
  std::function<double(int scale, const util::GridShape& grid, int ppn)> node_bytes_needed;
  double node_memory_bytes = 0;
};

// The node preset the options choose: --node, --profile a64fx or k, a64fx when neither is given;
// nullptr for a trace profile without --node (this machine). Throws UsageError when --profile a64fx
// or k and --node name different nodes, or --node names none.
const NodePreset* chosen_node(const ModelOptions& options);

struct ModelOutput {
  std::string text;                   // what it prints
  std::vector<std::string> warnings;  // about the calibration run (profile_check.hpp), also in the JSON
};

// Runs the job; writes --json and --write-level-table. Throws UsageError for bad input.
ModelOutput run_model_job(const ModelOptions& options);

// Pieces the job and the tests use.
std::vector<LevelRow> level_rows_of(const std::vector<std::string>& files);
Mapping parse_mapping(const std::string& text);

}  // namespace g500::model
