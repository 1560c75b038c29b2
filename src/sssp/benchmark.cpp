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
#include "run/roots.hpp"
#include "io/vertex_output.hpp"
#include "sssp/dijkstra.hpp"
#include "validate/validate_sssp.hpp"
#include "util/agree.hpp"
#include "util/error.hpp"
#include "util/memory.hpp"
#include "util/progress.hpp"
#include "run/run_plan.hpp"
#include "run/run_setup.hpp"

namespace g500 {
namespace {

// Bytes one rank needs: the peak of the run's plan (run/run_plan.hpp). Collective (the node's ranks).
double estimated_bytes_per_rank(const SsspConfig& config, int64_t nedges, const Distribution& d) {
  PlanInput input;
  input.shape = GraphShape{nedges, 0, nedges / (static_cast<int64_t>(d.R) * d.C)};
  input.d = d;  // with the graph's N
  input.kernel = PlanKernel::kSssp;
  input.weighted = config.graph;
  input.compare_dijkstra = config.compare_dijkstra;
  input.threads = omp_get_max_threads();
  input.node_bytes_per_rank = this_node_bytes_per_rank(MPI_COMM_WORLD);
  return plan_run(input).peak_bytes();
}

bool close_to(double a, double b) { return std::fabs(a - b) <= 1e-9 * std::max(1.0, std::fabs(b)); }

// Kernel 1's view of a file's edges with their weights (the file's, or `generated`).
WeightedEdgeSource file_weighted_edge_source(const io::EdgeInput& in, const std::vector<float>& weights) {
  WeightedEdgeSource source;
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
std::vector<float> file_edge_weights(const io::EdgeInput& in, uint64_t seed, MPI_Comm world, double& max_weight_seen) {
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
  const double max_weight = static_cast<double>(std::numeric_limits<float>::max()) / static_cast<double>(std::max<int64_t>(1, in.nvertices));
  std::string error;
  for (size_t k = 0; k < in.weights.size(); ++k) {
    const std::string edge = "'" + in.spec.path + "': edge " + std::to_string(in.local_begin + static_cast<int64_t>(k) + 1);
    if (!(in.weights[k] >= 0)) {
      error = edge + " has the negative weight " + std::to_string(in.weights[k]) + "; SSSP needs weights >= 0";
      break;
    }
    if (static_cast<double>(in.weights[k]) > max_weight) {
      char text[96];
      std::snprintf(text, sizeof text, " has the weight %g; with %lld vertices SSSP needs weights <= %g", static_cast<double>(in.weights[k]),
                    static_cast<long long>(in.nvertices), max_weight);
      error = edge + text + " (float distances)";
      break;
    }
  }
  agree_or_throw(error, world);
  float largest = 0;
  for (float w : in.weights) largest = std::max(largest, w);
  MPI_Allreduce(MPI_IN_PLACE, &largest, 1, MPI_FLOAT, MPI_MAX, world);
  max_weight_seen = largest;
  return in.weights;
}

// The whole edge list with weights on rank 0 (for the serial Dijkstra of a file graph).
void gather_edges_to_rank0(const io::EdgeInput& in, const std::vector<float>& weights, MPI_Comm world,
                           const MessageLimits& limits, std::vector<gen::Edge>& all_edges, std::vector<float>& all_weights) {
  int rank = 0;
  MPI_Comm_rank(world, &rank);
  const std::vector<int64_t> counts = comm::allgather_counts(static_cast<int64_t>(in.edges.size()), world);
  int64_t total = 0;
  for (int64_t c : counts) total += c;
  if (rank == 0) {
    all_edges.resize(total);
    all_weights.resize(total);
  }
  MPI_Datatype edge_type;
  MPI_Type_contiguous(static_cast<int>(sizeof(gen::Edge)), MPI_BYTE, &edge_type);
  MPI_Type_commit(&edge_type);
  comm::gatherv(in.edges.data(), all_edges.data(), counts, edge_type, 0, world, limits);
  MPI_Type_free(&edge_type);
  comm::gatherv(weights.data(), all_weights.data(), counts, MPI_FLOAT, 0, world, limits);
}

// The benchmark's steps, in the order of run_sssp_benchmark().

void open_sssp_edges(const SsspConfig& config, MPI_Comm world, SsspEdges& edges, SsspBenchmarkResult& result) {
  int nranks = 1, rank = 0;
  MPI_Comm_size(world, &nranks);
  MPI_Comm_rank(world, &rank);
  if (config.input) {
    edges.file_weights = file_edge_weights(*config.input, config.weight_seed, world, edges.max_weight);
    result.generated_weights = !config.input->stats.weighted;
    edges.source = file_weighted_edge_source(*config.input, edges.file_weights);
  } else {
    edges.generator.emplace(config.spec);
    edges.source = kronecker_weighted_edge_source(*edges.generator, rank, nranks);
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
WeightedLocalGraph construct_graph(const SsspConfig& config, const WeightedEdgeSource& source, const ProcessGrid& grid,
                                   MPI_Comm world, SsspBenchmarkResult& result) {
  MPI_Barrier(world);
  double start = MPI_Wtime();
  Progress construction(config.progress, "kernel 1: building the graph");
  WeightedLocalGraph graph = build_weighted_local_graph(source, grid, config.graph);
  MPI_Barrier(world);
  result.construction_seconds = MPI_Wtime() - start;
  result.nvertices_computed = graph.graph.dist.nvertices;
  construction.finish();
  // Generating the edges inside kernel 1 (the slowest rank), and reading the file before it.
  MPI_Allreduce(&graph.graph.kernel1_seconds[Kernel1Steps::kGenerate], &result.generation_seconds, 1, MPI_DOUBLE,
                MPI_MAX, world);
  if (config.input) result.generation_seconds += config.input->stats.read_seconds;
  unsigned long long graph_bytes = graph.memory_bytes();
  MPI_Allreduce(MPI_IN_PLACE, &graph_bytes, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, world);
  result.graph_bytes_max_rank = graph_bytes;
  return graph;
}

// One root's timed search (the slowest rank's time) and its counters: rank 0's step times, the
// work summed over the ranks, the phase profile averaged over them.
SsspRootResult timed_root(DistributedSssp& sssp, int64_t root, int64_t reported_root, MPI_Comm world, int nranks) {
  sssp.prepare();  // outside the timer, as the reference's clean_shortest and clean_pred
  SsspRun run = sssp.run(root);
  SsspRootResult r;
  r.root = reported_root;
  MPI_Allreduce(&run.seconds, &r.seconds, 1, MPI_DOUBLE, MPI_MAX, world);
  r.buckets = run.buckets;
  r.phases = run.phases;
  r.pull_phases = run.pull_phases;
  r.light_seconds = run.light_seconds;
  r.push_seconds = run.push_seconds;
  r.pull_seconds = run.pull_seconds;
  r.parents_seconds = run.parents_seconds;
  MPI_Allreduce(&run.relaxations, &r.relaxations, 1, MPI_INT64_T, MPI_SUM, world);
  MPI_Allreduce(&run.light_relaxations, &r.light_relaxations, 1, MPI_INT64_T, MPI_SUM, world);
  MPI_Allreduce(&run.pull_scans, &r.pull_scans, 1, MPI_INT64_T, MPI_SUM, world);
  MPI_Allreduce(&run.improvements, &r.improvements, 1, MPI_INT64_T, MPI_SUM, world);
  MPI_Allreduce(run.profile.seconds.data(), r.profile.seconds.data(), static_cast<int>(r.profile.seconds.size()),
                MPI_DOUBLE, MPI_SUM, world);
  for (double& s : r.profile.seconds) s /= nranks;
  return r;
}

// The root's result validated (or, without validation, only its statistics) into r: the TEPS
// edge count, reached vertices, sum and maximum of the distances, TEPS. False when validation
// failed (result then says why). The first root's result goes to config.first_root_hook.
bool check_root(const SsspConfig& config, const WeightedLocalGraph& graph, const ProcessGrid& grid,
                DistributedSssp& sssp, int64_t root, bool first_root, SsspRootResult& r, SsspBenchmarkResult& result) {
  SsspValidation check;
  if (config.validate) {
    const double validate_start = MPI_Wtime();
    check = validate_sssp(graph, grid, root, sssp.distances(), sssp.parents());
    r.validate_seconds = MPI_Wtime() - validate_start;
    if (!check.ok) {
      result.validation_failed = true;
      result.validation_error = "validation failed for root " + std::to_string(r.root) + ": " + check.error;
      return false;
    }
    r.validated = true;
    if (first_root && config.first_root_hook)
      config.first_root_hook(graph.graph, grid, root, sssp.distances(), sssp.parents());
  } else {
    check = sssp_statistics(graph, grid, sssp.distances());
  }
  r.nedge = check.nedge;
  r.reached = check.reached;
  r.sum_dist = check.sum_dist;
  r.max_dist = check.max_dist;
  r.teps = r.seconds > 0 ? static_cast<double>(r.nedge) / r.seconds : 0;
  return true;
}

// --compare-dijkstra: rank 0 runs the serial Dijkstra from the first roots on the whole graph;
// its times, whether it agrees, and the harmonic means of both over those roots.
void compare_with_dijkstra(const SsspConfig& config, const SsspEdges& edges, const std::vector<int64_t>& roots,
                           MPI_Comm world, SsspBenchmarkResult& result) {
  int rank = 0;
  MPI_Comm_rank(world, &rank);
  const int count = std::min<int>(config.compare_dijkstra, static_cast<int>(result.roots.size()));
  std::vector<double> seconds(count, 0.0);
  std::vector<int> agrees(count, 0);
  std::vector<gen::Edge> all_edges;
  std::vector<float> all_weights;
  if (config.input) gather_edges_to_rank0(*config.input, edges.file_weights, world, config.messages, all_edges, all_weights);
  if (rank == 0) {
    omp_set_num_threads(result.threads);
    const SerialWeightedGraph serial = config.input ? build_serial_weighted_graph(config.nvertices(), all_edges, all_weights)
                                                    : build_serial_weighted_graph(*edges.generator);
    for (int k = 0; k < count; ++k) {
      const DijkstraResult d = dijkstra(serial, roots[k]);
      seconds[k] = d.seconds;
      agrees[k] = d.reached == result.roots[k].reached && close_to(d.sum_dist, result.roots[k].sum_dist) &&
                  close_to(d.max_dist, result.roots[k].max_dist);
    }
  }
  MPI_Bcast(seconds.data(), count, MPI_DOUBLE, 0, world);
  MPI_Bcast(agrees.data(), count, MPI_INT, 0, world);
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

// The energy loop (run/energy_loop.hpp) over this run's SSSP: searches prepared as the timed ones,
// not validated, their edges counted as without validation.
EnergyLoopReport sssp_energy_loop(const SsspConfig& config, const WeightedLocalGraph& graph, const ProcessGrid& grid,
                                  DistributedSssp& sssp, const std::vector<int64_t>& roots, MPI_Comm world) {
  return run_energy_loop(
      "SSSP", roots, config.energy_loop,
      [&](int64_t root, bool count_edges) {
        sssp.prepare();
        const SsspRun run = sssp.run(root);
        LoopSearch search;
        MPI_Allreduce(&run.seconds, &search.seconds, 1, MPI_DOUBLE, MPI_MAX, world);
        if (count_edges) search.nedge = sssp_statistics(graph, grid, sssp.distances()).nedge;
        return search;
      },
      config.progress, world);
}

// The warm-up, the energy loop (with --energy-loop), then every root timed and validated; a
// failed validation ends the loop.
void run_roots_of(const SsspConfig& config, const WeightedLocalGraph& graph, const ProcessGrid& grid,
                  const SsspOptions& search_options, const RunRoots& run_roots, SsspBenchmarkResult& result) {
  MPI_Comm world = grid.world();
  const int nranks = grid.size();
  const std::vector<int64_t>& roots = run_roots.roots;
  DistributedSssp sssp(graph, grid, search_options);
  if (config.warmup && !roots.empty()) {
    Progress warmup(config.progress, "SSSP warm-up");
    sssp.prepare();
    sssp.run(roots.front());
  }
  result.energy_loop = sssp_energy_loop(config, graph, grid, sssp, roots, world);
  Progress progress(config.progress, "SSSP roots", static_cast<int64_t>(roots.size()));
  for (size_t index = 0; index < roots.size(); ++index) {
    progress.update(static_cast<int64_t>(index));
    SsspRootResult r = timed_root(sssp, roots[index], run_roots.reported[index], world, nranks);
    if (config.validate) progress.update(static_cast<int64_t>(index), "validating");
    const bool ok = check_root(config, graph, grid, sssp, roots[index], index == 0, r, result);
    result.roots.push_back(std::move(r));
    if (!ok) break;
  }
  progress.finish();
}

}  // namespace

SsspPart::SsspPart(const SsspConfig& config, SsspBenchmarkResult& result) : config_(config), result_(result) {
  open_sssp_edges(config, MPI_COMM_WORLD, edges_, result);
}

SsspPart::~SsspPart() = default;

double SsspPart::bytes_per_rank(const Distribution& probe) const {
  return estimated_bytes_per_rank(config_, config_.nedges(), probe);
}

void SsspPart::build(const ProcessGrid& grid) {
  search_options_ = bucket_width_for(config_, edges_.max_weight, result_);
  graph_ = std::make_unique<WeightedLocalGraph>(build_weighted_local_graph(edges_.source, grid, config_.graph));
  MPI_Allreduce(&graph_->graph.kernel1_seconds[Kernel1Steps::kGenerate], &result_.generation_seconds, 1, MPI_DOUBLE,
                MPI_MAX, grid.world());  // its part of graph_generation (the caller adds a file's reading)
  unsigned long long graph_bytes = graph_->memory_bytes();
  MPI_Allreduce(MPI_IN_PLACE, &graph_bytes, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, grid.world());
  result_.graph_bytes_max_rank = graph_bytes;
}

void SsspPart::run_roots(const ProcessGrid& grid, const RunRoots& roots) {
  run_roots_of(config_, *graph_, grid, search_options_, roots, result_);
}

void check_declared_sssp_input(const SsspConfig& config, const io::DeclaredSize& size, bool force) {
  check_declared_graph_fits(config, size.nvertices, size.what, force, [&](const Distribution& probe) {
    return estimated_bytes_per_rank(config, size.nedges, probe);
  });
}

SsspBenchmarkResult run_sssp_benchmark(const SsspConfig& config, bool force) {
  MPI_Comm world = MPI_COMM_WORLD;
  int nranks = 1;
  MPI_Comm_size(world, &nranks);
  SsspBenchmarkResult result;
  if (!(config.sssp.delta > 0) || !std::isfinite(config.sssp.delta))
    throw UsageError("--delta must be a positive number");
  const std::unique_ptr<ProcessGrid> run_grid = start_run(
      config, force,
      [&](const Distribution& probe) { return estimated_bytes_per_rank(config, config.nedges(), probe); },
      result);
  const ProcessGrid& grid = *run_grid;
  SsspEdges edges;
  open_sssp_edges(config, world, edges, result);
  const SsspOptions search_options = bucket_width_for(config, edges.max_weight, result);
  const WeightedLocalGraph graph = construct_graph(config, edges.source, grid, world, result);

  const RunRoots run_roots = choose_run_roots(config, graph.graph, grid, "SSSP", result);
  run_roots_of(config, graph, grid, search_options, run_roots, result);
  if (config.compare_dijkstra > 0 && !result.validation_failed)
    compare_with_dijkstra(config, edges, run_roots.roots, world, result);
  unsigned long long peak = peak_rss_bytes();
  MPI_Allreduce(MPI_IN_PLACE, &peak, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, world);
  result.peak_rss_bytes_max_rank = peak;
  return result;
}

}  // namespace g500
