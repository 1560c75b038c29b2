// g500 sssp: the Graph500 SSSP benchmark (kernel 1 with weights, kernel 3 = delta-stepping SSSP,
// validated) on Kronecker graphs or on an edge-list file (--input, docs/input.md and
// docs/sssp.md); --compare-dijkstra N adds a serial Dijkstra baseline.
#include <cstdio>
#include <memory>
#include <optional>

#include "cli/file_input.hpp"
#include "cli/options.hpp"
#include "cli/subcommand.hpp"
#include "sssp/benchmark.hpp"
#include "sssp/report.hpp"
#include "io/vertex_output.hpp"
#include "util/error.hpp"
#include "util/output_file.hpp"

namespace g500::cli {
namespace {

int run_sssp_command(int argc, char** argv) {
  SsspConfig config;
  std::string seed_text, json_path;
  bool no_validate = false, force = false;
  CLI::App app{"Graph500 SSSP benchmark: generate a weighted Kronecker graph, build it (kernel 1), run delta-stepping SSSP (kernel 3) from every root and validate", "g500 sssp"};
  require_range(app.add_option("--scale", config.spec.scale, "log2 of the number of vertices"), 1, kMaxScale)->capture_default_str();
  require_at_least(app.add_option("--edgefactor", config.spec.edgefactor, "edges per vertex"), 1)->capture_default_str();
  app.add_option("--seed", seed_text, "generator seeds A,B (default 2,3 as the reference)");
  require_at_least(app.add_option("--roots", config.nroots,
                                  "number of SSSP roots (fewer when fewer vertices have an edge; stated on stderr)"),
                   1)->capture_default_str();
  require_non_empty(app.add_option("--grid", config.grid_text, "process grid RxC (default: R >= C, closest factors)"));
  require_non_empty(app.add_option("--rankmap", config.rankmap_path, "place ranks on the grid as in this `g500 map` CSV (rank,row,col,...)"));
  require_at_least(app.add_option("--threads", config.threads, "OpenMP threads per rank (default: cores / ranks on the node)"), 1);
  app.add_flag("--no-validate", no_validate, "skip validation of the SSSP results");
  require_non_empty(app.add_option("--json", json_path, "write the full results as JSON to this file"));
  app.add_flag("--force", force, "run even if the memory estimate exceeds the machine's memory");
  require_positive(app.add_option("--delta", config.sssp.delta, "delta-stepping bucket width (edges lighter than delta are light)"))->capture_default_str();
  require_range(app.add_option("--sub-buckets", config.sssp.sub_buckets, "light phases take each bucket in this many narrower steps, in distance order (1 = plain delta-stepping)"), 1, 1024)->capture_default_str();
  require_non_negative(app.add_option("--pull-factor", config.sssp.pull_factor, "heavy phases pull when push work > factor x pull work (0 = always push)"))->capture_default_str();
  std::vector<std::string> disabled;
  app.add_option("--disable", disabled,
                 "switch off techniques, comma-separated: reorder (the degree-order renumbering of Nakao et al. 2021, section 4.2), "
                 "parent-notes (on one-row and one-column grids, the parents read from the source each distance "
                 "keeps, instead of a search for every parent afterwards)")
      ->delimiter(',');
  require_at_least(app.add_option("--compare-dijkstra", config.compare_dijkstra, "also solve the first N roots with a serial Dijkstra on rank 0 and report the speed-up"), 0);
  FileInputOptions in;
  in.add_to(app, "SSSP");
  require_unsigned(app.add_option("--weight-seed", config.weight_seed,
                                  "seed of the weights given to a file without weights (uniform in [0, 1), default 1)"));
  std::string output_distances, output_parents;
  require_non_empty(app.add_option("--output-distances", output_distances, "write the distances from the first root to this file"));
  require_non_empty(app.add_option("--output-parents", output_parents, "write the shortest-path tree of the first root to this file"));
  if (!parse_or_throw(app, argc, argv)) return 0;
  check_edge_count(config.spec.scale, config.spec.edgefactor);
  if (!seed_text.empty()) parse_seed_pair(seed_text, config.spec.seed1, config.spec.seed2);
  config.validate = !no_validate;
  for (const std::string& name : disabled) {
    if (name == "reorder")
      config.graph.reorder = false;
    else if (name == "parent-notes")
      config.sssp.parent_notes = false;
    else
      throw UsageError("--disable: unknown technique '" + name + "' (switchable for sssp: reorder, parent-notes)");
  }
  in.check(app, config.root_ids, config.root_seed);
  const int64_t roots_asked = config.root_ids.empty() ? config.nroots : static_cast<int64_t>(config.root_ids.size());
  if (config.compare_dijkstra > roots_asked)
    throw UsageError("--compare-dijkstra " + std::to_string(config.compare_dijkstra) + " is more than the run's " +
                     std::to_string(roots_asked) + " roots");
  if (in.path.empty() && app.get_option("--weight-seed")->count())
    throw UsageError("--weight-seed needs --input (generated graphs have the reference generator's weights)");
  if ((!output_distances.empty() || !output_parents.empty()) && no_validate)
    throw UsageError("--output-distances and --output-parents write a validated result; drop --no-validate");

  std::unique_ptr<OutputFile> json_file;
  if (!json_path.empty()) json_file = std::make_unique<OutputFile>(json_path, MPI_COMM_WORLD);
  std::unique_ptr<OutputFile> distances_file, parents_file;
  if (!output_distances.empty())
    distances_file = std::make_unique<OutputFile>(output_distances, MPI_COMM_WORLD);
  if (!output_parents.empty()) parents_file = std::make_unique<OutputFile>(output_parents, MPI_COMM_WORLD);

  std::optional<io::EdgeInput> edges =
      in.load(app, config.spec, config.root_seed, false,
              [&](const io::DeclaredSize& size) { check_declared_sssp_input(config, size, force); });
  if (edges) config.input = &*edges;
  std::optional<io::VertexIdMap> generated_ids;  // Kronecker runs: file ids are the generated ids
  if (distances_file || parents_file)
    config.first_root_hook = [&](const LocalGraph& graph, const ProcessGrid& grid, int64_t root,
                                 const std::vector<double>& distances, const std::vector<int64_t>& parents) {
      if (!edges && !generated_ids) generated_ids = io::VertexIdMap::offset(graph.dist.nvertices, 0, MPI_COMM_WORLD);
      const io::VertexIdMap& ids = edges ? edges->ids : *generated_ids;
      const uint64_t root_id = ids.to_file_ids({root}).front();
      if (distances_file)
        io::write_vertex_file(*distances_file, ids, io::to_map_slices(graph, grid, ids, distances),
                                 "g500 sssp distances from root " + std::to_string(root_id) + ": vertex distance (inf: unreached)");
      if (parents_file)
        io::write_vertex_file(*parents_file, ids, io::to_map_slices(graph, grid, ids, parents), true,
                                 "g500 sssp parents from root " + std::to_string(root_id) + ": vertex parent (-1: unreached)");
    };
  SsspBenchmarkResult result = run_sssp_benchmark(config, force);

  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    if (edges) {
      print_input_line("sssp", *edges, result.vertices_without_edges,
                       result.generated_weights ? ", weights generated (the file has none)" : ", weights from the file");
    }
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
  if (json_file) {
    nlohmann::json j = sssp_result_json(config, result);
    if (edges) {
      j["input"] = input_json(*edges, result.vertices_without_edges);
      j["input"]["weights"] = result.generated_weights ? "generated" : "file";
      j["input"]["weight_seed"] = config.weight_seed;
    }
    json_file->write_from_rank0(j.dump(1) + "\n");
  }
  if (result.validation_failed) return 1;
  return result.dijkstra_agrees ? 0 : 1;
}

const SubcommandRegistrar registrar("sssp", "Graph500 SSSP benchmark (kernels 1 and 3, validated; delta-stepping)", run_sssp_command);

}  // namespace
}  // namespace g500::cli
