// g500 model: the performance model of the hybrid 2D BFS (docs/model.md). Parses the options;
// rank 0 runs the job (src/model/) and errors reach every rank through agree_or_throw.
#include <mpi.h>
#include <omp.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "cli/options.hpp"
#include "cli/subcommand.hpp"
#include "gen/kronecker.hpp"
#include "model/model_job.hpp"
#include "model/node_presets.hpp"
#include "run/run_plan.hpp"
#include "topo/systems.hpp"
#include "util/agree.hpp"
#include "util/error.hpp"
#include "util/memory.hpp"
#include "util/provenance.hpp"
#include "util/same_file.hpp"

namespace g500::cli {
namespace {

using model::ModelOptions;

// Numbers that are "not given" unless the option appears.
struct OptionalNumbers {
  double latency_us = 0, link_gbs = 0, injection_gbs = 0, eager_limit = 0, global_share = 0, clock_ghz = 0;
  double alltoallv_cap_gbs = 0, switch_latency_us = 0;
  int scale = 0, scale_per_node = 0;
};

// Bounds of the model's own numbers (machine latencies and bandwidths: cli/options.hpp).
constexpr double kMinShare = 1e-3, kMaxShare = 1;
constexpr double kMinLanes = 1, kMaxLanes = 1000;
constexpr double kMaxSpread = 100;
constexpr double kMinSpeedup = 1e-2, kMaxSpeedup = 100;
constexpr double kMinClockGhz = 1e-2, kMaxClockGhz = 100;
// Largest node or process count of a series: the largest system g500 map describes.
constexpr long long kMaxCount = topo::kMaxNodes;

void add_network_options(CLI::App& app, ModelOptions& o, OptionalNumbers& n) {
  require_non_empty(app.add_option("--network", o.network,
                                   "tofud, tofu, fattree, dragonfly, torus:SHAPE (g500 map --shape form) or shm "
                                   "(default: tofud for a64fx, tofu for k, fattree for the other nodes, shm for a "
                                   "trace profile without --node)"));
  require_real_range(app.add_option("--latency", n.latency_us, "latency per message in microseconds"),
                     kMinLatencyMicroseconds, kMaxLatencyMicroseconds, "microseconds");
  require_real_range(app.add_option("--link-bandwidth", n.link_gbs, "bandwidth per link in GB/s (shm: copy bandwidth)"),
                     kMinBandwidthGbs, kMaxBandwidthGbs, "GB/s");
  require_real_range(app.add_option("--injection", n.injection_gbs, "injection bandwidth per node in GB/s"),
                     kMinBandwidthGbs, kMaxBandwidthGbs, "GB/s");
  require_real_range(app.add_option("--eager-limit", n.eager_limit, "bytes; longer sendrecv messages use rendezvous"),
                     0, kMaxMessageBytes, "bytes");
  require_real_range(
      app.add_option("--global-share", n.global_share, "dragonfly: uniform-traffic bandwidth over injection"),
      kMinShare, kMaxShare, "");
  require_real_range(app.add_option("--allgatherv-lanes", o.assumptions.max_lanes,
                                    "at most this many links per allgatherv (1: a single ring)"),
                     kMinLanes, kMaxLanes, "links");
  require_real_range(app.add_option("--alltoallv-cap", n.alltoallv_cap_gbs,
                                    "at most this alltoallv throughput per node in GB/s (Hosono et al. 2021: about 1)"),
                     kMinBandwidthGbs, kMaxBandwidthGbs, "GB/s");
  require_real_range(app.add_option("--level-spread", o.assumptions.level_spread,
                                    "relative time spread of a process's level (default: measured in a trace "
                                    "profile, 0 for a64fx and k)"),
                     0, kMaxSpread, "");
  require_real_range(app.add_option("--locality-speedup", o.assumptions.locality_speedup,
                                    "A64FX calculation speed-up at one process per CMG (default 2)"),
                     kMinSpeedup, kMaxSpeedup, "");
  auto* cores = require_at_least(app.add_option("--cores", o.cores,
                                                "cores of the node of a trace profile without --node "
                                                "(default: this machine's)"),
                                 1);
  require_non_empty(app.add_option("--node", o.node,
                                   "the node: " + model::node_preset_names() +
                                       " (default a64fx; with a trace --profile, the node it ran on)"))
      ->excludes(cores);
  require_non_empty(
      app.add_option("--shm-measured", o.shm_measured,
                     "shm: CSV ranks,latency_us,bandwidth_gbs measured with g500 coll at those rank counts"));
  require_real_range(app.add_option("--switch-latency", n.switch_latency_us,
                                    "shm: microseconds a message step costs for each further rank sharing a core"),
                     0, kMaxLatencyMicroseconds, "microseconds");
}

void add_run_options(CLI::App& app, ModelOptions& o, OptionalNumbers& n) {
  add_count_list(app, "--nodes", o.nodes, 1, kMaxCount, "node count, or a comma list for a series");
  add_count_list(app, "--ranks", o.ranks, 1, kMaxCount, "shm: process count, or a comma list");
  auto* scale = require_range(app.add_option("--scale", n.scale, "SCALE of every point (strong scaling)"), 1, 42);
  auto* weak = require_range(
      app.add_option("--scale-per-node", n.scale_per_node, "SCALE per node: SCALE = this + log2(nodes) (weak scaling)"),
      0, 42);
  scale->excludes(weak);
  require_non_empty(app.add_option("--grid", o.grid, "process grid RxC (one node count)"));
  require_at_least(app.add_option("--ppn", o.ppn, "processes per node"), 1, 64);
  app.add_flag("--best", o.best, "search grids and 1, 2, 4 processes per node for the highest TEPS");
  app.add_option("--mapping", o.mapping, "6d (g500 map's grid mapping) or jobshape (2D job-shape torus)");
  require_real_range(app.add_option("--clock", n.clock_ghz, "clock in GHz (A64FX: 2.0 Normal, 2.2 Boost)"),
                     kMinClockGhz, kMaxClockGhz, "GHz");
  add_threads_option(app, o.threads, "threads per process (default: cores / ppn)");
  require_at_least(app.add_option("--substeps", o.substeps, "bottom-up sub-steps per grid-row position (section 4.5)"),
                   1, 64);
}

void copy_optionals(const CLI::App& app, const OptionalNumbers& n, ModelOptions& o) {
  if (app.count("--latency")) o.latency_us = n.latency_us;
  if (app.count("--link-bandwidth")) o.link_gbs = n.link_gbs;
  if (app.count("--injection")) o.injection_gbs = n.injection_gbs;
  if (app.count("--eager-limit")) o.eager_limit = n.eager_limit;
  if (app.count("--global-share")) o.global_share = n.global_share;
  if (app.count("--switch-latency")) o.switch_latency_us = n.switch_latency_us;
  if (app.count("--clock")) o.clock_ghz = n.clock_ghz;
  constexpr double kGiga = 1e9;
  if (app.count("--alltoallv-cap")) o.assumptions.alltoallv_node_cap = n.alltoallv_cap_gbs * kGiga;
  if (app.count("--scale")) o.scale = n.scale;
  if (app.count("--scale-per-node")) o.scale_per_node = n.scale_per_node;
}

// Every file the model reads (a trace --profile, --levels, --compare, --shm-measured) and writes.
std::vector<util::FileOption> files_of(const ModelOptions& o) {
  const bool built_in_profile = o.profile.empty() || o.profile == "a64fx" || o.profile == "k";
  std::vector<util::FileOption> files{{"--profile", built_in_profile ? "" : o.profile, util::FileUse::kInput},
                                      {"--shm-measured", o.shm_measured, util::FileUse::kInput}};
  for (const std::string& path : o.levels) files.push_back({"--levels", path, util::FileUse::kInput});
  for (const std::string& path : o.compare) files.push_back({"--compare", path, util::FileUse::kInput});
  files.push_back({"--write-level-table", o.write_level_table, util::FileUse::kOutput});
  files.push_back({"--json", o.json, util::FileUse::kOutput});
  return files;
}

constexpr double kGiB = 1024.0 * 1024 * 1024;

// The memory of the chosen node, or this machine's for a trace profile without --node.
double default_node_memory_bytes(const ModelOptions& o) {
  if (const model::NodePreset* node = model::chosen_node(o)) return node->memory_bytes;
  return static_cast<double>(util::physical_memory_bytes());
}

// What a node needs for g500 bfs's run of a Kronecker graph (edge factor 16) at a prediction's
// SCALE, grid and processes per node: the run's plan (run/run_plan.hpp) on the grid's first
// process, this machine's threads (as g500 jobscript counts them).
std::function<double(int, const util::GridShape&, int)> planned_node_bytes(double node_memory_bytes) {
  return [node_memory_bytes](int scale, const util::GridShape& grid, int ppn) {
    gen::KroneckerSpec graph;
    graph.scale = scale;
    run::PlanInput input;
    input.shape =
        graph::GraphShape{graph.nedges(), scale, graph.nedges() / (static_cast<int64_t>(grid.rows) * grid.cols)};
    input.d = graph::Distribution(graph.nvertices(), grid.rows, grid.cols, 0, 0);
    input.threads = omp_get_max_threads();
    input.node_bytes_per_rank = node_memory_bytes / ppn;
    return run::plan_run(input).peak_bytes() * ppn;
  };
}

int run_model(int argc, char** argv, const util::Invocation& invocation) {
  CLI::App app{"Performance model of the hybrid 2D BFS: time per phase and TEPS at N nodes (docs/model.md)",
               "g500 model"};
  ModelOptions o;
  OptionalNumbers n;
  require_non_empty(
      app.add_option("--profile", o.profile,
                     "a64fx, k, or a 1-rank g500 bfs --trace --json file to calibrate from (run on a --node)"));
  add_network_options(app, o, n);
  add_run_options(app, o, n);
  app.add_option("--levels", o.levels, "g500 bfs --trace --json files or level CSVs instead of the built-in levels");
  add_count_list(app, "--show-levels", o.show_levels, 1, gen::kMaxScale,
                 "print the level structure at these SCALEs, e.g. 20,30,41");
  require_non_empty(app.add_option("--write-level-table", o.write_level_table, "write the level rows as CSV"));
  app.add_flag("--published", o.published, "check against the published Fugaku and K computer results");
  app.add_flag("--future-work", o.future_work, "the whole Fugaku on other networks and at 4 processes per node");
  app.add_option("--compare", o.compare, "g500 bfs --trace --json runs to set beside their predictions");
  require_non_empty(app.add_option("--json", o.json, "write the results as JSON"));
  double node_memory_gib = 0;
  require_real_range(app.add_option("--node-memory", node_memory_gib,
                                    "memory of a node in GiB, for the memory column (default: the --node's, a trace "
                                    "profile without --node this machine's)"),
                     kMinNodeMemoryGib, kMaxNodeMemoryGib, "GiB");
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (!parse_or_throw(app, argc, argv)) return 0;
  copy_optionals(app, n, o);
  util::refuse_same_files(files_of(o), MPI_COMM_WORLD);
  o.provenance = util::provenance_json(invocation, omp_get_max_threads());
  std::string error;
  model::ModelOutput output;
  if (rank == 0) {
    try {
      o.node_memory_bytes = node_memory_gib > 0 ? node_memory_gib * kGiB : default_node_memory_bytes(o);
      o.node_bytes_needed = planned_node_bytes(o.node_memory_bytes);
      output = model::run_model_job(o);
    } catch (const util::UsageError& e) {
      error = e.what();
      if (error.empty()) error = "bad input";
    }
  }
  util::agree_or_throw(error, MPI_COMM_WORLD);
  if (rank == 0) {
    for (const std::string& warning : output.warnings)
      std::fprintf(stderr, "g500 model: warning: %s\n", warning.c_str());
    std::fputs(output.text.c_str(), stdout);
  }
  return 0;
}

const SubcommandRegistrar kRegisterModel("model", "performance model of the BFS: time per phase and TEPS at N nodes",
                                         run_model);

}  // namespace
}  // namespace g500::cli
