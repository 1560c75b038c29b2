// g500 bfs: the Graph500 BFS benchmark (kernels 1 and 2 with validation) on Kronecker graphs or
// on an edge-list file (--input, docs/input.md).
// This file parses the options; bfs/driver.cpp runs the job.
#include <map>
#include <string>

#include "bfs/driver.hpp"
#include "cli/file_input.hpp"
#include "cli/options.hpp"
#include "cli/run_options.hpp"
#include "cli/subcommand.hpp"
#include "combined/bfs_sssp.hpp"
#include "run/energy_loop.hpp"
#include "util/error.hpp"
#include "util/same_file.hpp"

namespace g500::cli {
namespace {

// What the command line gives besides the job: the shared run and input options, and the texts
// of the choices parsed after it.
struct BfsOptions {
  RunOptions run;
  FileInputOptions in;
  std::string disabled;
  std::string packed_rows_text = "auto";
  CLI::Option* packed_rows_option = nullptr;
  std::string row_lengths_text = "auto";
  std::string level_buffers_text = "auto";
  bool with_sssp = false;
};

// The search's own options: overlap, direction switch and collective algorithms.
void add_search_options(CLI::App& app, bfs::BenchmarkConfig& config) {
  require_range(app.add_option("--substeps", config.bfs.substeps,
                               "overlap: bottom-up sub-steps per grid-row position (n of Nakao et al. 2021, section "
                               "4.5; the visited bitmap travels in n segments)"),
                1, 64)
      ->capture_default_str();
  require_positive(app.add_option("--alpha", config.bfs.alpha,
                                  "direction switch: go bottom-up when frontier edges > unvisited edges / alpha"))
      ->capture_default_str();
  require_positive(
      app.add_option("--beta", config.bfs.beta, "direction switch: go top-down when frontier vertices < N / beta"))
      ->capture_default_str();
  app.add_option("--alltoallv", config.bfs.alltoallv, "alltoallv algorithm (see g500 coll)")->capture_default_str();
  app.add_option("--allgatherv", config.bfs.allgatherv, "allgatherv algorithm (see g500 coll)")->capture_default_str();
}

// --disable and kernel 1's choices: packed rows, passes and row counting.
void add_build_options(CLI::App& app, bfs::BenchmarkConfig& config, BfsOptions& options) {
  app.add_option("--disable", options.disabled,
                 "switch off techniques of Nakao et al. 2021, section 4, comma-separated: " + bfs::switchable_list());
  options.packed_rows_option =
      app.add_option("--packed-rows", options.packed_rows_text,
                     "packed rows: on (less memory), off (plain rows), auto (on when plain rows "
                     "would not fit in 85 % of the node's memory, or on one grid row would take "
                     "kernel 1 more passes)")
          ->capture_default_str();
  app.add_option("--level-buffers", options.level_buffers_text,
                 "the search's level buffers: kept (for the whole search), by-direction (a top-down level's freed "
                 "when it turns bottom-up and the column frontier when it turns top-down: less memory, made again "
                 "at every turn), auto (by-direction when kept would not fit in 85 % of the node's memory)")
      ->capture_default_str();
  require_range(app.add_option("--kernel1-passes", config.graph.passes,
                               "passes of kernel 1 over the input edges, each keeping one slab of rows (default: the "
                               "fewest whose peak fits a modest share of the node's memory; fewer build faster and "
                               "need more memory)"),
                1, 256);
  app.add_option("--kernel1-row-lengths", options.row_lengths_text,
                 "how kernel 1's first pass counts the rows: whole (a word per row of the row set), met (the rows "
                 "met only, from the rows of the entries it does not keep: large grids), auto (the smaller)")
      ->capture_default_str();
}

void add_bfs_options(CLI::App& app, bfs::BfsJob& job, BfsOptions& options) {
  bfs::BenchmarkConfig& config = job.config;
  options.run.add_to(app, config, job.json_path, "BFS");
  add_search_options(app, config);
  add_build_options(app, config, options);
  add_message_limit_option(app, config.messages);
  app.add_flag("--sssp", options.with_sssp,
               "also run the SSSP (kernel 3) from the same roots on the same input, kernel 1 building both graphs, "
               "and print both kernels' lines in one result block (the reference's bfs_sssp run)");
  app.add_flag("--trace", config.bfs.trace,
               "record per-level direction, frontier size, edges examined and time in the JSON");
  options.in.add_to(app, "BFS");
  require_non_empty(
      app.add_option("--output-parents", job.parents_path, "write the BFS parents of the first root to this file"));
  require_non_empty(
      app.add_option("--output-depths", job.depths_path, "write the BFS depths of the first root to this file"));
}

// --packed-rows, --kernel1-row-lengths and --disable into the config; an explicit --packed-rows must
// agree with --disable.
void apply_build_choices(const BfsOptions& options, bfs::BenchmarkConfig& config) {
  const std::map<std::string, run::PackedRowsChoice> packed_rows_choices{
      {"auto", run::PackedRowsChoice::kAuto}, {"on", run::PackedRowsChoice::kOn}, {"off", run::PackedRowsChoice::kOff}};
  const auto chosen = packed_rows_choices.find(options.packed_rows_text);
  if (chosen == packed_rows_choices.end())
    throw g500::util::UsageError("--packed-rows must be auto, on or off (got '" + options.packed_rows_text + "')");
  config.packed_rows = chosen->second;
  const std::map<std::string, graph::RowCounting> row_counting_choices{{"auto", graph::RowCounting::kAuto},
                                                                       {"whole", graph::RowCounting::kWhole},
                                                                       {"met", graph::RowCounting::kRowsMet}};
  const auto counting = row_counting_choices.find(options.row_lengths_text);
  if (counting == row_counting_choices.end())
    throw g500::util::UsageError("--kernel1-row-lengths must be auto, whole or met (got '" + options.row_lengths_text +
                                 "')");
  config.graph.row_counting = counting->second;
  const std::map<std::string, run::LevelBuffersChoice> level_buffers_choices{
      {"auto", run::LevelBuffersChoice::kAuto},
      {"kept", run::LevelBuffersChoice::kKept},
      {"by-direction", run::LevelBuffersChoice::kByDirection}};
  const auto buffers = level_buffers_choices.find(options.level_buffers_text);
  if (buffers == level_buffers_choices.end())
    throw g500::util::UsageError("--level-buffers must be auto, kept or by-direction (got '" +
                                 options.level_buffers_text + "')");
  config.level_buffers = buffers->second;
  bfs::apply_disabled_techniques(options.disabled, config);
  if (options.packed_rows_option->count() > 0 && chosen->second != config.packed_rows)
    throw g500::util::UsageError("--packed-rows " + options.packed_rows_text + " contradicts --disable packed-rows");
}

int run_bfs_command(int argc, char** argv, const util::Invocation& invocation) {
  bfs::BfsJob job;
  bfs::BenchmarkConfig& config = job.config;
  config.invocation = invocation;
  CLI::App app{
      "Graph500 BFS benchmark: generate a Kronecker graph, build it (kernel 1), run BFS (kernel 2) from every root and "
      "validate",
      "g500 bfs"};
  BfsOptions options;
  add_bfs_options(app, job, options);
  if (!parse_or_throw(app, argc, argv)) return 0;
  options.run.apply(config);
  options.in.check(app, config.root_ids, config.root_seed);
  job.input = options.in.request;
  apply_build_choices(options, config);
  util::refuse_same_files({{"--input", job.input.path, util::FileUse::kInput},
                           {"--rankmap", config.rankmap_path, util::FileUse::kInput},
                           {"--json", job.json_path, util::FileUse::kOutput},
                           {"--output-parents", job.parents_path, util::FileUse::kOutput},
                           {"--output-depths", job.depths_path, util::FileUse::kOutput}},
                          MPI_COMM_WORLD);
  run::check_power_command(config.energy_loop.power_command, MPI_COMM_WORLD);  // the meter works before any work
  if (!options.with_sssp) return bfs::run_bfs_job(job, MPI_COMM_WORLD);
  combined::SsspCompanion sssp(config);
  return bfs::run_bfs_job(job, MPI_COMM_WORLD, &sssp);
}

const SubcommandRegistrar registrar("bfs", "Graph500 BFS benchmark (kernels 1 and 2, validated)", run_bfs_command);

}  // namespace
}  // namespace g500::cli
