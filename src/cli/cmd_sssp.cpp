// g500 sssp: the Graph500 SSSP benchmark (kernel 1 with weights, kernel 3 = delta-stepping SSSP,
// validated) on Kronecker graphs or on an edge-list file (--input, docs/input.md and
// docs/sssp.md); --compare-dijkstra N adds a serial Dijkstra baseline.
// This file parses the options; sssp/driver.cpp runs the job.
#include "cli/file_input.hpp"
#include "cli/options.hpp"
#include "cli/run_options.hpp"
#include "cli/subcommand.hpp"
#include "run/energy_loop.hpp"
#include "sssp/driver.hpp"
#include "util/error.hpp"
#include "util/same_file.hpp"

namespace g500::cli {
namespace {

// What the command line gives besides the job: the shared run and input options, and --disable.
struct SsspOptions {
  RunOptions run;
  FileInputOptions in;
  std::vector<std::string> disabled;
};

void add_sssp_options(CLI::App& app, sssp::SsspJob& job, SsspOptions& options) {
  sssp::SsspConfig& config = job.config;
  options.run.add_to(app, config, job.json_path, "SSSP");
  require_positive(
      app.add_option("--delta", config.sssp.delta, "delta-stepping bucket width (edges lighter than delta are light)"))
      ->capture_default_str();
  require_range(
      app.add_option(
          "--sub-buckets", config.sssp.sub_buckets,
          "light phases take each bucket in this many narrower steps, in distance order (1 = plain delta-stepping)"),
      1, 1024)
      ->capture_default_str();
  require_non_negative(app.add_option("--pull-factor", config.sssp.pull_factor,
                                      "heavy phases pull when push work > factor x pull work (0 = always push)"))
      ->capture_default_str();
  app.add_option("--disable", options.disabled,
                 "switch off techniques, comma-separated: reorder (the degree-order renumbering of Nakao et al. 2021, "
                 "section 4.2), "
                 "parent-notes (on one-row and one-column grids, the parents read from the source each distance "
                 "keeps, instead of a search for every parent afterwards)")
      ->delimiter(',');
  require_at_least(
      app.add_option("--compare-dijkstra", config.compare_dijkstra,
                     "also solve the first N roots with a serial Dijkstra on rank 0 and report the speed-up"),
      0);
  add_message_limit_option(app, config.messages);
  options.in.add_to(app, "SSSP");
  require_unsigned(
      app.add_option("--weight-seed", config.weight_seed,
                     "seed of the weights given to a file without weights (uniform in [0, 1), default 1)"));
  require_non_empty(
      app.add_option("--output-distances", job.distances_path, "write the distances from the first root to this file"));
  require_non_empty(app.add_option("--output-parents", job.parents_path,
                                   "write the shortest-path tree of the first root to this file"));
}

// Switches off the techniques --disable names (in the order given), recording each in the config.
void apply_disabled(const std::vector<std::string>& disabled, sssp::SsspConfig& config) {
  for (const std::string& name : disabled) {
    if (name == "reorder")
      config.graph.reorder = false;
    else if (name == "parent-notes")
      config.sssp.parent_notes = false;
    else
      throw util::UsageError("--disable: unknown technique '" + name +
                             "' (switchable for sssp: reorder, parent-notes)");
    config.disabled.push_back(name);
  }
}

// After parsing: the input, options that do not fit together, files, and the power meter, before any work.
void check_sssp_options(const CLI::App& app, SsspOptions& options, sssp::SsspJob& job) {
  sssp::SsspConfig& config = job.config;
  FileInputOptions& in = options.in;
  in.check(app, config.root_ids, config.root_seed);
  job.input = in.request;
  const int64_t roots_asked = config.root_ids.empty() ? config.nroots : static_cast<int64_t>(config.root_ids.size());
  if (config.compare_dijkstra > roots_asked)
    throw util::UsageError("--compare-dijkstra " + std::to_string(config.compare_dijkstra) +
                           " is more than the run's " + std::to_string(roots_asked) + " roots");
  if (in.request.path.empty() && app.get_option("--weight-seed")->count())
    throw util::UsageError("--weight-seed needs --input (generated graphs have the reference generator's weights)");
  if ((!job.distances_path.empty() || !job.parents_path.empty()) && options.run.no_validate)
    throw util::UsageError("--output-distances and --output-parents write a validated result; drop --no-validate");
  util::refuse_same_files({{"--input", job.input.path, util::FileUse::kInput},
                           {"--rankmap", config.rankmap_path, util::FileUse::kInput},
                           {"--json", job.json_path, util::FileUse::kOutput},
                           {"--output-distances", job.distances_path, util::FileUse::kOutput},
                           {"--output-parents", job.parents_path, util::FileUse::kOutput}},
                          MPI_COMM_WORLD);
  run::check_power_command(config.energy_loop.power_command, MPI_COMM_WORLD);  // the meter works before any work
}

int run_sssp_command(int argc, char** argv, const util::Invocation& invocation) {
  sssp::SsspJob job;
  job.config.invocation = invocation;
  CLI::App app{
      "Graph500 SSSP benchmark: generate a weighted Kronecker graph, build it (kernel 1), run delta-stepping SSSP "
      "(kernel 3) from every root and validate",
      "g500 sssp"};
  SsspOptions options;
  add_sssp_options(app, job, options);
  if (!parse_or_throw(app, argc, argv)) return 0;
  options.run.apply(job.config);
  apply_disabled(options.disabled, job.config);
  check_sssp_options(app, options, job);

  return sssp::run_sssp_job(job, MPI_COMM_WORLD);
}

const SubcommandRegistrar registrar("sssp", "Graph500 SSSP benchmark (kernels 1 and 3, validated; delta-stepping)",
                                    run_sssp_command);

}  // namespace
}  // namespace g500::cli
