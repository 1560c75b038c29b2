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

int run_bfs_command(int argc, char** argv, const util::Invocation& invocation) {
  bfs::BfsJob job;
  bfs::BenchmarkConfig& config = job.config;
  config.invocation = invocation;
  CLI::App app{
      "Graph500 BFS benchmark: generate a Kronecker graph, build it (kernel 1), run BFS (kernel 2) from every root and "
      "validate",
      "g500 bfs"};
  RunOptions run;
  run.add_to(app, config, job.json_path, "BFS");
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
  std::string disabled;
  app.add_option("--disable", disabled,
                 "switch off techniques of Nakao et al. 2021, section 4, comma-separated: " + bfs::switchable_list());
  std::string compress_text = "auto";
  auto* compress_option = app.add_option("--compress", compress_text,
                                         "packed rows: on (less memory), off (plain rows), auto (on when plain rows "
                                         "would not fit in 85 % of the node's memory, or on one grid row would take "
                                         "kernel 1 more passes)")
                              ->capture_default_str();
  require_range(app.add_option("--kernel1-passes", config.graph.passes,
                               "passes of kernel 1 over the input edges, each keeping one slab of rows (default: the "
                               "fewest whose peak fits a modest share of the node's memory; fewer build faster and "
                               "need more memory)"),
                1, 256);
  std::string row_lengths_text = "auto";
  app.add_option("--kernel1-row-lengths", row_lengths_text,
                 "how kernel 1's first pass counts the rows: whole (a word per row of the row set), met (the rows "
                 "met only, from the rows of the entries it does not keep: large grids), auto (the smaller)")
      ->capture_default_str();
  add_message_limit_option(app, config.messages);
  bool with_sssp = false;
  app.add_flag("--sssp", with_sssp,
               "also run the SSSP (kernel 3) from the same roots on the same input, kernel 1 building both graphs, "
               "and print both kernels' lines in one result block (the reference's bfs_sssp run)");
  app.add_flag("--trace", config.bfs.trace,
               "record per-level direction, frontier size, edges examined and time in the JSON");
  FileInputOptions in;
  in.add_to(app, "BFS");
  require_non_empty(
      app.add_option("--output-parents", job.parents_path, "write the BFS parents of the first root to this file"));
  require_non_empty(
      app.add_option("--output-depths", job.depths_path, "write the BFS depths of the first root to this file"));
  if (!parse_or_throw(app, argc, argv)) return 0;
  run.apply(config);
  in.check(app, config.root_ids, config.root_seed);
  job.input = in.request;
  const std::map<std::string, run::CompressChoice> compress_choices{
      {"auto", run::CompressChoice::kAuto}, {"on", run::CompressChoice::kOn}, {"off", run::CompressChoice::kOff}};
  const auto chosen = compress_choices.find(compress_text);
  if (chosen == compress_choices.end())
    throw g500::util::UsageError("--compress must be auto, on or off (got '" + compress_text + "')");
  config.compress = chosen->second;
  const std::map<std::string, graph::RowCounting> row_counting_choices{{"auto", graph::RowCounting::kAuto},
                                                                       {"whole", graph::RowCounting::kWhole},
                                                                       {"met", graph::RowCounting::kRowsMet}};
  const auto counting = row_counting_choices.find(row_lengths_text);
  if (counting == row_counting_choices.end())
    throw g500::util::UsageError("--kernel1-row-lengths must be auto, whole or met (got '" + row_lengths_text + "')");
  config.graph.row_counting = counting->second;
  bfs::apply_disabled_techniques(disabled, config);
  if (compress_option->count() > 0 && chosen->second != config.compress)
    throw g500::util::UsageError("--compress " + compress_text + " contradicts --disable compress");
  util::refuse_same_files({{"--input", job.input.path, util::FileUse::kInput},
                           {"--rankmap", config.rankmap_path, util::FileUse::kInput},
                           {"--json", job.json_path, util::FileUse::kOutput},
                           {"--output-parents", job.parents_path, util::FileUse::kOutput},
                           {"--output-depths", job.depths_path, util::FileUse::kOutput}},
                          MPI_COMM_WORLD);
  run::check_power_command(config.energy_loop.power_command, MPI_COMM_WORLD);  // the meter works before any work
  if (!with_sssp) return bfs::run_bfs_job(job);
  combined::SsspCompanion sssp(config);
  return bfs::run_bfs_job(job, &sssp);
}

const SubcommandRegistrar registrar("bfs", "Graph500 BFS benchmark (kernels 1 and 2, validated)", run_bfs_command);

}  // namespace
}  // namespace g500::cli
