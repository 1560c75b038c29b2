// g500 bfs: the Graph500 BFS benchmark (kernels 1 and 2 with validation) on Kronecker graphs or
// on an edge-list file (--input, docs/input.md).
#include <cstdio>
#include <memory>
#include <optional>

#include "bfs/benchmark.hpp"
#include "bfs/report.hpp"
#include "cli/file_input.hpp"
#include "cli/options.hpp"
#include "cli/subcommand.hpp"
#include "io/vertex_output.hpp"
#include "util/error.hpp"
#include "util/output_file.hpp"
#include "util/progress.hpp"

namespace g500::cli {
namespace {

// Result files and progress lines (docs/input.md).
struct OutputOptions {
  std::string parents, depths;
  bool quiet = false, progress = false;
};

void add_output_options(CLI::App& app, OutputOptions& o) {
  require_non_empty(app.add_option("--output-parents", o.parents, "write the BFS parents of the first root to this file"));
  require_non_empty(app.add_option("--output-depths", o.depths, "write the BFS depths of the first root to this file"));
  auto* quiet = app.add_flag("--quiet", o.quiet, "no progress lines on stderr");
  auto* progress = app.add_flag("--progress", o.progress,
                                "progress lines on stderr even when it is not a terminal (mpiexec gives the ranks a pipe)");
  quiet->excludes(progress);
}

int run_bfs_command(int argc, char** argv) {
  BenchmarkConfig config;
  std::string seed_text, json_path;
  bool no_validate = false, force = false;
  CLI::App app{"Graph500 BFS benchmark: generate a Kronecker graph, build it (kernel 1), run BFS (kernel 2) from every root and validate", "g500 bfs"};
  require_range(app.add_option("--scale", config.spec.scale, "log2 of the number of vertices"), 1, kMaxScale)->capture_default_str();
  require_at_least(app.add_option("--edgefactor", config.spec.edgefactor, "edges per vertex"), 1)->capture_default_str();
  app.add_option("--seed", seed_text, "generator seeds A,B (default 2,3 as the reference)");
  require_at_least(app.add_option("--roots", config.nroots,
                                  "number of BFS roots (fewer when fewer vertices have an edge; stated on stderr)"),
                   1)->capture_default_str();
  require_non_empty(app.add_option("--grid", config.grid_text, "process grid RxC (default: R >= C, closest factors)"));
  require_non_empty(app.add_option("--rankmap", config.rankmap_path, "place ranks on the grid as in this `g500 map` CSV (rank,row,col,...)"));
  require_at_least(app.add_option("--threads", config.threads, "OpenMP threads per rank (default: cores / ranks on the node)"), 1);
  app.add_flag("--no-validate", no_validate, "skip validation of the BFS results");
  require_non_empty(app.add_option("--json", json_path, "write the full results as JSON to this file"));
  app.add_flag("--force", force, "run even if the memory estimate exceeds the machine's memory");
  require_range(app.add_option("--substeps", config.bfs.substeps, "overlap: bottom-up sub-steps per grid-row position (n of Nakao et al. 2021, section 4.5; the visited bitmap travels in n segments)"), 1, 64)->capture_default_str();
  require_positive(app.add_option("--alpha", config.bfs.alpha, "direction switch: go bottom-up when frontier edges > unvisited edges / alpha"))->capture_default_str();
  require_positive(app.add_option("--beta", config.bfs.beta, "direction switch: go top-down when frontier vertices < N / beta"))->capture_default_str();
  app.add_option("--alltoallv", config.bfs.alltoallv, "alltoallv algorithm (see g500 coll)")->capture_default_str();
  app.add_option("--allgatherv", config.bfs.allgatherv, "allgatherv algorithm (see g500 coll)")->capture_default_str();
  std::string disabled;
  app.add_option("--disable", disabled, "switch off techniques of Nakao et al. 2021, section 4, comma-separated: " + switchable_list());
  app.add_flag("--trace", config.bfs.trace, "record per-level direction, frontier size, edges examined and time in the JSON");
  FileInputOptions in;
  in.add_to(app, "BFS");
  OutputOptions out;
  add_output_options(app, out);
  if (!parse_or_throw(app, argc, argv)) return 0;
  check_edge_count(config.spec.scale, config.spec.edgefactor);
  if (!seed_text.empty()) parse_seed_pair(seed_text, config.spec.seed1, config.spec.seed2);
  config.validate = !no_validate;
  in.check(app, config.root_ids, config.root_seed);
  config.progress = progress_wanted(out.quiet, MPI_COMM_WORLD, out.progress);
  apply_disabled_techniques(disabled, config);

  std::unique_ptr<OutputFile> json_file;
  if (!json_path.empty()) json_file = std::make_unique<OutputFile>(json_path, MPI_COMM_WORLD);
  std::unique_ptr<OutputFile> parents_file, depths_file;
  if (!out.parents.empty()) parents_file = std::make_unique<OutputFile>(out.parents, MPI_COMM_WORLD);
  if (!out.depths.empty()) depths_file = std::make_unique<OutputFile>(out.depths, MPI_COMM_WORLD);

  std::optional<io::EdgeInput> edges =
      in.load(app, config.spec, config.root_seed, config.progress,
              [&](const io::DeclaredSize& size) { check_declared_bfs_input(config, size, force); });
  if (edges) config.input = &*edges;
  std::optional<io::VertexIdMap> generated_ids;  // Kronecker runs: file ids are the generated ids
  auto ids_for_output = [&](const LocalGraph& graph) -> const io::VertexIdMap& {
    if (edges) return edges->ids;
    if (!generated_ids) generated_ids = io::VertexIdMap::offset(graph.dist.nvertices, 0, MPI_COMM_WORLD);
    return *generated_ids;
  };
  if (parents_file || depths_file)
    config.first_root_hook = [&](const LocalGraph& graph, const ProcessGrid& grid, int64_t root,
                                 const std::vector<int64_t>& parents) {
      const io::VertexIdMap& ids = ids_for_output(graph);
      const uint64_t root_id = ids.to_file_ids({root}).front();
      if (parents_file) {
        const std::vector<int64_t> values = io::to_map_slices(graph, grid, ids, parents);
        io::write_vertex_file(*parents_file, ids, values, true,
                                 "g500 bfs parents from root " + std::to_string(root_id) + ": vertex parent (-1: unreached)");
      }
      if (depths_file) {
        const std::vector<int64_t> depths = io::tree_depths(graph, grid, root, parents);
        const std::vector<int64_t> values = io::to_map_slices(graph, grid, ids, depths);
        io::write_vertex_file(*depths_file, ids, values, false,
                                 "g500 bfs depths from root " + std::to_string(root_id) + ": vertex depth (-1: unreached)");
      }
    };
  BenchmarkResult result = run_bfs_benchmark(config, force);

  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    if (edges) {
      print_input_line("bfs", *edges, result.vertices_without_edges, edges->stats.weighted ? ", weighted" : "");
      std::printf("# g500 bfs: %d ranks as a %dx%d grid, %d threads per rank, graph %.1f MiB on the largest rank\n",
                  result.ranks, result.grid_rows, result.grid_cols, result.threads,
                  static_cast<double>(result.graph_bytes_max_rank) / (1024.0 * 1024.0));
    } else {
    std::printf("# g500 bfs: SCALE %d, %d ranks as a %dx%d grid, %d threads per rank, graph %.1f MiB on the largest rank\n",
                config.spec.scale, result.ranks, result.grid_rows, result.grid_cols, result.threads,
                static_cast<double>(result.graph_bytes_max_rank) / (1024.0 * 1024.0));
    }
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
  if (json_file) {
    nlohmann::json j = result_json(config, result);
    if (edges) j["input"] = input_json(*edges, result.vertices_without_edges);
    json_file->write_from_rank0(j.dump(1) + "\n");
  }
  return result.validation_failed ? 1 : 0;
}

const SubcommandRegistrar registrar("bfs", "Graph500 BFS benchmark (kernels 1 and 2, validated)", run_bfs_command);

}  // namespace
}  // namespace g500::cli
