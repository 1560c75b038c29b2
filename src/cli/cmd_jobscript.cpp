// `g500 jobscript`: prints (or writes with --output) a batch script for a Graph500-compliant
// `g500 bfs` run on a Slurm cluster or on Fugaku (PJM). The text comes from src/jobs/jobscript.
#include <cstdio>

#include "cli/options.hpp"
#include "cli/subcommand.hpp"
#include "gen/kronecker.hpp"
#include "jobs/jobscript.hpp"
#include "util/build_info.hpp"
#include "util/error.hpp"
#include "util/memory.hpp"
#include "util/output_file.hpp"
#include "util/same_file.hpp"

namespace g500::cli {
namespace {

// What the command line gives: the job, where the script goes, the node's memory and --plan.
struct JobscriptOptions {
  jobs::JobSpec spec;
  std::string output;
  double node_memory_gib = 0;
  bool plan = false;
};

void add_jobscript_options(CLI::App& app, JobscriptOptions& o) {
  jobs::JobSpec& spec = o.spec;
  app.add_option("--system", spec.system, "slurm or fugaku")->required();
  require_at_least(app.add_option("--nodes", spec.nodes, "number of nodes (for fugaku at most the machine's nodes)"), 1)
      ->required();
  require_range(app.add_option("--scale", spec.scale, "log2 of the number of vertices (1..42)"), 1, gen::kMaxScale)
      ->required();
  require_at_least(app.add_option("--ppn", spec.ppn, "MPI ranks per node (default 1)"), 1);
  add_threads_option(app, spec.threads,
                     "OpenMP threads per rank (default: Fugaku 48 / ppn; Slurm the node's CPUs / ppn, at run time)");
  require_non_empty(app.add_option("--grid", spec.grid,
                                   "process grid RxC over nodes x ppn ranks (default: R >= C, closest factors)"));
  require_non_empty(
      app.add_option("--rankmap", spec.rankmap, "a `g500 map` CSV placing the ranks on the grid (passed to g500 bfs)"));
  require_non_empty(app.add_option("--time", spec.time, "wall-time limit HH:MM:SS (default 01:00:00)"));
  require_non_empty(
      app.add_option("--node-shape", spec.node_shape, "Fugaku node shape A, AxB or AxBxC (default: from the grid)"));
  require_non_empty(app.add_option("--queue", spec.queue, "Slurm partition or Fugaku resource group"));
  // An installed g500 writes scripts that run itself; one in a build tree, the build tree's.
  if (const std::string installed = util::installed_binary(); !installed.empty()) spec.binary = installed;
  require_non_empty(
      app.add_option("--binary", spec.binary,
                     "path of g500 on the cluster (default: this g500 when it is installed, else ./build/g500)"));
  require_at_least(app.add_option("--eager-limit", spec.eager_limit,
                                  "Eager/Rendezvous switch in bytes (default 512000, Nakao et al. 2021, section 5.4)"),
                   0, LONG_MAX);
  require_real_range(app.add_option("--node-memory", o.node_memory_gib,
                                    "memory of a node in GiB, for the check that the run fits (default: Fugaku 32; "
                                    "Slurm this machine's)"),
                     kMinNodeMemoryGib, kMaxNodeMemoryGib, "GiB");
  app.add_flag(
      "--force", spec.force,
      "write the script even if g500 bfs's memory estimate exceeds a node's memory (the script then runs bfs --force)");
  auto* output_option = require_non_empty(
      app.add_option("--output", o.output, "write the script to this file (made executable) instead of stdout"));
  app.add_flag("--plan", o.plan,
               "print g500 bfs's memory plan for the job instead of the script: each part per process in GiB and per "
               "m/P, N/P, N/R or N/C, and whether the peak fits a node")
      ->excludes(output_option);
}

// The node memory the fit check uses: --node-memory, else on Slurm this machine's (Fugaku's is known).
void set_node_memory(double node_memory_gib, jobs::JobSpec& spec) {
  constexpr double kGiB = 1024.0 * 1024 * 1024;
  if (node_memory_gib > 0) {
    spec.node_memory_bytes = node_memory_gib * kGiB;
    spec.node_memory_origin = "--node-memory";
  } else if (spec.system == "slurm") {
    // The script is usually written on the cluster's login node: its memory is the best guess.
    spec.node_memory_bytes = static_cast<double>(util::physical_memory_bytes());
    spec.node_memory_origin = "taken from this machine; give --node-memory";
  }
}

// Prints the plan or the script, or writes the script to --output (executable) and says so.
int emit_jobscript(const JobscriptOptions& o) {
  const jobs::JobSpec& spec = o.spec;
  const std::string& output = o.output;
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (o.plan) {
    const std::string text = jobs::job_plan_text(spec);
    if (rank == 0) std::fputs(text.c_str(), stdout);
    return 0;
  }
  const std::string script = jobs::make_jobscript(spec);
  if (output.empty()) {
    if (rank == 0) std::fputs(script.c_str(), stdout);
    return 0;
  }
  constexpr unsigned kExecutable = 0755;
  util::OutputFile file(output, MPI_COMM_WORLD, kExecutable);
  file.write_from_rank0(script);
  if (rank == 0 && !file.is_stream()) {
    std::printf("wrote %s (%s, %d nodes, SCALE %d)\n", output.c_str(), spec.system.c_str(), spec.nodes, spec.scale);
  }
  return 0;
}

int run_jobscript_command(int argc, char** argv) {
  JobscriptOptions o;
  CLI::App app{"Write a batch script for a Graph500 BFS run (64 roots, --json) on a Slurm cluster or on Fugaku",
               "g500 jobscript"};
  add_jobscript_options(app, o);
  if (!parse_or_throw(app, argc, argv)) return 0;
  util::refuse_same_files(
      {{"--rankmap", o.spec.rankmap, util::FileUse::kInput}, {"--output", o.output, util::FileUse::kOutput}},
      MPI_COMM_WORLD);
  set_node_memory(o.node_memory_gib, o.spec);
  return emit_jobscript(o);
}

const SubcommandRegistrar registrar("jobscript", "batch script for a Graph500 run on Slurm or Fugaku (PJM)",
                                    run_jobscript_command);

}  // namespace
}  // namespace g500::cli
