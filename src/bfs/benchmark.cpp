// The Graph500 BFS benchmark run (specification sections on kernels 1 and 2): build the graph
// (timed, with its memory), choose the roots by the reference rule, one untimed warm-up search,
// the energy loop when asked (run/energy_loop.hpp), then per root a timed BFS, its validation and its TEPS; the result
// block's inputs and the phase profile come out in BenchmarkResult.
#include "bfs/benchmark.hpp"

#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <memory>
#include <thread>

#include "run/root_loop.hpp"
#include "run/roots.hpp"
#include "run/run_setup.hpp"
#include "util/agree.hpp"
#include "util/error.hpp"
#include "util/memory.hpp"
#include "util/progress.hpp"
#include "validate/edge_check.hpp"
#include "validate/tree_depths.hpp"
#include "validate/validate_bfs.hpp"

namespace g500::bfs {

run::PlanInput bfs_plan_input(const BenchmarkConfig& config, const graph::GraphShape& shape,
                              const graph::Distribution& probe, const comm::Communicator& world) {
  run::PlanInput input;
  input.shape = shape;
  input.d = probe;
  input.kernel = run::PlanKernel::kBfs;
  input.graph = config.graph;
  input.packed_rows = config.packed_rows;
  input.level_buffers = config.level_buffers;
  input.threads = omp_get_max_threads();
  input.node_bytes_per_rank = run::this_node_bytes_per_rank(world.mpi());
  return input;
}

namespace {

int64_t teps_edge_count(const graph::LocalGraph& graph, const std::vector<int64_t>& parents, MPI_Comm comm) {
  int64_t sum = 0;
  const int64_t n = static_cast<int64_t>(parents.size());
#pragma omp parallel for schedule(static) reduction(+ : sum)
  // Masked rather than branched: reached and unreached vertices alternate at random.
  for (int64_t k = 0; k < n; ++k) sum += graph.owned_degree[k] & ~(parents[k] >> 63);
  return comm::Communicator(comm).sum(sum) / 2;
}

}  // namespace

const std::vector<std::string>& switchable_techniques() {
  static const std::vector<std::string> names{"bcsr",         "reorder",       "yoo",     "degree-sort", "lb-topdown",
                                              "bu-alltoallv", "sparse-switch", "overlap", "packed-rows", "mirror"};
  return names;
}

std::string switchable_list() {
  std::string list;
  for (const std::string& name : switchable_techniques()) list += (list.empty() ? "" : ", ") + name;
  return list;
}

void apply_disabled_techniques(const std::string& list, BenchmarkConfig& config) {
  size_t start = 0;
  while (start <= list.size()) {
    const size_t comma = list.find(',', start);
    const std::string name = list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    start = comma == std::string::npos ? list.size() + 1 : comma + 1;
    if (name.empty()) continue;
    if (name == "bcsr")
      config.graph.bcsr = false;
    else if (name == "reorder")
      config.graph.reorder = false;
    else if (name == "yoo")
      config.graph.layout = graph::Layout::kRowMajor;
    else if (name == "degree-sort")
      config.graph.degree_sort = false;
    else if (name == "bu-alltoallv")
      config.bfs.bu_alltoallv = false;
    else if (name == "lb-topdown")
      config.bfs.lb_topdown = false;
    else if (name == "sparse-switch")
      config.bfs.sparse_switch = false;
    else if (name == "overlap")
      config.bfs.overlap = false;
    else if (name == "packed-rows")
      config.packed_rows = run::PackedRowsChoice::kOff;
    else if (name == "mirror")
      config.graph.mirror = false;
    else
      throw util::UsageError("--disable: unknown technique '" + name + "' (switchable: " + switchable_list() + ")");
    config.disabled.push_back(name);
  }
}

void check_declared_bfs_input(const BenchmarkConfig& config, const io::DeclaredSize& size,
                              const comm::Communicator& world) {
  run::check_declared_graph_fits(config, world, size.nvertices, size.what, [&](const graph::Distribution& probe) {
    const graph::GraphShape shape{size.nedges, 0, size.nedges / (probe.R * probe.C)};
    return run::agree_run_plan(bfs_plan_input(config, shape, probe, world), world.mpi()).peak_bytes();
  });
}

namespace {

// The input edges: kernel 1 reads them, and the validator reads them again for every root, so
// the source (and the generator behind it) lives as long as the run.
struct InputEdges {
  std::unique_ptr<gen::KroneckerGenerator> generator;  // null for file input
  graph::EdgeSource source;
};

InputEdges open_input_edges(const BenchmarkConfig& config, const comm::Communicator& world) {
  InputEdges in;
  if (config.input) {
    in.source = config.input->edge_source();
  } else {
    in.generator = std::make_unique<gen::KroneckerGenerator>(config.spec);
    in.source = graph::kronecker_edge_source(*in.generator, world.rank(), world.size());
  }
  return in;
}

// Kernel 1, timed as the specification asks (generation or reading included), with the graph's
// memory per array on the largest rank (Nakao et al. 2021, Table 2).
graph::LocalGraph build_timed_graph(const BenchmarkConfig& config, const graph::EdgeSource& source,
                                    const graph::ProcessGrid& grid, BenchmarkResult& result) {
  const comm::Communicator world(grid.world());
  world.barrier();
  const double start = MPI_Wtime();
  util::Progress construction(config.progress, "kernel 1: building the graph");
  graph::LocalGraph graph =
      graph::build_local_graph(source, grid, config.graph, [&](int64_t done, int64_t passes, const char* step) {
        if (passes > 0) construction.set_total(passes);
        construction.update(done, step);
      });
  if (config.second) config.second->build(grid);
  world.barrier();
  result.construction_seconds = MPI_Wtime() - start;
  result.nvertices_computed = graph.dist.nvertices;
  graph::Kernel1Steps& slowest = result.kernel1_seconds_max_rank;
  slowest = graph.kernel1_seconds;
  world.max_in_place(slowest.seconds);
  result.generation_seconds = slowest[graph::Kernel1Steps::kGenerate];
  if (config.input) result.generation_seconds += config.input->stats.read_seconds;  // reading the file
  construction.finish();
  // Kernel 1's peak, then the search's and validation's from here on.
  result.kernel1_peak_rss_bytes_max_rank = world.max(util::peak_rss_bytes());
  if (!world.all(util::reset_peak_rss())) result.kernel1_peak_rss_bytes_max_rank = 0;
  result.graph_bytes_max_rank = world.max(graph.memory_bytes());
  result.kernel1_passes = graph.kernel1_passes;  // the same on every rank
  const graph::RowIndex::Memory m = graph.rows.memory();
  const graph::PackedRows& packed = graph.packed;
  const size_t first_neighbor_bytes =
      graph.first_neighbors.memory_bytes() + graph.first_neighbors_original.memory_bytes();
  unsigned long long sizes[] = {m.row_starts,
                                m.bitmap,
                                m.offsets,
                                m.plain_csr_row_starts,
                                graph.neighbors.size() * sizeof(graph::LocalId),
                                packed.bytes.size(),
                                packed.directory_bytes(),
                                packed.key_table_bytes(),
                                packed.active() ? first_neighbor_bytes : 0,
                                static_cast<size_t>(graph.local_edges()) * sizeof(graph::LocalId),
                                packed.short_row_bytes()};
  world.max_in_place(sizes);
  // bitmap and offset hold the buckets' counts and the rows' offsets where some rank keeps its rows in buckets
  result.row_index_max_rank = graph::RowIndex::Memory{sizes[0], sizes[1], sizes[2], sizes[3], world.any(m.bucketed)};
  result.neighbors_bytes_max_rank = sizes[4];
  result.packed_max_rank =
      BenchmarkResult::PackedMemory{packed.active(), sizes[5], sizes[6], sizes[7], sizes[8], sizes[9], sizes[10]};
  return graph;
}

// Validates the search from `root` against the input edges into r (its TEPS edge count and depth
// hash); returns "" or why the result is invalid.
std::string validate_root(const graph::LocalGraph& graph, const graph::EdgeSource& edges,
                          const graph::ProcessGrid& grid, int64_t root, const std::vector<int64_t>& parents,
                          RootResult& r) {
  const double validate_start = MPI_Wtime();
  const validate::ValidationResult check = validate::validate_bfs(graph, edges, grid, root, parents);
  r.validate_seconds = MPI_Wtime() - validate_start;
  if (!check.ok) return "validation failed for root " + std::to_string(root) + ": " + check.error;
  if (check.level_sizes != r.level_sizes || check.reached != r.reached)
    return "validation failed for root " + std::to_string(root) +
           ": the BFS level sizes differ from the depths of its tree";
  r.validated = true;
  r.nedge = check.nedge;
  r.depth_hash = check.depth_hash;
  return {};
}

// What Table 3's formulas need to know of this run (comm/table3.hpp).
comm::table3::Model volume_model(const BenchmarkConfig& config, const graph::LocalGraph& graph,
                                 const graph::ProcessGrid& grid) {
  comm::table3::Model model;
  model.n = config.nvertices();
  model.m = config.nedges();
  model.R = graph.dist.R;
  model.C = graph.dist.C;
  model.vertices_with_edges = run::global_vertices_with_edges(graph, grid.world());
  model.sparse_switch = config.bfs.sparse_switch;
  model.pairs_by_alltoallv = config.bfs.bu_alltoallv;
  return model;
}

// Collective: a run's time (the slowest rank's), levels, time per phase (mean over ranks) and
// bytes sent (sum over ranks), with Table 3's bytes beside them.
RootResult collect_run(BfsRun& run, const comm::table3::Model& model, const comm::Communicator& world) {
  const int nranks = world.size();
  RootResult r;
  r.seconds = world.max(run.seconds);
  r.level_sizes = run.level_sizes;
  for (int64_t size : run.level_sizes) r.reached += size;
  r.profile.seconds = run.profile.seconds;
  world.sum_in_place(r.profile.seconds);
  for (double& s : r.profile.seconds) s /= nranks;
  sum_level_bytes(run.levels, world.mpi());
  for (const LevelTrace& level : run.levels) util::add_bytes(r.profile.bytes_sent, level.bytes_sent);
  r.volumes = run_volumes(run.levels, r.level_sizes, model);
  r.levels = std::move(run.levels);
  return r;
}

// The BFS as the root loop's kernel (run/root_loop.hpp).
struct BfsRootKernel {
  using Run = BfsRun;
  using Result = RootResult;
  const BenchmarkConfig& config;
  const graph::LocalGraph& graph;
  const graph::EdgeSource& edges;
  const graph::ProcessGrid& grid;
  const comm::table3::Model& model;
  const comm::Communicator& world;
  DistributedBfs& bfs;

