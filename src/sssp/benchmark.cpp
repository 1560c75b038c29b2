// The Graph500 SSSP benchmark run (Graph500 specification, kernel 3), in the steps of
// run_sssp_benchmark(): the weighted edges (generated, or a file's), kernel 1, the timed searches
// from the roots with their validation (after the energy loop when asked, run/energy_loop.hpp),
// and the optional serial Dijkstra comparison.
#include "sssp/benchmark.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <thread>

#include "comm/large_count.hpp"
#include "gen/edge_weights.hpp"
#include "io/vertex_output.hpp"
#include "run/root_loop.hpp"
#include "run/roots.hpp"
#include "run/run_plan.hpp"
#include "run/run_setup.hpp"
#include "sssp/dijkstra.hpp"
#include "util/agree.hpp"
#include "util/error.hpp"
#include "util/memory.hpp"
#include "util/progress.hpp"
#include "validate/validate_sssp.hpp"

namespace g500::sssp {
namespace {

// Bytes one rank needs: the peak of the run's plan (run/run_plan.hpp). Collective (the node's ranks).
double estimated_bytes_per_rank(const SsspConfig& config, int64_t nedges, const graph::Distribution& d,
                                const comm::Communicator& world) {
  run::PlanInput input;
  input.shape = graph::GraphShape{nedges, 0, nedges / (static_cast<int64_t>(d.R) * d.C)};
  input.d = d;  // with the graph's N
  input.kernel = run::PlanKernel::kSssp;
  input.weighted = config.graph;
  input.compare_dijkstra = config.compare_dijkstra;
  input.threads = omp_get_max_threads();
  input.node_bytes_per_rank = run::this_node_bytes_per_rank(world.mpi());
  return run::plan_run(input).peak_bytes();
}

bool close_to(double a, double b) { return std::fabs(a - b) <= 1e-9 * std::max(1.0, std::fabs(b)); }

// Kernel 1's view of a file's edges with their weights (the file's, or `generated`).
graph::WeightedEdgeSource file_weighted_edge_source(const io::EdgeInput& in, const std::vector<float>& weights) {
  graph::WeightedEdgeSource source;
  source.edges = in.edge_source();
  const gen::Edge* edges = in.edges.data();
  const float* w = weights.data();
  source.read = [edges, w](int64_t offset, int64_t count, gen::Edge* out, float* out_weights) {
    std::copy(edges + offset, edges + offset + count, out);
    std::copy(w + offset, w + offset + count, out_weights);
  };
  return source;
}

// The weights of this rank's edges: the file's, checked to be >= 0 and small enough for float
// distances (collective; one error for the first bad weight in file order), or generated when the
// file has none. `max_weight`: a bound of every rank's weights.
std::vector<float> file_edge_weights(const io::EdgeInput& in, uint64_t seed, const comm::Communicator& world,
                                     double& max_weight_seen) {
  std::vector<float> weights;
  max_weight_seen = gen::kGeneratedWeightBound;
  if (!in.stats.weighted) {  // (not weights.empty(): a rank may have no edges)
    weights.resize(in.edges.size());
    for (size_t k = 0; k < weights.size(); ++k)
      weights[k] = gen::generated_edge_weight(seed, in.local_begin + static_cast<int64_t>(k));
    return weights;
  }
  // Distances are float sums of at most n - 1 weights: below FLT_MAX / n each, none overflows to
  // infinity, which would read as unreached.
  const double max_weight =
      static_cast<double>(std::numeric_limits<float>::max()) / static_cast<double>(std::max<int64_t>(1, in.nvertices));
  std::string error;
  for (size_t k = 0; k < in.weights.size(); ++k) {
    const std::string edge =
        "'" + in.spec.path + "': edge " + std::to_string(in.local_begin + static_cast<int64_t>(k) + 1);
    if (!(in.weights[k] >= 0)) {
      error = edge + " has the negative weight " + std::to_string(in.weights[k]) + "; SSSP needs weights >= 0";
      break;
    }
    if (static_cast<double>(in.weights[k]) > max_weight) {
      char text[96];
      std::snprintf(text, sizeof text, " has the weight %g; with %lld vertices SSSP needs weights <= %g",
                    static_cast<double>(in.weights[k]), static_cast<long long>(in.nvertices), max_weight);
      error = edge + text + " (float distances)";
      break;
    }
  }
  util::agree_or_throw(error, world.mpi());
  float largest = 0;
  for (float w : in.weights) largest = std::max(largest, w);
  max_weight_seen = world.max(largest);
  return in.weights;
}

// The whole edge list with weights on rank 0 (for the serial Dijkstra of a file graph).
void gather_edges_to_rank0(const io::EdgeInput& in, const std::vector<float>& weights, const comm::Communicator& world,
                           std::vector<gen::Edge>& all_edges, std::vector<float>& all_weights) {
  const std::vector<int64_t> counts = world.allgather(static_cast<int64_t>(in.edges.size()));
  int64_t total = 0;
  for (int64_t c : counts) total += c;
  if (world.rank() == 0) {
    all_edges.resize(total);
    all_weights.resize(total);
  }
  MPI_Datatype edge_type;
  MPI_Type_contiguous(static_cast<int>(sizeof(gen::Edge)), MPI_BYTE, &edge_type);
  MPI_Type_commit(&edge_type);
  comm::gatherv(in.edges.data(), all_edges.data(), counts, edge_type, 0, world.mpi(), world.limits());
  MPI_Type_free(&edge_type);
  comm::gatherv(weights.data(), all_weights.data(), counts, MPI_FLOAT, 0, world.mpi(), world.limits());
}

// The benchmark's steps, in the order of run_sssp_benchmark().

void open_sssp_edges(const SsspConfig& config, const comm::Communicator& world, SsspEdges& edges,
                     SsspBenchmarkResult& result) {
  if (config.input) {
    edges.file_weights = file_edge_weights(*config.input, config.weight_seed, world, edges.max_weight);
    result.generated_weights = !config.input->stats.weighted;
    edges.source = file_weighted_edge_source(*config.input, edges.file_weights);
  } else {
    edges.generator.emplace(config.spec);
    edges.source = graph::kronecker_weighted_edge_source(*edges.generator, world.rank(), world.size());
  }
}

// The search's options with delta raised, when needed, so that every distance the graph can
// have gets a sub-bucket index (the result records both widths).
SsspOptions bucket_width_for(const SsspConfig& config, double max_weight, SsspBenchmarkResult& result) {
  SsspOptions options = config.sssp;
  const double least = least_bucket_width(config.nvertices(), max_weight, options.sub_buckets);
  if (options.delta < least) {
    result.delta_raised_from = options.delta;
    result.delta_max_weight = max_weight;
    options.delta = least;
  }
  result.delta = options.delta;
  return options;
}

// Kernel 1, timed between barriers, and the largest rank's graph memory.
graph::WeightedLocalGraph construct_graph(const SsspConfig& config, const graph::WeightedEdgeSource& source,
                                          const graph::ProcessGrid& grid, const comm::Communicator& world,
                                          SsspBenchmarkResult& result) {
  world.barrier();
  double start = MPI_Wtime();
  util::Progress construction(config.progress, "kernel 1: building the graph");
  graph::WeightedLocalGraph graph = graph::build_weighted_local_graph(
      source, grid, config.graph, [&](int64_t done, int64_t passes, const char* step) {
        if (passes > 0) construction.set_total(passes);
        construction.update(done, step);
      });
  world.barrier();
  result.construction_seconds = MPI_Wtime() - start;
  result.nvertices_computed = graph.graph.dist.nvertices;
  construction.finish();
  // Generating the edges inside kernel 1 (the slowest rank), and reading the file before it.
  result.generation_seconds = world.max(graph.graph.kernel1_seconds[graph::Kernel1Steps::kGenerate]);
  if (config.input) result.generation_seconds += config.input->stats.read_seconds;
  result.graph_bytes_max_rank = world.max(graph.memory_bytes());
  return graph;
}

// --compare-dijkstra: rank 0 runs the serial Dijkstra from the first roots on the whole graph;
// its times, whether it agrees, and the harmonic means of both over those roots.
void compare_with_dijkstra(const SsspConfig& config, const SsspEdges& edges, const std::vector<int64_t>& roots,
                           const comm::Communicator& world, SsspBenchmarkResult& result) {
  const int rank = world.rank();
  const int count = std::min<int>(config.compare_dijkstra, static_cast<int>(result.roots.size()));
  std::vector<double> seconds(count, 0.0);
  std::vector<int> agrees(count, 0);
  std::vector<gen::Edge> all_edges;
  std::vector<float> all_weights;
  if (config.input) gather_edges_to_rank0(*config.input, edges.file_weights, world, all_edges, all_weights);
  if (rank == 0) {
    omp_set_num_threads(result.threads);
    const SerialWeightedGraph serial = config.input
                                           ? build_serial_weighted_graph(config.nvertices(), all_edges, all_weights)
                                           : build_serial_weighted_graph(*edges.generator);
    for (int k = 0; k < count; ++k) {
      const DijkstraResult d = dijkstra(serial, roots[k]);
      seconds[k] = d.seconds;
      agrees[k] = d.reached == result.roots[k].reached && close_to(d.sum_dist, result.roots[k].sum_dist) &&
                  close_to(d.max_dist, result.roots[k].max_dist);
    }
  }
  world.broadcast(seconds, 0);
  world.broadcast(agrees, 0);
  double dijkstra_per_edge = 0, sssp_per_edge = 0;
  for (int k = 0; k < count; ++k) {
    auto& r = result.roots[k];
    r.dijkstra_seconds = seconds[k];
    r.dijkstra_agrees = agrees[k] != 0;
    result.dijkstra_agrees = result.dijkstra_agrees && r.dijkstra_agrees;
    dijkstra_per_edge += seconds[k] / static_cast<double>(r.nedge);
    sssp_per_edge += r.seconds / static_cast<double>(r.nedge);
  }
  result.dijkstra_roots = count;
  if (count > 0 && dijkstra_per_edge > 0 && sssp_per_edge > 0) {
    result.dijkstra_harmonic_teps = count / dijkstra_per_edge;
    result.sssp_harmonic_teps_same_roots = count / sssp_per_edge;
    result.dijkstra_speedup = dijkstra_per_edge / sssp_per_edge;
  }
}

// The SSSP as the root loop's kernel (run/root_loop.hpp).
struct SsspRootKernel {
  using Run = SsspRun;
  using Result = SsspRootResult;
  const SsspConfig& config;
  const graph::WeightedLocalGraph& graph;
  const graph::ProcessGrid& grid;
  const comm::Communicator& world;
  DistributedSssp& sssp;

