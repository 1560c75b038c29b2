// Text of the Slurm and Fugaku (PJM) batch scripts written by `g500 jobscript`.
#include "jobs/jobscript.hpp"

#include <fmt/format.h>
#include <omp.h>

#include <charconv>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <utility>
#include <vector>

#include "graph/distribution.hpp"
#include "graph/grid.hpp"
#include "io/rankmap_file.hpp"
#include "jobs/script_text.hpp"
#include "run/plan_report.hpp"
#include "run/run_plan.hpp"
#include "run/run_setup.hpp"
#include "topo/systems.hpp"
#include "util/error.hpp"
#include "util/shell_word.hpp"

namespace g500::jobs {
namespace {

constexpr long kMaxRanks = 1L << 30;

bool is_digits(const std::string& text) {
  if (text.empty()) return false;
  for (char c : text)
    if (c < '0' || c > '9') return false;
  return true;
}

// "HH:MM:SS" with any number of hour digits, minutes and seconds below 60, not all zero.
void check_time(const std::string& text) {
  const auto first = text.find(':'), second = text.rfind(':');
  const bool ok = first != std::string::npos && second == first + 3 && second + 3 == text.size() &&
                  is_digits(text.substr(0, first)) && is_digits(text.substr(first + 1, 2)) &&
                  is_digits(text.substr(second + 1, 2)) && std::stoi(text.substr(first + 1, 2)) < 60 &&
                  std::stoi(text.substr(second + 1, 2)) < 60 && text.find_first_not_of("0:") != std::string::npos;
  if (!ok) throw util::UsageError("--time '" + text + "' is not a wall time HH:MM:SS (e.g. 01:30:00)");
}

// "A", "AxB" or "AxBxC" with positive sizes; returns the sizes.
std::vector<long> parse_node_shape(const std::string& text) {
  std::vector<long> sizes;
  std::string part;
  std::istringstream in(text);
  while (std::getline(in, part, 'x')) {
    if (!is_digits(part) || part.size() > 9 || std::stol(part) < 1) {
      sizes.clear();
      break;
    }
    sizes.push_back(std::stol(part));
  }
  if (sizes.empty() || sizes.size() > 3 || text.back() == 'x')
    throw util::UsageError("--node-shape '" + text +
                           "' is not A, AxB or AxBxC with positive sizes (Fugaku job shapes are 1D to 3D)");
  return sizes;
}

struct Resolved {
  util::GridShape grid;
  int ranks = 0;
  bool pass_grid = true;  // false: the grid comes from a rank map not readable here
  std::string threads;    // a number, or a shell expression evaluated in the job
  std::string threads_note;
};

long long fugaku_nodes() {
  long long nodes = 1;
  for (const topo::Axis& axis : topo::fugaku_system().axes) nodes *= axis.size;
  return nodes;
}

double node_memory_of(const JobSpec& spec) {
  return spec.node_memory_bytes > 0 ? spec.node_memory_bytes : spec.system == "fugaku" ? kFugakuNodeMemoryBytes : 0;
}

// The threads whose sort scratch (2 MiB each) the plan counts: the job's when the script names
// them, else (Slurm's CPUs, known only in the job) this machine's.
int plan_threads(const Resolved& r) {
  int threads = 0;
  const auto [end, error] = std::from_chars(r.threads.data(), r.threads.data() + r.threads.size(), threads);
  return error == std::errc() && end == r.threads.data() + r.threads.size() && threads > 0 ? threads
                                                                                           : omp_get_max_threads();
}

// The plan g500 bfs makes on the job's grid (run/run_plan.hpp): the grid's first process (every
// process has the same block size) and the node's memory over its ranks.
run::RunPlan job_plan(const JobSpec& spec, const Resolved& r) {
  gen::KroneckerSpec graph;
  graph.scale = spec.scale;
  run::PlanInput input;
  input.shape = graph::GraphShape{graph.nedges(), spec.scale, graph.nedges() / (r.grid.rows * r.grid.cols)};
  input.d = graph::Distribution(graph.nvertices(), r.grid.rows, r.grid.cols, 0, 0);
  input.threads = plan_threads(r);
  input.node_bytes_per_rank = node_memory_of(spec) / spec.ppn;
  return run::plan_run(input);
}

// Refuses a run that g500 bfs itself would refuse on the job's nodes, in its order: more memory
// per node than a node has (g500 bfs's estimate; skipped with force), then local ids beyond 32 bits.
void check_run_fits_nodes(const JobSpec& spec, const Resolved& r) {
  const std::string what = fmt::format("SCALE {}", spec.scale);
  const double node_bytes = node_memory_of(spec);
  if (!spec.force && node_bytes > 0) {
    const double need = job_plan(spec, r).peak_bytes() * spec.ppn;
    std::string node = spec.nodes == 1 ? "the job's node" : fmt::format("each of the job's {} nodes", spec.nodes);
    const std::string origin = spec.node_memory_bytes > 0 ? spec.node_memory_origin : "a Fugaku node";
    if (!origin.empty()) node += " (" + origin + ")";
    if (const std::string shortfall = run::memory_shortfall(what, need, node_bytes, node, false); !shortfall.empty())
      throw util::UsageError(shortfall);
  }
  gen::KroneckerSpec graph;
  graph.scale = spec.scale;
  const graph::Distribution probe(graph.nvertices(), r.grid.rows, r.grid.cols, 0, 0);
  if (const std::string overflow = run::local_id_overflow(what, probe); !overflow.empty())
    throw util::UsageError(overflow);
}

// Refuses text that could change the script's lines, before anything else is looked at (the
// rank map is read, and messages quote the values).
void check_script_text(const JobSpec& spec) {
  const std::pair<const char*, const std::string*> texts[] = {
      {"--system", &spec.system},         {"--grid", &spec.grid},
      {"--rankmap", &spec.rankmap},       {"--time", &spec.time},
      {"--node-shape", &spec.node_shape}, {"--queue", &spec.queue},
      {"--binary", &spec.binary}};
  for (const auto& [option, text] : texts) refuse_control_characters(option, *text);
  const std::string launcher = spec.system == "fugaku" ? "mpiexec" : "srun";
  refuse_leading_dash("--binary", spec.binary, launcher);
  refuse_leading_dash("--rankmap", spec.rankmap, "g500 bfs");
  if (!spec.queue.empty()) {
    if (spec.system == "fugaku")
      check_directive_name("--queue", spec.queue, "resource group name", false);
    else
      check_directive_name("--queue", spec.queue, "partition name", true);
  }
}

// `check_memory` false: everything but the memory check (for --plan, which shows it).
Resolved resolve(const JobSpec& spec, bool check_memory = true) {
  check_script_text(spec);
  if (spec.system != "slurm" && spec.system != "fugaku")
    throw util::UsageError("--system must be slurm or fugaku (got '" + spec.system + "')");
  if (spec.nodes < 1) throw util::UsageError(fmt::format("--nodes must be at least 1 (got {})", spec.nodes));
  if (spec.scale < 1 || spec.scale > gen::kMaxScale)
    throw util::UsageError(fmt::format("--scale must be between 1 and {} (got {})", gen::kMaxScale, spec.scale));
  if (spec.ppn < 1) throw util::UsageError(fmt::format("--ppn must be at least 1 (got {})", spec.ppn));
  if (spec.threads < 0) throw util::UsageError(fmt::format("--threads must be at least 1 (got {})", spec.threads));
  if (static_cast<long>(spec.nodes) * spec.ppn > kMaxRanks)
    throw util::UsageError(
        fmt::format("--nodes {} x --ppn {} is more MPI ranks than g500 supports", spec.nodes, spec.ppn));
  if (spec.eager_limit < 0)
    throw util::UsageError(fmt::format("--eager-limit must not be negative (got {})", spec.eager_limit));
  if (spec.binary.empty()) throw util::UsageError("--binary must not be empty");
  check_time(spec.time);
  if (!spec.node_shape.empty() && spec.system != "fugaku")
    throw util::UsageError("--node-shape is for --system fugaku (Slurm has no job shapes)");
  Resolved r;
  r.ranks = spec.nodes * spec.ppn;
  r.grid = spec.grid.empty() ? util::closest_factor_shape(r.ranks) : graph::parse_grid_shape(spec.grid, r.ranks);
  r.pass_grid = true;
  if (!spec.rankmap.empty()) {
    // g500 bfs takes the grid from the rank map. A map readable here is checked now (the script
    // is often written where `g500 map` ran); otherwise the run itself will check it.
    if (std::ifstream(spec.rankmap).good()) {
      util::GridShape map_grid;
      io::read_rankmap_csv(spec.rankmap, r.ranks, &map_grid.rows, &map_grid.cols);
      if (!spec.grid.empty() && (map_grid.rows != r.grid.rows || map_grid.cols != r.grid.cols))
        throw util::UsageError(fmt::format("--grid {} disagrees with the {}x{} grid of --rankmap {}", spec.grid,
                                           map_grid.rows, map_grid.cols, spec.rankmap));
      r.grid = map_grid;
    } else {
      r.pass_grid = !spec.grid.empty();
    }
  }
  if (spec.system == "fugaku") {
    if (spec.nodes > fugaku_nodes())
      throw util::UsageError(fmt::format("--nodes {} is more than Fugaku's {} nodes", spec.nodes, fugaku_nodes()));
    if (spec.ppn > kFugakuCoresPerNode)
      throw util::UsageError(
          fmt::format("--ppn {} is more ranks than a Fugaku node has cores ({})", spec.ppn, kFugakuCoresPerNode));
    const int threads = spec.threads > 0 ? spec.threads : kFugakuCoresPerNode / spec.ppn;
    if (threads * spec.ppn > kFugakuCoresPerNode)
      throw util::UsageError(fmt::format("--ppn {} x --threads {} is more than the {} cores of a Fugaku node", spec.ppn,
                                         threads, kFugakuCoresPerNode));
    r.threads = std::to_string(threads);
  } else if (spec.threads > 0) {
    r.threads = std::to_string(spec.threads);
  } else {
    r.threads = fmt::format("$(( SLURM_CPUS_ON_NODE / {} ))", spec.ppn);
    r.threads_note = "  # the node's CPUs divided among its ranks";
  }
  if (check_memory) check_run_fits_nodes(spec, r);
  return r;
}

std::string json_name(const JobSpec& spec, const char* job_id_variable) {
  return fmt::format("g500-scale{}-{}nodes-${{{}}}.json", spec.scale, spec.nodes, job_id_variable);
}

std::string g500_command(const JobSpec& spec, const Resolved& r, const std::string& threads,
                         const char* job_id_variable) {
  std::string command =
      fmt::format("{} bfs --scale {} --roots {}", util::shell_word(spec.binary), spec.scale, kGraph500Roots);
  if (r.pass_grid) command += fmt::format(" --grid {}x{}", r.grid.rows, r.grid.cols);
  command += " --threads " + threads;
  if (!spec.rankmap.empty()) command += " --rankmap " + util::shell_word(spec.rankmap);
  command += " --json " + json_name(spec, job_id_variable);
  if (spec.force) command += " --force";
  return command;
}

std::string header_comment(const JobSpec& spec, const Resolved& r, const std::string& submit) {
  const std::string grid =
      r.pass_grid ? fmt::format("as a {}x{} grid", r.grid.rows, r.grid.cols) : "on the grid of " + spec.rankmap;
  return fmt::format(
      "# Graph500 BFS (g500), SCALE {}, {} node{}, {} rank{} per node ({} MPI ranks {}), 64 validated roots.\n"
      "# Written by `g500 jobscript`; submit with: {}\n",
      spec.scale, spec.nodes, spec.nodes == 1 ? "" : "s", spec.ppn, spec.ppn == 1 ? "" : "s", r.ranks, grid, submit);
}

std::string slurm_script(const JobSpec& spec, const Resolved& r) {
  std::string s = "#!/bin/bash\n" + header_comment(spec, r, "sbatch job.sh");
  s += fmt::format("#SBATCH --job-name=g500-s{}\n", spec.scale);
  s += fmt::format("#SBATCH --nodes={}\n", spec.nodes);
  s += fmt::format("#SBATCH --ntasks-per-node={}\n", spec.ppn);
  if (spec.threads > 0) s += fmt::format("#SBATCH --cpus-per-task={}\n", spec.threads);
  s += fmt::format("#SBATCH --time={}\n", spec.time);
  if (!spec.queue.empty()) s += fmt::format("#SBATCH --partition={}\n", spec.queue);
  s += "#SBATCH --exclusive\n";
  s += fmt::format("#SBATCH --output=g500-scale{}-{}nodes-%j.out\n", spec.scale, spec.nodes);
  s += "set -euo pipefail\n\n";
  s += fmt::format("threads={}{}\n", r.threads, r.threads_note);
  s += "export OMP_NUM_THREADS=$threads OMP_PLACES=cores OMP_PROC_BIND=close OMP_WAIT_POLICY=active\n";
  s += "# Keep the bottom-up sendrecv messages Eager (Nakao et al. 2021, section 5.4): UCX and Open MPI's TCP "
       "transport.\n";
  s += fmt::format("export UCX_RNDV_THRESH={} OMPI_MCA_btl_tcp_eager_limit={}\n\n", spec.eager_limit, spec.eager_limit);
  s += fmt::format(
      "srun --nodes={} --ntasks-per-node={} --cpus-per-task=$threads --cpu-bind=cores --distribution=block:block \\\n  "
      "  ",
      spec.nodes, spec.ppn);
  s += g500_command(spec, r, "$threads", "SLURM_JOB_ID") + "\n";
  return s;
}

std::string fugaku_script(const JobSpec& spec, const Resolved& r) {
  std::string shape = spec.node_shape;
  if (shape.empty()) {
    shape = default_fugaku_node_shape(spec.nodes, spec.ppn, r.grid.rows, r.grid.cols);
  } else {
    long product = 1;
    for (long size : parse_node_shape(shape)) product *= size;
    if (product != spec.nodes)
      throw util::UsageError(fmt::format("--node-shape {} has {} nodes but --nodes is {}", shape, product, spec.nodes));
  }
  std::string s = "#!/bin/bash\n" + header_comment(spec, r, "pjsub job.sh");
  s += fmt::format("#PJM -N g500-s{}\n", spec.scale);
  s += "# Node shape: the grid's C ring along the first axis (the bottom-up sendrecv neighbours\n";
  s += "# adjacent, Nakao et al. 2021, section 5.6); torus allocation (the only one above 384 nodes).\n";
  s += fmt::format("#PJM -L \"node={}{}\"\n", shape, spec.nodes > 1 ? ":torus" : "");
  if (!spec.queue.empty()) s += fmt::format("#PJM -L \"rscgrp={}\"\n", spec.queue);
  s += fmt::format("#PJM -L \"elapse={}\"\n", spec.time);
  s += "# Boost Eco mode: 2.2 GHz, one FP pipeline (Nakao et al. 2021, section 5.5: for BFS 4-7 % faster and 27-35 % "
       "more TEPS/W than Normal)\n";
  s += "#PJM -L \"freq=2200,eco_state=2\"\n";
  s += fmt::format("#PJM --mpi \"max-proc-per-node={}\"\n", spec.ppn);
  s += "#PJM -s\n\n";
  s += fmt::format("export OMP_NUM_THREADS={} OMP_WAIT_POLICY=active\n", r.threads);
  s += "# Eager limit so every bottom-up sendrecv is Eager (Nakao et al. 2021, section 5.4 uses 512,000 bytes)\n";
  s += fmt::format("mpiexec -n {} -mca btl_tofu_eager_limit {} \\\n    ", r.ranks, spec.eager_limit);
  s += g500_command(spec, r, r.threads, "PJM_JOBID") + "\n";
  return s;
}

}  // namespace

std::string default_fugaku_node_shape(int nodes, int ppn, int grid_rows, int grid_cols) {
  // Ranks fill nodes in order (ppn consecutive ranks per node) and the grid is row-major, so a
  // grid row of C ranks spans C / ppn consecutive nodes when ppn divides C.
  if (nodes == 1) return "1";
  if (grid_cols % ppn == 0 && static_cast<long>(grid_cols / ppn) * grid_rows == nodes)
    return grid_cols / ppn == 1 ? std::to_string(grid_rows) : fmt::format("{}x{}", grid_cols / ppn, grid_rows);
  const util::GridShape fallback = util::closest_factor_shape(nodes);
  return fallback.cols == 1 ? std::to_string(fallback.rows) : fmt::format("{}x{}", fallback.rows, fallback.cols);
}

std::string job_plan_text(const JobSpec& spec) {
  const Resolved r = resolve(spec, false);
  const run::RunPlan plan = job_plan(spec, r);
  const double node_bytes = node_memory_of(spec);
  std::string text = fmt::format("SCALE {} on {} node{}, {} rank{} per node: the plan of g500 bfs\n", spec.scale,
                                 spec.nodes, spec.nodes == 1 ? "" : "s", spec.ppn, spec.ppn == 1 ? "" : "s");
  text += run::plan_parts_text(plan, "");
  constexpr double kGiB = 1024.0 * 1024 * 1024;
  text += fmt::format("peak per node: {:.1f} GiB", plan.peak_bytes() * spec.ppn / kGiB);
  if (node_bytes > 0)
    text += fmt::format(" of {:.1f} GiB ({}): {}", node_bytes / kGiB,
                        spec.node_memory_bytes > 0 ? spec.node_memory_origin : "a Fugaku node",
                        plan.peak_bytes() * spec.ppn <= node_bytes ? "fits" : "does not fit");
  text += "\n";
  // The memory is not the only limit: g500 bfs refuses the grid before any work if its ids overflow.
  gen::KroneckerSpec graph;
  graph.scale = spec.scale;
  const graph::Distribution probe(graph.nvertices(), r.grid.rows, r.grid.cols, 0, 0);
  if (const std::string overflow = run::local_id_overflow(fmt::format("SCALE {}", spec.scale), probe);
      !overflow.empty())
    text += "g500 bfs refuses this job: " + overflow + "\n";
  return text;
}

std::string make_jobscript(const JobSpec& spec) {
  const Resolved r = resolve(spec);
  return spec.system == "slurm" ? slurm_script(spec, r) : fugaku_script(spec, r);
}

}  // namespace g500::jobs
