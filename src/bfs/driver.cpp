#include "bfs/driver.hpp"

#include <cstdio>
#include <optional>
#include <stdexcept>

#include "bfs/report.hpp"
#include "io/vertex_output.hpp"
#include "run/conformance.hpp"
#include "run/job_output.hpp"
#include "util/counted.hpp"
#include "util/provenance.hpp"
#include "validate/tree_depths.hpp"

namespace g500::bfs {
namespace {

constexpr double kMiB = 1024.0 * 1024.0;

// Depths of the first root's tree in 64-bit values, as the vertex files take them.
std::vector<int64_t> depths_of_tree(const graph::LocalGraph& graph, const graph::ProcessGrid& grid, int64_t root,
                                    const std::vector<int64_t>& parents) {
  std::vector<int32_t> depth;
  if (std::string error = validate::tree_depths(graph.dist, grid, root, parents, depth); !error.empty())
    throw std::runtime_error("--output-depths: the BFS result is not a tree: " + error);  // a BFS defect
  return std::vector<int64_t>(depth.begin(), depth.end());
}

void print_report(const BfsJob& job, const std::optional<io::EdgeInput>& edges, const BenchmarkResult& result,
                  const BfsJobCompanion* companion) {
  const BenchmarkConfig& config = job.config;
  std::printf("%s\n", util::provenance_line(config.invocation, result.threads).c_str());
  if (edges) {
    run::print_input_line(stdout, "bfs", *edges, result.vertices_without_edges,
                          edges->stats.weighted ? ", weighted" : "");
    std::printf(
        "# g500 bfs: N %lld (largest vertex id + 1), %s as a %dx%d grid, %s per rank, graph %.1f MiB "
        "on the largest rank\n",
        static_cast<long long>(result.nvertices_computed), util::counted(result.ranks, "rank").c_str(),
        result.grid_rows, result.grid_cols, util::counted(result.threads, "thread").c_str(),
        static_cast<double>(result.graph_bytes_max_rank) / kMiB);
  } else {
    std::printf(
        "# g500 bfs: SCALE %d, N %lld (largest vertex id + 1), %s as a %dx%d grid, %s per rank, "
        "graph %.1f MiB on the largest rank\n",
        config.spec.scale, static_cast<long long>(result.nvertices_computed),
        util::counted(result.ranks, "rank").c_str(), result.grid_rows, result.grid_cols,
        util::counted(result.threads, "thread").c_str(), static_cast<double>(result.graph_bytes_max_rank) / kMiB);
  }
  if (companion) std::printf("%s\n", companion->header().c_str());
  const std::string companion_error = companion ? companion->validation_error() : "";
  if (result.validation_failed || !companion_error.empty()) {
    std::fprintf(stderr, "g500 bfs: %s\n",
                 result.validation_failed ? result.validation_error.c_str() : companion_error.c_str());
    std::printf("No results printed for invalid run.\n");
  } else {
    run::print_conformance_line(stdout, run::nonconformance_reasons(config, job.input));
    run::ResultBlockInput block = bfs_result_block_input(config, result);
    if (companion) companion->add_series(block);
    run::print_reference_result_block(stdout, block);
    run::print_validation_line(stdout, config, result);
    print_phase_profile(stdout, result);
    if (companion) companion->print_report(stdout);
    print_graph_memory(stdout, result);
    run::print_peak_memory(stdout, result);
    if (result.kernel1_peak_rss_bytes_max_rank > 0)
      std::printf("  kernel 1 %.1f MiB (estimated %.1f MiB), search and validation %.1f MiB (estimated %.1f MiB)\n",
                  static_cast<double>(result.kernel1_peak_rss_bytes_max_rank) / kMiB,
                  result.estimated_kernel1_bytes_max_rank / kMiB,
                  static_cast<double>(result.search_peak_rss_bytes_max_rank) / kMiB,
                  result.estimated_search_bytes_max_rank / kMiB);
  }
  std::fflush(stdout);
}

}  // namespace

int run_bfs_job(BfsJob& job, MPI_Comm comm, BfsJobCompanion* companion) {
  BenchmarkConfig& config = job.config;
  const comm::Communicator world(comm, config.messages);
  const std::unique_ptr<util::OutputFile> json_file = run::open_named_output(job.json_path, world);
  const std::unique_ptr<util::OutputFile> parents_file = run::open_named_output(job.parents_path, world);
  const std::unique_ptr<util::OutputFile> depths_file = run::open_named_output(job.depths_path, world);
  std::optional<io::EdgeInput> edges = run::load_file_input(job.input, config.spec, config.root_seed, world,
                                                            config.progress, [&](const io::DeclaredSize& size) {
                                                              check_declared_bfs_input(config, size, world);
                                                              if (companion) companion->check_declared(size, world);
                                                            });
  if (edges) config.input = &*edges;
  if (companion) config.second = companion->start(config, world);
  run::OutputIds ids(config, world);
  if (parents_file || depths_file)
    config.first_root_hook = [&](const graph::LocalGraph& graph, const graph::ProcessGrid& grid, int64_t root,
                                 const std::vector<int64_t>& parents) {
      const std::string from = " from root " + std::to_string(ids.file_id(root));
      if (parents_file)
        io::write_vertex_file(*parents_file, ids.of(), io::to_map_slices(graph, grid, ids.of(), parents), true,
                              "g500 bfs parents" + from + ": vertex parent (-1: unreached)");
      if (depths_file) {
        const std::vector<int64_t> depths = depths_of_tree(graph, grid, root, parents);
        io::write_vertex_file(*depths_file, ids.of(), io::to_map_slices(graph, grid, ids.of(), depths), false,
                              "g500 bfs depths" + from + ": vertex depth (-1: unreached)");
      }
    };
  const BenchmarkResult result = run_bfs_benchmark(config, world);
  if (companion) companion->finish(result);

  if (world.rank() == 0) print_report(job, edges, result, companion);
  if (json_file) {
    nlohmann::json j = result_json(config, result);
    j["config"].update(run::conformance_json(config, job.input, config.disabled));
    if (edges) j["input"] = run::input_json(*edges, result.vertices_without_edges);
    if (companion) companion->add_json(j);
    j["provenance"] = util::provenance_json(config.invocation, result.threads);
    json_file->write_from_rank0(j.dump(1) + "\n");
  }
  return result.validation_failed || (companion && !companion->validation_error().empty()) ? 1 : 0;
}

}  // namespace g500::bfs
