// The options every kernel run has (g500 bfs, g500 sssp): graph size and seeds, roots, grid and
// rank placement, threads, validation, the JSON file, --force, the energy loop and the progress
// lines.
#pragma once
#include <CLI/CLI.hpp>
#include <string>

#include "run/run_setup.hpp"

namespace g500::cli {

struct RunOptions {
  std::string seed_text;
  bool no_validate = false;
  bool quiet = false, progress = false;  // --quiet, --progress (cli/options.hpp)

  // Registers the options into config (--force too) and json_path; `kernel` names the search in the help
  // ("BFS", "SSSP").
  void add_to(CLI::App& app, run::RunConfig& config, std::string& json_path, const std::string& kernel);
  // After parsing: checks the edge count, parses --seed and sets config.validate and the energy
  // loop's seconds; throws UsageError.
  void apply(run::RunConfig& config) const;
};

}  // namespace g500::cli
