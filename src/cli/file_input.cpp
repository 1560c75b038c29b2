#include "cli/file_input.hpp"

#include <cmath>
#include <cstdio>

#include "cli/options.hpp"
#include "util/error.hpp"
#include "util/progress.hpp"

namespace g500::cli {
namespace {

static_assert(io::kMaxDeclaredVertices == int64_t{1} << kMaxScale, "a header may declare the largest --scale graph");

int ceil_log2(int64_t n) {
  int s = 0;
  while ((int64_t{1} << s) < n && s < 62) ++s;
  return s;
}

bool given(const CLI::App& app, const std::string& name) { return app.get_option(name)->count() > 0; }

}  // namespace

void FileInputOptions::add_to(CLI::App& app, const std::string& kernel) {
  require_non_empty(app.add_option("--input", path, "read the graph from this edge-list file instead of generating it"));
  app.add_option("--format", format, "format of --input (default from the extension: .mtx, .bin, else tsv)")
      ->check(CLI::IsMember({"tsv", "snap", "mtx", "bin"}));
  app.add_flag("--directed-as-undirected", directed_as_undirected,
               "treat each line u v as the undirected edge {u, v} (what is done anyway; the explicit spelling)");
  auto* root = app.add_option("--root", roots, kernel + " root, in the input's vertex ids (repeatable; replaces the sampled roots)");
  auto* seed = require_unsigned(app.add_option("--root-seed", root_seed, "seed for sampling the roots of file input (default 1)"));
  // Explicit roots leave nothing to count or sample.
  root->excludes(seed);
  if (CLI::Option* count = app.get_option_no_throw("--roots")) root->excludes(count);
}

void FileInputOptions::check(const CLI::App& app, std::vector<uint64_t>& root_ids,
                             std::optional<uint64_t>& sampling_seed) const {
  if (!path.empty() && (given(app, "--scale") || given(app, "--edgefactor")))
    throw UsageError("--scale and --edgefactor describe a generated graph; they do not apply with --input");
  if (path.empty() && !format.empty()) throw UsageError("--format needs --input");
  for (const std::string& text : roots) {
    uint64_t id = 0;
    if (std::string e = io::parse_id(text, id); !e.empty()) throw UsageError("--root: " + e);
    root_ids.push_back(id);
  }
  if (given(app, "--root-seed")) sampling_seed = root_seed;
}

std::optional<io::EdgeInput> FileInputOptions::load(
    const CLI::App& app, gen::KroneckerSpec& spec, std::optional<uint64_t>& sampling_seed, bool progress,
    const std::function<void(const io::DeclaredSize&)>& check_declared_size) const {
  std::optional<io::EdgeInput> edges;
  if (path.empty()) return edges;
  io::InputSpec input_spec;
  input_spec.path = path;
  input_spec.format = format.empty() ? io::guess_format(path) : *io::parse_format(format);
  input_spec.directed_as_undirected = directed_as_undirected;
  input_spec.check_declared_size = check_declared_size;
  {
    Progress reading(progress, "reading " + path);
    edges.emplace(io::load_edge_input(input_spec, MPI_COMM_WORLD));
  }
  const int64_t n = edges->nvertices, m = edges->global_edges;
  const bool reference_roots = input_spec.format == io::Format::bin && (n & (n - 1)) == 0 && !given(app, "--root-seed");
  spec.scale = ceil_log2(n);
  spec.edgefactor = static_cast<int>(std::llround(static_cast<double>(m) / static_cast<double>(n)));
  if (!reference_roots) sampling_seed = root_seed;
  return edges;
}

void print_input_line(const char* command, const io::EdgeInput& edges, int64_t vertices_without_edges,
                      const std::string& note) {
  const io::InputStats& st = edges.stats;
  std::printf("# g500 %s: input %s (%s): %lld vertices, %lld edges, %lld self-loops, %lld duplicate edges, "
              "%lld vertices without edges%s%s; read in %.3f s\n",
              command, edges.spec.path.c_str(), io::format_name(edges.spec.format), static_cast<long long>(st.vertices),
              static_cast<long long>(st.edges), static_cast<long long>(st.self_loops), static_cast<long long>(st.duplicates),
              static_cast<long long>(vertices_without_edges), note.c_str(), st.relabelled ? ", ids relabelled" : "",
              st.read_seconds);
}

nlohmann::json input_json(const io::EdgeInput& edges, int64_t vertices_without_edges) {
  const io::InputStats& st = edges.stats;
  return {{"path", edges.spec.path},
          {"format", io::format_name(edges.spec.format)},
          {"vertices", st.vertices},
          {"edges", st.edges},
          {"self_loops", st.self_loops},
          {"duplicates", st.duplicates},
          {"vertices_without_edges", vertices_without_edges},
          {"weighted", st.weighted},
          {"relabelled", st.relabelled},
          {"directed_as_undirected", edges.spec.directed_as_undirected},
          {"read_time_s", st.read_seconds}};
}

}  // namespace g500::cli
