// g500 sssp: the Graph500 SSSP benchmark (kernel 1 with weights, kernel 3 = delta-stepping SSSP,
// validated) on Kronecker graphs or on an edge-list file (--input, docs/input.md and
// docs/sssp.md); --compare-dijkstra N adds a serial Dijkstra baseline.
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>

#include "cli/options.hpp"
#include "cli/subcommand.hpp"
#include "sssp/benchmark.hpp"
#include "sssp/report.hpp"
#include "input/vertex_output.hpp"
#include "util/error.hpp"

namespace g500::cli {
namespace {

constexpr int kMaxScale = 42;

// Options of file input and result files (as g500 bfs's, docs/input.md).
struct InputOptions {
  std::string path, format, output_distances, output_parents;
  std::vector<std::string> roots;
  uint64_t root_seed = 1;
  bool directed_as_undirected = false;
};

void add_input_options(CLI::App& app, InputOptions& o, SsspConfig& config) {
  app.add_option("--input", o.path, "read the graph from this edge-list file instead of generating it");
  app.add_option("--format", o.format, "format of --input (default from the extension: .mtx, .bin, else tsv)")
      ->check(CLI::IsMember({"tsv", "snap", "mtx", "bin"}));
  app.add_flag("--directed-as-undirected", o.directed_as_undirected,
               "treat each line u v as the undirected edge {u, v} (what is done anyway; the explicit spelling)");
  app.add_option("--root", o.roots, "SSSP root, in the input's vertex ids (repeatable; replaces the sampled roots)");
  app.add_option("--root-seed", o.root_seed, "seed for sampling the roots of file input (default 1)");
  app.add_option("--weight-seed", config.weight_seed,
                 "seed of the weights given to a file without weights (uniform in [0, 1), default 1)");
  app.add_option("--output-distances", o.output_distances, "write the distances from the first root to this file");
  app.add_option("--output-parents", o.output_parents, "write the shortest-path tree of the first root to this file");
}

int ceil_log2(int64_t n) {
  int s = 0;
  while ((int64_t{1} << s) < n && s < 62) ++s;
  return s;
}

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
  InputOptions in;
  add_input_options(app, in, config);
  auto* scale_option = app.get_option("--scale");
  auto* edgefactor_option = app.get_option("--edgefactor");
  if (!parse_or_throw(app, argc, argv)) return 0;
  if (!seed_text.empty()) parse_seed_pair(seed_text, config.spec.seed1, config.spec.seed2);
  config.validate = !no_validate;
  if (!in.path.empty() && (scale_option->count() || edgefactor_option->count()))
    throw UsageError("--scale and --edgefactor describe a generated graph; they do not apply with --input");
  if (in.path.empty() && !in.format.empty()) throw UsageError("--format needs --input");
  if (in.path.empty() && app.get_option("--weight-seed")->count())
    throw UsageError("--weight-seed needs --input (generated graphs have the reference generator's weights)");
  for (const std::string& text : in.roots) {
    uint64_t id = 0;
    if (std::string e = input::parse_id(text, id); !e.empty()) throw UsageError("--root: " + e);
    config.root_ids.push_back(id);
  }
  const bool root_seed_given = app.get_option("--root-seed")->count() > 0;
  if (root_seed_given) config.root_seed = in.root_seed;
  if ((!in.output_distances.empty() || !in.output_parents.empty()) && no_validate)
    throw UsageError("--output-distances and --output-parents write a validated result; drop --no-validate");

  std::unique_ptr<AtomicOutputFile> json_file;
  if (!json_path.empty()) json_file = std::make_unique<AtomicOutputFile>(json_path, MPI_COMM_WORLD);
  std::unique_ptr<input::ParallelOutputFile> distances_file, parents_file;
  if (!in.output_distances.empty())
    distances_file = std::make_unique<input::ParallelOutputFile>(in.output_distances, MPI_COMM_WORLD);
  if (!in.output_parents.empty())
    parents_file = std::make_unique<input::ParallelOutputFile>(in.output_parents, MPI_COMM_WORLD);

