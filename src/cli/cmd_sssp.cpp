// g500 sssp: the Graph500 SSSP benchmark (kernel 1 with weights, kernel 3 = delta-stepping SSSP,
// validated) on Kronecker graphs; --compare-dijkstra N adds a serial Dijkstra baseline.
#include <cstdio>
#include <memory>

#include "cli/options.hpp"
#include "cli/subcommand.hpp"
#include "sssp/benchmark.hpp"
#include "sssp/report.hpp"

namespace g500::cli {
namespace {

constexpr int kMaxScale = 42;

int run_sssp_command(int argc, char** argv) {
  SsspConfig config;
  std::string seed_text, json_path;
  bool no_validate = false, force = false;
  CLI::App app{"Graph500 SSSP benchmark: generate a weighted Kronecker graph, build it (kernel 1), run delta-stepping SSSP (kernel 3) from every root and validate", "g500 sssp"};
  app.add_option("--scale", config.spec.scale, "log2 of the number of vertices")->check(CLI::Range(1, kMaxScale))->capture_default_str();
  app.add_option("--edgefactor", config.spec.edgefactor, "edges per vertex")->check(CLI::PositiveNumber)->capture_default_str();
  app.add_option("--seed", seed_text, "generator seeds A,B (default 2,3 as the reference)");
  app.add_option("--roots", config.nroots, "number of SSSP roots")->check(CLI::PositiveNumber)->capture_default_str();
  app.add_option("--grid", config.grid_text, "process grid RxC (default: R >= C, closest factors)");
  app.add_option("--threads", config.threads, "OpenMP threads per rank (default: cores / ranks on the node)")->check(CLI::PositiveNumber);
  app.add_flag("--no-validate", no_validate, "skip validation of the SSSP results");
  app.add_option("--json", json_path, "write the full results as JSON to this file");
  app.add_flag("--force", force, "run even if the memory estimate exceeds the machine's memory");
  app.add_option("--delta", config.sssp.delta, "delta-stepping bucket width (edges lighter than delta are light)")->check(CLI::PositiveNumber)->capture_default_str();
  app.add_option("--pull-factor", config.sssp.pull_factor, "heavy phases pull when push work > factor x pull work (0 = always push)")->check(CLI::NonNegativeNumber)->capture_default_str();
  app.add_option("--compare-dijkstra", config.compare_dijkstra, "also solve the first N roots with a serial Dijkstra on rank 0 and report the speed-up")->check(CLI::NonNegativeNumber);
  if (!parse_or_throw(app, argc, argv)) return 0;
  if (!seed_text.empty()) parse_seed_pair(seed_text, config.spec.seed1, config.spec.seed2);
  config.validate = !no_validate;

  std::unique_ptr<AtomicOutputFile> json_file;
  if (!json_path.empty()) json_file = std::make_unique<AtomicOutputFile>(json_path, MPI_COMM_WORLD);
  SsspBenchmarkResult result = run_sssp_benchmark(config, force);

  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    std::printf("# g500 sssp: SCALE %d, %d ranks as a %dx%d grid, %d threads per rank, delta %g, graph %.1f MiB on the largest rank\n",
                config.spec.scale, result.ranks, result.grid_rows, result.grid_cols, result.threads, config.sssp.delta,
                static_cast<double>(result.graph_bytes_max_rank) / (1024.0 * 1024.0));
    if (result.validation_failed) {
      std::fprintf(stderr, "g500 sssp: %s\n", result.validation_error.c_str());
      std::printf("No results printed for invalid run.\n");
    } else {
      print_sssp_result_block(stdout, config, result);
      print_sssp_phase_profile(stdout, result);
      print_dijkstra_comparison(stdout, result);
      std::printf("peak memory per rank: %.1f MiB; %.1f bytes per input edge\n",
                  static_cast<double>(result.peak_rss_bytes_max_rank) / (1024.0 * 1024.0),
                  static_cast<double>(result.peak_rss_bytes_max_rank) * result.ranks / static_cast<double>(result.input_edges));
    }
    std::fflush(stdout);
  }
  if (json_file) json_file->commit(sssp_result_json(config, result).dump(1) + "\n");
  if (result.validation_failed) return 1;
  return result.dijkstra_agrees ? 0 : 1;
}

const SubcommandRegistrar registrar("sssp", "Graph500 SSSP benchmark (kernels 1 and 3, validated; delta-stepping)", run_sssp_command);

}  // namespace
}  // namespace g500::cli