  void prepare() { sssp.prepare(); }  // outside the timer, as the reference's clean_shortest and clean_pred
  SsspRun search(int64_t root) { return sssp.run(root); }

  // The slowest rank's time and the counters: rank 0's step times, the work summed over the
  // ranks, the phase profile averaged over them.
  SsspRootResult collect(const SsspRun& run) {
    SsspRootResult r;
    r.seconds = world.max(run.seconds);
    r.buckets = run.buckets;
    r.phases = run.phases;
    r.pull_phases = run.pull_phases;
    r.light_seconds = run.light_seconds;
    r.push_seconds = run.push_seconds;
    r.pull_seconds = run.pull_seconds;
    r.parents_seconds = run.parents_seconds;
    r.relaxations = world.sum(run.relaxations);
    r.light_relaxations = world.sum(run.light_relaxations);
    r.pull_scans = world.sum(run.pull_scans);
    r.improvements = world.sum(run.improvements);
    r.profile.seconds = run.profile.seconds;
    world.sum_in_place(r.profile.seconds);
    const int nranks = world.size();
    for (double& s : r.profile.seconds) s /= nranks;
    return r;
  }

  int64_t count_edges() { return validate::sssp_statistics(graph, grid, sssp.distances()).nedge; }

  // The result validated (or, without validation, only its statistics) into r: the TEPS edge
  // count, reached vertices, sum and maximum of the distances.
  std::string check(int64_t root, SsspRootResult& r) {
    validate::SsspValidation check;
    if (config.validate) {
      const double validate_start = MPI_Wtime();
      check = validate::validate_sssp(graph, grid, root, sssp.distances(), sssp.parents());
      r.validate_seconds = MPI_Wtime() - validate_start;
      if (!check.ok) return "validation failed for root " + std::to_string(r.root) + ": " + check.error;
      r.validated = true;
    } else {
      check = validate::sssp_statistics(graph, grid, sssp.distances());
    }
    r.nedge = check.nedge;
    r.reached = check.reached;
    r.sum_dist = check.sum_dist;
    r.max_dist = check.max_dist;
    return {};
  }