  void prepare() { bfs.prepare(); }
  BfsRun search(int64_t root) { return bfs.run(root); }
  RootResult collect(BfsRun& run) { return collect_run(run, model, world); }
  int64_t count_edges() { return teps_edge_count(graph, bfs.parents(), world.mpi()); }
  std::string check(int64_t root, RootResult& r) {
    if (config.validate) {
      bfs.release_level_buffers();  // the validation's memory, not beside the search's (the run's plan)
      return validate_root(graph, edges, grid, root, bfs.parents(), r);
    }
    r.nedge = count_edges();
    return {};
  }
  void after_first_root(int64_t root) {
    if (config.first_root_hook) config.first_root_hook(graph, grid, root, bfs.parents());
  }
};

}  // namespace

BenchmarkResult run_bfs_benchmark(const BenchmarkConfig& given, const comm::Communicator& world) {
  BenchmarkResult result;
  BenchmarkConfig config = given;  // with the plan's row format and kernel 1 passes (made once, on every rank)
  run::RunPlan plan;
  const std::unique_ptr<graph::ProcessGrid> run_grid = run::start_run(
      config, world,
      [&](const graph::Distribution& probe) {
        const graph::GraphShape shape{config.nedges(), config.input ? 0 : config.spec.scale,
                                      config.nedges() / (probe.R * probe.C)};
        plan = run::agree_run_plan(bfs_plan_input(given, shape, probe, world), world.mpi());
        config.graph.packed_rows = plan.packed_rows;
        config.graph.passes = plan.passes;
        config.bfs.level_buffers_by_direction = plan.level_buffers_by_direction;
        // Both kernels' graphs and arrays at once, the runtime counted once.
        return plan.peak_bytes() +
               (config.second ? config.second->bytes_per_rank(probe) - run::kRuntimeBytesPerRank : 0);
      },
      result);
  const graph::ProcessGrid& grid = *run_grid;
  double estimated_parts[] = {plan.kernel1_bytes(), plan.search_bytes()};
  world.max_in_place(estimated_parts);
  result.estimated_kernel1_bytes_max_rank = estimated_parts[0];
  result.estimated_search_bytes_max_rank = estimated_parts[1];
  result.level_buffers_by_direction = plan.level_buffers_by_direction;
  const InputEdges input = open_input_edges(config, world);
  const graph::LocalGraph graph = build_timed_graph(config, input.source, grid, result);

  const run::RunRoots run_roots = run::choose_run_roots(config, graph, grid, "BFS", result);
  DistributedBfs bfs(graph, grid, config.bfs);
  result.volume_model = volume_model(config, graph, grid);
  BfsRootKernel kernel{config, graph, input.source, grid, result.volume_model, world, bfs};
  result.energy_loop =
      run::run_root_loop(kernel, "BFS", config, run_roots, world, result.roots, result, &result.energy);
  if (config.second && !result.validation_failed) config.second->run_roots(grid, run_roots);
  size_t peak = run::peak_rss_max_rank(world);
  if (result.kernel1_peak_rss_bytes_max_rank > 0) {  // restarted after kernel 1: this is the search's
    result.search_peak_rss_bytes_max_rank = peak;
    peak = std::max(peak, result.kernel1_peak_rss_bytes_max_rank);
  }
  result.peak_rss_bytes_max_rank = peak;
  return result;
}

}  // namespace g500::bfs
