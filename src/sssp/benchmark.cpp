#include "sssp/benchmark.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <thread>

#include "graph/roots.hpp"
#include "sssp/dijkstra.hpp"
#include "sssp/validate_sssp.hpp"
#include "util/agree.hpp"
#include "util/error.hpp"
#include "util/memory.hpp"

namespace g500 {
namespace {

int choose_threads(int requested, MPI_Comm comm) {
  if (requested > 0) return requested;
  const int local_ranks = ranks_on_this_node(comm);
  const int procs = omp_get_num_procs();
  const int hardware = static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));
  return procs >= hardware ? std::max(1, hardware / local_ranks) : std::max(1, procs);
}

// Bytes one rank needs: the weighted graph, kernel 1's chunk buffers, the candidate exchange,
// the SSSP and validation arrays (and the whole serial graph on rank 0 with --compare-dijkstra).
double estimated_bytes_per_rank(const SsspConfig& config, const Distribution& d) {
  const double ranks = static_cast<double>(d.R) * d.C;
  const double entries = 2.0 * static_cast<double>(config.spec.nedges()) / ranks;
  const double rows = static_cast<double>(d.row_set_size()), cols = static_cast<double>(d.col_set_size());
  const double graph = entries * (sizeof(LocalId) + sizeof(float)) + rows * 2 * sizeof(int64_t) + d.block * 8.0;
  const double exchange = entries * 3 * sizeof(uint64_t) / 4;  // candidates of a large phase
  const double arrays = cols * 8.0 + rows * 16.0 + cols * 8.0 + d.block * 32.0;
  double serial = 0;
  if (config.compare_dijkstra > 0) {
    const double m = static_cast<double>(config.spec.nedges()), n = static_cast<double>(config.spec.nvertices());
    serial = m * (sizeof(gen::Edge) + sizeof(float)) + 2 * m * 8 + n * 40;
  }
  const double fixed = 512.0 * 1024 * 1024;
  return graph + exchange + arrays + serial + fixed;
}

std::string format_gib(double bytes) {
  char text[64];
  std::snprintf(text, sizeof text, "%.1f GiB", bytes / (1024.0 * 1024.0 * 1024.0));
  return text;
}

bool close_to(double a, double b) { return std::fabs(a - b) <= 1e-9 * std::max(1.0, std::fabs(b)); }

}  // namespace

SsspBenchmarkResult run_sssp_benchmark(const SsspConfig& config, bool force) {
  MPI_Comm world = MPI_COMM_WORLD;
  int nranks = 1, rank = 0;
  MPI_Comm_size(world, &nranks);
  MPI_Comm_rank(world, &rank);
  SsspBenchmarkResult result;
  if (!(config.sssp.delta > 0) || !std::isfinite(config.sssp.delta))
    throw UsageError("--delta must be a positive number");
  const GridShape shape = config.grid_text.empty() ? default_grid_shape(nranks) : parse_grid_shape(config.grid_text, nranks);
  ProcessGrid grid(world, shape);
  result.ranks = nranks;
  result.grid_rows = shape.rows;
  result.grid_cols = shape.cols;
  result.threads = choose_threads(config.threads, world);
  omp_set_num_threads(result.threads);

  const Distribution probe(config.spec.nvertices(), shape.rows, shape.cols, grid.row(), grid.col());
  {
    const double need = estimated_bytes_per_rank(config, probe) * ranks_on_this_node(world);
    const double have = static_cast<double>(physical_memory_bytes());
    std::string error;
    if (!force && have > 0 && need > have)
      error = "SCALE " + std::to_string(config.spec.scale) + " needs about " + format_gib(need) +
              " on this node but it has " + format_gib(have) + " (use more nodes, a smaller SCALE, or --force)";
    agree_or_throw(error, world);
  }
  if (!probe.ids_fit_32_bits())
    throw UsageError("SCALE " + std::to_string(config.spec.scale) + " on a " + std::to_string(shape.rows) + "x" +
                     std::to_string(shape.cols) + " grid needs more than 2^32 vertices per grid row or column; use more ranks");

  gen::KroneckerGenerator generator(config.spec);
  WeightedEdgeSource source = kronecker_weighted_edge_source(generator, rank, nranks);
  result.input_edges = config.spec.nedges();

  MPI_Barrier(world);
  double start = MPI_Wtime();
  WeightedLocalGraph graph = build_weighted_local_graph(source, grid);
  MPI_Barrier(world);
  result.construction_seconds = MPI_Wtime() - start;
  unsigned long long graph_bytes = graph.memory_bytes();
  MPI_Allreduce(MPI_IN_PLACE, &graph_bytes, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, world);
  result.graph_bytes_max_rank = graph_bytes;

  const std::vector<int64_t> roots = choose_roots(config.spec, config.nroots, graph.graph, grid);
  DistributedSssp sssp(graph, grid, config.sssp);
  if (config.warmup && !roots.empty()) sssp.run(roots.front());

  for (int64_t root : roots) {
    SsspRun run = sssp.run(root);
    SsspRootResult r;
    r.root = root;
    MPI_Allreduce(&run.seconds, &r.seconds, 1, MPI_DOUBLE, MPI_MAX, world);
    r.buckets = run.buckets;
    r.phases = run.phases;
    r.pull_phases = run.pull_phases;
    MPI_Allreduce(&run.relaxations, &r.relaxations, 1, MPI_INT64_T, MPI_SUM, world);
    MPI_Allreduce(run.profile.seconds.data(), r.profile.seconds.data(), static_cast<int>(r.profile.seconds.size()),
                  MPI_DOUBLE, MPI_SUM, world);
    for (double& s : r.profile.seconds) s /= nranks;
    SsspValidation check;
    if (config.validate) {
      const double validate_start = MPI_Wtime();
      check = validate_sssp(graph, grid, root, sssp.distances(), sssp.parents());
      r.validate_seconds = MPI_Wtime() - validate_start;
      if (!check.ok) {
        result.validation_failed = true;
        result.validation_error = "validation failed for root " + std::to_string(root) + ": " + check.error;
        result.roots.push_back(std::move(r));
        break;
      }
      r.validated = true;
    } else {
      check = sssp_statistics(graph, grid, sssp.distances());
    }
    r.nedge = check.nedge;
    r.reached = check.reached;
    r.sum_dist = check.sum_dist;
    r.max_dist = check.max_dist;
    r.teps = r.seconds > 0 ? static_cast<double>(r.nedge) / r.seconds : 0;
    result.roots.push_back(std::move(r));
  }

  if (config.compare_dijkstra > 0 && !result.validation_failed) {
    const int count = std::min<int>(config.compare_dijkstra, static_cast<int>(result.roots.size()));
    std::vector<double> seconds(count, 0.0);
    std::vector<int> agrees(count, 0);
    if (rank == 0) {
      omp_set_num_threads(result.threads);
      const SerialWeightedGraph serial = build_serial_weighted_graph(generator);
      for (int k = 0; k < count; ++k) {
        const DijkstraResult d = dijkstra(serial, result.roots[k].root);
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
  unsigned long long peak = peak_rss_bytes();
  MPI_Allreduce(MPI_IN_PLACE, &peak, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, world);
  result.peak_rss_bytes_max_rank = peak;
  return result;
}

}  // namespace g500