  std::optional<input::EdgeInput> edges;
  if (!in.path.empty()) {
    input::InputSpec spec;
    spec.path = in.path;
    spec.format = in.format.empty() ? input::guess_format(in.path) : *input::parse_format(in.format);
    spec.directed_as_undirected = in.directed_as_undirected;
    edges.emplace(input::load_edge_input(spec, MPI_COMM_WORLD));
    config.input = &*edges;
    const int64_t n = edges->nvertices, m = edges->global_edges;
    // A bin file of 2^SCALE vertices (as `g500 gen --format bin` writes) keeps the reference root
    // rule with --seed, so it reproduces the in-memory run; other input samples roots.
    const bool reference_roots = spec.format == input::Format::bin && (n & (n - 1)) == 0 && !root_seed_given;
    config.spec.scale = ceil_log2(n);
    config.spec.edgefactor = static_cast<int>(std::llround(static_cast<double>(m) / static_cast<double>(n)));
    if (!reference_roots) config.root_seed = in.root_seed;
  }
  std::optional<input::VertexIdMap> generated_ids;  // Kronecker runs: file ids are the generated ids
  if (distances_file || parents_file)
    config.first_root_hook = [&](const LocalGraph& graph, const ProcessGrid& grid, int64_t root,
                                 const std::vector<double>& distances, const std::vector<int64_t>& parents) {
      if (!edges && !generated_ids) generated_ids = input::VertexIdMap::offset(graph.dist.nvertices, 0, MPI_COMM_WORLD);
      const input::VertexIdMap& ids = edges ? edges->ids : *generated_ids;
      const uint64_t root_id = ids.to_file_ids({root}).front();
      if (distances_file)
        input::write_vertex_file(*distances_file, ids, input::to_map_slices(graph, grid, ids, distances),
                                 "g500 sssp distances from root " + std::to_string(root_id) + ": vertex distance (inf: unreached)");
      if (parents_file)
        input::write_vertex_file(*parents_file, ids, input::to_map_slices(graph, grid, ids, parents), true,
                                 "g500 sssp parents from root " + std::to_string(root_id) + ": vertex parent (-1: unreached)");
    };
  SsspBenchmarkResult result = run_sssp_benchmark(config, force);

  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    if (edges) {
      const input::InputStats& st = edges->stats;
      std::printf("# g500 sssp: input %s (%s): %lld vertices, %lld edges, %lld self-loops, %lld duplicate edges, "
                  "%lld vertices without edges, %s%s; read in %.3f s\n",
                  edges->spec.path.c_str(), input::format_name(edges->spec.format), static_cast<long long>(st.vertices),
                  static_cast<long long>(st.edges), static_cast<long long>(st.self_loops),
                  static_cast<long long>(st.duplicates), static_cast<long long>(result.vertices_without_edges),
                  result.generated_weights ? "weights generated (the file has none)" : "weights from the file",
                  st.relabelled ? ", ids relabelled" : "", st.read_seconds);
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
      const input::InputStats& st = edges->stats;
      j["input"] = {{"path", edges->spec.path},
                    {"format", input::format_name(edges->spec.format)},
                    {"vertices", st.vertices},
                    {"edges", st.edges},
                    {"self_loops", st.self_loops},
                    {"duplicates", st.duplicates},
                    {"vertices_without_edges", result.vertices_without_edges},
                    {"weights", result.generated_weights ? "generated" : "file"},
                    {"weight_seed", config.weight_seed},
                    {"relabelled", st.relabelled},
                    {"directed_as_undirected", edges->spec.directed_as_undirected},
                    {"read_time_s", st.read_seconds}};
    }
    json_file->commit(j.dump(1) + "\n");
  }
  if (result.validation_failed) return 1;
  return result.dijkstra_agrees ? 0 : 1;
}

const SubcommandRegistrar registrar("sssp", "Graph500 SSSP benchmark (kernels 1 and 3, validated; delta-stepping)", run_sssp_command);

}  // namespace
}  // namespace g500::cli
