#include "sssp/driver.hpp"

#include <cstdio>
#include <optional>

#include "io/vertex_output.hpp"
#include "run/conformance.hpp"
#include "run/job_output.hpp"
#include "sssp/report.hpp"
#include "util/counted.hpp"
#include "util/provenance.hpp"

namespace g500::sssp {
namespace {

void print_report(const SsspJob& job, const std::optional<io::EdgeInput>& edges, const SsspBenchmarkResult& result) {
  const SsspConfig& config = job.config;
  std::printf("%s\n", util::provenance_line(config.invocation, result.threads).c_str());
  if (edges)
    run::print_input_line(
        stdout, "sssp", *edges, result.vertices_without_edges,
        result.generated_weights ? ", weights generated (the file has none)" : ", weights from the file");
  if (result.delta_raised_from > 0)
    std::printf(
        "# delta raised from %g to %g: with weights up to %g on %lld vertices, a smaller width would give distances "
        "more buckets than the search can number\n",
        result.delta_raised_from, result.delta, result.delta_max_weight, static_cast<long long>(config.nvertices()));
  std::printf(
      "# g500 sssp: SCALE %d, N %lld (largest vertex id + 1), %s as a %dx%d grid, %s per rank, "
      "delta %g, graph %.1f MiB on the largest rank\n",
      config.spec.scale, static_cast<long long>(result.nvertices_computed), util::counted(result.ranks, "rank").c_str(),
      result.grid_rows, result.grid_cols, util::counted(result.threads, "thread").c_str(), result.delta,
      static_cast<double>(result.graph_bytes_max_rank) / (1024.0 * 1024.0));
  if (result.validation_failed) {
    std::fprintf(stderr, "g500 sssp: %s\n", result.validation_error.c_str());
    std::printf("No results printed for invalid run.\n");
  } else {
    run::print_conformance_line(stdout, run::nonconformance_reasons(config, job.input));
    print_sssp_result_block(stdout, config, result);
    run::print_validation_line(stdout, config, result);
    print_sssp_phase_profile(stdout, result);
    print_dijkstra_comparison(stdout, result);
    run::print_energy_loop(stdout, result.energy_loop);
    run::print_peak_memory(stdout, result);
  }
  std::fflush(stdout);
}

}  // namespace

int run_sssp_job(SsspJob& job, MPI_Comm comm) {
  SsspConfig& config = job.config;
  const comm::Communicator world(comm, config.messages);
  const std::unique_ptr<util::OutputFile> json_file = run::open_named_output(job.json_path, world);
  const std::unique_ptr<util::OutputFile> distances_file = run::open_named_output(job.distances_path, world);
  const std::unique_ptr<util::OutputFile> parents_file = run::open_named_output(job.parents_path, world);
  std::optional<io::EdgeInput> edges =
      run::load_file_input(job.input, config.spec, config.root_seed, world, false,
                           [&](const io::DeclaredSize& size) { check_declared_sssp_input(config, size, world); });
  if (edges) config.input = &*edges;
  run::OutputIds ids(config, world);
  if (distances_file || parents_file)
    config.first_root_hook = [&](const graph::LocalGraph& graph, const graph::ProcessGrid& grid, int64_t root,
                                 const std::vector<double>& distances, const std::vector<int64_t>& parents) {
      const std::string from = " from root " + std::to_string(ids.file_id(root));
      if (distances_file)
        io::write_vertex_file(*distances_file, ids.of(), io::to_map_slices(graph, grid, ids.of(), distances),
                              "g500 sssp distances" + from + ": vertex distance (inf: unreached)");
      if (parents_file)
        io::write_vertex_file(*parents_file, ids.of(), io::to_map_slices(graph, grid, ids.of(), parents), true,
                              "g500 sssp parents" + from + ": vertex parent (-1: unreached)");
    };
  const SsspBenchmarkResult result = run_sssp_benchmark(config, world);

  if (world.rank() == 0) print_report(job, edges, result);
  if (json_file) {
    nlohmann::json j = sssp_result_json(config, result);
    j["config"].update(run::conformance_json(config, job.input, config.disabled));
    if (edges) {
      j["input"] = run::input_json(*edges, result.vertices_without_edges);
      j["input"]["weights"] = result.generated_weights ? "generated" : "file";
      j["input"]["weight_seed"] = config.weight_seed;
    }
    j["provenance"] = util::provenance_json(config.invocation, result.threads);
    json_file->write_from_rank0(j.dump(1) + "\n");
  }
  if (result.validation_failed) return 1;
  return result.dijkstra_agrees ? 0 : 1;
}

}  // namespace g500::sssp
