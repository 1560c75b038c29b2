// g500 bfs: the Graph500 BFS benchmark (kernels 1 and 2 with validation) on Kronecker graphs.
#include <cstdio>
#include <memory>

#include "bfs/benchmark.hpp"
#include "bfs/report.hpp"
#include "cli/options.hpp"
#include "cli/subcommand.hpp"

namespace g500::cli {
namespace {

constexpr int kMaxScale = 42;

int run_bfs_command(int argc, char** argv) {
  BenchmarkConfig config;
  std::string seed_text, json_path;
  bool no_validate = false, force = false;
  CLI::App app{"Graph500 BFS benchmark: generate a Kronecker graph, build it (kernel 1), run BFS (kernel 2) from every root and validate", "g500 bfs"};
  app.add_option("--scale", config.spec.scale, "log2 of the number of vertices")->check(CLI::Range(1, kMaxScale))->capture_default_str();
  app.add_option("--edgefactor", config.spec.edgefactor, "edges per vertex")->check(CLI::PositiveNumber)->capture_default_str();
  app.add_option("--seed", seed_text, "generator seeds A,B (default 2,3 as the reference)");
  app.add_option("--roots", config.nroots, "number of BFS roots")->check(CLI::PositiveNumber)->capture_default_str();
  app.add_option("--grid", config.grid_text, "process grid RxC (default: R >= C, closest factors)");
  app.add_option("--rankmap", config.rankmap_path, "place ranks on the grid as in this `g500 map` CSV (rank,row,col,...)");
  app.add_option("--threads", config.threads, "OpenMP threads per rank (default: cores / ranks on the node)")->check(CLI::PositiveNumber);
  app.add_flag("--no-validate", no_validate, "skip validation of the BFS results");
  app.add_option("--json", json_path, "write the full results as JSON to this file");
  app.add_flag("--force", force, "run even if the memory estimate exceeds the machine's memory");
  app.add_option("--alpha", config.bfs.alpha, "direction switch: go bottom-up when frontier edges > unvisited edges / alpha")->check(CLI::PositiveNumber)->capture_default_str();
  app.add_option("--beta", config.bfs.beta, "direction switch: go top-down when frontier vertices < N / beta")->check(CLI::PositiveNumber)->capture_default_str();
  app.add_option("--alltoallv", config.bfs.alltoallv, "alltoallv algorithm (see g500 coll)")->capture_default_str();
  app.add_option("--allgatherv", config.bfs.allgatherv, "allgatherv algorithm (see g500 coll)")->capture_default_str();
  std::string disabled;
  app.add_option("--disable", disabled, "switch off techniques of 001 section 4, comma-separated: bcsr, degree-sort, bu-alltoallv, lb-topdown");
  app.add_flag("--trace", config.bfs.trace, "record per-level direction, frontier size, edges examined and time in the JSON");
  if (!parse_or_throw(app, argc, argv)) return 0;
  if (!seed_text.empty()) parse_seed_pair(seed_text, config.spec.seed1, config.spec.seed2);
  config.validate = !no_validate;
  apply_disabled_techniques(disabled, config);

  std::unique_ptr<AtomicOutputFile> json_file;
  if (!json_path.empty()) json_file = std::make_unique<AtomicOutputFile>(json_path, MPI_COMM_WORLD);
  BenchmarkResult result = run_bfs_benchmark(config, force);

  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    std::printf("# g500 bfs: SCALE %d, %d ranks as a %dx%d grid, %d threads per rank, graph %.1f MiB on the largest rank\n",
                config.spec.scale, result.ranks, result.grid_rows, result.grid_cols, result.threads,
                static_cast<double>(result.graph_bytes_max_rank) / (1024.0 * 1024.0));
    if (result.validation_failed) {
      std::fprintf(stderr, "g500 bfs: %s\n", result.validation_error.c_str());
      std::printf("No results printed for invalid run.\n");
    } else {
      print_result_block(stdout, config, result);
      print_phase_profile(stdout, result);
      print_graph_memory(stdout, result);
      std::printf("peak memory per rank: %.1f MiB; %.1f bytes per input edge\n",
                  static_cast<double>(result.peak_rss_bytes_max_rank) / (1024.0 * 1024.0),
                  static_cast<double>(result.peak_rss_bytes_max_rank) * result.ranks / static_cast<double>(result.input_edges));
    }
    std::fflush(stdout);
  }
  if (json_file) json_file->commit(result_json(config, result).dump(1) + "\n");
  return result.validation_failed ? 1 : 0;
}

const SubcommandRegistrar registrar("bfs", "Graph500 BFS benchmark (kernels 1 and 2, validated)", run_bfs_command);

}  // namespace
}  // namespace g500::cli