  // The result files are of a validated search only.
  void after_first_root(int64_t root) {
    if (config.validate && config.first_root_hook)
      config.first_root_hook(graph.graph, grid, root, sssp.distances(), sssp.parents());
  }
};

// The warm-up, the energy loop (with --energy-loop), then every root timed and validated; a
// failed validation ends the loop.
void run_roots_of(const SsspConfig& config, const graph::WeightedLocalGraph& graph, const graph::ProcessGrid& grid,
                  const SsspOptions& search_options, const run::RunRoots& run_roots, SsspBenchmarkResult& result) {
  const comm::Communicator world(grid.world());
  DistributedSssp sssp(graph, grid, search_options);
  SsspRootKernel kernel{config, graph, grid, world, sssp};
  result.energy_loop = run::run_root_loop(kernel, "SSSP", config, run_roots, world, result.roots, result);
}

}  // namespace

SsspPart::SsspPart(const SsspConfig& config, const comm::Communicator& world, SsspBenchmarkResult& result)
    : config_(config), world_(world), result_(result) {
  open_sssp_edges(config, world, edges_, result);
}

SsspPart::~SsspPart() = default;

double SsspPart::bytes_per_rank(const graph::Distribution& probe) const {
  return estimated_bytes_per_rank(config_, config_.nedges(), probe, world_);
}

void SsspPart::build(const graph::ProcessGrid& grid) {
  search_options_ = bucket_width_for(config_, edges_.max_weight, result_);
  graph_ = std::make_unique<graph::WeightedLocalGraph>(
      graph::build_weighted_local_graph(edges_.source, grid, config_.graph));
  const comm::Communicator ranks(grid.world());
  // Its part of graph_generation (the caller adds a file's reading).
  result_.generation_seconds = ranks.max(graph_->graph.kernel1_seconds[graph::Kernel1Steps::kGenerate]);
  result_.graph_bytes_max_rank = ranks.max(graph_->memory_bytes());
}

void SsspPart::run_roots(const graph::ProcessGrid& grid, const run::RunRoots& roots) {
  run_roots_of(config_, *graph_, grid, search_options_, roots, result_);
}

void check_declared_sssp_input(const SsspConfig& config, const io::DeclaredSize& size,
                               const comm::Communicator& world) {
  run::check_declared_graph_fits(config, world, size.nvertices, size.what, [&](const graph::Distribution& probe) {
    return estimated_bytes_per_rank(config, size.nedges, probe, world);
  });
}

SsspBenchmarkResult run_sssp_benchmark(const SsspConfig& config, const comm::Communicator& world) {
  SsspBenchmarkResult result;
  if (!(config.sssp.delta > 0) || !std::isfinite(config.sssp.delta))
    throw util::UsageError("--delta must be a positive number");
  const std::unique_ptr<graph::ProcessGrid> run_grid = run::start_run(
      config, world,
      [&](const graph::Distribution& probe) { return estimated_bytes_per_rank(config, config.nedges(), probe, world); },
      result);
  const graph::ProcessGrid& grid = *run_grid;
  SsspEdges edges;
  open_sssp_edges(config, world, edges, result);
  const SsspOptions search_options = bucket_width_for(config, edges.max_weight, result);
  const graph::WeightedLocalGraph graph = construct_graph(config, edges.source, grid, world, result);

  const run::RunRoots run_roots = run::choose_run_roots(config, graph.graph, grid, "SSSP", result);
  run_roots_of(config, graph, grid, search_options, run_roots, result);
  if (config.compare_dijkstra > 0 && !result.validation_failed)
    compare_with_dijkstra(config, edges, run_roots.roots, world, result);
  result.peak_rss_bytes_max_rank = run::peak_rss_max_rank(world);
  return result;
}

}  // namespace g500::sssp
