#include "cli/run_options.hpp"

#include "cli/options.hpp"
#include "util/duration.hpp"
#include "util/error.hpp"
#include "util/progress.hpp"

namespace g500::cli {

void RunOptions::add_to(CLI::App& app, run::RunConfig& config, std::string& json_path, const std::string& kernel) {
  require_range(app.add_option("--scale", config.spec.scale, "log2 of the number of vertices"), 1, gen::kMaxScale)
      ->capture_default_str();
  require_at_least(app.add_option("--edgefactor", config.spec.edgefactor, "edges per vertex"), 1)
      ->capture_default_str();
  app.add_option("--seed", seed_text, "generator seeds A,B (default 2,3 as the reference)");
  require_at_least(
      app.add_option("--roots", config.nroots,
                     "number of " + kernel + " roots (fewer when fewer vertices have an edge; stated on stderr)"),
      1)
      ->capture_default_str();
  require_non_empty(app.add_option("--grid", config.grid_text, "process grid RxC (default: R >= C, closest factors)"));
  require_non_empty(app.add_option("--rankmap", config.rankmap_path,
                                   "place ranks on the grid as in this `g500 map` CSV (rank,row,col,...)"));
  add_threads_option(app, config.threads, "OpenMP threads per rank (default: cores / ranks on the node)");
  app.add_flag("--no-validate", no_validate, "skip validation of the " + kernel + " results");
  require_non_empty(app.add_option("--json", json_path, "write the full results as JSON to this file"));
  app.add_flag("--force", config.force, "run even if the memory estimate exceeds the machine's memory");
  require_duration(app.add_option("--energy-loop", config.energy_loop.duration_text,
                                  "Green Graph500: after the warm-up, repeat the " + kernel +
                                      " searches from the roots for this long (e.g. 60s, 2m) and report the average "
                                      "power and TEPS/W over it"),
                   run::kMaxEnergyLoopSeconds);
  add_progress_options(app, quiet, progress);
  require_non_empty(app.add_option("--power-command", config.energy_loop.power_command,
                                   "the system's power meter during --energy-loop: a shell command printing watts on "
                                   "its first line, run every second on rank 0 (default: the RAPL counters of "
                                   "packages and DRAM)"));
}

void RunOptions::apply(run::RunConfig& config) const {
  check_edge_count(config.spec.scale, config.spec.edgefactor);
  if (!seed_text.empty()) parse_seed_pair(seed_text, config.spec.seed1, config.spec.seed2);
  config.validate = !no_validate;
  config.progress = util::progress_wanted(quiet, MPI_COMM_WORLD, progress);
  run::EnergyLoopOptions& loop = config.energy_loop;
  if (!loop.duration_text.empty()) loop.seconds = util::duration_seconds(loop.duration_text).value_or(0);
  if (!loop.power_command.empty() && !loop.wanted())
    throw util::UsageError("--power-command measures the power during --energy-loop; give --energy-loop too");
}

}  // namespace g500::cli
