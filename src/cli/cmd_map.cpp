// g500 map: topology-aware process mapping for 6D mesh/torus networks (Nakao et al. 2021, section
// 5.6; Nakao et al. 2020, section 5.6; Kuroda et al. 2013, section 4.2). Parses the options; rank 0
// runs the job (src/map/) and errors reach every rank through agree_or_throw.
#include <mpi.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <string>

#include "cli/options.hpp"
#include "cli/subcommand.hpp"
#include "map/map_job.hpp"
#include "topo/systems.hpp"
#include "util/agree.hpp"
#include "util/error.hpp"
#include "util/progress.hpp"
#include "util/same_file.hpp"

namespace g500::cli {
namespace {

using namespace g500::map;
using namespace g500::topo;

// Which system, which nodes, how they are mapped and where the rank map goes.
void add_mapping_options(CLI::App& app, MapOptions& o) {
  auto* system_opt = app.add_option("--system", o.system, "preset: fugaku (24,23,24,2,3,2) or k (24,18,16,2,3,2)");
  auto* shape_opt =
      require_non_empty(app.add_option("--shape", o.shape, "custom shape, e.g. 2m,3t,2m or a=2m,b=3t,c=2m"));
  system_opt->excludes(shape_opt);
  require_at_least(app.add_option("--nodes", o.nodes, "number of nodes (default: the whole system)"), 1, kMaxNodes);
  require_non_empty(app.add_option("--grid", o.grid, "process grid RxC (default: R >= C, R/C closest to 1)"));
  require_non_empty(
      app.add_option("--axes", o.axes, "explicit axis split ROW/COL, e.g. XY/Zabc (grid method; snake in this order)"));
  app.add_option("--method", o.method,
                 "grid (Nakao et al. 2021, section 5.6 axis split + snake) or cuboid (Kuroda et al. 2013, Method A)");
  require_non_empty(app.add_option("--cuboid", o.cuboid,
                                   "explicit Method A factors, e.g. a2,Y4,c2/X8,Z8,b3 (implies --method cuboid)"));
  require_non_empty(app.add_option("--output", o.output, "write the rank map here"));
  app.add_option("--format", o.format, "csv (rank,row,col,coordinates) or fugaku-rankmap (tuple per line)");
}

// The link-load simulation and its parameters; returns --simulate, which the parameters need.
CLI::Option* add_simulation_options(CLI::App& app, MapOptions& o) {
  auto* simulate_opt = require_non_empty(app.add_option("--simulate", o.simulate,
                                                        "link-load simulation: bfs, all, or a comma list of "
                                                        "col-allgatherv,row-alltoallv,row-ring,alltoall,bcast"));
  require_real_range(app.add_option("--message-bytes", o.message_bytes, "bytes per message in the simulation"), 1,
                     kMaxMessageBytes, "bytes");
  require_real_range(app.add_option("--bandwidth", o.bandwidth_gbs, "link bandwidth in GB/s (default 6.8, TofuD)"),
                     kMinBandwidthGbs, kMaxBandwidthGbs, "GB/s");
  require_real_range(app.add_option("--latency", o.latency_us, "latency in microseconds (default 0.5)"), 0,
                     kMaxLatencyMicroseconds, "microseconds");
  require_at_least(app.add_option("--max-routes", o.max_routes, "route budget per pattern before source sampling"), 1,
                   LLONG_MAX);
  require_at_least(
      app.add_option("--max-routes-alltoall", o.max_routes_alltoall, "route budget for the global alltoall"), 1,
      LLONG_MAX);
  require_unsigned(
      app.add_option("--shuffle-ranks", o.shuffle_seed,
                     "permute which rank gets which grid cell/node (seed), for testing --rankmap consumers"));
  require_non_empty(app.add_option("--link-csv", o.link_csv,
                                   "write per-link loads of the simulation (for tools/plot_link_loads.py)"));
  return simulate_opt;
}

// Rank 0 runs the job; its usage error (never an empty one) reaches every rank.
void run_on_rank0(const MapOptions& o, bool nodes_given, int rank) {
  std::string error;
  if (rank == 0) {
    try {
      run_map_job(o, nodes_given);
    } catch (const util::UsageError& e) {
      error = e.what();
      if (error.empty()) error = "bad input";
    }
  }
  util::agree_or_throw(error, MPI_COMM_WORLD);
}

int run_map(int argc, char** argv) {
  CLI::App app{
      "Topology-aware process mapping onto a 6D mesh/torus (Nakao et al. 2021, section 5.6, Kuroda et al. 2013, Method "
      "A)",
      "g500 map"};
  MapOptions o;
  add_mapping_options(app, o);
  auto* simulate_opt = add_simulation_options(app, o);
  bool quiet = false, progress = false;
  add_progress_options(app, quiet, progress);
  // The simulation's parameters would be ignored without it.
  for (const char* name : {"--message-bytes", "--bandwidth", "--latency", "--max-routes", "--max-routes-alltoall"})
    app.get_option(name)->needs(simulate_opt);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    if (rank == 0) std::printf("%s", app.help().c_str());
    return 0;
  } catch (const CLI::ParseError& e) {
    throw util::UsageError(e.what());
  }
  util::refuse_same_files(
      {{"--output", o.output, util::FileUse::kOutput}, {"--link-csv", o.link_csv, util::FileUse::kOutput}},
      MPI_COMM_WORLD);
  o.show_progress = util::progress_wanted(quiet, MPI_COMM_WORLD, progress);
  run_on_rank0(o, app.count("--nodes") > 0, rank);
  return 0;
}

const SubcommandRegistrar kRegisterMap("map", "topology-aware process mapping (6D mesh/torus) and link-load simulation",
                                       run_map);

}  // namespace
}  // namespace g500::cli
